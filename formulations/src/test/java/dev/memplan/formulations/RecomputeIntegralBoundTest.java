package dev.memplan.formulations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.formulations.cosma.RecomputeBound;
import dev.memplan.model.Budget;
import dev.memplan.model.Budgets;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.TensorSetting;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The cover over time of {@link RecomputeBound} solved as an integer program on CP-SAT, and the same cover without
 * reruns as a bound on the plans that recompute nothing ({@link RecomputeBound#spillOnly}), against the exhaustive
 * {@link RecomputeBruteForce}: never above its optimum, with a free schedule and in the order of the optimal plan's
 * first runs; the integer program's bound strictly above the linear program's on some cases; the same number twice
 * under a work limit.
 */
class RecomputeIntegralBoundTest {
    private static final TensorSetting ALL = TensorSetting.ALL;
    private static final double[] LAMBDAS = {0.125, 0.1, 1, 64};

    /** A share of 5 work units, with room for the target (infinity: the integer program always runs). */
    private static RecomputeBound.Integral share() {
        return new RecomputeBound.Integral(new Limits(1, 0.0, 0L, Budget.ofWork(5, null), null),
                Double.POSITIVE_INFINITY);
    }

    private static List<Graph> graphs() {
        List<Graph> out = new ArrayList<>();
        for (int seed = 0; seed < 8; seed++) {
            out.add(RecomputeGraphs.tiny(70 + seed, 3 + seed % 3));
            out.add(RecomputeGraphs.skips(80 + seed, 4 + seed % 2));
        }
        return out;
    }

    @Test
    void neverAboveTheBruteForceAndSometimesAboveTheLinearProgram() {
        int cases = 0;
        int integral = 0;
        int above = 0;
        for (Graph g : graphs()) {
            Graph s = g.withSetting(ALL);
            long mr = Budgets.minimumRequired(s);
            long mp = BruteForce.minPeak(s);
            for (long b = mr; b < Math.max(mp, mr + 1); b++) {
                for (double lambda : LAMBDAS) {
                    String where = g.name() + " B " + b + " lambda " + lambda;
                    RecomputeBruteForce.Optimum oracle = RecomputeBruteForce.minimum(g, ALL, b, 2, lambda);
                    for (int[] order : new int[][] {null, firstRuns(s, oracle)}) {
                        RecomputeBound.Result r = RecomputeBound.of(s, b, lambda, order, Budget.unlimited(), share());
                        assertTrue(r.value() <= oracle.objective() && r.integral() <= oracle.objective(), where
                                + (order == null ? " free" : " in the optimum's order") + ": integral bound "
                                + r.integral() + " above the optimum " + oracle.objective());
                        assertTrue(r.value() >= r.integral() && r.value() >= r.overTime(), where);
                        cases++;
                        integral += r.integral() > 0 ? 1 : 0;
                        above += r.integral() > r.overTime() ? 1 : 0;
                    }
                }
            }
        }
        assertTrue(cases >= 100, "cases " + cases);
        assertTrue(integral >= cases / 5, "positive integral bounds " + integral + " of " + cases);
        assertTrue(above > 0, "the integer program above the linear program in " + above + " of " + cases + " cases");
    }

    /** Without reruns the cover bounds the plans that recompute nothing: the brute force with no extra run. */
    @Test
    void withoutRerunsNeverAboveTheSpillOnlyOptimum() {
        int cases = 0;
        int positive = 0;
        for (Graph g : graphs()) {
            Graph s = g.withSetting(ALL);
            long mr = Budgets.minimumRequired(s);
            long mp = BruteForce.minPeak(s);
            for (long b = mr; b < Math.max(mp, mr + 1); b++) {
                RecomputeBruteForce.Optimum oracle = RecomputeBruteForce.minimum(g, ALL, b, 0, 1);
                for (int[] order : new int[][] {null, firstRuns(s, oracle)}) {
                    long bound = RecomputeBound.spillOnly(s, b, order, Budget.unlimited());
                    assertTrue(bound <= oracle.objective(), g.name() + " B " + b + ": spill-only bound " + bound
                            + " above the optimum " + oracle.objective());
                    cases++;
                    positive += bound > 0 ? 1 : 0;
                }
            }
        }
        assertTrue(cases >= 30 && positive > 0, "positive " + positive + " of " + cases);
    }

    /** Under a work limit the integer program gives the same bound and charges the same work on every run. */
    @Test
    void theSameBoundTwiceUnderAWorkLimit() {
        Graph s = firstWithACoverOverTime();
        long b = Budgets.minimumRequired(s);
        double[] value = new double[2];
        long[] work = new long[2];
        for (int i = 0; i < 2; i++) {
            Budget run = Budget.ofWork(0.05, null);
            RecomputeBound.Result r = RecomputeBound.of(s, b, 0.1, null, Budget.unlimited(),
                    new RecomputeBound.Integral(new Limits(1, 0.0, 0L, run, null), Double.POSITIVE_INFINITY));
            value[i] = r.integral();
            assertTrue(r.integralNote() != null && r.integralNote().startsWith("CP-SAT"), r.integralNote());
            work[i] = run.workUsedMicro();
            assertTrue(work[i] > 0, "the integer program is charged in work");
        }
        assertEquals(value[0], value[1]);
        assertEquals(work[0], work[1]);
    }

    /** The integer program runs only when the linear program's bound is below the target, and says why not. */
    @Test
    void notRunWhenTheLinearProgramMeetsTheTarget() {
        Graph s = firstWithACoverOverTime();
        long b = Budgets.minimumRequired(s);
        RecomputeBound.Result r = RecomputeBound.of(s, b, 0.1, null, Budget.unlimited(),
                new RecomputeBound.Integral(new Limits(1, 0.0, 0L, Budget.ofWork(5, null), null), 0));
        assertEquals(0.0, r.integral());
        assertTrue(r.integralNote().startsWith("not run"), r.integralNote());
        assertNull(RecomputeBound.of(s, b, 0.1, null).integralNote());
    }

    /** The first graph of {@link #graphs()} whose cover over time at M_R is positive (lambda 0.1). */
    private static Graph firstWithACoverOverTime() {
        for (Graph g : graphs()) {
            Graph s = g.withSetting(ALL);
            if (RecomputeBound.of(s, Budgets.minimumRequired(s), 0.1, null).overTime() > 0) {
                return s;
            }
        }
        throw new AssertionError("no graph with a cover over time");
    }

    /** The operators in the order of their first runs in the oracle's plan. */
    private static int[] firstRuns(Graph s, RecomputeBruteForce.Optimum oracle) {
        return new ArrayList<>(new LinkedHashSet<>(oracle.plan().schedule().operators())).stream()
                .mapToInt(s::operatorIndex).toArray();
    }
}
