package dev.memplan.decomposition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.formulations.BruteForceAccess;
import dev.memplan.formulations.RecomputeGraphs;
import dev.memplan.formulations.cosma.CosmaSolver;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.model.Budget;
import dev.memplan.model.Budgets;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.PlanResult;
import dev.memplan.model.Schedule;
import dev.memplan.model.SolveStatus;
import dev.memplan.model.TensorSetting;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The spill-only pipeline's bound raised to the cover summed over time without reruns ({@link SpillOnlyTimeBound}):
 * never above the brute force's least traffic, free and with a fixed schedule; OPTIMAL only at that optimum; and raised
 * on some cases that a short work limit leaves unproven.
 */
class SpillOnlyTimeBoundTest {
    private static final TensorSetting ALL = TensorSetting.ALL;

    @Test
    void neverAboveTheBruteForceAndRaisedOnSomeCases() {
        List<Graph> graphs = new ArrayList<>();
        graphs.add(twoTimes());
        for (int seed = 0; seed < 6; seed++) {
            graphs.add(RecomputeGraphs.skips(300 + seed, 5 + seed % 2));
            graphs.add(RecomputeGraphs.tiny(310 + seed, 4 + seed % 2));
        }
        int cases = 0;
        for (Graph g : graphs) {
            Graph s = g.withSetting(ALL);
            long mr = Budgets.minimumFeasible(s);
            for (long b = mr; b <= mr + 2; b++) {
                for (Schedule fixed : new Schedule[] {null, Schedule.defaultOrder(s)}) {
                    long optimum = BruteForceAccess.minTraffic(g, ALL, b, fixed);
                    for (double units : new double[] {0.002, 5}) {
                        CosmaPipeline.Settings settings = CosmaPipeline.Settings.of(
                                CosmaSolver.Options.traffic(Backend.CPSAT).withSchedule(fixed), null)
                                .withDecompose(CosmaPipeline.Decompose.NONE);
                        PlanResult r = new CosmaPipeline(settings, null).run(g, ALL, b,
                                Limits.DEFAULT.withBudget(Budget.ofWork(units, null)), null).result();
                        String where = g.name() + " B " + b + (fixed == null ? " free" : " fixed") + " " + units;
                        if (r.plan() == null) {
                            continue;
                        }
                        assertTrue(r.bound() == null || r.bound() <= optimum, where + ": bound " + r.bound()
                                + " above the optimum " + optimum);
                        if (r.status() == SolveStatus.OPTIMAL) {
                            assertEquals(optimum, r.objective(), where);
                        }
                        cases++;
                    }
                }
            }
        }
        assertTrue(cases >= 100, "cases " + cases);
    }

    /**
     * On the graph below at 13 bytes the cover over time is 16, the optimum. A result without a bound gets it, with
     * a note, in the answer and in the whole graph's result; a plan paying 16 becomes OPTIMAL; a result whose bound
     * is already 16 is left as it was.
     */
    @Test
    void aLowerBoundIsRaisedAndAPlanThatMeetsItIsOptimal() {
        Graph g = twoTimes();
        CosmaPipeline.Settings settings = CosmaPipeline.Settings.of(CosmaSolver.Options.traffic(Backend.CPSAT), null)
                .withDecompose(CosmaPipeline.Decompose.NONE);
        for (double units : new double[] {0.002, 5}) {
            Limits limits = Limits.DEFAULT.withBudget(Budget.ofWork(units, null));
            CosmaPipeline.Outcome o = new CosmaPipeline(settings, null).run(g, ALL, 13, limits, null);
            PlanResult r = o.result();
            assertEquals(16L, r.bound(), "the forced bound already sees both");
            assertEquals(o, SpillOnlyTimeBound.raise(g.withSetting(ALL), 13, null, limits, o));
            // The same run as if its bound had been 0 and nothing proven.
            PlanResult weak = new PlanResult(r.planner(), SolveStatus.FEASIBLE, r.plan(), r.check(), r.objective(), 0L,
                    1.0, r.seconds(), r.work(), false, r.notes());
            CosmaPipeline.Outcome raised = SpillOnlyTimeBound.raise(g.withSetting(ALL), 13, null, limits,
                    new CosmaPipeline.Outcome(weak, o.whole(), null, null, null, null, null));
            assertEquals(16L, raised.result().bound(), "at " + units);
            assertEquals(r.objective() == 16 ? SolveStatus.OPTIMAL : SolveStatus.FEASIBLE, raised.result().status());
            assertEquals(raised.result().status(), raised.result().plan().solver().status());
            assertTrue(raised.result().notes().get(raised.result().notes().size() - 1)
                    .startsWith("bound 16 from the cover summed over time"), raised.result().notes().toString());
            assertEquals(16L, raised.whole().bound());
        }
    }

    /**
     * RecomputeBoundTest's graph: x:1 -> A -> p:4 -> B -> b:5 -> C -> c:5; c, p -> D -> q:4 -> E -> e:5 -> F -> f:5;
     * f, q -> G -> out:1. At 13 bytes p is off chip while C runs and q while F runs: each pays a spill and a load at
     * different times, 16 in all, where one operator's view sees 8.
     */
    private static Graph twoTimes() {
        return Graph.builder("two-times")
                .activation("x", 1).activation("p", 4).activation("b", 5).activation("c", 5).activation("q", 4)
                .activation("e", 5).activation("f", 5).activation("out", 1)
                .operator("A", List.of("x"), List.of("p")).operator("B", List.of("p"), List.of("b"))
                .operator("C", List.of("b"), List.of("c")).operator("D", List.of("c", "p"), List.of("q"))
                .operator("E", List.of("q"), List.of("e")).operator("F", List.of("e"), List.of("f"))
                .operator("G", List.of("f", "q"), List.of("out")).output("out").build();
    }
}
