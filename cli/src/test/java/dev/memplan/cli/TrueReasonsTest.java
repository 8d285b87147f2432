package dev.memplan.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 37.7: each message that gave a wrong or missing reason, with the command that showed it, now says what is
 * true; each assertion names the old message that it would have failed on.
 */
class TrueReasonsTest {
    @TempDir
    Path dir;

    /** One line, exit 2, the whole message as given. */
    private static void assertError(MainTest.Result r, String message) {
        assertEquals(ExitCode.USER_ERROR.code(), r.code(), r.out() + r.err());
        assertEquals("memplan: error: " + message, r.err().strip());
    }

    private static final String TOO_BIG = ", above 2^53 = 9007199254740992, the largest byte count memplan supports";

    /** Was "--out : cannot write: it is a folder" (Path.of("") is the working folder). */
    @Test
    void anEmptyOutIsEmptyNotAFolder() {
        assertError(MainTest.run("solve", "fig1", "--budget", "M_H", "--out", ""), "--out is empty: name a file");
    }

    /** Was: written into the current folder. */
    @Test
    void anEmptyZooFolderIsRefused() {
        assertError(MainTest.run("zoo", "export", "resnet50", ""), "DIR is empty: name a folder ('.' for this one)");
    }

    /** Was "DIR /proc/zoo: cannot create the folder: no such file or folder" (/proc exists). */
    @Test
    void aFolderTheFileSystemRefusesNamesTheFolderThatExists() {
        Assumptions.assumeTrue(Files.isDirectory(Path.of("/proc")), "a Linux /proc");
        assertError(MainTest.run("zoo", "export", "resnet50", "/proc/memplan-zoo"),
                "DIR /proc/memplan-zoo: cannot create the folder: /proc exists, but its file system refuses new"
                        + " folders in it");
    }

    /** Was "no capacity; give --capacity or name the file X.<capacity>.csv" (it is named so; too large). */
    @Test
    void aCapacityInTheNameTooLargeIsTooLarge() throws IOException {
        Path f = Files.writeString(dir.resolve("X.99999999999999999999.csv"), "id,lower,upper,size\na,0,3,4\n");
        assertError(MainTest.run("allocate", f.toString()), f + ": file name: the capacity is 99999999999999999999"
                + TOO_BIG);
    }

    /** Was "--capacity must be positive, got 0" (no --capacity was given). */
    @Test
    void aZeroCapacityInTheNameBlamesTheName() throws IOException {
        Path f = Files.writeString(dir.resolve("X.0.csv"), "id,lower,upper,size\na,0,3,4\n");
        assertError(MainTest.run("allocate", f.toString()), f + ": the capacity in the file name (X.<capacity>.csv)"
                + " must be positive, got 0; give --capacity or rename the file");
    }

    private MainTest.Result dryRun(String spec) throws IOException {
        Path f = Files.writeString(dir.resolve("s.yaml"), spec);
        return MainTest.run("sweep", f.toString(), "--dry-run", "--db", dir.resolve("s.duckdb").toString());
    }

    /** Was "... is not M_R, M_H, M_P, a fraction ... or a number of bytes" (it is one; too large). */
    @Test
    void aSpecBudgetAbove2To53IsTooLarge() throws IOException {
        for (String b : new String[] {"9007199254740993", "99999999999999999999"}) {
            MainTest.Result r = dryRun("graphs: [fig1]\nbudgets: [" + b + "]\nplanners: [paper]\n");
            assertTrue(r.err().strip().endsWith("s.yaml:2:11: the budget is " + b + TOO_BIG), r.err());
            assertEquals(ExitCode.USER_ERROR.code(), r.code());
        }
    }

    /** Was "'repeats' must be a positive whole number, got '1000000000'" (it is one). */
    @Test
    void tooManyRepeatsSaysTheMost() throws IOException {
        MainTest.Result r = dryRun("graphs: [fig1]\nplanners: [paper]\nrepeats: 1000000000\n");
        assertTrue(r.err().strip().endsWith("s.yaml:3:10: 'repeats' must be a whole number from 1 to 999999, got"
                + " '1000000000'"), r.err());
    }

    /** Was "cannot read spec ...: Input length = 1". */
    @Test
    void aBinarySpecIsNotText() throws IOException {
        Path f = dir.resolve("b.yaml");
        Files.write(f, new byte[] {'g', 'r', (byte) 0xC3, (byte) 0x28, (byte) 0xFF, 0, 1});
        assertError(MainTest.run("sweep", f.toString(), "--dry-run"), "cannot read spec " + f
                + ": not UTF-8 text (a binary file?)");
    }

    /** Was no hint: YAML reads 1e300 as text. */
    @Test
    void aLimitWithAnExponentGetsAHint() throws IOException {
        MainTest.Result r = dryRun("graphs: [fig1]\nplanners: [cosma]\ntime_limits: [1e300]\n");
        assertTrue(r.err().strip().endsWith("s.yaml:3:15: a time limit is a positive number of seconds or 'none',"
                + " got '1e300' (written with an exponent: write the number as plain digits, such as 3600 or 0.5)"),
                r.err());
    }

    /** Was "no such file: DIR". */
    @Test
    void plotOfAFolderSaysItIsAFolder() throws IOException {
        Path d = Files.createDirectory(dir.resolve("results"));
        assertError(MainTest.run("plot", "traffic", d.toString()), d + " is a folder: name a file");
    }

    /** Was blamed on "$.buffers[0].live" (the buffer is right; the supply ends too soon). */
    @Test
    void aSupplyTooShortIsBlamedOnTheSupply() throws IOException {
        Path f = Files.writeString(dir.resolve("m.json"), """
                {"format": "memplan-mmap/1", "name": "t", "capacity": 10000, "supply": [812],
                 "buffers": [{"tensor": 0, "kind": "input", "time": 0, "live": [0, 1], "size": 4096, "demand": 256,
                              "benefit": 192}]}
                """);
        assertError(MainTest.run("mmap", "solve", f.toString(), "--planner", "greedy"), f + ": $.supply: supply has"
                + " 1 value (instructions 0..0), but buffers[0] (time 0, live [0, 1]) reaches instruction 1: give one"
                + " supply value per instruction, or correct that buffer's times");
    }

    /** Was: every scheme ran first, then the missing file was reported. */
    @Test
    void compareReadsTheDecomposeFileBeforeTheSchemes() {
        MainTest.Result r = MainTest.run("compare", "fig1", "--budget", "M_H", "--decompose",
                dir.resolve("foo").toString());
        assertEquals(ExitCode.USER_ERROR.code(), r.code(), r.err());
        assertTrue(r.err().contains("cannot read the break-node file: no such file or folder"), r.err());
        assertFalse(r.err().contains("running "), "no scheme ran: " + r.err());
    }

    /** Was "valid: reward 2" and nothing about the recorded 999999. */
    @Test
    void mmapCheckNotesARecordedRewardTheDecisionsDoNotEarn() throws IOException {
        Path in = dir.resolve("i.json");
        assertEquals(0, MainTest.run("mmap", "export", "gen:mmap:30:4", "--out", in.toString()).code());
        Path m = dir.resolve("m.json");
        assertEquals(0, MainTest.run("mmap", "solve", in.toString(), "--planner", "greedy", "--out", m.toString())
                .code());
        MainTest.Result honest = MainTest.run("mmap", "check", in.toString(), m.toString());
        assertEquals(0, honest.code(), honest.err());
        assertFalse(honest.out().contains("note:"), honest.out());
        String reward = honest.out().replaceAll("(?s)^valid: reward (\\d+) .*", "$1");
        Files.writeString(m, Files.readString(m).replaceFirst("\"reward\" ?: ?\\d+", "\"reward\": 999999"));
        MainTest.Result lie = MainTest.run("mmap", "check", in.toString(), m.toString());
        assertEquals(0, lie.code(), lie.err());
        assertTrue(lie.out().contains("note: " + m + " records reward 999999, but its decisions earn " + reward
                + " (the recorded value is informative and wrong)"), lie.out());
    }
}
