package dev.memplan.decomposition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.formulations.cosma.CosmaResult;
import dev.memplan.formulations.cosma.CosmaSolver;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.model.Graph;
import dev.memplan.model.JustInTimePlanner;
import dev.memplan.model.Limits;
import dev.memplan.model.Plan;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.Schedule;
import dev.memplan.model.SolveStatus;
import dev.memplan.model.TensorSetting;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A window re-ordered knowing the rest of the plan: the smallest graph where the window alone cannot see why its
 * order costs traffic, and the window in context can.
 */
class WindowOrderTest {
    private static final CosmaSolver.Options COSMA = CosmaSolver.Options.traffic(Backend.SCIP);
    private static final TensorSetting ACT = TensorSetting.ACTIVATIONS;
    private static final long BUDGET = 100;

    /**
     * z writes Z (60 bytes), read only by the last operator f; two chains a1 -> a2 and b1 -> b2 write u and v (25
     * bytes each) and a 1-byte result each, which f reads too. Running b1 before a2 keeps u, v and Z (110 bytes) live
     * at once; running each chain through first never holds more than 87.
     */
    private static Graph chains() {
        return Graph.builder("chains")
                .activation("Z", 60).activation("u", 25).activation("v", 25)
                .activation("u2", 1).activation("v2", 1).activation("out", 1)
                .operator("z", List.of(), List.of("Z"))
                .operator("a1", List.of(), List.of("u"))
                .operator("b1", List.of(), List.of("v"))
                .operator("a2", List.of("u"), List.of("u2"))
                .operator("b2", List.of("v"), List.of("v2"))
                .operator("f", List.of("Z", "u2", "v2"), List.of("out"))
                .output("out")
                .build();
    }

    private static final Schedule INTERLEAVED = new Schedule(List.of("z", "a1", "b1", "a2", "b2", "f"));

    private static long fixed(Graph g, Schedule order, Plan start) {
        CosmaResult r = CosmaSolver.solve(g, ACT, BUDGET, COSMA.withSchedule(order).withStart(start), Limits.DEFAULT);
        assertEquals(SolveStatus.OPTIMAL, r.status());
        assertTrue(PlanChecker.check(g, r.plan()).valid());
        return r.objective();
    }

    private static boolean chainsApart(List<String> order) {
        return order.indexOf("a2") < order.indexOf("b1") || order.indexOf("b2") < order.indexOf("a1");
    }

    @Test
    void theBytesTheRestOfThePlanKeepsOnChipShrinkTheWindowsRoom() {
        Graph g = chains();
        // The interleaved order's optimum keeps Z on chip and sends u and v out and back (4 x 25 bytes; Z's round
        // trip would cost 120).
        CosmaResult start = CosmaSolver.solve(g, ACT, BUDGET, COSMA.withSchedule(INTERLEAVED), Limits.DEFAULT);
        assertEquals(100, start.objective());
        // The window a1..b2 on its own (a part's view) has the whole budget: its order costs it nothing.
        int[] ops = {g.operatorIndex("a1"), g.operatorIndex("b1"), g.operatorIndex("a2"), g.operatorIndex("b2")};
        SubGraph alone = SubGraph.of(g, ops, "alone");
        CosmaResult aloneFixed = CosmaSolver.solve(alone.graph(), ACT, BUDGET, COSMA.withSchedule(
                new Schedule(List.of("a1", "b1", "a2", "b2"))), Limits.DEFAULT);
        assertEquals(0, aloneFixed.objective());
        // In context Z's 60 bytes stay on chip through the window: 40 bytes of room, so the chains run apart.
        List<String> proposed = WindowOrder.propose(g, ACT, start.plan(), start.plan().schedule().resolve(g), 1, 4,
                Backend.SCIP, Limits.DEFAULT);
        assertNotNull(proposed);
        assertEquals(4, proposed.size());
        assertTrue(chainsApart(proposed), proposed.toString());
        List<String> order = new ArrayList<>(List.of("z"));
        order.addAll(proposed);
        order.add("f");
        assertEquals(0, fixed(g, new Schedule(order), null));
    }

    @Test
    void aTensorReadAfterTheWindowCostsItsRoundTripInsideIt() {
        Graph g = chains();
        // Just in time: every tensor leaves the chip at once, Z included. Z is written in the window 0..4 and read
        // after it: as a part's output its write would be free, in context it is read by the window's exit.
        Plan jit = new JustInTimePlanner(INTERLEAVED).plan(g, ACT, BUDGET, Limits.DEFAULT);
        List<String> proposed = WindowOrder.propose(g, ACT, jit, jit.schedule().resolve(g), 0, 4, Backend.SCIP,
                Limits.DEFAULT);
        assertNotNull(proposed);
        assertEquals(5, proposed.size());
        assertTrue(chainsApart(proposed), proposed.toString());
        List<String> order = new ArrayList<>(proposed);
        order.add("f");
        assertEquals(0, fixed(g, new Schedule(order), null));
    }

    @Test
    void atTheOptimumTheWindowProposesNothingWorse() {
        Graph g = chains();
        Schedule apart = new Schedule(List.of("z", "a1", "a2", "b1", "b2", "f"));
        CosmaResult best = CosmaSolver.solve(g, ACT, BUDGET, COSMA.withSchedule(apart), Limits.DEFAULT);
        assertEquals(0, best.objective());
        // Nothing to gain: the same order (null) or another one that costs nothing either.
        List<String> proposed = WindowOrder.propose(g, ACT, best.plan(), best.plan().schedule().resolve(g), 1, 4,
                Backend.SCIP, Limits.DEFAULT);
        List<String> order = new ArrayList<>(List.of("z"));
        order.addAll(proposed == null ? List.of("a1", "a2", "b1", "b2") : proposed);
        order.add("f");
        assertEquals(0, fixed(g, new Schedule(order), null));
    }
}
