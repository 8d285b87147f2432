package dev.memplan.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class WorkTest {

    @Test
    void chargesReachEveryAncestorAndExhaustTheChild() {
        Work root = Work.of(10);
        Work half = root.share(0.5);
        assertEquals(5.0, half.limit());
        Work small = half.cap(2);
        assertTrue(small.charge(1.5));
        assertFalse(small.charge(0.5), "the child's own cap is spent");
        assertEquals(2.0, half.used());
        assertEquals(2.0, root.used());
        assertEquals(3.0, half.left());
        assertEquals(8.0, root.left());
        // A cap above what the parent has left is bounded by the parent.
        Work big = half.cap(100);
        assertEquals(3.0, big.left());
        assertFalse(big.charge(3));
        assertTrue(half.exhausted());
        assertFalse(root.exhausted());
    }

    @Test
    void unlimitedCountsButNeverExhausts() {
        Work w = Work.unlimited();
        assertFalse(w.isLimited());
        assertTrue(w.charge(1e9));
        assertEquals(1e9, w.used());
        assertEquals(Double.POSITIVE_INFINITY, w.left());
        assertFalse(w.share(0.3).isLimited());
        assertTrue(Work.of(1).cap(Double.POSITIVE_INFINITY).isLimited());
    }

    @Test
    void aMeterChargesTheSameHoweverTheStepsAreBatched() {
        Work a = Work.unlimited();
        Work b = Work.unlimited();
        Work.Meter ma = a.meter(3);
        Work.Meter mb = b.meter(3);
        for (int i = 0; i < 10_007; i++) {
            ma.step();
        }
        ma.flush();
        mb.step(10_007);
        mb.flush();
        assertEquals(a.usedMicro(), b.usedMicro());
        assertEquals(10_007L * Work.MICRO / 3, a.usedMicro());
        assertEquals(10_007, ma.steps());
    }

    @Test
    void aMeterStopsOnceTheBudgetIsSpent() {
        Work w = Work.of(1);
        Work.Meter m = w.meter(1000);
        long steps = 0;
        while (m.step()) {
            steps++;
        }
        // The budget is checked every batch of 1,024 steps: it stops within one batch of the limit.
        assertTrue(steps >= 1000 && steps <= 1000 + 1024, "stopped after " + steps);
    }

    @Test
    void refusesNonsense() {
        assertThrows(IllegalArgumentException.class, () -> Work.of(-1));
        assertThrows(IllegalArgumentException.class, () -> Work.of(Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> Work.of(1).share(1.5));
        assertThrows(IllegalArgumentException.class, () -> Work.of(1).meter(0));
    }
}
