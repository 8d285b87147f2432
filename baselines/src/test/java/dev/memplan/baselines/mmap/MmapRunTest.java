package dev.memplan.baselines.mmap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.model.Budget;
import dev.memplan.model.Limits;
import org.junit.jupiter.api.Test;

/** A mapping run's limits ({@link MmapRun}): wall time less the write margin, or the work left, never both mixed. */
class MmapRunTest {
    @Test
    void aWallLimitedRunKeepsItsWriteMarginAndGivesPlannersWallLimits() {
        MmapRun run = new MmapRun(10, Budget.unlimited(), 1, 1, 8, System.nanoTime());
        double left = run.left();
        // 5% of 10 s (at most a second) is kept to check and write.
        assertTrue(left <= 9.5 && left > 8.5, "left " + left);
        Limits limits = run.limits(2);
        assertFalse(limits.workMode());
        long wall = limits.budget().wallLeft().toMillis();
        assertTrue(wall <= 2000 && wall > 1000, "wall " + wall);
        assertTrue(run.restarted().startNanos() >= run.startNanos());
    }

    @Test
    void aWorkLimitedRunGivesPlannersItsUnitsWhateverTheClock() {
        MmapRun run = new MmapRun(Double.POSITIVE_INFINITY, Budget.ofWork(3, null), 1, 1, 8, 0);
        assertEquals(3.0, run.left(), 1e-9);
        Limits limits = run.limits(1.5);
        assertTrue(limits.workMode());
        assertEquals(1.5, limits.budget().workLeft(), 1e-6);
        assertEquals(3.0, run.limitsOfWhatIsLeft().budget().workLeft(), 1e-6);
    }

    @Test
    void aRunFromTheOptionsTakesSixtySecondsOrTheWorkLimitAndRefusesBadValuesByName() {
        assertEquals(MmapRun.DEFAULT_TIME_LIMIT, MmapRun.of(null, null, 1, 1, 8, 0).timeLimit());
        MmapRun work = MmapRun.of(null, 2.0, 1, 1, 8, 0);
        assertEquals(Double.POSITIVE_INFINITY, work.timeLimit(), "a work limit alone has no wall limit");
        assertEquals(2.0, work.work().workLeft(), 1e-9);
        assertEquals(5.0, MmapRun.of(5.0, 2.0, 1, 1, 8, 0).timeLimit(), "a time limit given guards the work");
        assertEquals("--time-limit must be a positive number of seconds, got NaN", assertThrows(
                IllegalArgumentException.class, () -> MmapRun.of(Double.NaN, null, 1, 1, 8, 0)).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> MmapRun.of(null, 0.0, 1, 1, 8, 0)).getMessage()
                .startsWith("--work-limit must be a number of work units"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> MmapRun.of(null, null, 0, 1, 8, 0)).getMessage()
                .startsWith("--threads must be within 1.."));
        assertEquals("--simulations must be >= 1 and <= " + MmapRun.MAX_SIMULATIONS + " (MCTS simulations per move),"
                + " got 0", assertThrows(IllegalArgumentException.class, () -> MmapRun.of(null, null, 1, 1, 0, 0))
                .getMessage());
    }
}
