package dev.memplan.formulations;

import static dev.memplan.formulations.RecomputeGraphs.readEarlyAndLate;
import static dev.memplan.formulations.RecomputeGraphs.skips;
import static dev.memplan.formulations.RecomputeGraphs.tiny;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.formulations.cosma.CosmaResult;
import dev.memplan.formulations.cosma.CosmaSolver;
import dev.memplan.formulations.cosma.RecomputeSolver;
import dev.memplan.formulations.cosma.Reruns;
import dev.memplan.formulations.cosma.Technique;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.model.Budget;
import dev.memplan.model.Budgets;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Operator;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.Schedule;
import dev.memplan.model.SolveStatus;
import dev.memplan.model.Tensor;
import dev.memplan.model.TensorSetting;
import dev.memplan.model.TrainingStep;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The joint program with recomputation ({@code RecomputeFormulation}) against the exhaustive
 * {@link RecomputeBruteForce}, and the brute force against {@link BruteForce} without recomputes: tiny graphs,
 * k = 0, 1, 2 extra runs, a small and a large lambda, budgets M_R and M_H.
 */
class RecomputeOptimalityTest {
    private static final TensorSetting ALL = TensorSetting.ALL;
    /** A cheap recompute: 1/8 byte per cost unit; and a dear one. */
    private static final double CHEAP = 0.125;
    private static final double DEAR = 64;

    private static RecomputeSolver.Result program(Graph g, long budget, int k, double lambda) {
        return program(g, budget, k, lambda, Backend.CPSAT);
    }

    private static RecomputeSolver.Result program(Graph g, long budget, int k, double lambda, Backend backend) {
        RecomputeSolver.Result r = RecomputeSolver.solve(g, ALL, budget, k, lambda, backend, Limits.DEFAULT);
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

    /**
     * On BruteForceTest's random tiny graphs (M_R and M_H) and on chains with skips (every budget from M_R to
     * below M_P), for k = 0, 1, 2 and a cheap and a dear lambda: the program's optimum is the brute force's, more
     * runs never cost more, and some cases recompute and strictly gain by it.
     */
    @Test
    void programEqualsBruteForceOnRandomTinyGraphs() {
        int[] counts = new int[3];
        for (int seed = 0; seed < 6; seed++) {
            Graph g = tiny(10 + seed, 3 + seed % 2);
            Graph s = g.withSetting(ALL);
            long mr = Budgets.minimumRequired(s);
            long mh = (mr + BruteForce.minPeak(s)) / 2;
            compare(g, mr, counts);
            if (mh > mr) {
                compare(g, mh, counts);
            }
        }
        for (int seed = 0; seed < 4; seed++) {
            Graph g = skips(seed, 4 + seed % 2);
            long mr = Budgets.minimumRequired(g);
            long mp = BruteForce.minPeak(g);
            for (long b = mr; b < mp; b++) {
                compare(g, b, counts);
            }
        }
        assertTrue(counts[1] > 0 && counts[2] > 0, "cases " + counts[0] + ", lowered by recomputing " + counts[1]
                + ", optima that recompute " + counts[2]);
    }

    /** One graph and budget; counts[0] cases, [1] where an extra run lowers the optimum, [2] optima that recompute. */
    private static void compare(Graph g, long b, int[] counts) {
        for (double lambda : new double[] {CHEAP, DEAR}) {
            double spillOnly = Double.NaN;
            for (int k = 0; k <= 2; k++) {
                String where = g.name() + " B " + b + " k " + k + " lambda " + lambda;
                RecomputeBruteForce.Optimum oracle = RecomputeBruteForce.minimum(g, ALL, b, k, lambda);
                assertNotNull(oracle, where);
                RecomputeSolver.Result r = program(g, b, k, lambda);
                assertEquals(oracle.objective(), r.objective().value(), where);
                counts[0]++;
                if (k == 0) {
                    spillOnly = oracle.objective();
                } else {
                    assertTrue(oracle.objective() <= spillOnly, where + ": more runs never cost more");
                    counts[1] += oracle.objective() < spillOnly ? 1 : 0;
                    counts[2] += r.objective().recomputeCost() > 0 ? 1 : 0;
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
        RecomputeSolver.Result scip = program(g, 9, 1, 1, Backend.SCIP);
        assertEquals(1.0, scip.objective().value());
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

    /**
     * Costs of MAC size (2^40) with lambda 2^-40 are the same problem as costs 1 with lambda 1: the objective is
     * scaled exactly. A lambda that is no short binary fraction (0.1) gives the same plan as the brute force but is
     * not called proven, since the program rounds lambda D.
     */
    @Test
    void theObjectiveIsScaledExactlyOrNotCalledProven() {
        Graph small = readEarlyAndLate();
        List<Operator> ops = new ArrayList<>();
        for (Operator o : small.operators()) {
            ops.add(o.withCost(o.cost() << 40));
        }
        Graph huge = new Graph("huge-costs", 1, small.tensors(), ops, small.outputs());
        RecomputeSolver.Result r = program(huge, 9, 1, Math.scalb(1.0, -40));
        assertEquals(1.0, r.objective().value());
        assertEquals(1L << 40, r.objective().recomputeCost());

        RecomputeSolver.Result tenth = RecomputeSolver.solve(small, ALL, 9, 1, 0.1, Backend.CPSAT, Limits.DEFAULT);
        assertEquals(SolveStatus.FEASIBLE, tenth.status());
        assertEquals(RecomputeBruteForce.minimum(small, ALL, 9, 1, 0.1).objective(), tenth.objective().value());
    }

    /** Alignment 2 with odd sizes: the program and the brute force agree from the least aligned budget up. */
    @Test
    void alignedOptimaAgree() {
        for (int seed = 0; seed < 2; seed++) {
            Graph g1 = skips(40 + seed, 4);
            Graph g = new Graph(g1.name(), 2, g1.tensors(), g1.operators(), g1.outputs());
            long from = Budgets.minimumFeasible(g);
            for (long b = from; b <= from + 2; b++) {
                RecomputeBruteForce.Optimum oracle = RecomputeBruteForce.minimum(g, ALL, b, 1, CHEAP);
                RecomputeSolver.Result r = program(g, b, 1, CHEAP);
                assertEquals(oracle.objective(), r.objective().value(), "seed " + seed + " B " + b);
                r.plan().segments().values().forEach(l -> l.forEach(x -> assertEquals(0, x.offset() % 2)));
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

    /**
     * The windows lose no plan: with and without them the optimum is the brute force's. A fixed schedule (the
     * order of the original operators' first runs) is a restriction: with the order of the brute force's optimal
     * plan it keeps that optimum, with any other it is no better. Random tiny graphs and chains with skips, k = 1
     * and 2, both lambdas.
     */
    @Test
    void windowsAndTheFixedScheduleKeepTheOptimum() {
        int cases = 0;
        for (int seed = 0; seed < 4; seed++) {
            Graph g = seed % 2 == 0 ? skips(50 + seed, 5) : tiny(50 + seed, 4);
            long mr = Budgets.minimumRequired(g.withSetting(ALL));
            for (long b = mr; b <= mr + 2; b++) {
                for (int k = 1; k <= 2; k++) {
                    for (double lambda : new double[] {CHEAP, DEAR}) {
                        String where = g.name() + " B " + b + " k " + k + " lambda " + lambda;
                        RecomputeBruteForce.Optimum oracle = RecomputeBruteForce.minimum(g, ALL, b, k, lambda);
                        RecomputeSolver.Request free = RecomputeSolver.Request.of(k, lambda, Backend.CPSAT);
                        RecomputeSolver.Result unpruned = request(g, b, free.without(Set.of(Technique.PRUNE)));
                        assertEquals(oracle.objective(), unpruned.objective().value(), where + " without windows");
                        Schedule firsts = new Schedule(new ArrayList<>(
                                new LinkedHashSet<>(oracle.plan().schedule().operators())));
                        RecomputeSolver.Result fixed = request(g, b, free.withSchedule(firsts));
                        assertEquals(oracle.objective(), fixed.objective().value(), where + " in the oracle's order");
                        assertEquals(firsts.operators(), new ArrayList<>(
                                new LinkedHashSet<>(fixed.plan().schedule().operators())), where);
                        RecomputeSolver.Result byDefault = request(g, b,
                                free.withSchedule(Schedule.defaultOrder(g)));
                        assertTrue(byDefault.objective().value() >= oracle.objective(), where + " default order");
                        cases++;
                    }
                }
            }
        }
        assertEquals(48, cases);
    }

    /**
     * A starting plan is a hint and a floor: given COSMA's spill-only optimum (k = 0), the program still finds the
     * brute force's optimum; under a work limit too small to solve anything the result is that plan, never worse,
     * and said to be it.
     */
    @Test
    void theStartingPlanNeverWorsensTheResult() {
        for (int seed = 0; seed < 3; seed++) {
            Graph g = skips(60 + seed, 5);
            long mr = Budgets.minimumRequired(g);
            CosmaResult spillOnly = CosmaSolver.solve(g, ALL, mr, CosmaSolver.Options.traffic(Backend.CPSAT),
                    Limits.DEFAULT);
            assertEquals(SolveStatus.OPTIMAL, spillOnly.status());
            RecomputeSolver.Request hinted = RecomputeSolver.Request.of(2, CHEAP, Backend.CPSAT)
                    .withStart(spillOnly.plan());
            RecomputeSolver.Result r = request(g, mr, hinted);
            assertEquals(RecomputeBruteForce.minimum(g, ALL, mr, 2, CHEAP).objective(), r.objective().value());
            assertTrue(r.objective().value() <= spillOnly.objective(), "seed " + seed);

            Limits starved = Limits.DEFAULT.withBudget(Budget.ofWork(1e-6, null));
            RecomputeSolver.Result quick = RecomputeSolver.solve(g, ALL, mr, hinted, starved);
            assertTrue(quick.objective().value() <= spillOnly.objective(), "seed " + seed);
            assertEquals(quick.startOnly(), quick.plan() == spillOnly.plan(), "seed " + seed);
            assertTrue(PlanChecker.check(g, quick.plan()).valid());
        }
    }

    /**
     * Sizes with a common factor are counted in units of its largest power of two: 4 times every size, the budget
     * and lambda give 4 times the objective, and plans whose offsets are multiples of 4.
     */
    @Test
    void sizesAreCountedInTheirCommonPowerOfTwo() {
        for (int seed = 0; seed < 2; seed++) {
            Graph g = skips(70 + seed, 4);
            List<Tensor> scaled = new ArrayList<>();
            for (Tensor t : g.tensors()) {
                scaled.add(new Tensor(t.name(), 4 * t.size(), t.kind(), t.shape(), t.dtype()));
            }
            Graph big = new Graph(g.name() + "x4", 1, scaled, g.operators(), g.outputs());
            long mr = Budgets.minimumRequired(g);
            RecomputeSolver.Result r = program(g, mr, 1, CHEAP);
            RecomputeSolver.Result r4 = program(big, 4 * mr, 1, 4 * CHEAP);
            assertEquals(4 * r.objective().value(), r4.objective().value(), "seed " + seed);
            r4.plan().segments().values().forEach(l -> l.forEach(x -> assertEquals(0, x.offset() % 4)));
        }
    }

    /**
     * A training step's shape (forward a, b; loss; backward d reading a's output): with {@link Reruns#FORWARD}
     * only the forward operators run again, and the optimum is never below the one where any operator may.
     */
    @Test
    void forwardRerunsRerunOnlyTheForwardPass() {
        Graph g = Graph.builder("step")
                .activation("x", 1).activation("y", 4).activation("z", 4).activation("l", 1).activation("u", 4)
                .activation("v", 1)
                .operator(new Operator("a", null, List.of("x"), List.of("y"), 1L))
                .operator(new Operator("b", null, List.of("y"), List.of("z"), 5L))
                .operator(new Operator(TrainingStep.LOSS, null, List.of("z"), List.of("l"), 1L))
                .operator(new Operator("c", null, List.of("l"), List.of("u"), 5L))
                .operator(new Operator("d", null, List.of("y", "u"), List.of("v"), 5L))
                .output("v").build();
        assertEquals(2, TrainingStep.forwardCount(g));
        long mr = Budgets.minimumRequired(g);
        for (long b = mr; b <= mr + 3; b++) {
            RecomputeSolver.Request any = RecomputeSolver.Request.of(2, CHEAP, Backend.CPSAT);
            RecomputeSolver.Result all = request(g, b, any);
            RecomputeSolver.Result forward = request(g, b, any.withReruns(Reruns.FORWARD));
            assertEquals(RecomputeBruteForce.minimum(g, ALL, b, 2, CHEAP).objective(), all.objective().value());
            assertTrue(forward.objective().value() >= all.objective().value(), "B " + b);
            boolean[] again = forward.plan().schedule().recomputeRuns();
            for (int t = 0; t < again.length; t++) {
                String op = forward.plan().schedule().operators().get(t);
                assertTrue(!again[t] || op.equals("a") || op.equals("b"), "B " + b + ": " + op + " reruns");
            }
        }
    }

    private static RecomputeSolver.Result request(Graph g, long budget, RecomputeSolver.Request request) {
        RecomputeSolver.Result r = RecomputeSolver.solve(g, ALL, budget, request, Limits.DEFAULT);
        assertEquals(SolveStatus.OPTIMAL, r.status(), g + " B " + budget + " " + request);
        assertTrue(PlanChecker.check(g.withSetting(ALL), r.plan()).valid());
        assertTrue(r.plan().schedule().recomputes() <= request.extraRuns());
        return r;
    }
}
