package dev.memplan.formulations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.formulations.cosma.CosmaResult;
import dev.memplan.formulations.cosma.CosmaSolver;
import dev.memplan.formulations.cosma.RecomputeSolver;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.model.Budgets;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Operator;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.SolveStatus;
import dev.memplan.model.TensorSetting;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The joint program with recomputation ({@code RecomputeFormulation}) against the exhaustive
 * {@link RecomputeBruteForce}, and the brute force against {@link BruteForce} without recomputes: tiny graphs,
 * k = 0, 1, 2 extra runs, a small and a large lambda, budgets M_R and M_H.
 */
class RecomputeOptimalityTest {
    private static final TensorSetting ALL = TensorSetting.ALL;
    /** A cheap recompute: 1/4 byte per cost unit; and a dear one. */
    private static final double CHEAP = 0.25;
    private static final double DEAR = 64;

    /** The random tiny graphs of {@link BruteForceTest}, with a cost of 1 .. 8 per operator. */
    private static Graph tiny(long seed, int operators) {
        Random r = new Random(seed);
        Graph g = BruteForce.randomTinyGraph(r, operators, seed % 2 == 1);
        List<Operator> ops = new ArrayList<>();
        for (Operator o : g.operators()) {
            ops.add(o.withCost(1L + r.nextInt(8)));
        }
        return new Graph(g.name() + seed, g.alignment(), g.tensors(), ops, g.outputs());
    }

    /** x:1 -> a (cost 1) -> y:4 -> b -> z:4 -> c -> u:4; y, u -> d -> v:1: y is read at 1 and 3. */
    static Graph readEarlyAndLate() {
        return Graph.builder("early-late")
                .activation("x", 1).activation("y", 4).activation("z", 4).activation("u", 4).activation("v", 1)
                .operator(new Operator("a", null, List.of("x"), List.of("y"), 1L))
                .operator(new Operator("b", null, List.of("y"), List.of("z"), 5L))
                .operator(new Operator("c", null, List.of("z"), List.of("u"), 5L))
                .operator(new Operator("d", null, List.of("y", "u"), List.of("v"), 5L))
                .output("v").build();
    }

    private static RecomputeSolver.Result program(Graph g, long budget, int k, double lambda) {
        RecomputeSolver.Result r = RecomputeSolver.solve(g, ALL, budget, k, lambda, Backend.CPSAT, Limits.DEFAULT);
        assertEquals(SolveStatus.OPTIMAL, r.status(), g + " B " + budget + " k " + k + " lambda " + lambda);
        assertTrue(PlanChecker.check(g.withSetting(ALL), r.plan()).valid());
        assertTrue(r.plan().schedule().recomputes() <= k);
        return r;
    }

    @Test
    void withoutExtraRunsTheBruteForceIsCosmasBruteForce() {
        for (int seed = 0; seed < 6; seed++) {
            Graph g = tiny(seed, 4 + seed % 2);
            long mr = Budgets.minimumRequired(g.withSetting(ALL));
            for (long b = mr; b <= mr + 3; b++) {
                RecomputeBruteForce.Optimum with = RecomputeBruteForce.minimum(g, ALL, b, 0, DEAR);
                BruteForce.Optimum without = BruteForce.minTraffic(g, ALL, b, null);
                assertNotNull(with, "seed " + seed + " B " + b);
                assertEquals(without.traffic(), with.traffic(), "seed " + seed + " B " + b);
                assertEquals(0, with.recomputeCost());
            }
        }
    }

    @Test
    void programEqualsBruteForceOnRandomTinyGraphs() {
        for (int seed = 0; seed < 6; seed++) {
            Graph g = tiny(10 + seed, 3 + seed % 2);
            Graph s = g.withSetting(ALL);
            long mr = Budgets.minimumRequired(s);
            long mh = (mr + BruteForce.minPeak(s)) / 2;
            for (long b : new long[] {mr, Math.max(mr, mh)}) {
                for (int k = 0; k <= 2; k++) {
                    for (double lambda : new double[] {CHEAP, DEAR}) {
                        String where = "seed " + seed + " B " + b + " k " + k + " lambda " + lambda;
                        RecomputeBruteForce.Optimum oracle = RecomputeBruteForce.minimum(g, ALL, b, k, lambda);
                        assertNotNull(oracle, where);
                        RecomputeSolver.Result r = program(g, b, k, lambda);
                        assertEquals(oracle.objective(), r.objective().value(), where);
                    }
                }
            }
        }
    }

    @Test
    void withoutExtraRunsTheProgramIsCosma() {
        for (int seed = 0; seed < 4; seed++) {
            Graph g = tiny(20 + seed, 4);
            long mr = Budgets.minimumRequired(g.withSetting(ALL));
            for (long b = mr; b <= mr + 2; b++) {
                CosmaResult cosma = CosmaSolver.solve(g, ALL, b, CosmaSolver.Options.traffic(Backend.CPSAT),
                        Limits.DEFAULT);
                assertEquals(SolveStatus.OPTIMAL, cosma.status());
                RecomputeSolver.Result r = program(g, b, 0, CHEAP);
                assertEquals(cosma.objective().longValue(), r.objective().traffic(), "seed " + seed + " B " + b);
                assertEquals(0, r.plan().schedule().recomputes());
            }
        }
    }

    /**
     * At budget 9, keeping y (4 bytes) from a to d needs 12 bytes during c: spill only pays 8 (write y, read it
     * back); running a again for cost 1 while x (1 byte) stays on chip pays nothing in traffic.
     */
    @Test
    void recomputingStrictlyLowersTheObjective() {
        Graph g = readEarlyAndLate();
        assertEquals(8, BruteForce.minTraffic(g, ALL, 9, null).traffic());
        RecomputeBruteForce.Optimum oracle = RecomputeBruteForce.minimum(g, ALL, 9, 1, 1);
        assertEquals(0, oracle.traffic());
        assertEquals(1, oracle.recomputeCost());
        RecomputeSolver.Result cheap = program(g, 9, 1, 1);
        assertEquals(1.0, cheap.objective().value());
        assertEquals(List.of("a", "b", "c", "a", "d"), cheap.plan().schedule().operators());
        assertEquals(1, cheap.check().traffic().recomputes());
        RecomputeSolver.Result spillOnly = program(g, 9, 0, 1);
        assertEquals(8.0, spillOnly.objective().value());
        RecomputeSolver.Result dear = program(g, 9, 1, DEAR);
        assertEquals(8.0, dear.objective().value());
        assertEquals(0, dear.objective().recomputeCost());
        assertEquals(RecomputeBruteForce.minimum(g, ALL, 9, 1, DEAR).objective(), dear.objective().value());
    }

    /** Raising lambda never raises the optimal recompute cost (exchange argument), and never lowers the objective. */
    @Test
    void largerLambdaNeverIncreasesRecomputeCost() {
        for (Graph g : new Graph[] {readEarlyAndLate(), tiny(31, 4), tiny(32, 4)}) {
            long mr = Budgets.minimumRequired(g.withSetting(ALL));
            long previousCost = Long.MAX_VALUE;
            double previousValue = -1;
            for (double lambda : new double[] {0.125, 1, 8, 64}) {
                RecomputeSolver.Result r = program(g, mr, 2, lambda);
                assertTrue(r.objective().recomputeCost() <= previousCost, g + " lambda " + lambda);
                assertTrue(r.objective().value() >= previousValue, g + " lambda " + lambda);
                previousCost = r.objective().recomputeCost();
                previousValue = r.objective().value();
            }
        }
    }

    @Test
    void belowMinimumRequiredIsInfeasible() {
        Graph g = readEarlyAndLate();
        long mr = Budgets.minimumRequired(g);
        assertNull(RecomputeBruteForce.minimum(g, ALL, mr - 1, 2, 1));
        assertEquals(SolveStatus.INFEASIBLE,
                RecomputeSolver.solve(g, ALL, mr - 1, 2, 1, Backend.CPSAT, Limits.DEFAULT).status());
    }
}
