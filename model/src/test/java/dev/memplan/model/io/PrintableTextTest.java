package dev.memplan.model.io;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Names from files made safe to print: control characters escaped, over-long words cut in the middle (the first
 * LONGEST / 2 - 10 characters kept, and the last 20). */
class PrintableTextTest {

    @Test
    void controlAndFormattingCharactersBecomeEscapes() {
        assertEquals("op\\u001b[2J\\nnext\\ttab \\u202e", PrintableText.clean("op\u001b[2J\nnext\ttab \u202e"));
        assertEquals("", PrintableText.clean(null));
        assertEquals("a plain line", PrintableText.clean("a plain line"));
    }

    @Test
    void aWordOverTheLimitIsCutSayingHowLongItWas() {
        String word = "a".repeat(80) + "b".repeat(PrintableText.LONGEST) + "c".repeat(20);
        String shown = PrintableText.clean("x " + word + " y");
        assertEquals("x " + "a".repeat(80) + "b".repeat(10) + "...(" + word.length() + " characters)..." + "c".repeat(20) + " y", shown);
        String limit = "d".repeat(PrintableText.LONGEST);
        assertEquals(limit, PrintableText.clean(limit));
    }
}
