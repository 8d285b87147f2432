package dev.memplan.model.io;

import static dev.memplan.model.io.FormatErrors.assertFormatError;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/** JSON syntax errors in plain words, located by line and column, without Jackson's own vocabulary. */
class JsonErrorsTest {
    private static final String F = "g.json";

    @Test
    void commonMistakesGetPlainMessages() {
        assertFormatError(() -> GraphJson.read("{\"a\": NaN}", F), F, "line 1, column 10",
                "invalid JSON: 'NaN' is not a JSON number");
        assertFormatError(() -> GraphJson.read("{\"a\": -Infinity}", F), F, "line 1, column 16",
                "'-Infinity' is not a JSON number");
        assertFormatError(() -> GraphJson.read("{\"a\": 1,}", F), F, "line 1, column 9",
                "unexpected '}': expected a field name in double quotes");
        assertFormatError(() -> GraphJson.read("{\n\"a\": [1}", F), F, "line 2, column 8",
                "unexpected '}': an array opened at line 2, column 6 must be closed with ']' first");
        assertFormatError(() -> GraphJson.read("{\"a\": [1,", F), F, "line 1, column 10",
                "the file ends inside an array");
        assertFormatError(() -> GraphJson.read("{\"a\": \"x\ty\"}", F), F, "line 1, column 9",
                "control character U+0009 inside a string must be escaped");
        assertFormatError(() -> GraphJson.read("{\"a\": +1}", F), F, "line 1, column 8",
                "a JSON number cannot start with '+'");
        assertFormatError(() -> GraphJson.read("[1, , 2]", F), F, "line 1, column 5",
                "unexpected ',': expected a value");
        assertFormatError(() -> GraphJson.read("{\u00e9: 1}", F), F, "line 1, column 2",
                "unexpected '\u00e9': expected a field name in double quotes");
        assertFormatError(() -> GraphJson.read("// note\n{}", F), F, "line 1, column 1", "JSON has no comments");
        assertFormatError(() -> GraphJson.read("{\"a\": 1} x", F), F, "line 1, column 11", "unexpected 'x'");
        assertFormatError(() -> GraphJson.read("[".repeat(1100), F), F, "line 1, column 1002",
                "nested more than 1000 levels deep");
    }

    @Test
    void nonUtf8BytesAreNamedAsSuch() {
        byte[] latin1 = {'{', '"', 'a', '"', ':', '"', (byte) 0xE9, '"', '}'};
        assertFormatError(() -> JsonTree.parse(latin1, F), F, "line 1, column 9",
                "not UTF-8 text: a character is cut short before byte 0x22");
        byte[] twice = {'{', '"', 'a', '"', ':', '"', (byte) 0xC3, (byte) 0xC3, '"', '}'};
        assertFormatError(() -> JsonTree.parse(twice, F), F, "line 1, column 9",
                "not UTF-8 text: a character is cut short before byte 0xc3 (save the file as UTF-8)");
        byte[] stray = {'{', '"', 'a', '"', ':', '"', (byte) 0x80, '"', '}'};
        assertFormatError(() -> JsonTree.parse(stray, F), F, "line 1, column 8",
                "not UTF-8 text: byte 0x80 cannot start a character");
    }

    @Test
    void noParserJargonLeaks() {
        List<String> broken = List.of("{", "{\"a\":", "{\"a\": 01}", "{\"a\":1}{}", "{\"a\":1,\"a\":2}", "{\"a\":\"\\q\"}",
                "{a:1}", "{'a':1}", "{\"a\":tru}", "{\"a\": \"abc", "{\"a\":-}", "{\"a\":.5}", "{\"a\":1.}", "\u0000",
                "{\"a\":\"\\u00zz\"}", "{\"a\":0x10}", "]", "[1 2]", "{\"a\" 1}", "{\"a\": [1, 2}");
        for (String text : broken) {
            FormatException e = assertThrows(FormatException.class, () -> GraphJson.read(text, F), text);
            for (String jargon : List.of("Source", "REDACTED", "enable", "Feature", "`", "code 1", "Jackson", "token '")) {
                assertFalse(e.getMessage().contains(jargon), () -> text + " -> " + e.getMessage());
            }
        }
    }

    @Test
    void unknownMessagesLoseTheirJargon() {
        assertEquals("something odd", JsonErrors.plain("Something odd (start marker at [Source: REDACTED "
                + "(`StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION` disabled); line: 1, column: 1])"));
        assertEquals("nope", JsonErrors.plain("Nope: enable `JsonReadFeature.ALLOW_X` to allow"));
    }

    private static void assertEquals(String expected, String actual) {
        org.junit.jupiter.api.Assertions.assertEquals(expected, actual);
    }
}
