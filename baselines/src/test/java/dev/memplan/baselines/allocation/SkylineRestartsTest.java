package dev.memplan.baselines.allocation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.baselines.allocation.telamalloc.SkylineAllocator;
import dev.memplan.datasets.HeapTrace;
import dev.memplan.model.Allocation;
import dev.memplan.model.Budget;
import dev.memplan.model.BufferChecker;
import dev.memplan.model.BufferSet;
import dev.memplan.model.Limits;
import dev.memplan.model.LoadBound;
import dev.memplan.model.Placement;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The skyline's restarts in other orders: on a generated heap trace they pack lower than section 3.1's order,
 * the portfolio's answer is never above its heuristics', the log says whether the clock stopped the restarts,
 * and a work-limited answer has none.
 */
class SkylineRestartsTest {
    /** Thousands of buffers live at once, sizes 2 B to 256 MiB (the shape of issue 37's trace); the skyline: 1.005 L. */
    private static final BufferSet HEAP = HeapTrace.generate(10_000, 1);
    private static final List<SkylineAllocator.Variant> FIRST_SIX = SkylineRestarts.ORDERS.subList(0, 6);

    @Test
    void withoutADeadlineEveryOrderRunsAndTheLowestIsKept() {
        Placement skyline = new SkylineAllocator().pack(HEAP);
        assertTrue(skyline.height() > LoadBound.of(HEAP), "precondition: section 3.1's order misses L");
        SkylineRestarts restarts = new SkylineRestarts(HEAP, LoadBound.of(HEAP), 0, FIRST_SIX);
        Placement found = restarts.improve(skyline, Long.MAX_VALUE);
        assertNotNull(found, "no order below section 3.1's");
        BufferChecker.requireValid(found, found.height(), "restart");
        long lowest = Long.MAX_VALUE;
        for (SkylineAllocator.Variant v : FIRST_SIX) {
            lowest = Math.min(lowest, new SkylineAllocator().pack(HEAP, Long.MAX_VALUE, v).height());
        }
        assertEquals(lowest, found.height());
        assertTrue(found.height() < skyline.height());
        assertFalse(restarts.cutByClock());
        assertTrue(restarts.summary().startsWith("skyline restarts: all 6 orders ran; height " + found.height()),
                restarts.summary());
        // Nothing lower than the best so far: nothing returned.
        assertNull(new SkylineRestarts(HEAP, LoadBound.of(HEAP), 0, FIRST_SIX).improve(found, Long.MAX_VALUE));
    }

    @Test
    void aDeadlineThatHasPassedStopsThemAndTheLogSaysSo() {
        Placement skyline = new SkylineAllocator().pack(HEAP);
        SkylineRestarts restarts = new SkylineRestarts(HEAP, LoadBound.of(HEAP), 0);
        assertNull(restarts.improve(skyline, System.nanoTime() - 1));
        assertTrue(restarts.cutByClock());
        assertTrue(restarts.summary().startsWith("skyline restarts: 0 of " + SkylineRestarts.ORDERS.size()
                + " orders ran, the time limit stopped the rest; none below " + skyline.height()), restarts.summary());
        // A run longer than the time left is not started: it would end past the deadline.
        SkylineRestarts slow = new SkylineRestarts(HEAP, LoadBound.of(HEAP), Duration.ofHours(1).toNanos());
        assertNull(slow.improve(skyline, System.nanoTime() + Duration.ofMinutes(1).toNanos()));
        assertTrue(slow.cutByClock());
    }

    @Test
    void thePortfolioIsNeverAboveItsHeuristicsAndSaysWhetherTheClockStoppedTheRestarts() {
        Portfolio.Outcome o = Portfolio.minimize(HEAP, Limits.ofWall(Duration.ofSeconds(3)));
        Allocation a = o.allocation();
        assertTrue(a.solved());
        BufferChecker.requireValid(a.placement(), a.placement().height(), "auto");
        long h = a.placement().height();
        assertTrue(h <= new SkylineAllocator().pack(HEAP).height());
        Pattern heuristic = Pattern.compile("(greedy|bestfit|tflite|skyline): height (\\d+),.*");
        int heuristics = 0;
        for (String line : o.log()) {
            Matcher m = heuristic.matcher(line);
            if (m.matches()) {
                heuristics++;
                assertTrue(h <= Long.parseLong(m.group(2)), line);
            }
        }
        assertTrue(heuristics >= 1, o.log().toString());
        assertTrue(o.log().get(0).startsWith("skyline:"), "the skyline first under a time limit: " + o.log());
        String line = o.log().stream().filter(l -> l.startsWith("skyline restarts:")).findFirst().orElseThrow();
        Matcher ran = Pattern.compile("skyline restarts: (all (\\d+)|(\\d+) of (\\d+)) orders ran(.*)").matcher(line);
        assertTrue(ran.matches(), line);
        if (ran.group(3) != null) {
            // Fewer than all: the line says why.
            assertTrue(ran.group(5).startsWith(", the time limit stopped the rest")
                    || ran.group(5).startsWith(", the rest not needed"), line);
        }
    }

    @Test
    void aWorkLimitedAnswerHasNoRestartsAndTheListedOrder() {
        BufferSet small = HeapTrace.generate(2_000, 1);
        Portfolio.Outcome o = Portfolio.minimize(small, Limits.DEFAULT.withBudget(Budget.ofWork(0.02, null)));
        assertTrue(o.log().stream().noneMatch(l -> l.startsWith("skyline restarts")), o.log().toString());
        assertTrue(o.log().get(0).startsWith("greedy:"), "the listed order: " + o.log());
        Portfolio.Outcome again = Portfolio.minimize(small, Limits.DEFAULT.withBudget(Budget.ofWork(0.02, null)));
        assertEquals(o.allocation().placement(), again.allocation().placement());
    }
}
