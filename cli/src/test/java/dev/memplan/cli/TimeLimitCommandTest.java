package dev.memplan.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * --time-limit bounds the whole command: with no time for any program, solve and compare still return (and write)
 * the checked starting plan, say what they skipped, and never claim infeasibility.
 */
class TimeLimitCommandTest {
    @TempDir
    Path dir;

    @Test
    void solveWithNoTimeLeftWritesTheCheckedStartingPlanAndSaysWhatItSkipped() {
        Path plan = dir.resolve("plan.json");
        MainTest.Result r = MainTest.run("solve", "fig1", "--budget", "48", "--time-limit", "0.001", "--out",
                plan.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("status                  FEASIBLE"), r.out());
        assertTrue(r.out().contains("\nnote  "), r.out());
        assertTrue(r.out().contains("skipped"), r.out());
        assertTrue(Files.exists(plan));
        MainTest.Result check = MainTest.run("check", "fig1", plan.toString());
        assertEquals(0, check.code(), check.out());
    }

    @Test
    void compareWithNoTimeLeftStillReportsCheckedPlans() {
        MainTest.Result r = MainTest.run("compare", "fig1", "--budget", "48", "--time-limit", "0.001");
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("every plan checked: VALID"), r.out());
        assertTrue(r.out().contains("note: "), r.out());
    }

    /**
     * The clock runs out before the graph exists (generating and building 200,000 operators takes seconds): one
     * line says so, the exit code is 4 (nothing within the limits), no plan file, no report.
     */
    @Test
    void solveWhoseGraphIsNotBuiltInTimeSaysSoInOneLineAndWritesNothing() {
        Path plan = dir.resolve("plan.json");
        MainTest.Result r = MainTest.run("solve", "gen:layered:200000", "--budget", "M_H", "--time-limit", "0.05",
                "--out", plan.toString());
        assertEquals(Main.NOTHING_WITHIN_LIMITS, r.code(), r.out() + r.err());
        assertEquals("memplan: the time limit ran out while generating the graph: nothing within the limits, no file"
                + " written", r.err().strip());
        assertEquals("", r.out());
        assertTrue(!Files.exists(plan));
    }

    @Test
    void budgetsAndAllocateStopTheSameWay() {
        MainTest.Result b = MainTest.run("budgets", "gen:layered:200000", "--time-limit", "0.05");
        assertEquals(Main.NOTHING_WITHIN_LIMITS, b.code(), b.out() + b.err());
        assertTrue(b.err().strip().startsWith("memplan: the time limit ran out while "), b.err());
        assertEquals(1, b.err().strip().lines().count(), b.err());
        Path placed = dir.resolve("placed.csv");
        MainTest.Result a = MainTest.run("allocate", "gen:heap:1000000", "--minimize", "--time-limit", "0.05",
                "--out", placed.toString());
        assertEquals(Main.NOTHING_WITHIN_LIMITS, a.code(), a.out() + a.err());
        assertEquals("memplan: the time limit ran out while generating the trace: nothing within the limits, no file"
                + " written", a.err().strip());
        assertTrue(!Files.exists(placed));
    }
}
