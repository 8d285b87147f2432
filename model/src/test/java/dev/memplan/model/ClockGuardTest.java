package dev.memplan.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A command's clock over building its graph: polled while a guard is open on the thread, inert otherwise. */
class ClockGuardTest {
    /** A chain of {@code n} operators, each writing one tensor the next reads. */
    private static Graph chain(int n) {
        List<Tensor> tensors = new ArrayList<>();
        List<Operator> operators = new ArrayList<>();
        tensors.add(new Tensor("in", 8, TensorKind.PARAMETER));
        for (int i = 0; i < n; i++) {
            tensors.add(new Tensor("t" + i, 8, TensorKind.ACTIVATION));
            operators.add(new Operator("o" + i, List.of(i == 0 ? "in" : "t" + (i - 1)), List.of("t" + i)));
        }
        return new Graph("chain", 1, tensors, operators, List.of("t" + (n - 1)));
    }

    @Test
    void aGraphBuiltUnderAnExpiredGuardStopsWithTheStepNamed() {
        try (ClockGuard guard = ClockGuard.until(Budget.ofWall(Duration.ZERO))) {
            ClockGuard.TimeUpException e = assertThrows(ClockGuard.TimeUpException.class, () -> chain(10_000));
            assertEquals("the time limit ran out while building the graph", e.getMessage());
            assertFalse(e.interrupted());
        }
    }

    @Test
    void aCancelledBudgetSaysInterrupted() {
        Budget b = Budget.ofWall(Duration.ofHours(1));
        b.cancel();
        try (ClockGuard guard = ClockGuard.until(b)) {
            ClockGuard.TimeUpException e = assertThrows(ClockGuard.TimeUpException.class, () -> chain(10_000));
            assertTrue(e.interrupted());
            assertTrue(e.getMessage().startsWith("interrupted while"), e.getMessage());
        }
    }

    @Test
    void smallStepsAndUnguardedThreadsAreNotStopped() {
        try (ClockGuard guard = ClockGuard.until(Budget.ofWall(Duration.ZERO))) {
            assertEquals(100, chain(100).operatorCount(), "fewer items than a poll's interval");
        }
        assertEquals(10_000, chain(10_000).operatorCount(), "no guard open after close");
        try (ClockGuard guard = ClockGuard.until(Budget.ofWall(Duration.ofHours(1)))) {
            assertEquals(10_000, chain(10_000).operatorCount(), "time left");
        }
    }

    @Test
    void anInnerGuardAlsoPollsTheOneAroundIt() {
        try (ClockGuard outer = ClockGuard.until(Budget.ofWall(Duration.ZERO));
             ClockGuard inner = ClockGuard.until(Budget.ofWall(Duration.ofHours(1)))) {
            assertThrows(ClockGuard.TimeUpException.class, () -> chain(10_000));
        }
    }
}
