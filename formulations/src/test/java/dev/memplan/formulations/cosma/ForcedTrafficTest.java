package dev.memplan.formulations.cosma;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.formulations.BruteForceAccess;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.model.Budgets;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Schedule;
import dev.memplan.model.SolveStatus;
import dev.memplan.model.TensorSetting;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The forced round trips: exact on the smallest graphs that force them, never above the true optimum. */
class ForcedTrafficTest {

    /**
     * p makes a (2 bytes) and s; q turns s into big (4) and r big into u; f reads a and u. M_R = 5 (q and r),
     * and a (2) cannot stay while q or r runs, yet f reads it after them: a spill and a load, 4 bytes.
     */
    static Graph chain() {
        return Graph.builder("chain")
                .activation("in", 1).activation("a", 2).activation("s", 1).activation("big", 4)
                .activation("u", 1).activation("out", 1)
                .operator("p", List.of("in"), List.of("a", "s"))
                .operator("q", List.of("s"), List.of("big"))
                .operator("r", List.of("big"), List.of("u"))
                .operator("f", List.of("a", "u"), List.of("out"))
                .output("out").build();
    }

    /**
     * Three "convolutions" c1..c3 read s and their own 6-byte weight and write 2 bytes each; cat reads all three
     * outputs. M_R = 9 (each convolution), and while one runs no other output fits: whatever the order, two of
     * the three outputs make a round trip (2 x 4 bytes), the shape of DeepLabV3's ASPP with parameters.
     */
    static Graph group() {
        Graph.Builder b = Graph.builder("group").activation("in", 1).activation("s", 1).activation("out", 1);
        b.operator("p", List.of("in"), List.of("s"));
        for (int i = 1; i <= 3; i++) {
            b.parameter("w" + i, 6).activation("y" + i, 2);
            b.operator("c" + i, List.of("s", "w" + i), List.of("y" + i));
        }
        return b.operator("cat", List.of("y1", "y2", "y3"), List.of("out")).output("out").build();
    }

    private static ForcedTraffic forced(Graph g, long budget) {
        return ForcedTraffic.of(g, OperatorWindows.free(g, true), budget);
    }

    @Test
    void aTensorThatCannotStayWhileABlockerRunsMakesARoundTrip() {
        Graph g = chain();
        assertEquals(5, Budgets.minimumRequired(g));
        ForcedTraffic f = forced(g, 5);
        int a = g.tensorIndex("a");
        assertEquals(1, f.loads(a));
        assertTrue(f.spill(a));
        assertEquals(4, f.bound());
        assertEquals(4, BruteForceAccess.minTraffic(g, TensorSetting.ALL, 5, null));
        // With room for a next to big and u, nothing is forced (and nothing is needed).
        assertEquals(0, forced(g, 7).bound());
        assertEquals(0, BruteForceAccess.minTraffic(g, TensorSetting.ALL, 7, null));
    }

    @Test
    void ofTensorsThatShutEachOtherOutAllButOneMakeARoundTrip() {
        Graph g = group().withSetting(TensorSetting.ALL);
        assertEquals(9, Budgets.minimumRequired(g));
        ForcedTraffic f = forced(g, 9);
        assertEquals(1, f.groups().size());
        assertEquals(3, f.groups().get(0).length);
        assertEquals(0, f.loads(g.tensorIndex("y1")), "no single tensor is forced: the order decides which");
        assertEquals(8, f.bound());
        assertEquals(8, BruteForceAccess.minTraffic(g, TensorSetting.ALL, 9, null));
        // One more output fits beside a convolution at 11: no group.
        assertTrue(forced(g, 11).groups().isEmpty());
    }

    @Test
    void theSolverProvesOptimalityFromTheForcedBound() {
        Graph g = group();
        CosmaResult r = CosmaSolver.solve(g, TensorSetting.ALL, 9, CosmaSolver.Options.traffic(Backend.CPSAT),
                Limits.DEFAULT);
        assertEquals(SolveStatus.OPTIMAL, r.status());
        assertEquals(8L, r.objective());
    }

    @Test
    void neverAboveTheOptimumOnRandomTinyGraphsFreeOrFixed() {
        Random random = new Random(41);
        int positive = 0;
        int cases = 0;
        for (int round = 0; round < 60; round++) {
            Graph g = BruteForceAccess.randomTinyGraph(random, 4 + round % 2, round % 2 == 0)
                    .withSetting(TensorSetting.ALL);
            long mr = Budgets.minimumFeasible(g);
            Schedule fixed = round % 3 == 0 ? Schedule.defaultOrder(g) : null;
            OperatorWindows windows = fixed == null ? OperatorWindows.free(g, true) : OperatorWindows.fixed(g, fixed, true);
            for (long b : List.of(mr, mr + 1, mr + 3)) {
                long bound = ForcedTraffic.of(g, windows, b).bound();
                long optimum = BruteForceAccess.minTraffic(g, TensorSetting.ALL, b, fixed);
                assertTrue(bound <= optimum, "round " + round + " at " + b + ": bound " + bound + " > " + optimum);
                positive += bound > 0 ? 1 : 0;
                cases++;
            }
        }
        assertEquals(180, cases);
        assertTrue(positive >= 10, "the bound should say something on some random cases, said it on " + positive);
        assertFalse(positive == cases);
    }
}
