package dev.memplan.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class LimitValuesTest {
    @Test
    void aTimeLimitIsAPositiveFiniteNumberOfSecondsAndNoneStaysNone() {
        assertNull(LimitValues.wall(null, "--time-limit"));
        assertEquals(Duration.ofMillis(1500), LimitValues.wall(1.5, "--time-limit"));
        assertEquals(Duration.ofNanos(1), LimitValues.wall(1e-12, "--time-limit"), "rounded up to a nanosecond");
        for (double bad : new double[] {0, -1, Double.NaN, Double.POSITIVE_INFINITY}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> LimitValues.wall(bad, "--time-limit"));
            assertEquals("--time-limit must be a positive number of seconds, got " + bad, e.getMessage());
        }
        assertTrue(LimitValues.wall(1e300, "t").toNanos() > 0, "centuries are taken as a limit that fits a long");
    }

    @Test
    void aWorkLimitRunsFromAMicroUnitToABillionUnits() {
        assertNull(LimitValues.work(null, "--work-limit"));
        assertEquals(Budget.MIN_WORK_LIMIT, LimitValues.work(Budget.MIN_WORK_LIMIT, "w"));
        assertEquals(1e9, LimitValues.work(1e9, "w"));
        assertFalse(LimitValues.isWorkLimit(Budget.MIN_WORK_LIMIT / 2));
        assertFalse(LimitValues.isWorkLimit(1.5e9));
        assertFalse(LimitValues.isWorkLimit(Double.NaN));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> LimitValues.work(-3.0, "--work-limit"));
        assertEquals("--work-limit must be a number of work units from 0.000001 (the resolution of the work counters)"
                + " to 1e9, got -3.0", e.getMessage());
    }

    @Test
    void threadsRunFromOneToTheMaximum() {
        assertEquals(Limits.MAX_THREADS, LimitValues.threads(Limits.MAX_THREADS, "--threads"));
        assertEquals("--threads must be within 1.." + Limits.MAX_THREADS + ", got 0",
                assertThrows(IllegalArgumentException.class, () -> LimitValues.threads(0, "--threads")).getMessage());
        assertThrows(IllegalArgumentException.class, () -> LimitValues.threads(Limits.MAX_THREADS + 1, "--threads"));
    }

    @Test
    void reportsWriteAWorkLimitAsTypedAndSayWhatTheRunUsed() {
        assertEquals("60", LimitValues.units(60));
        assertEquals("0.5", LimitValues.units(0.5));
        Budget work = Budget.ofWork(2, null);
        work.charge(0.5);
        assertEquals("0.50 of 2 units (counted work; the wall clock cut nothing short)", LimitValues.workUsed(work, 2));
        assertEquals("", LimitValues.cut(work), "nothing to say when the clock cut nothing");
        assertEquals("", LimitValues.cut(Budget.unlimited()));
        work.markWallStop();
        assertEquals(" (" + Budget.WALL_CUT + ")", LimitValues.cut(work));
        assertEquals("0.50 of 2 units (" + Budget.WALL_CUT + ")", LimitValues.workUsed(work, 2));
    }

    @Test
    void aCommandsBudgetIsWhatIsLeftOfItsLimitSinceItStartedLessTheWriteMargin() {
        assertTrue(LimitValues.commandBudget(null, null, System.nanoTime()).wallLeft() == null, "no limit, no deadline");
        Budget work = LimitValues.commandBudget(3.0, null, System.nanoTime());
        assertTrue(work.workMode());
        assertEquals(3.0, work.workLeft(), 1e-9);
        long started = System.nanoTime() - Duration.ofSeconds(2).toNanos();
        long left = LimitValues.commandBudget(null, Duration.ofSeconds(10), started).wallLeft().toMillis();
        // 10 s less the 2 s since the start, less a tenth (1 s) to check and write.
        assertTrue(left <= 7000 && left > 6000, "left " + left);
        long capped = LimitValues.commandBudget(null, Duration.ofSeconds(1000), System.nanoTime()).wallLeft().toMillis();
        assertTrue(capped <= 1000 * 1000 - Shares.WRITE_MARGIN_CAP.toMillis() && capped > 990_000, "margin capped: " + capped);
        assertEquals(0, LimitValues.commandBudget(null, Duration.ofSeconds(1), started).wallLeft().toMillis(),
                "a limit already spent leaves nothing");
    }
}
