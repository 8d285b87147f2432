package dev.memplan.decomposition;

import static dev.memplan.formulations.RecomputeGraphs.minimumObjective;
import static dev.memplan.formulations.RecomputeGraphs.readEarlyAndLate;
import static dev.memplan.formulations.RecomputeGraphs.skips;
import static dev.memplan.formulations.RecomputeGraphs.tiny;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.formulations.cosma.CosmaSolver;
import dev.memplan.formulations.cosma.RecomputeBound;
import dev.memplan.formulations.cosma.Reruns;
import dev.memplan.formulations.cosma.Technique;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.model.Budget;
import dev.memplan.model.Budgets;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Operator;
import dev.memplan.model.SolveStatus;
import dev.memplan.model.TensorSetting;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Divide and conquer's bounds with the traffic priced for reruns ({@link TrafficPrices#withReruns},
 * {@link PricedBounds}: the stem solved exactly, the live bytes): never above the least traffic + lambda x recompute
 * cost of the exhaustive {@link dev.memplan.formulations.RecomputeBruteForce}, the spill-only bounds where no rerun may
 * pay, and above {@link RecomputeBound} where the order decides what is live.
 */
class PricedBoundsTest {
    private static final TensorSetting ALL = TensorSetting.ALL;

    private static List<Graph> graphs() {
        List<Graph> graphs = new ArrayList<>(List.of(readEarlyAndLate(), twoBranches(100)));
        for (int seed = 0; seed < 8; seed++) {
            graphs.add(tiny(seed, 4));
            graphs.add(skips(seed, 4 + seed % 2));
        }
        return graphs;
    }

    /** x:1 read by k branches, each x -> p:4 -> q:4 -> h:3 as in {@link #twoBranches}, joined by j into o:1. */
    static Graph branches(int k, long cost) {
        Graph.Builder b = Graph.builder("branches" + k).activation("x", 1).activation("o", 1);
        List<String> heads = new ArrayList<>();
        for (int i = 0; i < k; i++) {
            String s = "b" + i;
            b.activation("p" + s, 4).activation("q" + s, 4).activation("h" + s, 3)
                    .operator(new Operator(s + "1", null, List.of("x"), List.of("p" + s), cost))
                    .operator(new Operator(s + "2", null, List.of("p" + s), List.of("q" + s), cost))
                    .operator(new Operator(s + "3", null, List.of("q" + s), List.of("h" + s), cost));
            heads.add("h" + s);
        }
        return b.operator(new Operator("j", null, heads, List.of("o"), cost)).output("o").build();
    }

    /**
     * x:1 read by two branches a1 -> p:4 -> a2 -> q:4 -> a3 -> h:3 (and b1, b2, b3 to p', q', h') joined by j into
     * o:1, every operator costing {@code cost}. At budget 10 whichever branch runs second meets the other's h live
     * over its 8 bytes, which no operator's ancestors and descendants say (the branches are unordered).
     */
    static Graph twoBranches(long cost) {
        Graph.Builder b = Graph.builder("two-branches").activation("x", 1).activation("o", 1);
        for (String s : List.of("a", "b")) {
            b.activation("p" + s, 4).activation("q" + s, 4).activation("h" + s, 3)
                    .operator(new Operator(s + "1", null, List.of("x"), List.of("p" + s), cost))
                    .operator(new Operator(s + "2", null, List.of("p" + s), List.of("q" + s), cost))
                    .operator(new Operator(s + "3", null, List.of("q" + s), List.of("h" + s), cost));
        }
        return b.operator(new Operator("j", null, List.of("ha", "hb"), List.of("o"), cost)).output("o").build();
    }

    /**
     * Every stem size and the live bytes (tensors written outside a smaller stem are its host tensors, priced as in the whole graph),
     * three budgets, lambda 0.25 .. 4: never above the brute force's optimum (up to two reruns, at least the optimum
     * over every plan).
     */
    @Test
    void neverAboveTheBruteForceOptimum() {
        int cases = 0;
        int positive = 0;
        int met = 0;
        int peaks = 0;
        for (Graph graph : graphs()) {
            Graph g = graph.withSetting(ALL);
            long mr = Budgets.minimumRequired(g);
            for (long budget : new long[] {mr, mr + 1, mr + 3}) {
                for (double lambda : new double[] {0.25, 0.5, 1, 2, 4}) {
                    Double optimum = minimumObjective(g, ALL, budget, 2, lambda);
                    if (optimum == null) {
                        continue;
                    }
                    TrafficPrices prices = TrafficPrices.withReruns(g, lambda);
                    for (int size = 1; size <= g.operatorCount(); size++) {
                        StemBound.Result r = StemBound.of(g, prices, budget, size, Long.MAX_VALUE,
                                StemBound.DEFAULT_STATE_CAP, Limits.DEFAULT);
                        String c = g.name() + " B " + budget + " lambda " + lambda + " stem " + size;
                        assertTrue(r.proven(), c);
                        assertTrue(r.traffic() <= optimum, c + ": bound " + r.traffic() + " above the optimum "
                                + optimum);
                        cases++;
                        positive += r.traffic() > 0 ? 1 : 0;
                        met += size == g.operatorCount() && r.traffic() > 0 && r.traffic() == optimum ? 1 : 0;
                    }
                    long peak = PeakBound.of(g, prices, budget, Long.MAX_VALUE, PeakBound.DEFAULT_STATE_CAP,
                            Limits.DEFAULT).traffic();
                    assertTrue(peak <= optimum, g.name() + " B " + budget + " lambda " + lambda + ": live bytes "
                            + peak + " above the optimum " + optimum);
                    peaks += peak > 0 ? 1 : 0;
                }
            }
        }
        assertTrue(cases > 500 && positive > 100, cases + " cases, positive on " + positive);
        assertTrue(met >= 20, "the whole graph's priced bound met a positive optimum on only " + met);
        assertTrue(peaks >= 20, "the priced live bytes positive on only " + peaks);
    }

    /**
     * Where no operator's rerun may pay, the prices are the spill-only ones, and so is the stem; the live bytes are
     * at least the spill-only ones, above them on some cases (whole tensors), never above the brute force's optimum.
     */
    @Test
    void whereNoRerunMayPayItIsTheSpillOnlyBound() {
        int compared = 0;
        int whole = 0;
        for (Graph graph : graphs()) {
            Graph g = graph.withSetting(ALL);
            double lambda = 1e6;
            for (int o = 0; o < g.operatorCount(); o++) {
                assertTrue(!Reruns.mayPay(g, lambda, o), g.name());
            }
            TrafficPrices priced = TrafficPrices.withReruns(g, lambda);
            TrafficPrices spill = TrafficPrices.spillOnly(g);
            assertArrayEquals(spill.load(), priced.load(), g.name());
            assertArrayEquals(spill.spill(), priced.spill(), g.name());
            long mr = Budgets.minimumRequired(g);
            for (long budget : new long[] {mr, mr + 1, mr + 3}) {
                long withPrices = StemBound.of(g, priced, budget, g.operatorCount(), Long.MAX_VALUE,
                        StemBound.DEFAULT_STATE_CAP, Limits.DEFAULT).traffic();
                long without = StemBound.of(g, budget, g.operatorCount(), StemBound.DEFAULT_STATE_CAP,
                        Limits.DEFAULT).traffic();
                assertEquals(without, withPrices, g.name() + " B " + budget);
                assertEquals(without, PricedBounds.stem(g, budget, lambda), g.name() + " B " + budget);
                long spillPeak = PeakBound.of(g, budget, Long.MAX_VALUE, PeakBound.DEFAULT_STATE_CAP,
                        Limits.DEFAULT).traffic();
                long pricedPeak = PeakBound.of(g, priced, budget, Long.MAX_VALUE, PeakBound.DEFAULT_STATE_CAP,
                        Limits.DEFAULT).traffic();
                // The priced cover frees whole tensors (WholeCover), the spill-only one bytes.
                assertTrue(pricedPeak >= spillPeak, g.name() + " B " + budget + ": " + pricedPeak);
                Double optimum = minimumObjective(g, ALL, budget, 0, lambda);
                assertTrue(optimum == null || pricedPeak <= optimum, g.name() + " B " + budget + ": " + pricedPeak);
                whole += pricedPeak > spillPeak ? 1 : 0;
                compared += without > 0 ? 1 : 0;
            }
        }
        assertTrue(compared >= 10, "positive spill-only bounds compared: " + compared);
        assertTrue(whole >= 1, "the whole tensors raised the live bytes on no case");
    }

    /**
     * A rerun brings an output back at its share of the rerun's cost, never above its size, and with no spill;
     * shares are whole bytes rounded down.
     */
    @Test
    void pricesAreTheCheaperReturnRoundedDown() {
        Graph g = readEarlyAndLate().withSetting(ALL);
        int y = g.tensorIndex("y");
        int v = g.tensorIndex("v");
        // a (cost 1) may pay below lambda 8: y (4 bytes) comes back at min(4, lambda).
        TrafficPrices p = TrafficPrices.withReruns(g, 2.75);
        assertEquals(2, p.load()[y]);
        assertEquals(0, p.spill()[y]);
        assertEquals(4, TrafficPrices.withReruns(g, 7.5).load()[y]);
        assertEquals(8, TrafficPrices.withReruns(g, 8).load()[y] + TrafficPrices.withReruns(g, 8).spill()[y]);
        // d (cost 5) makes the graph output v (1 byte): may pay only below lambda 0.2.
        assertEquals(0, TrafficPrices.withReruns(g, 0.19).load()[v]);
        assertEquals(1, TrafficPrices.withReruns(g, 0.2).load()[v]);
        // Lambda 0: every rerun is free.
        assertEquals(0, TrafficPrices.withReruns(g, 0).load()[y]);
    }

    /**
     * Two unordered branches: every order holds one branch's output while the other peaks, which the stem's search
     * over orders sees and {@link RecomputeBound}'s live sets (ancestors and descendants) do not; reruns too dear to
     * pay, the priced bound is the optimum.
     */
    @Test
    void theOrderSearchBeatsTheCoverWhereBranchesMeet() {
        Graph g = twoBranches(100).withSetting(ALL);
        long budget = 10;
        double optimum = minimumObjective(g, ALL, budget, 2, 1.0);
        long stem = PricedBounds.stem(g, budget, 1.0);
        double cover = RecomputeBound.of(g, budget, 1.0, null).value();
        assertEquals(optimum, stem, 1e-9);
        assertTrue(stem > cover, "stem " + stem + ", cover " + cover);
        // And among the random tiny graphs, where the cover's live sets miss it too.
        int above = 0;
        for (long seed = 0; seed < 8; seed++) {
            Graph t = tiny(seed, 4).withSetting(ALL);
            long mr = Budgets.minimumRequired(t);
            for (double lambda : new double[] {1, 2, 4}) {
                above += PricedBounds.stem(t, mr, lambda) > RecomputeBound.of(t, mr, lambda, null).value() ? 1 : 0;
            }
        }
        assertTrue(above > 0, "the priced stem above the cover on no tiny graph");
    }

    /**
     * The pipeline: on the two branches (reruns too dear to pay) the recompute road's plan is the spill-only optimum;
     * the bound over every plan comes from the priced bounds (the live bytes, with whole tensors) and proves it, where
     * without them ({@code --without priced-bounds}) RecomputeBound's cover leaves a gap.
     */
    @Test
    void thePipelineProvesWhatTheCoverCouldNot() {
        Graph g = twoBranches(100);
        // Without the exact search over runs, which proves this case too.
        CosmaPipeline.Settings on = CosmaPipeline.Settings.of(CosmaSolver.Options.traffic(Backend.CPSAT)
                        .without(Set.of(Technique.RUN_PATHS)), null)
                .withDecompose(CosmaPipeline.Decompose.NONE).withRecomputeWeight(1.0);
        CosmaPipeline.Settings off = CosmaPipeline.Settings.of(CosmaSolver.Options.traffic(Backend.CPSAT)
                .without(Set.of(Technique.PRICED_BOUNDS, Technique.RUN_PATHS)), null)
                .withDecompose(CosmaPipeline.Decompose.NONE).withRecomputeWeight(1.0);
        Limits work = Limits.DEFAULT.withBudget(Budget.ofWork(10, null));
        RecomputeOutcome with = new CosmaPipeline(on, null).run(g, ALL, 10, work, null).recompute();
        RecomputeOutcome without = new CosmaPipeline(off, null).run(g, ALL, 10, work, null).recompute();
        double optimum = minimumObjective(g.withSetting(ALL), ALL, 10, 2, 1.0);
        assertEquals(optimum, with.objective().value(), 1e-9);
        assertEquals(optimum, without.objective().value(), 1e-9);
        assertEquals(SolveStatus.OPTIMAL, with.status());
        assertEquals(optimum, with.bound(), 1e-9);
        assertEquals(SolveStatus.FEASIBLE, without.status());
        assertTrue(without.bound() < optimum, "without: " + without.bound());
        StepReport bound = with.steps().stream().filter(s -> s.name().equals(RecomputeOutcome.BOUND)).findFirst()
                .orElseThrow();
        // The live bytes meet it with whole tensors (WholeCover: h's 3 bytes leave whole), before any stem runs.
        assertTrue(bound.note().contains(" from the live bytes priced for reruns")
                && bound.note().contains("the live bytes 6, the stem none"), bound.note());
        StepReport offBound = without.steps().stream().filter(s -> s.name().equals(RecomputeOutcome.BOUND))
                .findFirst().orElseThrow();
        assertTrue(!offBound.note().contains("priced for reruns"), offBound.note());
    }

    /**
     * The live bytes priced, on more cases (lambda 0 to 4, budgets from M_R up): never above the brute force, where
     * its cover weighs a rerun's dead inputs (their room or their return) against a load; and on some cases above
     * the same cover with the inputs taken as free (the stem's prices), so the inputs' options are exercised. Raised
     * by lower targets ({@link PricedBounds#raised}, from 0, the optimum as the goal): never above the complete
     * program (so never above the brute force), and equal to it on some cases.
     */
    @Test
    void theLiveBytesPricedNeverAboveTheBruteForce() {
        int cases = 0;
        int reached = 0;
        int inputsCount = 0;
        List<Graph> all = new ArrayList<>(graphs());
        for (int seed = 8; seed < 20; seed++) {
            all.add(tiny(seed, 4));
            all.add(skips(seed, 5));
        }
        for (Graph graph : all) {
            Graph g = graph.withSetting(ALL);
            long mr = Budgets.minimumRequired(g);
            for (long budget : new long[] {mr, mr + 1, mr + 2, mr + 4}) {
                for (double lambda : new double[] {0, 0.125, 0.5, 1, 4}) {
                    Double optimum = minimumObjective(g, ALL, budget, 2, lambda);
                    if (optimum == null) {
                        continue;
                    }
                    TrafficPrices prices = TrafficPrices.withReruns(g, lambda);
                    long peak = PeakBound.of(g, prices, budget, Long.MAX_VALUE, PeakBound.DEFAULT_STATE_CAP,
                            Limits.DEFAULT).traffic();
                    String c = g.name() + " B " + budget + " lambda " + lambda;
                    assertTrue(peak <= optimum, c + ": live bytes " + peak + " above the optimum " + optimum);
                    // Raised by lower targets from 0 with the optimum as the goal: never above either.
                    long raised = PricedBounds.raised(g, prices, budget, 0, (long) Math.ceil(optimum),
                            Limits.DEFAULT);
                    assertTrue(raised <= peak, c + ": raised " + raised + " above the program's " + peak);
                    reached += raised == peak && peak > 0 ? 1 : 0;
                    // The inputs taken as free: no rerun share beyond what the stem's prices say.
                    long[] none = new long[prices.rerun().length];
                    java.util.Arrays.fill(none, -1);
                    long free = PeakBound.of(g, new TrafficPrices(prices.load(), prices.spill(), none), budget,
                            Long.MAX_VALUE, PeakBound.DEFAULT_STATE_CAP, Limits.DEFAULT).traffic();
                    assertTrue(free <= optimum, c + ": " + free);
                    inputsCount += peak > free ? 1 : 0;
                    cases++;
                }
            }
        }
        assertTrue(cases > 400, "cases " + cases);
        assertTrue(inputsCount > 0, "the rerun's inputs raised the live bytes on no case");
        assertTrue(reached > 0, "the lower targets reached the program's value on no case");
    }

    /**
     * Under a work limit that cuts the run with a goal far above as its target short, the runs with lower targets
     * ({@link PricedBounds#raised}, from 0) give more within the same work on some case (k branches joined at the
     * end, 5 to 8 of them), never above the complete program, and the same number twice (work, not time, decides).
     */
    @Test
    void lowerTargetsRaiseARunCutShortByItsWork() {
        int raisedCount = 0;
        for (int k = 5; k <= 8; k++) {
            Graph g = branches(k, 1).withSetting(ALL);
            long budget = Budgets.minimumRequired(g);
            TrafficPrices prices = TrafficPrices.withReruns(g, 1);
            long exact = PeakBound.of(g, prices, budget, Long.MAX_VALUE, PeakBound.DEFAULT_STATE_CAP,
                    Limits.DEFAULT).traffic();
            long goal = exact * 2 + 10;
            for (double work : new double[] {1e-5, 4e-5}) {
                long cut = PeakBound.of(g, prices, budget, goal, PeakBound.DEFAULT_STATE_CAP,
                        Limits.DEFAULT.withBudget(Budget.ofWork(work, null))).traffic();
                long[] got = new long[2];
                for (int rep = 0; rep < 2; rep++) {
                    got[rep] = PricedBounds.raised(g, prices, budget, 0, goal,
                            Limits.DEFAULT.withBudget(Budget.ofWork(work, null)));
                }
                String c = "k " + k + " work " + work;
                assertEquals(got[0], got[1], c);
                assertTrue(got[0] <= exact, c + ": " + got[0] + " above the program's " + exact);
                raisedCount += got[0] > cut ? 1 : 0;
            }
        }
        assertTrue(raisedCount > 0, "no lower target raised a run cut short");
    }

    /**
     * A fan-out p (cost 3, may pay at lambda 1) writes a:1, read at once, and b:2, read last, from y:1, which nothing
     * else reads; two operators later v:4 and u or w leave b's 2 bytes over the budget of 5. With {@code yLive} a
     * last operator reads y too, so y is live through the peak.
     */
    static Graph fanOut(boolean yLive) {
        Graph.Builder b = Graph.builder(yLive ? "fan-out-y-live" : "fan-out").activation("in", 1).activation("y", 1)
                .activation("a", 1).activation("b", 2).activation("u", 1).activation("v", 4).activation("w", 1)
                .activation("o", 1)
                .operator(new Operator("A", null, List.of("in"), List.of("y"), 100L))
                .operator(new Operator("P", null, List.of("y"), List.of("a", "b"), 3L))
                .operator(new Operator("C", null, List.of("a"), List.of("u"), 100L))
                .operator(new Operator("D", null, List.of("u"), List.of("v"), 100L))
                .operator(new Operator("E", null, List.of("v"), List.of("w"), 100L));
        if (!yLive) {
            return b.operator(new Operator("F", null, List.of("w", "b"), List.of("o"), 100L)).output("o").build();
        }
        return b.activation("o2", 1).operator(new Operator("F", null, List.of("w", "b"), List.of("o"), 100L))
                .operator(new Operator("G", null, List.of("o", "y"), List.of("o2"), 100L)).output("o2").build();
    }

    /**
     * The live bytes priced on {@link #fanOut}: b leaves at the peak by a spill (4) or a rerun of p after it (3),
     * which needs y. With y dead there and a (p's other output) dead too, the rerun pays p's whole cost and y's return
     * (3 + 2 > 4): the bound is the spill, 4, which the brute force attains; sharing p's cost and y's room with the
     * dead a, as the cover did before, gave 2. With y live through the peak the rerun needs nothing more, and the
     * bound must not charge y: it stays at or below the brute force's optimum there.
     */
    @Test
    void aLoneOutputPaysItsProducersWholeRerunAndItsDeadInputs() {
        for (boolean yLive : new boolean[] {false, true}) {
            Graph g = fanOut(yLive).withSetting(ALL);
            long budget = 5 + (yLive ? 1 : 0);
            Double optimum = minimumObjective(g, ALL, budget, 2, 1);
            assertTrue(Reruns.mayPay(g, 1, g.operatorIndex("P")), g.name());
            long peak = PeakBound.of(g, TrafficPrices.withReruns(g, 1), budget, Long.MAX_VALUE,
                    PeakBound.DEFAULT_STATE_CAP, Limits.DEFAULT).traffic();
            assertTrue(optimum != null && peak <= optimum, g.name() + ": " + peak + " above " + optimum);
            if (!yLive) {
                assertEquals(4.0, optimum, g.name());
                assertEquals(4, peak, g.name());
            }
        }
    }

    /**
     * A chain in:2 -P-> x:2 -Q-> y:2 -R-> z:1, and S reads z and x into o:1, every operator dear (no rerun pays at
     * lambda 1). At budget 4 (M_R) R's own 3 bytes and the live x's 2 are 1 over: x leaves whole, a spill and a load.
     */
    static Graph oddExcess() {
        return Graph.builder("odd-excess").activation("in", 2).activation("x", 2).activation("y", 2)
                .activation("z", 1).activation("o", 1)
                .operator(new Operator("P", null, List.of("in"), List.of("x"), 100L))
                .operator(new Operator("Q", null, List.of("x"), List.of("y"), 100L))
                .operator(new Operator("R", null, List.of("y"), List.of("z"), 100L))
                .operator(new Operator("S", null, List.of("z", "x"), List.of("o"), 100L)).output("o").build();
    }

    /**
     * The live bytes priced count whole tensors: on {@link #oddExcess} one byte is over the budget, but the only live
     * tensor has two, so every plan pays for two (4 = the brute force's optimum), where a byte's share gave 2.
     */
    @Test
    void theLiveBytesCoverWholeTensors() {
        Graph g = oddExcess().withSetting(ALL);
        long budget = Budgets.minimumRequired(g);
        assertEquals(4, budget);
        Double optimum = minimumObjective(g, ALL, budget, 2, 1);
        long peak = PeakBound.of(g, TrafficPrices.withReruns(g, 1), budget, Long.MAX_VALUE,
                PeakBound.DEFAULT_STATE_CAP, Limits.DEFAULT).traffic();
        assertEquals(4.0, optimum);
        assertEquals(4, peak);
    }

    /**
     * A random graph around a fan-out: in -A-> y:s -P-> a:s, b:s (P costs s, so it may pay at lambda 1), then four or
     * five dear operators, each reading one or two tensors written before it (a, b or their descendants), and a last
     * one reading every tensor no one reads.
     */
    static Graph fanOutAndReaders(long seed) {
        Random r = new Random(seed);
        int s = 1 + r.nextInt(2);
        Graph.Builder b = Graph.builder("fan-out-" + seed).activation("in", 1).activation("y", s).activation("a", s)
                .activation("b", s)
                .operator(new Operator("A", null, List.of("in"), List.of("y"), 100L))
                .operator(new Operator("P", null, List.of("y"), List.of("a", "b"), (long) s));
        return readers(b, r, 4 + r.nextInt(2));
    }

    /**
     * {@code k} dear operators after a fan-out's copies a and b, each reading one or two tensors written before it (a,
     * b or their descendants), and a last one reading every tensor no one reads.
     */
    private static Graph readers(Graph.Builder b, Random r, int k) {
        return readers(b, r, k, List.of("a", "b"), 4);
    }

    /** As above, the first reader's choices {@code first} (a, b and more), each new tensor of 1 to {@code most}. */
    private static Graph readers(Graph.Builder b, Random r, int k, List<String> first, int most) {
        List<String> unread = new ArrayList<>(List.of("a", "b"));
        List<String> written = new ArrayList<>(first);
        for (int i = 0; i < k; i++) {
            String t = "t" + i;
            b.activation(t, 1 + r.nextInt(most));
            List<String> in = new ArrayList<>(List.of(written.get(r.nextInt(written.size()))));
            if (r.nextBoolean()) {
                String second = written.get(r.nextInt(written.size()));
                if (!in.contains(second)) {
                    in.add(second);
                }
            }
            unread.removeAll(in);
            b.operator(new Operator("O" + i, null, in, List.of(t), 100L));
            unread.add(t);
            written.add(t);
        }
        return b.activation("out", 1).operator(new Operator("Z", null, unread, List.of("out"), 100L)).output("out")
                .build();
    }

    /**
     * The fan-outs' cases ({@link FanOutCases}) on {@link #fanOutAndReaders}, budgets M_R to M_R + 3, lambda 1: the
     * live bytes priced (a fan-out's outputs leaving one by one, as before the joint ways) never above the brute
     * force's optimum, never below the same bound without the cases, and above it on some cases, up to the
     * optimum: where both copies are live at the peak and their reader comes after a later moment over the budget,
     * keeping y in place of both pays its rerun there and a return later.
     */
    @Test
    void theFanOutsCasesRaiseTheLiveBytesAndStayBelowTheBruteForce() {
        int raised = 0;
        int met = 0;
        for (long seed = 0; seed < 60; seed++) {
            Graph g = fanOutAndReaders(seed).withSetting(ALL);
            long mr = Budgets.minimumRequired(g);
            for (long budget = mr; budget <= mr + 3; budget++) {
                Double optimum = minimumObjective(g, ALL, budget, 2, 1);
                if (optimum == null) {
                    continue;
                }
                TrafficPrices prices = TrafficPrices.withReruns(g, 1);
                // The cases measured alone: the excess not rounded to the sizes' gcd, which raises both.
                long without = priced(g, prices, budget, false, false, true, false);
                long with = priced(g, prices, budget, true, false, true, false);
                long rounded = priced(g, prices, budget, true, false, true, true);
                String c = g.name() + " B " + budget + ": with the cases " + with + ", without " + without
                        + ", rounded " + rounded + ", optimum " + optimum;
                assertTrue(with <= optimum && with >= without && rounded <= optimum && rounded >= with, c);
                raised += with > without ? 1 : 0;
                met += with > without && with == optimum ? 1 : 0;
            }
        }
        assertTrue(raised >= 5 && met >= 4, raised + " raised, " + met + " to the optimum");
        // seed 8 at budget 8: both copies live at the peak, the bound without the cases half the optimum.
        Graph g = fanOutAndReaders(8).withSetting(ALL);
        long budget = 8;
        TrafficPrices prices = TrafficPrices.withReruns(g, 1);
        assertEquals(2, priced(g, prices, budget, false, false, true, false));
        assertEquals(4, priced(g, prices, budget, true, false, true, false));
        assertEquals(4.0, minimumObjective(g, ALL, budget, 2, 1));
    }

    /**
     * Where recomputing is cheap the fan-out's cases are not followed ({@link FanOutCases#LEAST_PART}): at lambda 1
     * P's rerun costs s against its outputs' loads and spills of 4 s, at lambda 2^-8 a 256th of that.
     */
    @Test
    void aFanOutWhoseRerunIsCheapHasNoCases() {
        Graph g = fanOutAndReaders(8).withSetting(ALL);
        assertTrue(FanOutCases.of(g, new PeakBound.Cheap(g, TrafficPrices.withReruns(g, 1))) != null);
        assertEquals(null, FanOutCases.of(g, new PeakBound.Cheap(g, TrafficPrices.withReruns(g, 1.0 / 256))));
    }

    /**
     * A random graph around a fan-out of a sum: in -A-> z1:s, in -B-> z2:s (dear), Y sums them into y:s (it costs s,
     * so it may pay at lambda 1), P copies y into a:s, b:s (it costs s), then three or four dear operators, each
     * reading one or two tensors written after P, and a last one reading every tensor no one reads.
     */
    static Graph fanOutOfASum(long seed) {
        Random r = new Random(seed);
        int s = 1 + r.nextInt(2);
        Graph.Builder b = Graph.builder("fan-out-of-a-sum-" + seed).activation("in", 1).activation("z1", s)
                .activation("z2", s).activation("y", s).activation("a", s).activation("b", s)
                .operator(new Operator("A", null, List.of("in"), List.of("z1"), 100L))
                .operator(new Operator("B", null, List.of("in"), List.of("z2"), 100L))
                .operator(new Operator("Y", null, List.of("z1", "z2"), List.of("y"), (long) s))
                .operator(new Operator("P", null, List.of("y"), List.of("a", "b"), (long) s));
        return readers(b, r, 3 + r.nextInt(2));
    }

    /**
     * A needed input made again by its own producer's rerun needs that producer's dead inputs in turn
     * ({@link PeakBound}'s cover, second level), and each live tensor's price follows the hull of its ways: on
     * {@link #fanOutOfASum} (40 seeds, budgets M_R to M_R + 3, lambda 1, 160 cases) the live bytes priced stay at or
     * below the brute force's optimum (up to two reruns: P's and Y's).
     */
    @Test
    void aNeededInputsOwnInputsKeepTheLiveBytesBelowTheBruteForce() {
        int cases = 0;
        for (long seed = 0; seed < 40; seed++) {
            Graph g = fanOutOfASum(seed).withSetting(ALL);
            long mr = Budgets.minimumRequired(g);
            for (long budget = mr; budget <= mr + 3; budget++) {
                Double optimum = minimumObjective(g, ALL, budget, 2, 1);
                if (optimum == null) {
                    continue;
                }
                long peak = PeakBound.of(g, TrafficPrices.withReruns(g, 1), budget, Long.MAX_VALUE,
                        PeakBound.DEFAULT_STATE_CAP, Limits.DEFAULT).traffic();
                assertTrue(peak <= optimum, g.name() + " B " + budget + ": " + peak + " above " + optimum);
                cases++;
            }
        }
        assertTrue(cases >= 150, "cases " + cases);
    }

    /**
     * in:1 -A-> z1:2, in -B-> z2:2 (dear), Y sums them into y:2 (cost 2), P copies y into a:2, b:2 (cost 2); Q reads a
     * into q:2, C reads q into c:{@code big}, D reads c into t:2, and Z reads a, b and t. At C and D a and b are live,
     * y, z1 and z2 dead.
     */
    static Graph sumThenFanOut(long big) {
        return Graph.builder("sum-then-fan-out").activation("in", 1).activation("z1", 2).activation("z2", 2)
                .activation("y", 2).activation("a", 2).activation("b", 2).activation("q", 2).activation("c", big)
                .activation("t", 2).activation("out", 1)
                .operator(new Operator("A", null, List.of("in"), List.of("z1"), 100L))
                .operator(new Operator("B", null, List.of("in"), List.of("z2"), 100L))
                .operator(new Operator("Y", null, List.of("z1", "z2"), List.of("y"), 2L))
                .operator(new Operator("P", null, List.of("y"), List.of("a", "b"), 2L))
                .operator(new Operator("Q", null, List.of("a"), List.of("q"), 100L))
                .operator(new Operator("C", null, List.of("q"), List.of("c"), 100L))
                .operator(new Operator("D", null, List.of("c"), List.of("t"), 100L))
                .operator(new Operator("Z", null, List.of("a", "b", "t"), List.of("out"), 100L)).output("out")
                .build();
    }

    /**
     * On {@link #sumThenFanOut} (c of 4 to 10 bytes, budgets M_R to M_R + 4, lambda 1) the live bytes priced stay at
     * or below the brute force's optimum, and meet it where they were below: with c of 6 bytes at M_R (8) two bytes
     * are over the budget at C, a and b are live, and keeping y through C (2 bytes) in place of both frees only 2
     * for P's rerun (2); the other 2 bytes cost a spill (4) or y's return, whose rerun of Y needs z1 and z2 back (a
     * load and a spill each): 6, the optimum. Before, y's return was priced at Y's rerun alone (2), and each copy's
     * best price per byte (1) was stretched over all its bytes: 4.
     */
    @Test
    void aSumsInputsAreChargedWhenItsOutputIsMadeAgain() {
        for (long big = 4; big <= 10; big++) {
            Graph g = sumThenFanOut(big).withSetting(ALL);
            long mr = Budgets.minimumRequired(g);
            for (long budget = mr; budget <= mr + 4; budget++) {
                Double optimum = minimumObjective(g, ALL, budget, 2, 1);
                long peak = PeakBound.of(g, TrafficPrices.withReruns(g, 1), budget, Long.MAX_VALUE,
                        PeakBound.DEFAULT_STATE_CAP, Limits.DEFAULT).traffic();
                assertTrue(optimum != null && peak <= optimum, "c " + big + " B " + budget + ": " + peak + " above "
                        + optimum);
            }
        }
        Graph g = sumThenFanOut(6).withSetting(ALL);
        assertEquals(8, Budgets.minimumRequired(g));
        assertEquals(6.0, minimumObjective(g, ALL, 8, 2, 1));
        assertEquals(6, PeakBound.of(g, TrafficPrices.withReruns(g, 1), 8, Long.MAX_VALUE, PeakBound.DEFAULT_STATE_CAP,
                Limits.DEFAULT).traffic());
    }

    /** {@link #fanOutAndReaders} of seeds 0 to 59 and {@link #fanOutOfASum} of seeds 0 to 39. */
    private static List<Graph> fanOutFamilies() {
        List<Graph> all = new ArrayList<>();
        for (long seed = 0; seed < 60; seed++) {
            all.add(fanOutAndReaders(seed));
        }
        for (long seed = 0; seed < 40; seed++) {
            all.add(fanOutOfASum(seed));
        }
        return all;
    }

    /** The live bytes priced at lambda 1 without a target or a limit, with the rules given. */
    private static long priced(Graph g, TrafficPrices prices, long budget, boolean cases, boolean joint,
                               boolean ahead) {
        return priced(g, prices, budget, cases, joint, ahead, true);
    }

    /** As above; without {@code grid} the excess is not rounded to the sizes' gcd (a feature measured alone). */
    private static long priced(Graph g, TrafficPrices prices, long budget, boolean cases, boolean joint,
                               boolean ahead, boolean grid) {
        return PeakBound.of(g, prices, budget, Long.MAX_VALUE, PeakBound.DEFAULT_STATE_CAP, Limits.DEFAULT, cases,
                joint, ahead, grid).traffic();
    }

    /**
     * A fan-out's outputs leave the whole cover jointly ({@link PeakBound}'s {@code Cheap}): on {@link
     * #fanOutAndReaders} (60 seeds), {@link #fanOutOfASum} (40 seeds), budgets M_R to M_R + 3, and {@link
     * #sumThenFanOut} (c of 4 to 10 bytes, M_R to M_R + 4), lambda 1, the live bytes priced, with and without the
     * fan-outs' cases, stay at or below the brute force's optimum (up to two reruns) and never below the same bound
     * with each output leaving by its own hull; and they rise on some cases.
     */
    @Test
    void aFanOutsOutputsLeaveJointlyAndStayBelowTheBruteForce() {
        List<Graph> all = fanOutFamilies();
        for (long big = 4; big <= 10; big++) {
            all.add(sumThenFanOut(big));
        }
        int cases = 0;
        int raised = 0;
        for (Graph graph : all) {
            Graph g = graph.withSetting(ALL);
            long mr = Budgets.minimumRequired(g);
            for (long budget = mr; budget <= mr + (g.name().startsWith("sum") ? 4 : 3); budget++) {
                Double optimum = minimumObjective(g, ALL, budget, 2, 1);
                if (optimum == null) {
                    continue;
                }
                TrafficPrices prices = TrafficPrices.withReruns(g, 1);
                for (boolean withCases : new boolean[] {false, true}) {
                    // The joint ways measured alone: the excess not rounded to the sizes' gcd, which raises both.
                    long apart = priced(g, prices, budget, withCases, false, true, false);
                    long joint = priced(g, prices, budget, withCases, true, true, false);
                    long rounded = priced(g, prices, budget, withCases, true, true, true);
                    String c = g.name() + " B " + budget + (withCases ? " with" : " without") + " the cases: joint "
                            + joint + ", apart " + apart + ", rounded " + rounded + ", optimum " + optimum;
                    assertTrue(joint <= optimum && joint >= apart && rounded <= optimum && rounded >= joint, c);
                    raised += joint > apart ? 1 : 0;
                    cases++;
                }
            }
        }
        assertTrue(cases >= 600, "cases " + cases);
        assertTrue(raised >= 10, "raised " + raised);
        // seed 5 (y, a, b of 2 bytes, P costs 2) at budget 10, without the cases: at the peak a and b are live, y
        // dead. Apart, each copy frees 1 byte (2 less its half of y's room) for its share of P's rerun, 1; jointly,
        // one copy made again frees nothing while y stays, so the peak costs the whole rerun (2) or a spill: the
        // optimum.
        Graph g = fanOutAndReaders(5).withSetting(ALL);
        TrafficPrices prices = TrafficPrices.withReruns(g, 1);
        assertEquals(1, priced(g, prices, 10, false, false, true, false));
        assertEquals(2, priced(g, prices, 10, false, true, true, false));
        assertEquals(2.0, minimumObjective(g, ALL, 10, 2, 1));
    }

    /**
     * A fan-out's second case (a rerun before its reader R) charges the rerun to the path's moments before it too
     * ({@link FanOutCases#ahead}): on {@link #fanOutAndReaders} (60 seeds), {@link #fanOutOfASum} (40 seeds),
     * budgets M_R to M_R + 3, lambda 1, the live bytes priced stay at or below the brute force's optimum (up to two
     * reruns) and never below the same bound charging the later moments only (these families never raise it);
     * on {@link #fanOutAndMoreReaders} they rise by one on six cases, four of them to the optimum.
     */
    @Test
    void aFanOutsRerunIsChargedToTheMomentsBeforeItAndStaysBelowTheBruteForce() {
        List<Graph> all = fanOutFamilies();
        int cases = 0;
        int raised = 0;
        for (Graph graph : all) {
            Graph g = graph.withSetting(ALL);
            long mr = Budgets.minimumRequired(g);
            for (long budget = mr; budget <= mr + 3; budget++) {
                Double optimum = minimumObjective(g, ALL, budget, 2, 1);
                if (optimum == null) {
                    continue;
                }
                TrafficPrices prices = TrafficPrices.withReruns(g, 1);
                for (boolean joint : new boolean[] {false, true}) {
                    long later = priced(g, prices, budget, true, joint, false);
                    long both = priced(g, prices, budget, true, joint, true);
                    String c = g.name() + " B " + budget + (joint ? " joint" : " apart") + ": both " + both
                            + ", later only " + later + ", optimum " + optimum;
                    assertTrue(both <= optimum && both >= later, c);
                    raised += both > later ? 1 : 0;
                    cases++;
                }
            }
        }
        assertTrue(cases >= 600, "cases " + cases);
        // Where it rises: two graphs of the family below (found among 600 seeds, 7 of 4,200 cases raised, none
        // above the brute force), at budgets 13 to 15; at 14 and 15 to the optimum.
        for (long seed : new long[] {253, 530}) {
            Graph g = fanOutAndMoreReaders(seed).withSetting(ALL);
            TrafficPrices prices = TrafficPrices.withReruns(g, 1);
            for (long budget = 13; budget <= 15; budget++) {
                long later = priced(g, prices, budget, true, true, false);
                long both = priced(g, prices, budget, true, true, true);
                Double optimum = minimumObjective(g, ALL, budget, 2, 1);
                String c = g.name() + " B " + budget + ": both " + both + ", later only " + later + ", optimum "
                        + optimum;
                assertTrue(optimum != null && both <= optimum && both == later + 1, c);
                assertTrue(budget == 13 || both == optimum, c);
            }
        }
    }

    /**
     * in -A-> y:2 -P-> a:2, b:2 (P costs 2), then six to eight dear operators, each reading one or two tensors written
     * before it (in, a, b or their descendants) into one of 1 to 6 bytes, and a last one reading every tensor no one
     * reads: longer than {@link #fanOutAndReaders}, so that a copy is live at moments both before and after a split.
     */
    static Graph fanOutAndMoreReaders(long seed) {
        Random r = new Random(seed);
        Graph.Builder b = Graph.builder("fan-out-more-" + seed).activation("in", 1).activation("y", 2)
                .activation("a", 2).activation("b", 2)
                .operator(new Operator("A", null, List.of("in"), List.of("y"), 100L))
                .operator(new Operator("P", null, List.of("y"), List.of("a", "b"), 2L));
        return readers(b, r, 6 + r.nextInt(3), List.of("a", "b", "in"), 6);
    }

    /**
     * y (host, {@code y} bytes) -A1-> a1 -A2-> a2 -A3-> a3 -L-> l:1 (the loss), then l, a2 -G2-> g2:1 and g2, a1 -G1->
     * g1:1 (the graph output); a1, a2, a3 of the sizes given, A1 costs {@code cost}, every other operator 100 (none of
     * them may pay at lambda 1). At the loss a1 and a2 are live, and a1 may leave by a rerun of A1 that needs y, dead
     * there: kept through the loss (room) or loaded again. Neither of those two ways beats the other (one frees fewer
     * bytes for less), so a1 keeps the fractional treatment and the whole cover could not round the excess before.
     */
    static Graph oddLossWithRerun(long y, long[] sizes, long cost) {
        Graph.Builder b = Graph.builder("odd-loss-rerun-" + y + "-" + java.util.Arrays.toString(sizes) + "-" + cost)
                .activation("y", y).activation("l", 1).activation("g2", 1).activation("g1", 1);
        for (int i = 1; i <= 3; i++) {
            b.activation("a" + i, sizes[i - 1]).operator(new Operator("A" + i, null,
                    List.of(i == 1 ? "y" : "a" + (i - 1)), List.of("a" + i), i == 1 ? cost : 100L));
        }
        return b.operator(new Operator("L", null, List.of("a3"), List.of("l"), 100L))
                .operator(new Operator("G2", null, List.of("l", "a2"), List.of("g2"), 100L))
                .operator(new Operator("G1", null, List.of("g2", "a1"), List.of("g1"), 100L)).output("g1").build();
    }

    /**
     * The priced live bytes round the bytes over the budget up to the gcd of the live sizes and the inputs a cover may
     * hold, also where a tensor keeps a fractional rerun option: on {@link #oddLossWithRerun} (y 2, a1..a3 4, A1
     * costs 2) at B = 12 the loss's own 5 bytes and the live 8 are 1 over, but what leaves less what is held for
     * A1's rerun is a multiple of 2 (a1 4, a2 4, y 2): the cover of 2 bytes at a1's rerun with y kept (2 for 2
     * bytes) is 2, the brute force's optimum (a1 made again, y kept on chip through the loss), where 1 byte's share
     * gave 1.
     */
    @Test
    void theLiveBytesPricedRoundTheExcessWithARerunOption() {
        Graph g = oddLossWithRerun(2, new long[] {4, 4, 4}, 2).withSetting(ALL);
        TrafficPrices prices = TrafficPrices.withReruns(g, 1);
        assertTrue(Reruns.mayPay(g, 1, g.operatorIndex("A1")));
        assertEquals(2.0, minimumObjective(g, ALL, 12, 2, 1));
        assertEquals(1, PeakBound.of(g, prices, 12, Long.MAX_VALUE, PeakBound.DEFAULT_STATE_CAP, Limits.DEFAULT,
                true, true, true, false).traffic());
        assertEquals(2, PeakBound.of(g, prices, 12, Long.MAX_VALUE, PeakBound.DEFAULT_STATE_CAP, Limits.DEFAULT)
                .traffic());
    }

    /**
     * The rounded excess never lifts the priced live bytes above the brute force: {@link #oddLossWithRerun} with y
     * and a1..a3 of 2 or 4 bytes, A1 costing 1 to 8, budgets M_R to M_R + 5, lambda 2^-3 .. 4; never below the
     * bound without the rounding, above it on some cases.
     */
    @Test
    void theRoundedExcessKeepsTheLiveBytesBelowTheBruteForce() {
        Random r = new Random(28);
        int cases = 0;
        int raised = 0;
        for (int k = 0; k < 16; k++) {
            long[] sizes = new long[3];
            for (int i = 0; i < 3; i++) {
                sizes[i] = 2 + 2 * r.nextInt(2);
            }
            Graph g = oddLossWithRerun(2 + 2 * r.nextInt(2), sizes, 1 + r.nextInt(8)).withSetting(ALL);
            long mr = Budgets.minimumRequired(g);
            for (long budget = mr; budget <= mr + 5; budget++) {
                for (double lambda : new double[] {0.125, 0.5, 1, 4}) {
                    Double optimum = minimumObjective(g, ALL, budget, 2, lambda);
                    if (optimum == null) {
                        continue;
                    }
                    TrafficPrices prices = TrafficPrices.withReruns(g, lambda);
                    long before = PeakBound.of(g, prices, budget, Long.MAX_VALUE, PeakBound.DEFAULT_STATE_CAP,
                            Limits.DEFAULT, true, true, true, false).traffic();
                    long after = PeakBound.of(g, prices, budget, Long.MAX_VALUE, PeakBound.DEFAULT_STATE_CAP,
                            Limits.DEFAULT).traffic();
                    String c = g.name() + " B " + budget + " lambda " + lambda + ": " + before + " -> " + after
                            + ", optimum " + optimum;
                    assertTrue(after <= optimum && after >= before, c);
                    raised += after > before ? 1 : 0;
                    cases++;
                }
            }
        }
        assertTrue(cases >= 100 && raised >= 5, "cases " + cases + ", raised " + raised);
    }
}
