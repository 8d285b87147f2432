package dev.memplan.decomposition;

import static dev.memplan.decomposition.RecomputeSearchTest.belady;
import static dev.memplan.decomposition.RecomputeSearchTest.chain3;
import static dev.memplan.decomposition.RecomputeSearchTest.objective;
import static dev.memplan.formulations.RecomputeGraphs.minimumObjective;
import static dev.memplan.formulations.RecomputeGraphs.readEarlyAndLate;
import static dev.memplan.formulations.RecomputeGraphs.skips;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.formulations.cosma.CosmaSolver;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.formulations.milp.Solvers;
import dev.memplan.model.Budget;
import dev.memplan.model.Budgets;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Plan;
import dev.memplan.model.TensorSetting;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * {@link RerunCover}: every plan it returns is checked, its objective the checked one, never below the brute force's
 * optimum with as many recomputes; it meets the brute force where one rerun, or a chain of them, is the optimum; a
 * rerun that does not pay is not kept; the same plan twice under the same work limit.
 */
class RerunCoverTest {
    private static final TensorSetting ALL = TensorSetting.ALL;

    /** early-late at 9 bytes: from Belady's plan (8, y spilled and loaded), a rerun of a before d: the optimum, 1. */
    @Test
    void aRerunInPlaceOfAReturnMeetsTheBruteForce() {
        Assumptions.assumeTrue(Solvers.nativeAvailable(), "OR-Tools natives");
        Graph g = readEarlyAndLate().withSetting(ALL);
        Plan start = belady(g, 9);
        assertEquals(8.0, objective(g, start, 1).value());
        RerunCover.Result r = RerunCover.of(g, start, 9, 1.0, Limits.DEFAULT);
        assertNotNull(r);
        assertEquals(objective(g, r.plan(), 1), r.objective());
        assertEquals(List.of("a", "b", "c", "a", "d"), r.plan().schedule().operators());
        assertEquals(1, r.kept());
        assertEquals(minimumObjective(g, ALL, 9, 1, 1.0), r.objective().value());
    }

    /**
     * x:1 (host) -> a -> w1:4 -> a1 -> w2:4 -> a2 -> y:4 -> b -> z:8 -> c -> u:1; y, u -> d -> v:1, every cost 1,
     * budget 12: only rerunning a, a1 and a2 from x pays (1 + 3/8 at lambda 1/8), a chain two deep for a2's input.
     */
    @Test
    void aChainOfRerunsMeetsTheBruteForce() {
        Assumptions.assumeTrue(Solvers.nativeAvailable(), "OR-Tools natives");
        Graph g = chain3();
        RerunCover.Result r = RerunCover.of(g, belady(g, 12), 12, 0.125, Limits.DEFAULT);
        assertNotNull(r);
        assertEquals(1.375, r.objective().value());
        assertEquals(3L, r.check().traffic().recomputes());
        assertEquals(minimumObjective(g, ALL, 12, 3, 0.125), r.objective().value());
    }

    /** At a dear weight no operator of early-late may pay: nothing to place. */
    @Test
    void nothingWhereNoRerunMayPay() {
        Graph g = readEarlyAndLate().withSetting(ALL);
        assertNull(RerunCover.of(g, belady(g, 9), 9, 64.0, Limits.DEFAULT));
    }

    /**
     * On chains with skips at M_R .. M_R + 2, a cheap and a middling weight, from the spill-only optimum and from
     * Belady's plan: every plan is checked, its objective the checked one, never below the brute force's optimum
     * with as many recomputes (up to two); some plans are strictly below their start.
     */
    @Test
    void neverBelowTheBruteForce() {
        Assumptions.assumeTrue(Solvers.nativeAvailable(), "OR-Tools natives");
        int lower = 0;
        for (int seed = 0; seed < 6; seed++) {
            Graph g = skips(400 + seed, 5).withSetting(ALL);
            long mr = Budgets.minimumRequired(g);
            for (long b = mr; b <= mr + 2; b++) {
                Plan optimum = CosmaSolver.solve(g, ALL, b, CosmaSolver.Options.traffic(Backend.CPSAT),
                        Limits.DEFAULT).plan();
                for (Plan start : List.of(optimum, belady(g, b))) {
                    for (double lambda : new double[] {0.125, 1}) {
                        String where = g.name() + " B " + b + " lambda " + lambda;
                        RerunCover.Result r = RerunCover.of(g, start, b, lambda, Limits.DEFAULT);
                        if (r == null) {
                            continue;
                        }
                        assertEquals(objective(g, r.plan(), lambda), r.objective(), where);
                        int recomputes = (int) r.check().traffic().recomputes();
                        if (recomputes <= 2) {
                            assertTrue(r.objective().value()
                                    >= minimumObjective(g, ALL, b, recomputes, lambda) - 1e-9, where);
                        }
                        lower += r.objective().value() < objective(g, start, lambda).value() ? 1 : 0;
                    }
                }
            }
        }
        assertTrue(lower > 0, "no plan below its start");
    }

    /** The same plan twice under the same work limit (CP-SAT on one worker, its deterministic time as work). */
    @Test
    void theSameUnderTheSameWorkLimit() {
        Assumptions.assumeTrue(Solvers.nativeAvailable(), "OR-Tools natives");
        Graph g = skips(403, 6).withSetting(ALL);
        long mr = Budgets.minimumRequired(g);
        Plan start = belady(g, mr);
        RerunCover.Result a = RerunCover.of(g, start, mr, 0.125,
                Limits.DEFAULT.withBudget(Budget.ofWork(0.05, null)));
        RerunCover.Result b = RerunCover.of(g, start, mr, 0.125,
                Limits.DEFAULT.withBudget(Budget.ofWork(0.05, null)));
        assertEquals(a == null, b == null);
        if (a != null) {
            assertEquals(a.plan(), b.plan());
            assertEquals(a.objective(), b.objective());
        }
    }
}
