package dev.memplan.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The run budget: children charge their parents, work and wall are apart, the stop flag reaches every child. */
class BudgetTest {

    @Test
    void aChildChargesItsParentAndIsSpentByItsOwnCap() {
        Budget root = Budget.ofWork(10, null);
        Budget half = root.child(0.5);
        Budget small = half.upTo(2_000_000_000L);
        assertTrue(small.charge(1.5));
        assertFalse(small.charge(0.5), "the child's own cap is spent");
        assertTrue(small.stopped());
        assertEquals(2.0, half.workUsed());
        assertEquals(2.0, root.workUsed());
        assertEquals(3.0, half.workLeft());
        assertEquals(8.0, root.workLeft());
        assertFalse(root.stopped());
        // A child never has more than its parent has left.
        assertEquals(3_000_000_000L, half.upTo(Budget.NONE).allotment());
    }

    @Test
    void workAndWallAreTwoQuantities() {
        Budget work = Budget.ofWork(4, Duration.ofHours(1));
        assertTrue(work.workMode());
        assertEquals(4.0, work.workLeft());
        assertTrue(work.wallLeft().compareTo(Duration.ofMinutes(59)) > 0, "the wall guard is kept apart");
        // Shares of a work budget are shares of work, whatever the clock says.
        assertEquals(3_200_000_000L, work.child(0.8).allotment());
        assertEquals(1_000_000_000L, work.part(4).allotment());

        Budget wall = Budget.ofWall(Duration.ofSeconds(10));
        assertFalse(wall.workMode());
        assertEquals(Double.POSITIVE_INFINITY, wall.workLeft());
        assertTrue(wall.charge(100), "work is counted without a work limit, and never stops it");
        assertEquals(100.0, wall.workUsed());
        long share = wall.child(0.5).allotment();
        assertTrue(share <= 5_000_000_000L && share > 4_000_000_000L, "half of the wall time left: " + share);
        assertTrue(wall.child(0.5).wallLeft().compareTo(wall.wallLeft()) <= 0);
    }

    @Test
    void withoutALimitAStepGetsTheStepCap() {
        Budget none = Budget.unlimited();
        assertFalse(none.limited());
        assertNull(none.wallLeft());
        assertEquals(Budget.NONE, none.left());
        Budget step = none.child(0.5);
        assertTrue(step.wallLeft().compareTo(Shares.STEP_CAP) <= 0);
        assertTrue(step.wallLeft().compareTo(Shares.STEP_CAP.minusSeconds(5)) > 0);
    }

    @Test
    void aWallBudgetEnds() {
        Budget b = Budget.ofWall(Duration.ZERO);
        assertTrue(b.stopped());
        assertTrue(b.wallOver());
        assertEquals(Duration.ZERO, b.wallLeft());
        assertTrue(b.child().stopped(), "a child's end is never later than its parent's");
    }

    /**
     * Issue 37.1: a step that asks whether to stop, and is told yes by the clock rather than the work, leaves the
     * mark every report reads; a stop by the work, or by a cancel within the run, leaves none.
     */
    @Test
    void aStopByTheClockIsMarkedAndAStopByTheWorkIsNot() {
        Budget clock = Budget.ofWork(10, Duration.ZERO);
        Budget step = clock.child(0.5);
        assertFalse(clock.wallStopped());
        assertTrue(step.stopped());
        assertTrue(step.wallStopped());
        assertTrue(clock.wallStopped(), "the mark reaches the run's budget");

        Budget skipped = Budget.ofWork(10, Duration.ZERO);
        assertTrue(skipped.child().wallOver(), "a step skipped because the wall end passed");
        assertTrue(skipped.wallStopped());

        Budget work = Budget.ofWork(1, Duration.ofHours(1));
        Budget spent = work.child();
        spent.charge(1);
        assertTrue(spent.stopped());
        assertFalse(work.wallStopped(), "the work ended it: the same on any machine");

        Budget both = Budget.ofWork(1, Duration.ZERO);
        both.charge(1);
        assertTrue(both.stopped());
        assertFalse(both.wallStopped(), "the work was spent: the clock cut nothing the work had left");

        Budget cancelled = Budget.ofWork(10, Duration.ofHours(1));
        Budget loser = cancelled.child();
        loser.cancel();
        assertTrue(loser.stopped());
        assertFalse(cancelled.wallStopped(), "a cancel within the run is the run's own decision");

        Budget wall = Budget.ofWall(Duration.ZERO);
        assertTrue(wall.stopped());
        wall.markWallStop();
        assertFalse(wall.wallStopped(), "without a work limit there is no counted work to cut");
    }

    @Test
    void cancelStopsTheChildrenAndTheirSolversButNotTheParent() {
        Budget root = Budget.ofWork(10, null);
        Budget step = root.child(0.5);
        Budget sub = step.part(2);
        AtomicInteger stops = new AtomicInteger();
        try (Budget.Registration r = sub.onStop(stops::incrementAndGet)) {
            assertFalse(sub.stopped());
            step.cancel();
            assertTrue(sub.stopped());
            assertTrue(sub.requested());
            assertEquals(1, stops.get(), "the solver registered under the cancelled step was asked to stop");
        }
        assertFalse(root.stopped());
        assertEquals("interrupted", sub.whyStopped());
        assertEquals(Duration.ZERO, sub.wallLeft());
    }

    @Test
    void aSplitOfWorkIsFlooredToTheMicroUnit() {
        Budget b = Budget.ofWork(0.000003, null);
        assertEquals(1, b.splitWork(2).workLeftMicro());
    }

    @Test
    void aMeterChargesTheSameHoweverTheStepsAreBatched() {
        Budget a = Budget.ofWork(100, null);
        Budget b = Budget.ofWork(100, null);
        Budget.Meter ma = a.meter(3);
        Budget.Meter mb = b.meter(3);
        for (int i = 0; i < 10_007; i++) {
            ma.step();
        }
        mb.step(10_000);
        mb.step(7);
        ma.flush();
        mb.flush();
        assertEquals(a.workUsedMicro(), b.workUsedMicro());
        assertEquals(10_007L * Budget.MICRO / 3, a.workUsedMicro());
    }

    @Test
    void refusesNonsense() {
        assertThrows(IllegalArgumentException.class, () -> Budget.ofWork(-1, null));
        assertThrows(IllegalArgumentException.class, () -> Budget.ofWork(Double.NaN, null));
        assertThrows(IllegalArgumentException.class, () -> Budget.ofWall(Duration.ofSeconds(-1)));
        assertThrows(IllegalArgumentException.class, () -> Budget.unlimited().child(1.5));
        assertThrows(IllegalArgumentException.class, () -> Budget.unlimited().part(0));
        assertThrows(IllegalArgumentException.class, () -> Budget.unlimited().meter(0));
    }

    @Test
    void aWaitingThreadsPaceScalesWallEstimatesOnlyAndIsCapped() throws InterruptedException {
        Budget wall = Budget.ofWall(Duration.ofMinutes(10));
        Budget work = Budget.ofWork(100, Duration.ofMinutes(10));
        assertEquals(1.0, wall.pace(), "no pace before a quarter second has passed");
        // Asleep, the thread gets no CPU time while the wall clock runs: as slow as the estimate allows.
        Thread.sleep(Budget.PACE_AFTER_NANOS / 1_000_000 + 100);
        assertEquals(Budget.PACE_CAP, wall.child(0.5).pace(), "a child reads its root's pace");
        assertEquals(Math.round(Budget.PACE_CAP * 1_000_000), wall.paced(1_000_000));
        assertEquals(Math.round(Budget.PACE_CAP * 2 * Shares.SCHEME_NANOS_PER_OPERATOR * 50), wall.schemeNeeds(50));
        // Work mode: a share of work is decided from work only, whatever the clock says.
        assertEquals(1_000_000, work.paced(1_000_000));
        assertEquals(2 * Shares.SCHEME_NANOS_PER_OPERATOR * 50, work.schemeNeeds(50));
        // Without any limit nothing is scaled either.
        assertEquals(1_000_000, Budget.unlimited().paced(1_000_000));
    }

    @Test
    void aBusyThreadsPaceStaysWithinItsBounds() {
        Budget wall = Budget.ofWall(Duration.ofMinutes(10));
        long end = System.nanoTime() + Budget.PACE_AFTER_NANOS + 200_000_000L;
        long spin = 0;
        while (System.nanoTime() < end) {
            spin += Long.numberOfTrailingZeros(spin + 1);
        }
        double pace = wall.pace();
        assertTrue(pace >= 1 && pace <= Budget.PACE_CAP, "pace " + pace + " (" + spin + ")");
        assertTrue(wall.paced(1_000_000) >= 1_000_000);
    }
}
