package dev.memplan.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.model.Plan;
import dev.memplan.model.io.GraphJson;
import dev.memplan.model.io.PlanJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12, items 7-9: outputs that would replace an input, standard output as {@code -}, symbolic links,
 * file errors that say why, values that used to be accepted silently, and names that could break a message.
 */
@Timeout(120)
class FilesAndMessagesTest {
    private static final String CSV = AllocateCommandTest.EXAMPLE;

    @TempDir
    Path dir;

    private Path fig1() throws IOException {
        Path g = dir.resolve("fig1.json");
        Files.writeString(g, GraphJson.toJson(dev.memplan.datasets.Examples.graph("fig1")));
        return g;
    }

    private static void assertUserError(MainTest.Result r, String message) {
        assertEquals(ExitCode.USER_ERROR.code(), r.code(), r.out() + r.err());
        assertEquals("memplan: error: " + message, r.err().strip());
    }

    @Test
    void anOutputThatIsAnInputIsRefusedAndTheInputKept() throws IOException {
        Path g = fig1();
        String before = Files.readString(g);
        assertUserError(MainTest.run("solve", g.toString(), "--budget", "48", "--out", g.toString()),
                "--out " + g + " is the input file " + g + "; writing would replace it: name another file");
        Path link = Files.createSymbolicLink(dir.resolve("link.json"), g.getFileName());
        assertUserError(MainTest.run("convert", g.toString(), link.toString()),
                "OUT " + link + " is the input file " + g + "; writing would replace it: name another file");
        Path csv = dir.resolve("b.12.csv");
        Files.writeString(csv, CSV);
        assertEquals(ExitCode.USER_ERROR.code(), MainTest.run("allocate", csv.toString(), "--out", csv.toString()).code());
        assertEquals(ExitCode.USER_ERROR.code(), MainTest.run("compare", g.toString(), "--budget", "48", "--no-cosma",
                "--csv", g.toString()).code());
        assertEquals(before, Files.readString(g));
        assertEquals(CSV, Files.readString(csv));
    }

    @Test
    void dashWritesToStandardOutputAndTheReportToStandardError() throws IOException {
        MainTest.Result r = MainTest.run("solve", "fig1", "--budget", "48", "--out", "-");
        assertEquals(0, r.code(), r.err());
        Plan p = PlanJson.read(r.out(), "<stdout>");
        assertEquals("fig1", p.graph());
        assertTrue(r.err().contains("plan checked: VALID"), r.err());
        MainTest.Result c = MainTest.run("convert", "fig1", "-");
        assertEquals("fig1", GraphJson.read(c.out(), "<stdout>").name());
        Path csv = dir.resolve("b.12.csv");
        Files.writeString(csv, CSV);
        MainTest.Result a = MainTest.run("allocate", csv.toString(), "--out", "-");
        assertTrue(a.out().startsWith("id,lower,upper,size,offset\n"), a.out());
        assertTrue(a.err().contains("solved: height 12"), a.err());
        MainTest.Result t = MainTest.run("compare", "fig1", "--budget", "48", "--no-cosma", "--csv", "-");
        assertTrue(t.out().startsWith("planner,status,non-compulsory,"), t.out());
        assertTrue(t.err().contains("every plan checked: VALID"), t.err());
        assertUserError(MainTest.run("bench", "checker", "--sizes", "10", "--csv", "-"),
                "--csv -: standard output is not supported here; name a file");
    }

    @Test
    void writingThroughALinkWritesItsTarget() throws IOException {
        Path target = dir.resolve("plan.json");
        Files.writeString(target, "old");
        Path link = Files.createSymbolicLink(dir.resolve("plan-link.json"), target.getFileName());
        MainTest.Result r = MainTest.run("solve", "fig1", "--budget", "48", "--out", link.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(Files.isSymbolicLink(link));
        assertEquals("fig1", PlanJson.read(target).graph());
    }

    @Test
    void inputsThatAreNotFilesSayWhatTheyAre() {
        assertUserError(MainTest.run("budgets", dir.toString()), dir + " is a folder, not a graph file");
        assertUserError(MainTest.run("budgets", "/dev/null"),
                "/dev/null: line 1, column 1: empty file, expected a JSON object");
        assertUserError(MainTest.run("check", "fig1", dir.toString()),
                "cannot read " + dir + ": it is a folder, not a file");
        assertUserError(MainTest.run("budgets", ""),
                "GRAPH is empty: name a graph file, an example, a zoo network or a generated graph");
    }

    @Test
    void outputsIntoAMissingFolderFailBeforeAnyWork() throws IOException {
        Path missing = dir.resolve("no-such-folder/out.csv");
        String why = ": cannot write: folder " + missing.getParent() + " does not exist";
        MainTest.Result compare = MainTest.run("compare", "fig1", "--budget", "48", "--csv", missing.toString());
        assertUserError(compare, "--csv " + missing + why);
        assertFalse(compare.out().contains("graph fig1"), "nothing ran: " + compare.out());
        assertUserError(MainTest.run("solve", "fig1", "--budget", "48", "--out", missing.toString()),
                "--out " + missing + why);
        for (String bench : List.of("compare", "cosma", "allocators", "formulations", "checker", "dnc", "limits")) {
            assertUserError(MainTest.run("bench", bench, "--csv", missing.toString()), "--csv " + missing + why);
        }
        Path file = Files.writeString(dir.resolve("a-file"), "");
        MainTest.Result plans = MainTest.run("bench", "cosma", "--plans", file.resolve("sub").toString());
        assertEquals(ExitCode.USER_ERROR.code(), plans.code(), plans.err());
        assertTrue(plans.err().startsWith("memplan: error: --plans " + file.resolve("sub") + ": cannot create the folder: "),
                plans.err());
        assertUserError(MainTest.run("zoo", "export", "resnet50", file.toString()), "DIR " + file + " is a file, not a folder");
        assertUserError(MainTest.run("solve", "fig1", "--budget", "48", "--out", dir.toString()),
                "--out " + dir + ": cannot write: it is a folder");
    }

    @Test
    void timeLimitsMustBePositiveFiniteNumbers() throws IOException {
        Path csv = dir.resolve("b.12.csv");
        Files.writeString(csv, CSV);
        for (String bad : List.of("NaN", "Infinity", "-Infinity", "-1", "0")) {
            String message = "--time-limit must be a positive number of seconds, got " + Double.parseDouble(bad);
            assertUserError(MainTest.run("solve", "fig1", "--budget", "48", "--time-limit", bad), message);
            assertUserError(MainTest.run("budgets", "fig1", "--time-limit", bad), message);
            assertUserError(MainTest.run("compare", "fig1", "--budget", "48", "--time-limit", bad), message);
            assertUserError(MainTest.run("allocate", csv.toString(), "--time-limit", bad), message);
            assertUserError(MainTest.run("bench", "formulations", "--time-limit", bad), message);
            assertUserError(MainTest.run("bench", "allocators", "--time-limit", bad), message);
            assertUserError(MainTest.run("bench", "compare", "--time-limit", bad), message);
            assertUserError(MainTest.run("bench", "cosma", "--time-limit", bad), message);
        }
        assertUserError(MainTest.run("bench", "allocators", "--random", "-1"),
                "--random must be a number of random sets >= 0, got -1");
    }

    @Test
    void controlCharactersAndHugeNamesAreEscapedInMessages() throws IOException {
        Path g = dir.resolve("evil.json");
        String huge = "t".repeat(100_000);
        Files.writeString(g, "{\"format\": \"memplan-graph/1\", \"name\": \"g\", \"tensors\": [], \"operators\": "
                + "[{\"name\": \"f\\u001b[2J\\nop\", \"inputs\": [\"" + huge + "\"], \"outputs\": [\"y\"]}], \"outputs\": []}");
        MainTest.Result r = MainTest.run("budgets", g.toString());
        assertEquals(ExitCode.USER_ERROR.code(), r.code(), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertFalse(r.err().contains("\u001b"), r.err());
        assertTrue(r.err().contains("operator 'f\\u001b[2J\\nop' refers to unknown tensor 'ttt"), r.err());
        assertTrue(r.err().contains("...(100002 characters)..."), r.err());
        assertTrue(r.err().length() < 1000, "a long name is shortened: " + r.err().length());
    }
}
