package dev.memplan.formulations.cosma;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.formulations.BruteForceAccess;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.model.Budgets;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.PlanChecker;
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

    /**
     * The Transformer's encoder output in small: P writes m (2 bytes), read by k1 and k2, whose outputs (2 each)
     * are read after the blockers b1/c1 and b2/c2 (4 + 1 bytes of a 5-byte budget) respectively. Precedence
     * places neither reader after a blocker, so no round trip of m is forced alone; but each layer either
     * reloads m (2) or keeps k's output through the blocker (a 4-byte round trip): 2 + 2 + 2 at best.
     */
    static Graph escapes() {
        return escapes(new long[] {1, 2, 1, 4, 1, 2, 1, 4, 1, 2, 1});
    }

    /** The shape of {@link #escapes()} with the sizes of in, m, s0, big1, s1, kp1, s2, big2, s3, kp2, out. */
    static Graph escapes(long[] size) {
        return Graph.builder("escapes")
                .activation("in", size[0]).activation("m", size[1]).activation("s0", size[2])
                .activation("big1", size[3]).activation("s1", size[4]).activation("kp1", size[5])
                .activation("s2", size[6]).activation("big2", size[7]).activation("s3", size[8])
                .activation("kp2", size[9]).activation("out", size[10])
                .operator("P", List.of("in"), List.of("m", "s0"))
                .operator("b1", List.of("s0"), List.of("big1"))
                .operator("c1", List.of("big1"), List.of("s1"))
                .operator("k1", List.of("m"), List.of("kp1"))
                .operator("u1", List.of("kp1", "s1"), List.of("s2"))
                .operator("b2", List.of("s2"), List.of("big2"))
                .operator("c2", List.of("big2"), List.of("s3"))
                .operator("k2", List.of("m"), List.of("kp2"))
                .operator("u2", List.of("kp2", "s3"), List.of("out"))
                .output("out").build();
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
    void aReaderThatCanRunEarlyEitherReloadsTheTensorOrKeepsItsOwnOutputThroughTheBlocker() {
        Graph g = escapes();
        assertEquals(5, Budgets.minimumRequired(g));
        ForcedTraffic f = forced(g, 5);
        assertEquals(0, f.loads(g.tensorIndex("m")), "precedence alone forces nothing on m");
        assertEquals(6, f.bound());
        assertEquals(6, BruteForceAccess.minTraffic(g, TensorSetting.ALL, 5, null));
        assertEquals(0, forced(g, 7).bound(), "with room for m beside a blocker nothing is forced");
    }

    @Test
    void escapesNeverOverstateOnRandomSizes() {
        Random random = new Random(7);
        int positive = 0;
        for (int round = 0; round < 10; round++) {
            long[] size = new long[11];
            for (int i = 0; i < size.length; i++) {
                size[i] = 1 + random.nextInt(i == 3 || i == 7 ? 6 : 3);
            }
            Graph g = escapes(size);
            long mr = Budgets.minimumRequired(g);
            for (long b : List.of(mr, mr + 1, mr + 2)) {
                long bound = forced(g, b).bound();
                long optimum = BruteForceAccess.minTraffic(g, TensorSetting.ALL, b, null);
                assertTrue(bound <= optimum, "round " + round + " at " + b + ": bound " + bound + " > " + optimum);
                positive += bound > 0 ? 1 : 0;
            }
        }
        assertTrue(positive >= 5, "positive bounds: " + positive);
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

    @Test
    void onTheZooTheBoundMeetsACheckedPlanWhereTheRelaxationAloneWasWeak() {
        // Transformer activations at M_R and M_H, DeepLabV3 with parameters at M_R: the bound, and a plan found
        // in seconds that pays exactly that (so both are right: the plan is checked, the bound is a bound).
        record Case(String net, TensorSetting setting, double fromMrToMp, long expected) {
        }
        for (Case c : List.of(new Case("transformer", TensorSetting.ACTIVATIONS, 0, 4_915_200),
                new Case("transformer", TensorSetting.ACTIVATIONS, 0.5, 3_932_160),
                new Case("deeplabv3_resnet50", TensorSetting.ALL, 0, 802_816))) {
            Graph g = dev.memplan.datasets.zoo.Zoo.graph(c.net()).withSetting(c.setting());
            long mr = Budgets.minimumRequired(g);
            long budget = c.fromMrToMp() == 0 ? mr : Budgets.halfway(mr, Budgets.footprint(g, Schedule.defaultOrder(g)));
            assertEquals(c.expected(), forced(g, budget).bound(), c.net() + " at " + budget);
            // A wall limit (SCIP counts no deterministic work) far above the seconds it takes on a quiet machine: on a
            // loaded one (two 2-core JVMs beside the build) 60 s ran out before SCIP's pass found the plan.
            CosmaResult r = CosmaSolver.solve(g, c.setting(), budget,
                    CosmaSolver.Options.traffic(Backend.SCIP).withDecoupled(true, null),
                    new Limits(java.time.Duration.ofSeconds(600), 1, 0, 0));
            assertEquals(SolveStatus.OPTIMAL, r.status(), c.net());
            assertEquals(c.expected(), (long) r.objective(), c.net());
            assertTrue(PlanChecker.check(g, r.plan()).valid());
        }
    }
}
