package dev.memplan.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** `--help` prints whole sentences: every command in a list ends its sentence, no description is cut. */
class HelpTextTest {

    @Test
    void aSentenceEndsAtAFullStopBeforeACapitalOnly() {
        assertEquals("Finds the plan (COSMA eq. 1-12; eq. 16-17).",
                HelpText.firstSentence("Finds the plan (COSMA eq. 1-12; eq. 16-17). Exit code 1 when none."));
        assertEquals("No full stop at all", HelpText.firstSentence("No full stop at all"));
        assertEquals("e.g. one thing.", HelpText.firstSentence("e.g. one thing."));
        assertEquals("Two fragments joined into one.", HelpText.paragraph(new String[] {"Two fragments", " joined into one."}));
    }

    @Test
    void everyCommandListShowsWholeSentences() {
        for (String[] args : List.of(new String[] {"--help"}, new String[] {"bench", "--help"},
                new String[] {"mmap", "--help"}, new String[] {"plot", "--help"}, new String[] {"sweep", "--help"})) {
            MainTest.Result r = MainTest.run(args);
            assertEquals(0, r.code(), r.err());
            List<String> entries = commandEntries(r.out());
            assertTrue(!entries.isEmpty(), String.join(" ", args) + ":\n" + r.out());
            for (String e : entries) {
                assertTrue(e.endsWith("."), String.join(" ", args) + ": cut mid-sentence: '" + e + "'");
            }
        }
    }

    @Test
    void aCommandsOwnHelpPrintsItsWholeDescriptionAsOneParagraph() {
        MainTest.Result r = MainTest.run("check", "--help");
        assertEquals(0, r.code(), r.err());
        String text = r.out().replaceAll("\\s+", " ");
        assertTrue(text.contains("Checks a plan against every rule of the memory model. Prints VALID and the traffic"),
                r.out());
    }

    /** The text of each entry under "Commands:", its wrapped lines joined. */
    private static List<String> commandEntries(String help) {
        List<String> entries = new ArrayList<>();
        boolean in = false;
        StringBuilder current = null;
        for (String line : help.split("\\R")) {
            if (line.equals("Commands:")) {
                in = true;
                continue;
            }
            if (!in || line.isBlank()) {
                continue;
            }
            if (!line.startsWith(" ")) {
                // The next section's heading (the exit codes follow the commands).
                in = false;
                continue;
            }
            if (line.matches("  \\S.*")) {
                if (current != null) {
                    entries.add(current.toString());
                }
                current = new StringBuilder(line.strip().replaceFirst("^\\S+\\s+", ""));
            } else if (current != null) {
                current.append(' ').append(line.strip());
            }
        }
        if (current != null) {
            entries.add(current.toString());
        }
        return entries;
    }
}
