package dev.memplan.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.model.Budget;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 37.1: a work-limited result whose counted work the wall clock cut says so, in the status line and the
 * work row of solve, allocate and mmap (compare: its work line), and in a sweep row's {@code reproducible} column; one flag of the
 * run's budget decides all of them ({@link Budget#wallStopped()}).
 */
class WallCutTest {
    @TempDir
    Path dir;

    private static final String CUT = "(" + Budget.WALL_CUT + ")";

    private static String row(String out, String label) {
        return out.lines().filter(l -> l.startsWith(label + " ")).findFirst().orElseThrow(() -> new AssertionError(out));
    }

    /** The steps it skipped for want of time (its notes say "no time left") make the status and work row say so. */
    @Test
    void aSolveWhoseStepsTheClockSkippedSaysSo() {
        MainTest.Result r = MainTest.run("solve", "fig1", "--budget", "M_H", "--work-limit", "1", "--time-limit",
                "0.001");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("skipped: no time left within the limit"), r.out());
        assertTrue(row(r.out(), "status").contains(Budget.WALL_CUT), r.out());
        assertTrue(row(r.out(), "work").endsWith(CUT), r.out());
        assertFalse(r.out().contains("cut nothing short"), r.out());

        MainTest.Result whole = MainTest.run("solve", "fig1", "--budget", "M_H", "--work-limit", "1");
        assertEquals("status                  OPTIMAL", row(whole.out(), "status"), whole.out());
        assertTrue(row(whole.out(), "work").endsWith("(counted work; the wall clock cut nothing short)"), whole.out());
    }

    /**
     * Under --time-limit the report says how much of it the command used since it started, which is what the limit
     * bounds: at least the planning's own "time", at most the limit; without a limit there is no such row.
     */
    @Test
    void aTimeLimitedSolveSaysHowMuchOfTheLimitTheCommandUsed() {
        MainTest.Result r = MainTest.run("solve", "fig1", "--budget", "M_H", "--time-limit", "30");
        assertEquals(0, r.code(), r.err());
        String wall = row(r.out(), "wall clock");
        assertTrue(wall.endsWith(" of 30 s since the command started (the JVM's start-up, the graph and the budget "
                + "included)"), wall);
        double used = Double.parseDouble(wall.split("\\s+")[2]);
        double planning = Double.parseDouble(row(r.out(), "time").split("\\s+")[1]);
        assertTrue(used >= planning && used <= 30, r.out());
        assertFalse(MainTest.run("solve", "fig1", "--budget", "M_H").out().contains("wall clock"));
    }

    /**
     * A limit passed is said in the row (gen:layered:5000:train at 5 s and a load of 7 ended at 6.20 s, and the row
     * read "6.20 of 5 s" with nothing else).
     */
    @Test
    void aPassedLimitIsSaidWithByHowMuch() {
        assertEquals("4.95 of 5 s since the command started (the JVM's start-up, the graph and the budget included)",
                SolverOptions.wallClock(4.95, 5));
        assertEquals("6.20 of 5 s since the command started (the JVM's start-up, the graph and the budget included);"
                + " 1.20 s past the limit: the steps no answer can skip (the first plan and its check) ran after it"
                + " was spent", SolverOptions.wallClock(6.2, 5));
    }

    /** Divide and conquer stopped by the clock before its first part: bound 0, and now the label to go with it. */
    @Test
    void divideAndConquerCutByTheClockSaysSo() {
        MainTest.Result r = MainTest.run("solve", "pnasnet", "--budget", "M_H", "--work-limit", "5", "--time-limit",
                "1");
        assertEquals(0, r.code(), r.err());
        assertTrue(row(r.out(), "status").endsWith(CUT), r.out());
        assertTrue(row(r.out(), "work").endsWith(CUT), r.out());
    }

    @Test
    void compareCutByTheClockSaysSo() {
        MainTest.Result r = MainTest.run("compare", "fig1", "--budget", "M_H", "--work-limit", "1", "--time-limit",
                "0.001");
        assertEquals(0, r.code(), r.err());
        assertTrue(row(r.out(), "work:").endsWith(CUT), r.out());
        MainTest.Result whole = MainTest.run("compare", "fig1", "--budget", "M_H", "--work-limit", "1");
        assertTrue(row(whole.out(), "work:").endsWith("(counted work; the wall clock cut nothing short)"), whole.out());
    }

    @Test
    void allocateAndMmapCutByTheClockSaySo() {
        // Long enough to generate the trace (a limit that ends before any result exits 4 with no result to label),
        // too short for the heuristics' counted work: a packing found (0) or none (4), either way labelled.
        MainTest.Result a = MainTest.run("allocate", "gen:trace:2000", "--minimize", "--work-limit", "5",
                "--time-limit", "0.3");
        assertTrue(a.code() == 0 || a.code() == ExitCode.NOT_FOUND.code(), a.out() + a.err());
        String result = a.out().lines().filter(l -> l.startsWith("best height") || l.startsWith("gave up"))
                .findFirst().orElseThrow(() -> new AssertionError(a.out() + a.err()));
        assertTrue(result.endsWith(CUT), a.out());
        assertTrue(row(a.out(), "work:").endsWith(CUT), a.out());
        MainTest.Result m = MainTest.run("mmap", "solve", "resnet50", "--planner", "mcts", "--work-limit", "0.3",
                "--time-limit", "0.001");
        assertEquals(0, m.code(), m.err());
        assertTrue(row(m.out(), "status").endsWith(CUT), m.out());
        assertTrue(row(m.out(), "work").endsWith(CUT), m.out());
    }

    /** A sweep row the clock cut is not reproducible (it was stored as reproducible before). */
    @Test
    void aSweepRowTheClockCutIsNotReproducible() throws Exception {
        Path spec = dir.resolve("cut.yaml");
        Files.writeString(spec, "graphs: [fig1]\nbudgets: [M_H]\nplanners: [cosma]\nwork_limits: [1]\n"
                + "time_limits: [0.001, none]\n");
        Path db = dir.resolve("cut.duckdb");
        MainTest.Result run = MainTest.run("sweep", spec.toString(), "--db", db.toString());
        assertEquals(0, run.code(), run.err());
        Path csv = dir.resolve("cut.csv");
        assertEquals(0, MainTest.run("sweep", "export", db.toString(), "--csv", csv.toString()).code());
        List<String> lines = Files.readAllLines(csv);
        List<String> header = List.of(lines.get(0).split(","));
        assertEquals(3, lines.size(), lines.toString());
        for (String line : lines.subList(1, lines.size())) {
            String[] v = line.split(",(?=(?:[^\"]*\"[^\"]*\")*[^\"]*$)", -1);
            String limit = v[header.indexOf("time_limit")];
            assertEquals(limit.isEmpty() ? "true" : "false", v[header.indexOf("reproducible")], lines.toString());
        }
    }
}
