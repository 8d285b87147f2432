package dev.memplan.formulations;

import static dev.memplan.formulations.RecomputeGraphs.readEarlyAndLate;
import static dev.memplan.formulations.RecomputeGraphs.skips;
import static dev.memplan.formulations.RecomputeGraphs.tiny;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.formulations.cosma.RecomputeSolver;
import dev.memplan.formulations.cosma.Reruns;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.model.Budgets;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.SolveStatus;
import dev.memplan.model.TensorSetting;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link Reruns#mayPay}: the plans that rerun only the operators it allows hold an optimum of every plan, on the
 * exhaustive {@link RecomputeBruteForce} (tiny graphs, up to two reruns, lambdas around the threshold).
 */
class RerunsMayPayTest {
    private static final TensorSetting ALL = TensorSetting.ALL;

    @Test
    void theThresholdIsOutputBytesPlusTheirSpills() {
        // y:4 made by a (cost 1), not a graph output: a rerun pays when lambda < 8; v:1 is a graph output: d's rerun
        // pays when 5 lambda < 1.
        Graph g = readEarlyAndLate().withSetting(ALL);
        int a = g.operatorIndex("a");
        int d = g.operatorIndex("d");
        assertTrue(Reruns.mayPay(g, 7.99, a));
        assertFalse(Reruns.mayPay(g, 8, a));
        assertTrue(Reruns.mayPay(g, 0.19, d));
        assertFalse(Reruns.mayPay(g, 0.2, d));
    }

    @Test
    void restrictingReranOperatorsToThoseThatMayPayKeepsTheOptimum() {
        List<Graph> graphs = new ArrayList<>();
        graphs.add(readEarlyAndLate());
        for (int seed = 0; seed < 8; seed++) {
            graphs.add(tiny(seed, 4));
            graphs.add(skips(seed, 4 + seed % 2));
        }
        int restricted = 0;
        int cutReruns = 0;
        for (Graph graph : graphs) {
            Graph g = graph.withSetting(ALL);
            long mr = Budgets.minimumRequired(g);
            for (long budget : new long[] {mr, mr + 1, mr + 3}) {
                for (double lambda : new double[] {0.25, 0.5, 1, 2}) {
                    RecomputeBruteForce.Optimum all = RecomputeBruteForce.minimum(g, ALL, budget, 2, lambda);
                    RecomputeBruteForce.Optimum some = RecomputeBruteForce.minimum(g, ALL, budget, 2, lambda,
                            o -> Reruns.mayPay(g, lambda, o));
                    String c = g.name() + " B " + budget + " lambda " + lambda;
                    assertEquals(all == null, some == null, c);
                    if (all == null) {
                        continue;
                    }
                    assertEquals(all.objective(), some.objective(), 1e-9, c);
                    boolean cut = false;
                    for (int o = 0; o < g.operatorCount(); o++) {
                        cut |= !Reruns.mayPay(g, lambda, o);
                    }
                    restricted += cut ? 1 : 0;
                    RecomputeBruteForce.Optimum none = RecomputeBruteForce.minimum(g, ALL, budget, 2, lambda,
                            o -> false);
                    // An optimum the restriction is tested on: one whose reruns lower the objective.
                    cutReruns += cut && none.objective() > all.objective() ? 1 : 0;
                }
            }
        }
        assertTrue(restricted > 20, "cases with an operator ruled out: " + restricted);
        assertTrue(cutReruns > 5, "cases where reruns pay and an operator is ruled out: " + cutReruns);
    }

    /**
     * The mask of the joint program is its set and {@link Reruns#mayPay}; with it (the program has no rerun variable
     * of a ruled-out operator) the program's proven optimum is still the brute force's over every plan, on cases
     * where an operator is ruled out and reruns pay, at k = 1 and 2.
     */
    @Test
    void theJointProgramWithTheMaskKeepsTheBruteForcesOptimum() {
        List<Graph> graphs = new ArrayList<>(List.of(readEarlyAndLate()));
        for (int seed = 0; seed < 4; seed++) {
            graphs.add(tiny(seed, 4));
            graphs.add(skips(seed, 4 + seed % 2));
        }
        int cases = 0;
        for (Graph graph : graphs) {
            Graph g = graph.withSetting(ALL);
            long mr = Budgets.minimumRequired(g);
            for (long budget : new long[] {mr, mr + 1}) {
                for (double lambda : new double[] {0.25, 1}) {
                    boolean[] mask = Reruns.ANY.of(g, lambda);
                    boolean cut = false;
                    for (int o = 0; o < g.operatorCount(); o++) {
                        assertEquals(Reruns.mayPay(g, lambda, o), mask[o]);
                        cut |= !mask[o];
                    }
                    for (int k = 1; k <= 2; k++) {
                        String c = g.name() + " B " + budget + " lambda " + lambda + " k " + k;
                        RecomputeBruteForce.Optimum all = RecomputeBruteForce.minimum(g, ALL, budget, k, lambda);
                        RecomputeSolver.Result r = RecomputeSolver.solve(g, ALL, budget,
                                RecomputeSolver.Request.of(k, lambda, Backend.CPSAT), Limits.DEFAULT);
                        assertEquals(SolveStatus.OPTIMAL, r.status(), c);
                        assertTrue(PlanChecker.check(g, r.plan()).valid(), c);
                        assertEquals(all.objective(), r.objective().value(), 1e-9, c);
                        assertTrue(r.bound() <= all.objective() + 1e-9, c);
                        RecomputeBruteForce.Optimum none = RecomputeBruteForce.minimum(g, ALL, budget, 0, lambda);
                        cases += cut && none.objective() > all.objective() ? 1 : 0;
                    }
                }
            }
        }
        assertTrue(cases > 3, "cases where an operator is ruled out and reruns pay: " + cases);
    }
}
