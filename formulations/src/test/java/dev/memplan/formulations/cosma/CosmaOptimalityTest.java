package dev.memplan.formulations.cosma;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
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
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * COSMA's optimum equals an independent brute-force search (enumerating schedules, keep/evict decisions and
 * offsets) on tiny graphs: free and fixed schedules, both tensor settings, budgets M_R, M_H and M_P.
 */
class CosmaOptimalityTest {
    private static final Limits LIMITS = Limits.DEFAULT;

    static CosmaResult solve(Graph g, TensorSetting s, long budget, Schedule fixed, Backend backend, boolean prune) {
        CosmaSolver.Options options = CosmaSolver.Options.traffic(backend).withSchedule(fixed)
                .without(prune ? java.util.Set.of() : java.util.Set.of(Technique.PRUNE));
        CosmaResult r = CosmaSolver.solve(g, s, budget, options, LIMITS);
        assertEquals(SolveStatus.OPTIMAL, r.status(), "status");
        assertNotNull(r.plan());
        assertTrue(PlanChecker.check(g, r.plan()).valid());
        assertEquals(r.objective().longValue(), PlanChecker.check(g, r.plan()).traffic().nonCompulsory());
        return r;
    }

    @Test
    void equalsBruteForceOnRandomTinyGraphs() {
        Random random = new Random(11);
        int cases = 0;
        for (int round = 0; round < 14; round++) {
            Graph graph = BruteForceAccess.randomTinyGraph(random, 3 + random.nextInt(3), round % 2 == 0);
            for (TensorSetting s : TensorSetting.values()) {
                Graph g = graph.withSetting(s);
                long mr = Budgets.minimumRequired(g);
                long mp = BruteForceAccess.minPeak(g);
                for (long budget : new long[] {mr, Budgets.halfway(mr, mp), mp}) {
                    long expected = BruteForceAccess.minTraffic(g, s, budget, null);
                    assertEquals(expected, solve(graph, s, budget, null, Backend.SCIP, true).objective(),
                            "free schedule, round " + round + ", " + s + ", budget " + budget);
                    Schedule order = Schedule.defaultOrder(g);
                    long expectedFixed = BruteForceAccess.minTraffic(g, s, budget, order);
                    assertEquals(expectedFixed, solve(graph, s, budget, order, Backend.SCIP, true).objective(),
                            "fixed schedule, round " + round + ", " + s + ", budget " + budget);
                    cases += 2;
                }
            }
        }
        assertTrue(cases >= 100, "cases: " + cases);
    }

    @Test
    void pruningKeepsTheOptimum() {
        Random random = new Random(5);
        for (int round = 0; round < 6; round++) {
            Graph g = BruteForceAccess.randomTinyGraph(random, 4 + random.nextInt(2), true);
            long mr = Budgets.minimumRequired(g);
            CosmaResult pruned = solve(g, TensorSetting.ALL, mr, null, Backend.SCIP, true);
            CosmaResult full = solve(g, TensorSetting.ALL, mr, null, Backend.SCIP, false);
            assertEquals(full.objective(), pruned.objective(), "round " + round);
            assertTrue(pruned.pruned().variables() <= full.pruned().variables());
            assertTrue(pruned.pruned().constraints() <= full.pruned().constraints());
        }
    }

    @Test
    void minimumPeakEqualsBruteForce() {
        Random random = new Random(3);
        for (int round = 0; round < 10; round++) {
            Graph g = BruteForceAccess.randomTinyGraph(random, 3 + random.nextInt(4), round % 2 == 1);
            MinimumPeak.Result r = MinimumPeak.solve(g, TensorSetting.ALL, Backend.SCIP, LIMITS);
            assertEquals(SolveStatus.OPTIMAL, r.status());
            assertEquals(BruteForceAccess.minPeak(g), r.value(), "round " + round);
            assertEquals(r.value(), Budgets.footprint(g, r.schedule()));
        }
    }
}
