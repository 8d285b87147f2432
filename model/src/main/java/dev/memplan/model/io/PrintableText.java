package dev.memplan.model.io;

import java.util.Locale;

/**
 * Text from files and arguments made safe to print: a name may hold a newline, an escape sequence that
 * repaints the terminal, or a megabyte of characters. Control characters become escapes ({@code \n},
 * {@code \u001b}) so a message stays one line, and a word longer than {@link #LONGEST} characters is cut in the
 * middle, saying how long it was.
 */
public final class PrintableText {
    /** Longer words (names, paths) are shortened; real paths and names stay well below this. */
    public static final int LONGEST = 200;

    private PrintableText() {
    }

    /** The message with control characters escaped and over-long words shortened. */
    public static String clean(String message) {
        if (message == null) {
            return "";
        }
        StringBuilder out = new StringBuilder(Math.min(message.length(), 4 * LONGEST));
        StringBuilder word = new StringBuilder();
        for (int i = 0; i < message.length(); ) {
            int c = message.codePointAt(i);
            i += Character.charCount(c);
            if (c == ' ') {
                out.append(shorten(word)).append(' ');
                word.setLength(0);
            } else {
                escape(c, word);
            }
        }
        return out.append(shorten(word)).toString();
    }

    /**
     * Control and invisible formatting characters (bidirectional overrides) and lone surrogates (a JSON
     * {@code \ud800} escape, which no terminal can print) as escapes; others as they are.
     */
    private static void escape(int c, StringBuilder sb) {
        switch (c) {
            case '\n' -> sb.append("\\n");
            case '\r' -> sb.append("\\r");
            case '\t' -> sb.append("\\t");
            default -> {
                int type = Character.getType(c);
                if (Character.isISOControl(c) || type == Character.FORMAT || type == Character.LINE_SEPARATOR
                        || type == Character.PARAGRAPH_SEPARATOR || type == Character.SURROGATE) {
                    sb.append(String.format(Locale.ROOT, "\\u%04x", c));
                } else {
                    sb.appendCodePoint(c);
                }
            }
        }
    }

    private static String shorten(CharSequence word) {
        if (word.length() <= LONGEST) {
            return word.toString();
        }
        int keep = LONGEST / 2 - 10;
        return word.subSequence(0, keep) + "...(" + word.length() + " characters)..."
                + word.subSequence(word.length() - 20, word.length());
    }
}
