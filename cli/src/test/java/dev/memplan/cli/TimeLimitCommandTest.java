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
}
