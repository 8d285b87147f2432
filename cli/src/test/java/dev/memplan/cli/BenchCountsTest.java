package dev.memplan.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 37.5: a bench count out of its bounds is a user mistake (exit 2, one line, no stack trace), before any work;
 * bench limits shows each failed child's first error line and ends with exit 2 when memplan refused a case's
 * arguments.
 */
class BenchCountsTest {
    @TempDir
    Path dir;

    private static void assertRefused(MainTest.Result r, String message) {
        assertEquals(Main.USER_ERROR, r.code(), r.out() + r.err());
        assertTrue(r.err().contains(message), r.err());
        assertFalse(r.err().contains("\tat "), r.err());
    }

    @Test
    void importRefusesNegativeAndHugeRepeatsBeforeReadingTheModel() throws Exception {
        // Any regular file: the repeats are checked before the model is read (a negative count was an exit 3).
        Path model = Files.writeString(dir.resolve("m.onnx"), "not read");
        Path csv = dir.resolve("i.csv");
        assertRefused(MainTest.run("bench", "import", model.toString(), "--repeats", "-1", "--csv", csv.toString()),
                "--repeats must be >= 0, got -1");
        assertRefused(MainTest.run("bench", "import", model.toString(), "--repeats", "1000000000", "--csv",
                csv.toString()), "--repeats must be <= 1000, got 1000000000");
        assertFalse(Files.exists(csv));
    }

    @Test
    void schedulerAndCheckerRefuseHugeRepeatsAndWidths() {
        String csv = dir.resolve("s.csv").toString();
        assertRefused(MainTest.run("bench", "scheduler", "--graphs", "fig1", "--repeats", "1000000000", "--csv", csv),
                "--repeats must be <= 1000, got 1000000000");
        assertRefused(MainTest.run("bench", "scheduler", "--graphs", "fig1", "--widths", "1,2000000000", "--csv", csv),
                "--widths must be beam widths <= 65536, got 2000000000");
        assertRefused(MainTest.run("bench", "checker", "--sizes", "10", "--repeats", "1000000000", "--csv", csv),
                "--repeats must be <= 1000");
        assertRefused(MainTest.run("bench", "dnc", "--graphs", "fig1", "--large-beam", "1000000000", "--csv", csv),
                "--large-beam must be <= 65536");
        assertRefused(MainTest.run("bench", "allocators", "--random", "1000000000", "--csv", csv),
                "--random must be a number of random sets <= 1000");
        assertRefused(MainTest.run("bench", "mmap", "--networks", "none", "--simulations", "2000000000", "--csv", csv),
                "--simulations must be >= 1 and <= 1000000");
        assertRefused(MainTest.run("bench", "mmap", "--networks", "none", "--random", "100,2000000", "--csv", csv),
                "--random must be buffer counts from 1 to 1000000 (or 'none'), got '2000000'");
        assertFalse(Files.exists(Path.of(csv)));
    }

    @Test
    void limitsRefusesAnUnknownGraphBeforeStartingAnyChild() {
        MainTest.Result r = MainTest.run("bench", "limits", "--graphs", "fig1,nosuchgraph", "--limits", "5", "--csv",
                dir.resolve("l.csv").toString());
        assertRefused(r, "nosuchgraph");
        assertFalse(r.err().contains("--time-limit 5 ..."), "no case ran: " + r.err());
    }

    @Test
    void limitsShowsEachChildsErrorLineAndEndsWithExit2WhenACaseWasRefused() throws Exception {
        Path csv = dir.resolve("l.csv");
        MainTest.Result r = MainTest.run("bench", "limits", "--graphs", "fig1", "--limits", "30", "--budget", "1",
                "--java-opts", "-Xmx256m", "--csv", csv.toString());
        assertEquals(Main.USER_ERROR, r.code(), r.out() + r.err());
        List<String> lines = Files.readAllLines(csv);
        assertEquals(2, lines.size(), lines.toString());
        assertTrue(lines.get(0).endsWith(",notes,error"), lines.get(0));
        // The child's own line, without memplan's prefix: exit 2 and why.
        assertTrue(lines.get(1).matches("fig1,-,30,.*,2,-,-,-,0,\"?error: .*budget.*"), lines.get(1));
        assertTrue(r.out().contains("error: "), r.out());
        assertTrue(r.err().contains("a case's arguments were refused (exit 2): fig1: error: "), r.err());
    }
}
