package dev.memplan.formulations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.formulations.cosma.RecomputeBound;
import dev.memplan.formulations.cosma.RecomputeSolver;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.model.Budget;
import dev.memplan.model.Budgets;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Operator;
import dev.memplan.model.Schedule;
import dev.memplan.model.SolveStatus;
import dev.memplan.model.TensorSetting;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link RecomputeBound}, a bound over every plan with recomputation, against the exhaustive
 * {@link RecomputeBruteForce}: never above its optimum (which is at least the optimum over every plan, since it
 * allows at most k recomputes), with a free schedule and in the order of the optimal plan's first runs, at several
 * lambdas; equal to it on some cases, among them optima that recompute.
 */
class RecomputeBoundTest {
    private static final TensorSetting ALL = TensorSetting.ALL;
    /** A free recompute, a cheap one, a dear one, and 0.1 (not a binary fraction: rounded prices). */
    private static final double[] LAMBDAS = {0, 0.125, 0.1, 1, 64};

    private static List<Graph> graphs() {
        List<Graph> out = new ArrayList<>();
        for (int seed = 0; seed < 12; seed++) {
            out.add(RecomputeGraphs.tiny(70 + seed, 3 + seed % 3));
            out.add(RecomputeGraphs.skips(80 + seed, 4 + seed % 2));
        }
        return out;
    }

    /** The budgets of a case: every one from M_R to below M_P (at least M_R). */
    private static List<Long> budgets(Graph g) {
        Graph s = g.withSetting(ALL);
        long mr = Budgets.minimumRequired(s);
        long mp = BruteForce.minPeak(s);
        List<Long> out = new ArrayList<>();
        for (long b = mr; b < Math.max(mp, mr + 1); b++) {
            out.add(b);
        }
        return out;
    }

    @Test
    void neverAboveTheBruteForceAndEqualToItOnSomeCases() {
        int cases = 0;
        int equal = 0;
        int equalRecomputing = 0;
        int positive = 0;
        int overTimeEqual = 0;
        for (Graph g : graphs()) {
            Graph s = g.withSetting(ALL);
            for (long b : budgets(g)) {
                for (double lambda : LAMBDAS) {
                    String where = g.name() + " B " + b + " lambda " + lambda;
                    RecomputeBruteForce.Optimum oracle = RecomputeBruteForce.minimum(g, ALL, b, 2, lambda);
                    RecomputeBound.Result free = RecomputeBound.of(s, b, lambda, null);
                    assertTrue(free.value() <= oracle.objective(), where + ": free bound " + free.value()
                            + " above the optimum " + oracle.objective());
                    assertTrue(free.overTime() <= free.value(), where + ": the bound is the larger of the two");
                    int[] firsts = firstRuns(s, oracle);
                    RecomputeBound.Result fixed = RecomputeBound.of(s, b, lambda, firsts);
                    assertTrue(fixed.value() <= oracle.objective(), where + ": bound in the optimum's order "
                            + fixed.value() + " above it " + oracle.objective());
                    assertTrue(fixed.overTime() <= fixed.value(), where + ": the bound is the larger of the two");
                    cases++;
                    positive += free.value() > 0 ? 1 : 0;
                    if (free.value() == oracle.objective() && free.value() > 0) {
                        equal++;
                        equalRecomputing += oracle.recomputeCost() > 0 ? 1 : 0;
                    }
                    overTimeEqual += fixed.overTime() == oracle.objective() && fixed.overTime() > 0 ? 1 : 0;
                }
            }
        }
        assertTrue(cases >= 100, "cases " + cases);
        assertTrue(positive >= cases / 5, "positive bounds " + positive + " of " + cases);
        assertTrue(equal > 0 && equalRecomputing > 0, "cases " + cases + ", bound equal to a positive optimum "
                + equal + ", of which optima that recompute " + equalRecomputing);
        assertTrue(overTimeEqual > 0, "the cover summed over time meets a positive optimum in " + overTimeEqual
                + " of " + cases + " cases");
    }

    /**
     * x:1 -> A -> p:4 -> B -> b:5 -> C -> c:5; c, p -> D -> q:4 -> E -> e:5 -> F -> f:5; f, q -> G -> out:1 (one
     * order). At budget 13 (M_R, at D) p cannot stay on chip while C runs, nor q while F runs (14 bytes each). Lambda
     * 1, A costs 3, D 100: p comes back cheapest by running A again (3; x still fits beside C), q by a spill and a load
     * (8). One operator at a time sees at most 8; summed over time the two leave in different intervals: 11, the
     * optimum.
     */
    @Test
    void twoTensorsThatLeaveAtDifferentTimesAreBothPaidFor() {
        Graph g = twoTimes();
        assertEquals(13, Budgets.minimumRequired(g));
        RecomputeBruteForce.Optimum oracle = RecomputeBruteForce.minimum(g, ALL, 13, 2, 1);
        assertEquals(11.0, oracle.objective());
        for (int[] order : new int[][] {null, Schedule.defaultOrder(g).resolve(g)}) {
            RecomputeBound.Result r = RecomputeBound.of(g, 13, 1, order);
            assertEquals(11.0, r.overTime());
            assertEquals(11.0, r.value());
        }
    }

    /**
     * A small ASPP: x:1 -> A (cost 100) -> s:2, t:4; t -> F -> g1, g2, g3 (1 each); s, gi -> Wi -> wi:5 (graph
     * outputs). At M_R = 8 (each Wi's own bytes) s cannot stay on chip at F (9 bytes), and at the first Wi to run,
     * whichever it is, the other two gradients are live and nothing but its own fits: 4 + 4 = 8 at lambda 1 (F's
     * rerun costs 100). One operator sees 4 (s at F), the cover over time 4 (its path passes one Wi, where no gradient
     * is surely live); F and the first Wi together see the optimum, free of any order.
     */
    @Test
    void theFirstOfThreeWeightGradientsPaysForTheOtherTwoGradients() {
        Graph g = aspp(100, 100, 2, 4);
        assertEquals(8, Budgets.minimumRequired(g));
        assertEquals(8.0, RecomputeBruteForce.minimum(g, ALL, 8, 2, 1).objective());
        RecomputeBound.Result free = RecomputeBound.of(g, 8, 1, null);
        assertEquals(4.0, free.overTime());
        assertEquals(8.0, free.laterMoment());
        assertEquals(8.0, free.value());
        assertEquals("one operator's cover and a later moment's", free.source());
        // In an order the first W is known: the cover over time sees the gradients there too.
        RecomputeBound.Result fixed = RecomputeBound.of(g, 8, 1, Schedule.defaultOrder(g).resolve(g));
        assertEquals(8.0, fixed.laterMoment());
        assertEquals(8.0, fixed.overTime());
    }

    /**
     * The later moment never above the brute force: small ASPPs with cheap and dear reruns of A and F and the
     * saved tensors' sizes varied, at every budget from M_R below M_P and lambdas 2^-8 .. 64, free and in the
     * optimum's order; then the random graphs of the tests above at lambda 1/8 and 1. The later moment raises some
     * of them above every other cover.
     */
    @Test
    void aLaterMomentIsNeverAboveTheBruteForce() {
        List<Graph> graphs = new ArrayList<>();
        for (long[] v : new long[][] {{100, 100, 2, 4}, {1, 100, 2, 4}, {100, 2, 2, 4}, {3, 3, 1, 5}, {100, 1, 3, 3},
                {2, 100, 2, 6}}) {
            graphs.add(aspp(v[0], v[1], v[2], v[3]));
        }
        for (int seed = 0; seed < 8; seed++) {
            graphs.add(RecomputeGraphs.tiny(500 + seed, 4 + seed % 2).withSetting(ALL));
            graphs.add(RecomputeGraphs.skips(500 + seed, 5).withSetting(ALL));
        }
        int[] counts = neverAboveTheBruteForce(graphs,
                free -> free.laterMoment() > Math.max(free.overTime(), free.integral()));
        assertTrue(counts[0] >= 100 && counts[1] >= 5, "cases " + counts[0] + ", raised by a later moment "
                + counts[1]);
    }

    /**
     * Every graph at every budget from M_R below M_P, lambdas 2^-8, 1/8, 1 and 64, free and in the optimum's order:
     * the bound, and its later moment, never above {@link RecomputeBruteForce}'s optimum (at most two recomputes).
     *
     * @return the cases, and how many of them {@code counted} holds on (the free bound)
     */
    private static int[] neverAboveTheBruteForce(List<Graph> graphs,
                                                 java.util.function.Predicate<RecomputeBound.Result> counted) {
        int marked = 0;
        int cases = 0;
        for (Graph g : graphs) {
            for (long b : budgets(g)) {
                for (double lambda : new double[] {1.0 / 256, 0.125, 1, 64}) {
                    String where = g.name() + " B " + b + " lambda " + lambda;
                    RecomputeBruteForce.Optimum oracle = RecomputeBruteForce.minimum(g, ALL, b, 2, lambda);
                    RecomputeBound.Result free = RecomputeBound.of(g, b, lambda, null);
                    RecomputeBound.Result fixed = RecomputeBound.of(g, b, lambda, firstRuns(g, oracle));
                    for (RecomputeBound.Result r : List.of(free, fixed)) {
                        assertTrue(r.laterMoment() <= oracle.objective() && r.value() <= oracle.objective(),
                                where + ": " + r.value() + " (a later moment " + r.laterMoment()
                                        + ") above the optimum " + oracle.objective());
                    }
                    marked += counted.test(free) ? 1 : 0;
                    cases++;
                }
            }
        }
        return new int[] {cases, marked};
    }

    /**
     * {@link #theFirstOfThreeWeightGradientsPaysForTheOtherTwoGradients}'s graph with A's and F's costs and s's and
     * t's sizes.
     */
    private static Graph aspp(long costA, long costF, long s, long t) {
        Graph.Builder b = Graph.builder("aspp-" + costA + "-" + costF + "-" + s + "-" + t).activation("x", 1)
                .activation("s", s).activation("t", t).activation("g1", 1).activation("g2", 1).activation("g3", 1)
                .operator(new Operator("A", null, List.of("x"), List.of("s", "t"), costA))
                .operator(new Operator("F", null, List.of("t"), List.of("g1", "g2", "g3"), costF));
        for (int i = 1; i <= 3; i++) {
            b.activation("w" + i, 5)
                    .operator(new Operator("W" + i, null, List.of("s", "g" + i), List.of("w" + i), 5L));
        }
        return b.output("w1").output("w2").output("w3").build().withSetting(ALL);
    }

    /**
     * A loss of 1 byte among saved activations of 4: x:1 -> A1 -> a1:4 -> A2 -> a2:4 -> A3 -> a3:4 -> A4 -> a4:4 -> L
     * -> l:1; l, a3 -> G3 -> g3:1; g3, a2 -> G2 -> g2:1; g2, a1 -> G1 -> g1:1, every cost 100 (no rerun pays at lambda
     * 1). At B = 12 the loss's own bytes are 5 and a1, a2, a3 are live: E = 5 bytes over the budget, which a
     * fractional cover meets with one and a quarter tensors (10 at a spill and a load each), and the cover over time
     * with half of each (12: every two of them hold 8 of the 7 bytes of room left, 4 at A4). Off chip are whole
     * tensors, though, and their bytes a multiple of 4: E is 8 on the sizes' grid, two tensors leave, 16, the optimum.
     */
    @Test
    void theBytesOverTheBudgetAreRoundedUpToTheSizesThatFreeThem() {
        Graph g = oddLoss(new long[] {4, 4, 4, 4}, new long[] {100, 100, 100, 100}, 1);
        assertEquals(16.0, RecomputeBruteForce.minimum(g, ALL, 12, 2, 1).objective());
        RecomputeBound.Result free = RecomputeBound.of(g, 12, 1, null);
        assertEquals("L", g.operator(free.operator()).name());
        assertEquals(5, free.excess());
        assertEquals(12.0, free.overTime());
        assertEquals(16.0, free.value());
        assertEquals("one operator's cover", free.source());
    }

    /**
     * The rounding never lifts a bound above the brute force: chains of saved activations of 2 or 4 bytes with a loss
     * of 1 byte (at the loss the own bytes are odd and every live size even: a positive excess is always rounded up),
     * random costs, every budget from M_R below M_P, lambdas 2^-8 .. 64, free and in the optimum's order (208 cases).
     * The cover over time's rows over subsets of the live tensors see most of it on graphs this small; one operator's
     * cover is above it on a few.
     */
    @Test
    void theRoundedExcessIsNeverAboveTheBruteForce() {
        java.util.Random r = new java.util.Random(27);
        List<Graph> graphs = new ArrayList<>();
        for (int k = 0; k < 12; k++) {
            int n = 3 + k % 2;
            long[] sizes = new long[n];
            long[] costs = new long[n];
            for (int i = 0; i < n; i++) {
                sizes[i] = 2 + 2 * r.nextInt(2);
                costs[i] = 1 + r.nextInt(6);
            }
            graphs.add(oddLoss(sizes, costs, 1 + r.nextInt(2)));
        }
        int[] counts = neverAboveTheBruteForce(graphs, free -> free.value() > free.overTime());
        assertTrue(counts[0] >= 200 && counts[1] >= 3, "cases " + counts[0] + ", above the cover over time "
                + counts[1]);
    }

    /**
     * x:1 -> A1 -> a1 -> A2 -> a2 ... -> An -> an (the sizes given) -> L -> l:1 (the loss, reading an); l -> G(n-1)
     * -> g(n-1); g(i+1), ai -> Gi -> gi (gradients of {@code grad} bytes; g1 the graph output). Ai costs costs[i - 1],
     * L and the Gi 100.
     */
    private static Graph oddLoss(long[] sizes, long[] costs, long grad) {
        int n = sizes.length;
        Graph.Builder b = Graph.builder("odd-loss-" + java.util.Arrays.toString(sizes) + "-"
                + java.util.Arrays.toString(costs) + "-" + grad).activation("x", 1).activation("l", 1);
        for (int i = 1; i <= n; i++) {
            b.activation("a" + i, sizes[i - 1]).operator(new Operator("A" + i, null,
                    List.of(i == 1 ? "x" : "a" + (i - 1)), List.of("a" + i), costs[i - 1]));
        }
        b.operator(new Operator("L", null, List.of("a" + n), List.of("l"), 100L));
        for (int i = n - 1; i >= 1; i--) {
            b.activation("g" + i, grad).operator(new Operator("G" + i, null, i == n - 1 ? List.of("l", "a" + i)
                    : List.of("g" + (i + 1), "a" + i), List.of("g" + i), 100L));
        }
        return b.output("g1").build().withSetting(ALL);
    }

    /**
     * The cover over time is not counted in work, so the run's wall end stops it: on the graph above a run whose wall
     * end has passed keeps the bound of one operator (8) and is marked as cut by the clock; a run with room gets 11
     * and no mark.
     */
    @Test
    void theCoverOverTimeStopsAtTheRunsWallEndAndSaysSo() {
        Graph g = twoTimes();
        Budget over = Budget.ofWork(10, Duration.ZERO);
        RecomputeBound.Result cut = RecomputeBound.of(g, 13, 1, null, over);
        assertEquals(0.0, cut.overTime());
        assertEquals(8.0, cut.value());
        assertTrue(over.wallStopped());
        Budget room = Budget.ofWork(10, Duration.ofMinutes(10));
        assertEquals(11.0, RecomputeBound.of(g, 13, 1, null, room).value());
        assertFalse(room.wallStopped());
    }

    private static Graph twoTimes() {
        return Graph.builder("two-times")
                .activation("x", 1).activation("p", 4).activation("b", 5).activation("c", 5).activation("q", 4)
                .activation("e", 5).activation("f", 5).activation("out", 1)
                .operator(new Operator("A", null, List.of("x"), List.of("p"), 3L))
                .operator(new Operator("B", null, List.of("p"), List.of("b"), 1L))
                .operator(new Operator("C", null, List.of("b"), List.of("c"), 1L))
                .operator(new Operator("D", null, List.of("c", "p"), List.of("q"), 100L))
                .operator(new Operator("E", null, List.of("q"), List.of("e"), 1L))
                .operator(new Operator("F", null, List.of("e"), List.of("f"), 1L))
                .operator(new Operator("G", null, List.of("f", "q"), List.of("out"), 1L))
                .output("out").build().withSetting(ALL);
    }

    /**
     * In the default order of first runs the bound is at most the joint program's optimum with that order fixed (at
     * most two recomputes), itself at least the least objective of that order.
     */
    @Test
    void inAFixedOrderNeverAboveTheFixedProgram() {
        int cases = 0;
        for (int seed = 0; seed < 4; seed++) {
            Graph g = seed % 2 == 0 ? RecomputeGraphs.skips(90 + seed, 5)
                    : RecomputeGraphs.tiny(90 + seed, 4);
            Graph s = g.withSetting(ALL);
            long mr = Budgets.minimumRequired(s);
            for (long b = mr; b <= mr + 2; b++) {
                for (double lambda : new double[] {0.125, 64}) {
                    RecomputeSolver.Result fixed = RecomputeSolver.solve(g, ALL, b, RecomputeSolver.Request.of(2,
                            lambda, Backend.CPSAT).withSchedule(Schedule.defaultOrder(g)), Limits.DEFAULT);
                    assertEquals(SolveStatus.OPTIMAL, fixed.status());
                    double bound = RecomputeBound.of(s, b, lambda, Schedule.defaultOrder(s).resolve(s)).value();
                    assertTrue(bound <= fixed.objective().value(), g.name() + " B " + b + " lambda " + lambda
                            + ": " + bound + " above " + fixed.objective().value());
                    cases++;
                }
            }
        }
        assertEquals(24, cases);
    }

    /**
     * RecomputeOptimalityTest's graph: at budget 9, y (4 bytes) cannot stay on chip while c runs. Dear lambda: its
     * spill and load, 8; cheap: running a (cost 1) again, lambda x 1. Both are the optimum.
     */
    @Test
    void theReadEarlyAndLateGraphMeetsItsOptimum() {
        Graph g = RecomputeGraphs.readEarlyAndLate().withSetting(ALL);
        for (double lambda : new double[] {1, 64, 0.25}) {
            RecomputeBound.Result r = RecomputeBound.of(g, 9, lambda, null);
            assertEquals(Math.min(8, lambda), r.value(), "lambda " + lambda);
            assertEquals("c", g.operator(r.operator()).name());
            assertEquals(3, r.excess());
            assertEquals(RecomputeBruteForce.minimum(g, ALL, 9, 1, lambda).objective(), r.value());
        }
        // With room for everything nothing is forced.
        assertEquals(0.0, RecomputeBound.of(g, 13, 1, null).value());
    }

    /**
     * x:1 -> a -> w:4 -> b -> y:4 -> c -> z:5 -> d -> u:1; y, u -> e -> v:1, a and b cost 1. At budget 9 y cannot stay
     * on chip while d runs (z, u and y: 10 bytes). Running b again needs w, read by nobody after b: keeping w through
     * d takes as much room as dropping y frees, so w must come back too, at least its producer's rerun. The bound is
     * then lambda (b) + lambda (a) = 2, where pricing y's recompute alone would give 1; the optimum (rerun a and b,
     * and load x again) is 3.
     */
    @Test
    void aRecomputeWhoseInputIsGonePaysForThatInputToo() {
        Graph g = Graph.builder("gone-input")
                .activation("x", 1).activation("w", 4).activation("y", 4).activation("z", 5).activation("u", 1)
                .activation("v", 1)
                .operator(new Operator("a", null, List.of("x"), List.of("w"), 1L))
                .operator(new Operator("b", null, List.of("w"), List.of("y"), 1L))
                .operator(new Operator("c", null, List.of("y"), List.of("z"), 5L))
                .operator(new Operator("d", null, List.of("z"), List.of("u"), 5L))
                .operator(new Operator("e", null, List.of("y", "u"), List.of("v"), 5L))
                .output("v").build().withSetting(ALL);
        RecomputeBound.Result free = RecomputeBound.of(g, 9, 1, null);
        assertEquals(2.0, free.value());
        assertEquals("d", g.operator(free.operator()).name());
        assertEquals(2.0, RecomputeBound.of(g, 9, 1, Schedule.defaultOrder(g).resolve(g)).value());
        RecomputeBruteForce.Optimum oracle = RecomputeBruteForce.minimum(g, ALL, 9, 2, 1);
        assertEquals(3.0, oracle.objective());
        assertEquals(2, oracle.recomputeCost());
        // Past the run's wall end the covers with a rerun's inputs are skipped (on thousands of operators they take
        // seconds); the plain covers stay: y's recompute priced alone.
        Budget over = Budget.ofWork(10, Duration.ZERO);
        assertEquals(1.0, RecomputeBound.of(g, 9, 1, null, over).value());
        assertTrue(over.wallStopped());
    }

    /**
     * The graph above with x as large as w: x:4 -> a -> w:4 -> b -> y:4 -> c -> z:5 -> d -> u:1; y, u -> e -> v:1, a
     * and b cost 1. At budget 9 y is off chip at d (excess 1). Running b again needs w, dead at d: holding w frees
     * nothing, so w must come back, and running a again needs x, also dead at d: holding x frees nothing either, so x
     * is loaded again (4 bytes). The optimum is min(8, 2 lambda + 4): y's spill and load, or both reruns and x's load.
     * Pricing w's rerun without its own input (the bound before the needs were followed) gave 2 lambda; following the
     * needs gives the optimum, with a free schedule and in the default order.
     */
    @Test
    void aChainOfRerunsPaysForTheInputsOfEachLevel() {
        Graph g = Graph.builder("gone-chain")
                .activation("x", 4).activation("w", 4).activation("y", 4).activation("z", 5).activation("u", 1)
                .activation("v", 1)
                .operator(new Operator("a", null, List.of("x"), List.of("w"), 1L))
                .operator(new Operator("b", null, List.of("w"), List.of("y"), 1L))
                .operator(new Operator("c", null, List.of("y"), List.of("z"), 5L))
                .operator(new Operator("d", null, List.of("z"), List.of("u"), 5L))
                .operator(new Operator("e", null, List.of("y", "u"), List.of("v"), 5L))
                .output("v").build().withSetting(ALL);
        assertEquals(9, Budgets.minimumRequired(g));
        for (double lambda : new double[] {0.25, 0.5, 1, 1.5, 4}) {
            RecomputeBruteForce.Optimum oracle = RecomputeBruteForce.minimum(g, ALL, 9, 2, lambda);
            assertEquals(Math.min(8, 2 * lambda + 4), oracle.objective(), "lambda " + lambda);
            assertEquals(lambda < 2 ? 2 : 0, oracle.recomputeCost(), "lambda " + lambda);
            RecomputeBound.Result free = RecomputeBound.of(g, 9, lambda, null);
            assertEquals(oracle.objective(), free.value(), "lambda " + lambda);
            assertEquals("d", g.operator(free.operator()).name());
            assertEquals(oracle.objective(), RecomputeBound.of(g, 9, lambda, Schedule.defaultOrder(g).resolve(g))
                    .value(), "lambda " + lambda);
        }
    }

    /**
     * Chains where recomputing is cheap (RecomputeGraphs.skips: most intermediates are read once, so a rerun's inputs
     * are gone by the time it runs), at every budget from M_R below M_P and lambdas down to 2^-8: the bound, free and
     * in the optimum's order, is never above the brute force's optimum with up to three recomputes.
     */
    @Test
    void neverAboveTheBruteForceOnChainsOfCheapReruns() {
        int cases = 0;
        int positive = 0;
        for (int seed = 0; seed < 24; seed++) {
            Graph g = seed % 3 == 2 ? RecomputeGraphs.tiny(300 + seed, 4) : RecomputeGraphs.skips(300 + seed, 4 + seed % 2);
            Graph s = g.withSetting(ALL);
            for (long b : budgets(g)) {
                for (double lambda : new double[] {1.0 / 256, 1.0 / 16, 0.25, 1, 4}) {
                    String where = g.name() + " B " + b + " lambda " + lambda;
                    RecomputeBruteForce.Optimum oracle = RecomputeBruteForce.minimum(g, ALL, b, 3, lambda);
                    RecomputeBound.Result free = RecomputeBound.of(s, b, lambda, null);
                    assertTrue(free.value() <= oracle.objective(), where + ": free bound " + free.value()
                            + " above the optimum " + oracle.objective());
                    double fixed = RecomputeBound.of(s, b, lambda, firstRuns(s, oracle)).value();
                    assertTrue(fixed <= oracle.objective(), where + ": bound in the optimum's order " + fixed
                            + " above it " + oracle.objective());
                    cases++;
                    positive += free.value() > 0 ? 1 : 0;
                }
            }
        }
        assertTrue(cases >= 50, "cases " + cases);
        assertTrue(positive >= cases / 5, "positive bounds " + positive + " of " + cases);
    }

    /**
     * fig1's training step at M_R (56 bytes), lambda 1: at n4's backward every live tensor is off chip, among them two
     * outputs of n1 (16 and 8 of its 24 bytes), whose shares of its cost 32 are thirds; rounded down they sum to
     * just below 32. Every objective there is an integer (sizes, costs and lambda are), so that cover is 88 exactly,
     * and the bound an integer at least that.
     */
    @Test
    void theBoundIsRoundedUpToTheObjectivesGrid() {
        Graph g = dev.memplan.datasets.TrainingGraphs.of(dev.memplan.datasets.Examples.graph("fig1"),
                dev.memplan.datasets.TrainingGraphs.Step.BACKWARD).withSetting(TensorSetting.ACTIVATIONS);
        RecomputeBound.Result r = RecomputeBound.of(g, Budgets.minimumRequired(g), 1, null);
        assertEquals("n4/backward", g.operator(r.operator()).name());
        // The cover summed over time is higher there; it is on the same grid.
        assertTrue(r.value() >= 88.0 && r.value() == Math.rint(r.value()), "bound " + r.value());
        // With lambda 2^-8 the grid is 1/256 of a byte x the costs' gcd 8: 1/32.
        double fine = RecomputeBound.of(g, Budgets.minimumRequired(g), 1.0 / 256, null).value();
        assertEquals(Math.rint(fine * 32), fine * 32);
    }

    @Test
    void refusesABadWeightOrOrder() {
        Graph g = RecomputeGraphs.readEarlyAndLate().withSetting(ALL);
        assertThrows(IllegalArgumentException.class, () -> RecomputeBound.of(g, 9, -1, null));
        assertThrows(IllegalArgumentException.class, () -> RecomputeBound.of(g, 9, Double.NaN, null));
        assertThrows(IllegalArgumentException.class, () -> RecomputeBound.of(g, 9, 1, new int[] {0, 1}));
    }

    /** The operators in the order of their first runs in the oracle's plan. */
    private static int[] firstRuns(Graph s, RecomputeBruteForce.Optimum oracle) {
        return new ArrayList<>(new LinkedHashSet<>(oracle.plan().schedule().operators())).stream()
                .mapToInt(s::operatorIndex).toArray();
    }
}
