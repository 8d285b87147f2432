package dev.memplan.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The run's budget: under a work limit every share it hands out depends on the work charged, never on the clock. */
class RunClockTest {

    private static Limits work(double units) {
        return new Limits(null, 1, 0.0, 0L).withWork(Work.of(units)).startingNow();
    }

    @Test
    void underAWorkLimitWallTimeChangesNothing() throws InterruptedException {
        Limits limits = work(10);
        limits.work().charge(2); // work charged before the run does not count as the run's
        RunClock clock = new RunClock(limits, Shares.FINAL_BOUND);
        assertTrue(clock.work());
        assertEquals(Duration.ofSeconds(8), clock.left());
        Thread.sleep(60);
        assertEquals(Duration.ofSeconds(8), clock.left(), "wall time passing spends no work");
        assertEquals(Duration.ZERO, clock.elapsed());
        limits.work().charge(3);
        assertEquals(3.0, clock.workUsed(), 1e-9);
        assertEquals(Duration.ofSeconds(5), clock.left());
        assertEquals(Duration.ofMillis(800), clock.step(), "a tenth of the run's limit");
        assertEquals(Duration.ofMillis(2800), clock.fraction(0.35));
        assertEquals(Duration.ofMillis(2500), clock.fractionOfRest(0.5));
        // Two of four units left before the end at 0.35 * 8 s = 2.8 s; 3 s spent: the part gets the minimum.
        assertEquals(Duration.ofMillis(1), clock.shareUntil(clock.fraction(0.35), 1, 4));
        assertEquals(limits.wallLeft(), clock.hard(Duration.ofSeconds(1)), "only the wall deadline abandons a step");
        assertEquals(Duration.ofSeconds(5), clock.limits().timeLimit());
        assertFalse(clock.searchOver());
        limits.work().charge(3.5); // 1.5 s of 8 left, 1.2 s of it the final bound's reserve
        assertEquals(Duration.ofMillis(300), clock.step(), "a search step never takes the reserve");
        assertFalse(clock.searchOver());
        limits.work().charge(0.4); // 1.1 s of 8 left: inside the final bound's reserve of 1.2 s
        assertTrue(clock.searchOver());
        assertFalse(clock.over());
        limits.work().charge(1.2);
        assertTrue(clock.over());
    }

    @Test
    void inWallModeTheMarginAndTheGraceApply() {
        Limits limits = new Limits(Duration.ofSeconds(20), 1, 0.0, 0L).startingNow();
        RunClock clock = new RunClock(limits, 0);
        assertFalse(clock.work());
        assertNull(clock.workUsed());
        Duration left = clock.left();
        assertTrue(left.compareTo(Duration.ofSeconds(20).minus(Shares.MARGIN)) <= 0, left.toString());
        assertTrue(left.compareTo(Duration.ofSeconds(17)) > 0, left.toString());
        // Half as long again plus half a second.
        assertEquals(Duration.ofMillis(3500), clock.hard(Duration.ofSeconds(2)));
        assertEquals(Duration.ofMillis(3500), RunClock.patience(limits, Duration.ofSeconds(2)));
    }

    @Test
    void withoutALimitEveryStepGetsTheCap() {
        RunClock clock = new RunClock(Limits.DEFAULT, 0);
        assertNull(clock.left());
        assertNull(clock.fraction(0.5));
        assertNull(clock.hard(Duration.ofSeconds(1)));
        assertEquals(Shares.STEP_CAP, clock.step());
        assertEquals(Shares.STEP_CAP, clock.fractionOfRest(0.25));
        assertEquals(Shares.STEP_CAP, clock.shareUntil(null, 1, 2));
        assertFalse(clock.over());
    }
}
