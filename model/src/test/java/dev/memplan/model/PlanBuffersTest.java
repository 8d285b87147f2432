package dev.memplan.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PlanBuffersTest {
    private static final Graph CHAIN = Graph.builder("chain").alignment(2).activation("x", 10).activation("y", 20)
            .activation("z", 30).operator("a", List.of("x"), List.of("y")).operator("b", List.of("y"), List.of("z"))
            .operator("c", List.of("x", "z"), List.of("u")).activation("u", 4).output("u").build();

    private static Plan plan() {
        Map<String, List<Segment>> s = new LinkedHashMap<>();
        s.put("x", List.of(Segment.loaded(0, 0, 0), Segment.loaded(2, 2, 0)));
        s.put("y", List.of(Segment.created(0, 1, 10)));
        s.put("z", List.of(Segment.created(1, 2, 30)));
        s.put("u", List.of(Segment.created(2, 2, 10)));
        return new Plan("chain", TensorSetting.ALL, 64, Schedule.defaultOrder(CHAIN), s, null, null);
    }

    @Test
    void oneBufferPerSegmentLiveOverStartToEndPlusOne() {
        BufferSet set = PlanBuffers.toBufferSet(CHAIN, plan());
        assertEquals(5, set.size());
        assertEquals(64L, set.capacity());
        assertEquals(new Buffer("x#0", 0, 1, 10, 2, null), set.get(0));
        assertEquals(new Buffer("x#1", 2, 3, 10, 2, null), set.get(1));
        assertEquals(new Buffer("z#0", 1, 3, 30, 2, null), set.get(3));
    }

    @Test
    void theSameNonOverlapRuleOnBothSides() {
        Plan plan = plan();
        assertTrue(PlanChecker.check(CHAIN, plan).valid());
        Placement own = PlanBuffers.placementOf(CHAIN, plan);
        assertEquals(List.of(), BufferChecker.check(own, plan.budget()));
        // Move u onto z at timestep 2: both checkers object.
        long[] offsets = own.offsets();
        offsets[4] = 30;
        Plan moved = PlanBuffers.withPlacement(plan, new Placement(own.buffers(), offsets));
        assertEquals(30, moved.segmentsOf("u").get(0).offset());
        assertTrue(PlanChecker.check(CHAIN, moved).violations().stream().anyMatch(v -> v.rule() == Rule.ADDRESS_OVERLAP));
        assertTrue(BufferChecker.check(new Placement(own.buffers(), offsets), 64).stream()
                .anyMatch(v -> v.rule() == Rule.ADDRESS_OVERLAP));
    }

    @Test
    void roundTripKeepsThePlan() {
        Plan plan = plan();
        assertEquals(plan, PlanBuffers.withPlacement(plan, PlanBuffers.placementOf(CHAIN, plan)));
    }

    @Test
    void aPlacementOfOtherBuffersIsRejected() {
        BufferSet other = new BufferSet(List.of(new Buffer("q#0", 0, 1, 1)));
        assertThrows(IllegalArgumentException.class,
                () -> PlanBuffers.withPlacement(plan(), new Placement(other, new long[] {0})));
    }

    @Test
    void justInTimePlanIsValidAtMRAndNeedsTheAlignedFigure() {
        Graph g = CHAIN;
        long needed = Budgets.minimumFeasible(g);
        // b touches y (20) and z (30): at alignment 2 nothing rounds up, so M_R suffices.
        assertEquals(50, Budgets.minimumRequired(g));
        assertEquals(50, needed);
        Plan jit = new JustInTimePlanner().plan(g, TensorSetting.ALL, needed, Limits.DEFAULT);
        assertTrue(PlanChecker.check(g, jit).valid());
        assertEquals(SolveStatus.HEURISTIC, jit.solver().status());
        Graph odd = Graph.builder("odd").alignment(4).activation("p", 3).activation("q", 3)
                .operator("f", List.of("p"), List.of("q")).build();
        assertEquals(6, Budgets.minimumRequired(odd));
        assertEquals(7, Budgets.minimumFeasible(odd));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new JustInTimePlanner().plan(odd, TensorSetting.ALL, 6, Limits.DEFAULT));
        assertTrue(e.getMessage().contains("M_R = 6"), e.getMessage());
        assertTrue(PlanChecker.check(odd, new JustInTimePlanner().plan(odd, TensorSetting.ALL, 7, Limits.DEFAULT)).valid());
    }
}
