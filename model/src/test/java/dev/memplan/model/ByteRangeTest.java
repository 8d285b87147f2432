package dev.memplan.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Issue 12, item 2: values near 2^63 never wrap around. The checkers never call a plan or placement VALID that
 * does not fit, graphs beyond the supported range ({@link ByteRange#MAX}) are refused naming the culprit, and the
 * sums of the budgets cannot go negative.
 */
class ByteRangeTest {
    private static final long HUGE = Long.MAX_VALUE;

    /** x(8) -> A -> y(8), y a graph output; M_R = 16. */
    private static Graph pair(long ySize) {
        return Graph.builder("pair").activation("x", 8).activation("y", ySize)
                .operator("A", List.of("x"), List.of("y")).output("y").build();
    }

    private static Plan plan(Graph g, long budget, long xOffset, long yOffset) {
        return new Plan(g.name(), TensorSetting.ALL, budget, Schedule.defaultOrder(g),
                Map.of("x", List.of(Segment.loaded(0, 0, xOffset)), "y", List.of(Segment.created(0, 0, yOffset))),
                null, null);
    }

    @Test
    void aTensorAtOffsetTwoToTheSixtyThreeMinusOneIsBeyondTheBudget() {
        Graph g = pair(8);
        CheckReport r = PlanChecker.check(g, plan(g, 48, 0, HUGE));
        assertFalse(r.valid());
        assertTrue(r.violations().stream().anyMatch(v -> v.rule() == Rule.BUDGET
                && v.message().contains("occupies [" + HUGE + ", " + HUGE + ")")), r.violations().toString());
        assertEquals(HUGE, r.peakAddress(), "saturated, not negative");
    }

    @Test
    void theLargestTensorNearTheTopOfTheAddressSpaceIsBeyondTheBudget() {
        Graph g = pair(ByteRange.MAX - 8);
        CheckReport r = PlanChecker.check(g, plan(g, 48, 0, HUGE - 4));
        assertFalse(r.valid());
        assertTrue(r.violations().stream().anyMatch(v -> v.rule() == Rule.BUDGET), r.violations().toString());
        // ... and two such tensors do not "fit" by wrapping around either
        CheckReport overlap = PlanChecker.check(g, plan(g, HUGE, HUGE - 9, HUGE - 20));
        assertFalse(overlap.valid());
    }

    @Test
    void sizesBeyondTwoToTheFiftyThreeAreRefusedNamingTheTensor() {
        InvalidGraphException one = assertThrows(InvalidGraphException.class, () -> pair(HUGE));
        assertEquals("tensors[1].size", one.where());
        assertTrue(one.problem().contains("the size of tensor 'y' is " + HUGE + ", above 2^53"), one.problem());
        // three tensors of 2^62 used to give a negative M_H
        InvalidGraphException three = assertThrows(InvalidGraphException.class, () -> Graph.builder("three")
                .activation("a", 1L << 62).activation("b", 1L << 62).activation("c", 1L << 62)
                .operator("f", List.of("a", "b"), List.of("c")).output("c").build());
        assertEquals("tensors[0].size", three.where());
        // each below the limit, but the total above: located at the tensor that crosses it
        InvalidGraphException total = assertThrows(InvalidGraphException.class, () -> pair(ByteRange.MAX - 7));
        assertEquals("tensors[1].size", total.where());
        assertTrue(total.problem().contains("sum to " + (ByteRange.MAX + 1)), total.problem());
        assertThrows(InvalidGraphException.class, () -> new Graph("g", ByteRange.MAX + 1, List.of(), List.of(),
                List.of()));
    }

    @Test
    void budgetsAtTheTopOfTheRangeStayExact() {
        Graph g = pair(ByteRange.MAX - 8);
        assertEquals(ByteRange.MAX, Budgets.minimumRequired(g));
        assertEquals(ByteRange.MAX, Budgets.footprint(g, Schedule.defaultOrder(g)));
        assertEquals(HUGE - 1, Budgets.halfway(HUGE - 1, HUGE));
        assertEquals(HUGE, Budgets.halfway(HUGE, HUGE));
        assertEquals(7, Budgets.halfway(6, 9));
    }

    @Test
    void aGraphWithoutOperatorsHasZeroBudgets() {
        Graph g = Graph.builder("idle").activation("x", 8).build();
        assertEquals(0, Budgets.minimumRequired(g));
        assertEquals(0, Budgets.minimumFeasible(g));
        assertEquals(0, Budgets.footprint(g, Schedule.defaultOrder(g)));
        assertEquals(0, Timeline.peak(0, new int[0], new int[0], new long[0]));
    }

    @Test
    void timelineSaturatesInsteadOfWrapping() {
        assertEquals(HUGE, Timeline.peak(1, new int[] {0, 0}, new int[] {0, 0}, new long[] {HUGE, 1}));
    }

    @Test
    void aHugeBufferIsOutsideASmallCapacity() {
        BufferSet set = new BufferSet(List.of(new Buffer("b", 0, 1, HUGE)));
        Placement at8 = new Placement(set, new long[] {8});
        assertEquals(HUGE, at8.height(), "saturated, not negative");
        List<Violation> v = BufferChecker.check(at8, 12);
        assertEquals(1, v.size());
        assertEquals(Rule.BUDGET, v.get(0).rule());
        BufferSet two = new BufferSet(List.of(new Buffer("a", 0, 1, HUGE - 10), new Buffer("b", 0, 1, 20)));
        assertFalse(BufferChecker.check(new Placement(two, new long[] {0, HUGE - 15}), HUGE).isEmpty(),
                "overlap near the top of the address space");
    }

    @Test
    void saturatingArithmetic() {
        assertEquals(HUGE, ByteRange.add(HUGE, 1));
        assertEquals(Long.MIN_VALUE, ByteRange.add(Long.MIN_VALUE, -1));
        assertEquals(-2, ByteRange.add(-5, 3));
        assertEquals(HUGE, ByteRange.times(1L << 40, 1L << 40));
        assertEquals(1L << 50, ByteRange.times(1L << 25, 1L << 25));
        assertEquals(null, ByteRange.problem(ByteRange.MAX, "x"));
    }
}
