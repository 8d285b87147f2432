package dev.memplan.decomposition;

import static dev.memplan.formulations.RecomputeGraphs.minimumObjective;
import static dev.memplan.formulations.RecomputeGraphs.readEarlyAndLate;
import static dev.memplan.formulations.RecomputeGraphs.skips;
import static dev.memplan.formulations.RecomputeGraphs.tiny;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.datasets.Examples;
import dev.memplan.datasets.TrainingGraphs;
import dev.memplan.formulations.cosma.CosmaSolver;
import dev.memplan.formulations.cosma.RecomputeBound;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.model.Budget;
import dev.memplan.model.Budgets;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Objective;
import dev.memplan.model.Plan;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.SolveStatus;
import dev.memplan.model.TensorSetting;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link RunPathSearch} against the exhaustive {@link dev.memplan.formulations.RecomputeBruteForce} (every plan with at
 * most two reruns, addresses included): the search's optimum is never above the brute force's (it is over every
 * plan without addresses, any number of reruns), and where its own plan packs, is checked and reruns at most twice,
 * the two are equal.
 */
class RunPathSearchTest {
    private static final TensorSetting ALL = TensorSetting.ALL;

    private static Limits unlimited() {
        return Limits.DEFAULT;
    }

    private static List<Graph> graphs() {
        List<Graph> graphs = new ArrayList<>(List.of(readEarlyAndLate(), PricedBoundsTest.twoBranches(1)));
        for (int seed = 0; seed < 10; seed++) {
            graphs.add(tiny(seed, 4));
            graphs.add(skips(seed, 4 + seed % 2));
        }
        return graphs;
    }

    @Test
    void neverAboveTheBruteForceAndEqualWhereItsPlanPacks() {
        int cases = 0;
        int equal = 0;
        int rerunsEqual = 0;
        for (Graph graph : graphs()) {
            Graph g = graph.withSetting(ALL);
            long mr = Budgets.minimumRequired(g);
            for (long budget : new long[] {mr, mr + 1, mr + 3}) {
                for (double lambda : new double[] {1.0 / 256, 1.0 / 8, 1, 64}) {
                    Double optimum = minimumObjective(g, ALL, budget, 2, lambda);
                    RunPathSearch.Result r = RunPathSearch.of(g, ALL, budget, lambda, Double.POSITIVE_INFINITY,
                            unlimited());
                    assertTrue(r.exact(), g.name() + " finishes");
                    assertNotNull(r.plan(), g.name() + " has a path");
                    cases++;
                    String at = g.name() + " B=" + budget + " lambda=" + lambda;
                    if (optimum == null) {
                        continue;
                    }
                    assertTrue(r.bound() <= optimum + 1e-9, at + ": search " + r.bound() + " > brute " + optimum);
                    Plan plan = RunPathSearch.packed(g, r.plan(), budget, unlimited());
                    if (plan == null) {
                        continue;
                    }
                    double made = Objective.of(PlanChecker.check(g, plan).traffic(), lambda).value();
                    assertEquals(r.bound(), made, 1e-9, at + ": the plan pays the path's cost");
                    if (plan.schedule().recomputes() <= 2) {
                        assertEquals(optimum, r.bound(), 1e-9, at + ": equal to the brute force");
                        equal++;
                        if (plan.schedule().recomputes() > 0) {
                            rerunsEqual++;
                        }
                    }
                }
            }
        }
        assertTrue(equal > cases / 2, equal + " of " + cases + " equal");
        assertTrue(rerunsEqual > 0, "some equal optima rerun");
    }

    /**
     * A cut-off at the optimum leaves the optimum (a path of cost equal to it is kept); a cut-off below it leaves
     * nothing, and the bound is the cut-off; a search cut short by work gives a bound at most the optimum, the same
     * on every run.
     */
    @Test
    void cutOffAndWorkLimit() {
        Graph g = skips(3, 5).withSetting(ALL);
        long mr = Budgets.minimumRequired(g);
        double lambda = 1.0 / 8;
        RunPathSearch.Result full = RunPathSearch.of(g, ALL, mr, lambda, Double.POSITIVE_INFINITY, unlimited());
        RunPathSearch.Result at = RunPathSearch.of(g, ALL, mr, lambda, full.bound(), unlimited());
        assertEquals(full.bound(), at.bound(), 1e-12);
        assertNotNull(at.plan());
        RunPathSearch.Result below = RunPathSearch.of(g, ALL, mr, lambda, full.bound() - 1, unlimited());
        assertEquals(full.bound() - 1, below.bound(), 1e-12);
        Limits tiny = Limits.DEFAULT.withBudget(Budget.ofWork(1e-5, null));
        RunPathSearch.Result cut = RunPathSearch.of(g, ALL, mr, lambda, Double.POSITIVE_INFINITY, tiny);
        RunPathSearch.Result again = RunPathSearch.of(g, ALL, mr, lambda, Double.POSITIVE_INFINITY,
                Limits.DEFAULT.withBudget(Budget.ofWork(1e-5, null)));
        assertTrue(cut.bound() <= full.bound() + 1e-12);
        assertEquals(cut.bound(), again.bound(), 0.0);
        assertEquals(cut.expanded(), again.expanded());
    }

    /**
     * In the road (free schedule, no limit), on chains with skips of 5 operators (checked against the brute force)
     * and 8 (where {@code RecomputePipelineTest} saw the covers, even over integers, stay below the optimum): every
     * answer is checked, the bound never passes the brute force's optimum and meets the objective where the status is
     * OPTIMAL, and the search proves optima that {@link RecomputeBound}'s covers, over integers, leave open.
     */
    @Test
    void theRoadProvesTinyGraphsTheCoversLeaveOpen() {
        int optimal = 0;
        int beyondCovers = 0;
        for (int seed = 0; seed < 9; seed++) {
            Graph g = skips(200 + seed, seed < 6 ? 5 : 8);
            Graph s = g.withSetting(ALL);
            long mr = Budgets.minimumRequired(s);
            for (long b = mr; b <= mr + 2; b++) {
                double lambda = 0.125;
                CosmaPipeline.Outcome o = new CosmaPipeline(CosmaPipeline.Settings.of(
                        CosmaSolver.Options.traffic(Backend.CPSAT), null).withDecompose(CosmaPipeline.Decompose.NONE)
                        .withRecomputeWeight(lambda), null).run(g, ALL, b, Limits.DEFAULT, null);
                String where = g.name() + " B " + b;
                assertTrue(PlanChecker.check(s, o.result().plan()).valid(), where);
                RecomputeOutcome rc = o.recompute();
                double value = rc.objective().value();
                assertTrue(value >= rc.bound() - 1e-9, where);
                assertEquals(value <= rc.bound(), rc.status() == SolveStatus.OPTIMAL, where);
                if (seed < 6) {
                    Double brute = minimumObjective(g, ALL, b, 2, lambda);
                    assertNotNull(brute, where);
                    assertTrue(rc.bound() <= brute + 1e-9, where + ": bound " + rc.bound() + " > " + brute);
                    assertTrue(rc.status() != SolveStatus.OPTIMAL || Math.abs(brute - value) < 1e-9, where);
                }
                double covers = RecomputeBound.of(s, b, lambda, null, Budget.unlimited(),
                        new RecomputeBound.Integral(Limits.DEFAULT.child(), value)).value();
                if (rc.status() == SolveStatus.OPTIMAL) {
                    optimal++;
                    if (covers < value - 1e-9) {
                        beyondCovers++;
                    }
                }
            }
        }
        assertTrue(beyondCovers > 0, optimal + " optimal, " + beyondCovers + " beyond the covers");
    }

    /**
     * Dominance with offsets (a state whose cost plus the loads and spills it lacks is at most another's prunes it)
     * loses nothing: on graphs of 7 and 8 operators, cheap to dear reruns, the search reaches the optimum of the search
     * with the plain rule (a superset on chip and written out, a cost no higher), and where the offsets prune (fewer
     * states made), that optimum is checked against the brute force (every plan of at most two reruns, addresses
     * included): never above it, equal where the search's plan packs and reruns at most twice.
     */
    @Test
    void dominanceWithOffsetsKeepsTheOptimum() {
        int fewer = 0;
        int brute = 0;
        for (int seed = 0; seed < 6; seed++) {
            for (Graph graph : List.of(tiny(seed, 7), skips(seed, 8))) {
                Graph g = graph.withSetting(ALL);
                long mr = Budgets.minimumRequired(g);
                for (long budget : new long[] {mr, mr + 1, mr + 3}) {
                    for (double lambda : new double[] {1.0 / 256, 1.0 / 8, 1}) {
                        String at = g.name() + " B=" + budget + " lambda=" + lambda;
                        RunPathSearch.Result wide = RunPathSearch.of(g, ALL, budget, lambda,
                                Double.POSITIVE_INFINITY, unlimited());
                        RunPathSearch.Result plain = RunPathSearch.of(g, ALL, budget, lambda,
                                Double.POSITIVE_INFINITY, unlimited(), true);
                        assertTrue(wide.exact() && plain.exact(), at);
                        assertEquals(plain.bound(), wide.bound(), 1e-12, at);
                        assertTrue(wide.generated() <= plain.generated(), at);
                        if (wide.generated() == plain.generated() || brute >= 4) {
                            continue;
                        }
                        fewer++;
                        if (lambda == 1 || budget != mr) {
                            continue;
                        }
                        brute++;
                        Double optimum = minimumObjective(g, ALL, budget, 2, lambda);
                        assertNotNull(optimum, at);
                        assertTrue(wide.bound() <= optimum + 1e-9, at + ": search " + wide.bound() + " > " + optimum);
                        Plan plan = RunPathSearch.packed(g, wide.plan(), budget, unlimited());
                        if (plan != null && plan.schedule().recomputes() <= 2) {
                            assertEquals(optimum, wide.bound(), 1e-9, at);
                        }
                    }
                }
            }
        }
        assertTrue(fewer >= 4 && brute >= 2, fewer + " pruned by the offsets, " + brute + " against the brute force");
    }

    /**
     * fig1's training step at M_R (16 operators, 22 tensors) with reruns at 2^-8: the search finishes (within its
     * state cap) at 56 + 2^-8 x 464 = 57.8125, below the joint program's plan of 64.8125 (session 27), and its path
     * packs at M_R into a checked plan of exactly that objective, so the optimum without addresses is met by a plan
     * with addresses.
     */
    @Test
    void provesFig1TrainingAtMinimumRequiredWithCheapReruns() {
        Graph g = TrainingGraphs.of(Examples.graph("fig1"), TrainingGraphs.Step.BACKWARD)
                .withSetting(TensorSetting.ACTIVATIONS);
        long mr = Budgets.minimumRequired(g);
        double lambda = 1.0 / 256;
        RunPathSearch.Result r = RunPathSearch.of(g, TensorSetting.ACTIVATIONS, mr, lambda, 64.8125, unlimited());
        assertTrue(r.exact());
        assertEquals(57.8125, r.bound(), 0.0);
        Plan plan = RunPathSearch.packed(g, r.plan(), mr, unlimited());
        assertNotNull(plan);
        assertEquals(57.8125, Objective.of(PlanChecker.check(g, plan).traffic(), lambda).value(), 0.0);
    }
}
