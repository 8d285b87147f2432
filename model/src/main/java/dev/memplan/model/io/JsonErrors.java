package dev.memplan.model.io;

import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Jackson's syntax-error messages in plain words. Jackson names its own switches ("enable
 * `JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS` to allow"), Java types and redacted sources ("[Source: REDACTED
 * ...]"), which mean nothing to someone who wrote a graph file by hand; the place (line, column) is reported
 * separately by {@link FormatException#where()}. Messages no rule knows are kept, minus that jargon.
 */
public final class JsonErrors {
    /**
     * A character as Jackson quotes it: {@code ('}' (code 125))}, {@code ('é' (code 233 / 0xe9))} or
     * {@code ((CTRL-CHAR, code 10))}.
     */
    private static final String CHAR = "\\((?:'(.+?)' \\(code |\\(CTRL-CHAR, code )(\\d+)(?: / 0x[0-9a-fA-F]+)?\\)\\)";
    /** Where Jackson saw a bracket open: {@code [Source: ...; line: 1, column: 6]}. */
    private static final Pattern OPENED = Pattern.compile("line: (\\d+)(?:, column: (\\d+))?");

    private record Rule(Pattern pattern, java.util.function.Function<Matcher, String> plain) {
        Rule(String regex, java.util.function.Function<Matcher, String> plain) {
            this(Pattern.compile(regex, Pattern.DOTALL), plain);
        }
    }

    private static final List<Rule> RULES = List.of(
            new Rule("Unexpected end-of-input: expected close marker for (Object|Array) (.*)",
                    m -> "the file ends inside " + container(m.group(1)) + opened(m.group(2)) + ", which is not closed"),
            new Rule("Unexpected end-of-input.*closing quote.*", m -> "the file ends inside a string"),
            new Rule("Unexpected end-of-input.*(Object|Array).*",
                    m -> "the file ends inside " + container(m.group(1))),
            new Rule("Unexpected end-of-input.*", m -> "the file ends in the middle of a value"),
            new Rule("Non-standard token '(.*)'.*", m -> "'" + m.group(1) + "' is not a JSON number (JSON has no NaN "
                    + "or Infinity; write a number)"),
            new Rule("Invalid numeric value: Leading zeroes not allowed.*",
                    m -> "invalid number: leading zeroes are not allowed"),
            new Rule("Trailing token.*", m -> "more content after the end of the JSON document"),
            new Rule("Unrecognized token '(.*)': was expecting.*",
                    m -> "unexpected " + quote(m.group(1)) + ": expected a value (a string in double quotes, a number, "
                            + "an array, an object, true, false or null)"),
            new Rule("Duplicate field '(.*)'", m -> "field " + quote(m.group(1)) + " appears twice in one object"),
            new Rule("Illegal unquoted character " + CHAR + ".*",
                    m -> "control character " + character(m) + " inside a string must be escaped (e.g. \\n, \\t, \\u0000)"),
            new Rule("Illegal character " + CHAR + ".*",
                    m -> "unexpected control character " + character(m) + " between values"),
            new Rule("Unrecognized character escape '(.*)' \\(code \\d+\\)",
                    m -> "unknown escape " + quote("\\" + m.group(1)) + " in a string; JSON knows \\\" \\\\ \\/ \\b \\f \\n "
                            + "\\r \\t \\uXXXX"),
            new Rule("Unexpected character " + CHAR + ": expected a hex-digit.*",
                    m -> "unexpected " + character(m) + " in a \\uXXXX escape: expected a hex digit"),
            new Rule("Unexpected character " + CHAR + ": maybe a \\(non-standard\\) comment.*",
                    m -> "unexpected " + character(m) + ": JSON has no comments"),
            new Rule("Unexpected character " + CHAR + ": was expecting double-quote to start field name",
                    m -> "unexpected " + character(m) + ": expected a field name in double quotes"),
            new Rule("Unexpected character " + CHAR + ": was expecting comma to separate (Object|Array) entries",
                    m -> "unexpected " + character(m) + ": expected ',' or " + ("Object".equals(m.group(3)) ? "'}'" : "']'")),
            new Rule("Unexpected character " + CHAR + ": was expecting a colon.*",
                    m -> "unexpected " + character(m) + ": expected ':' after the field name"),
            new Rule("Unexpected character " + CHAR + ".*plus sign.*",
                    m -> "invalid number: a JSON number cannot start with '+'"),
            new Rule("Unexpected character " + CHAR + " in numeric value: (.*?)(?:, for valid numeric value)?",
                    m -> "invalid number: unexpected " + character(m) + ", " + lowerFirst(m.group(3))),
            new Rule("Unexpected character " + CHAR + ": expected a (?:valid )?value.*",
                    m -> "unexpected " + character(m) + ": expected a value (a string in double quotes, a number, "
                            + "an array, an object, true, false or null)"),
            new Rule("Unexpected close marker '(.)': expected '(.)' \\(for (Object|Array|root) starting at (.*)",
                    m -> "unexpected " + quote(m.group(1)) + ("root".equals(m.group(3)) ? ": nothing is open to close"
                            : ": " + container(m.group(3)) + opened(m.group(4)) + " must be closed with "
                                    + quote(m.group(2)) + " first")),
            new Rule("Invalid UTF-8 start byte (0x[0-9a-fA-F]+).*",
                    m -> "not UTF-8 text: byte " + hexByte(m.group(1)) + " cannot start a character (save the file as UTF-8)"),
            new Rule("Invalid UTF-8 middle byte (0x[0-9a-fA-F]+).*",
                    m -> "not UTF-8 text: a character is cut short before byte " + hexByte(m.group(1))
                            + " (save the file as UTF-8)"),
            new Rule("Document nesting depth \\((\\d+)\\) exceeds the maximum allowed \\((\\d+).*",
                    m -> "arrays and objects nested more than " + m.group(2) + " levels deep"),
            new Rule("(Number|String) (?:value )?length \\((\\d+)\\) exceeds the maximum allowed \\((\\d+).*",
                    m -> m.group(1).toLowerCase(Locale.ROOT) + " of " + m.group(2) + " characters, longer than the "
                            + m.group(3) + " allowed"));

    private JsonErrors() {
    }

    /** The plain message for Jackson's original message (without its location suffix). */
    public static String plain(String original) {
        if (original == null || original.isBlank()) {
            return "invalid JSON";
        }
        for (Rule rule : RULES) {
            Matcher m = rule.pattern.matcher(original);
            if (m.matches()) {
                return rule.plain.apply(m);
            }
        }
        return lowerFirst(scrub(original));
    }

    /** Jackson's own vocabulary removed: source locations, feature switches, Java type names. */
    static String scrub(String message) {
        String s = message.replaceAll("\\s*\\(?(?:start marker )?at \\[Source:[^\\]]*]\\)?", "")
                .replaceAll("\\[Source:[^\\]]*]", "")
                .replaceAll(":?\\s*(?:enable|disable) `[^`]*`[^:;,.)]*", "")
                .replaceAll("\\s*\\((?:bound as|through reference chain)[^)]*\\)", "")
                .replaceAll("\\s*(?:as per|from|in) `[^`]*`", "")
                .replaceAll("`[^`]*`", "")
                .replaceAll("\\s+", " ").strip();
        return s.isEmpty() ? "invalid JSON" : s;
    }

    /** Jackson prints a byte as a sign-extended int ({@code 0xffffffc3}); the byte is {@code 0xc3}. */
    private static String hexByte(String hex) {
        return String.format(Locale.ROOT, "0x%02x", Long.parseLong(hex.substring(2), 16) & 0xFF);
    }

    private static String container(String jacksonName) {
        return "Object".equals(jacksonName) ? "an object" : "an array";
    }

    private static String opened(String location) {
        Matcher m = OPENED.matcher(location);
        if (!m.find()) {
            return "";
        }
        return " opened at line " + m.group(1) + (m.group(2) == null ? "" : ", column " + m.group(2));
    }

    private static String character(Matcher m) {
        int code = Integer.parseInt(m.group(2));
        if (code < 0x20 || code == 0x7f) {
            return String.format(Locale.ROOT, "U+%04X", code);
        }
        return quote(m.group(1) == null ? String.valueOf((char) code) : m.group(1));
    }

    /** A piece of the input in quotes, with control characters escaped and cut to 40 characters. */
    private static String quote(String text) {
        String shown = text.length() > 40 ? text.substring(0, 37) + "..." : text;
        StringBuilder sb = new StringBuilder("'");
        shown.codePoints().forEach(c -> {
            if (Character.isISOControl(c)) {
                sb.append(String.format(Locale.ROOT, "\\u%04x", c));
            } else {
                sb.appendCodePoint(c);
            }
        });
        return sb.append('\'').toString();
    }

    /** "Decimal point..." becomes "decimal point..."; an acronym such as "JSON" stays. */
    private static String lowerFirst(String s) {
        if (s.length() < 2 || Character.isUpperCase(s.charAt(1))) {
            return s;
        }
        return Character.toLowerCase(s.charAt(0)) + s.substring(1);
    }
}
