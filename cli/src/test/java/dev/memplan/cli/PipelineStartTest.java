package dev.memplan.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.baselines.replacement.AddressRule;
import dev.memplan.baselines.replacement.BeladyReplacement;
import dev.memplan.baselines.replacement.GreedyReplacement;
import dev.memplan.baselines.replacement.ReplacementPolicy;
import dev.memplan.baselines.replacement.Scheme;
import dev.memplan.baselines.replacement.Schemes;
import dev.memplan.baselines.scheduling.GivenOrderScheduler;
import dev.memplan.baselines.scheduling.MinimumPeakScheduler;
import dev.memplan.decomposition.CosmaPipeline;
import dev.memplan.decomposition.DncResult;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.formulations.cosma.CosmaSolver;
import dev.memplan.model.Budgets;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Plan;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.TensorSetting;
import dev.memplan.model.Budget;
import dev.memplan.model.io.PlanJson;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The pipeline's divide and conquer is never worse than the best plan it was given or made. */
class PipelineStartTest {
    @TempDir
    Path dir;

    @Test
    void neverReturnsAPlanWorseThanAGivenStart() throws IOException {
        Path optimum = dir.resolve("whole.plan.json");
        MainTest.Result whole = MainTest.run("solve", "fig1", "--budget", "M_R", "--decompose", "none", "--out",
                optimum.toString());
        assertEquals(0, whole.code(), whole.err());
        Graph full = Inputs.graph("fig1");
        Graph g = full.withSetting(TensorSetting.ACTIVATIONS);
        Plan best = PlanJson.read(optimum);
        long bestTraffic = PlanChecker.requireValid(g, best, "test").traffic().nonCompulsory();
        Plan start = best.withResult(PlanChecker.requireValid(g, best, "test").traffic(), best.solver());
        CosmaPipeline.Settings settings = CosmaPipeline.Settings.of(CosmaSolver.Options.traffic(Backend.CPSAT), null)
                .withBreakNodes(List.of("n2", "n3"));
        StringWriter log = new StringWriter();
        CosmaPipeline.Outcome o = new CosmaPipeline(settings, new PrintWriter(log)::println).run(full,
                TensorSetting.ACTIVATIONS, best.budget(), Limits.DEFAULT, List.of(start));
        DncResult r = o.dnc();
        assertEquals(r.traffic(), o.result().objective());
        assertEquals("cosma-dnc/cpsat", o.result().planner());
        assertTrue(r.spillAtCut() == null || r.spillAtCut() >= bestTraffic, log.toString());
        assertEquals(bestTraffic, r.traffic(), log.toString());
        assertEquals(bestTraffic, PlanChecker.requireValid(g, r.plan(), "test").traffic().nonCompulsory());
        assertTrue(o.bestStart().traffic().nonCompulsory() >= bestTraffic);

        // The same plan as an alternative (offered at the end only, as the pipeline's restarts are): divide and
        // conquer cuts and searches from its own starts, and still returns no more than the alternative.
        DncResult alt = dev.memplan.decomposition.DivideAndConquer.solve(full, TensorSetting.ACTIVATIONS,
                best.budget(), settings.dnc(), Limits.DEFAULT, List.of(), List.of(start), line -> { });
        assertTrue(alt.traffic() <= bestTraffic, alt.traffic() + " > " + bestTraffic);
        assertTrue(alt.start() == null || alt.start() >= bestTraffic, "an alternative is not a start");
    }

    /**
     * The restarts: on LR-ASPP at M_R the width-1 minimum-peak order spills less than the width-16 one the case
     * pins (and than every paper scheme), so the pipeline starts from it and returns no more traffic than it; the
     * narrower orders' plans are made here independently of the pipeline.
     */
    @Test
    void startsFromTheBestNarrowerMinimumPeakOrder() {
        Graph full = Inputs.graph("lraspp_mobilenet_v3_large");
        TensorSetting s = TensorSetting.ACTIVATIONS;
        Graph g = full.withSetting(s);
        long budget = Budgets.minimumRequired(g);
        MinimumPeakScheduler mpmf = MinimumPeakScheduler.pinned(16, Backend.CPSAT);
        long paper = Long.MAX_VALUE;
        for (Scheme scheme : Schemes.byNames(Schemes.PAPER, mpmf)) {
            paper = Math.min(paper, scheme.plan(full, s, budget, Limits.DEFAULT).traffic().nonCompulsory());
        }
        long restart = leastOnNarrowerOrders(full, s, budget, 1, 4);
        assertTrue(restart < paper, "the case no longer shows a restart's gain: " + restart + " >= " + paper);
        CosmaPipeline.Settings settings = CosmaPipeline.Settings.of(CosmaSolver.Options.traffic(Backend.CPSAT)
                .withDecoupled(true, null), mpmf);
        StringWriter log = new StringWriter();
        Limits limits = Limits.DEFAULT.withBudget(Budget.ofWork(1, null));
        CosmaPipeline.Outcome o = new CosmaPipeline(settings, new PrintWriter(log)::println).run(full, s, budget,
                limits, null);
        assertEquals(restart, o.bestStart().traffic().nonCompulsory(), log.toString());
        assertTrue(o.bestStart().solver().name().startsWith("mpmf@"), o.bestStart().solver().name());
        assertTrue(o.result().objective() <= restart, log.toString());
        assertTrue(PlanChecker.check(g, o.result().plan()).valid());

        // --without restarts: the paper's schemes alone start it.
        CosmaPipeline.Outcome without = new CosmaPipeline(new CosmaPipeline.Settings(settings.cosma().without(
                java.util.Set.of(dev.memplan.formulations.cosma.Technique.RESTARTS)), settings.decompose(), null,
                settings.maxPart(), mpmf, true, null), line -> { }).run(full, s, budget, limits, null);
        assertEquals(paper, without.bestStart().traffic().nonCompulsory());
    }

    /**
     * The fixed-schedule program on a restart's order: on ResNet-50 at M_R the width-1 order's schemes spill, while
     * the program on the same order finds a plan without non-compulsory traffic; the pipeline offers it as
     * {@code FS(mpmf@1)}, checked, labelled neither OPTIMAL nor with the fixed order's bound.
     */
    @Test
    void aRestartsOrderAlsoGetsItsFixedScheduleProgram() {
        Graph full = Inputs.graph("resnet50");
        TensorSetting s = TensorSetting.ACTIVATIONS;
        Graph g = full.withSetting(s);
        long budget = Budgets.minimumRequired(g);
        MinimumPeakScheduler mpmf = MinimumPeakScheduler.pinned(16, Backend.CPSAT);
        long schemes = leastOnNarrowerOrders(full, s, budget, 1);
        assertTrue(schemes > 0, "the case no longer shows the program's gain: the schemes pay " + schemes);
        CosmaPipeline.Settings settings = CosmaPipeline.Settings.of(CosmaSolver.Options.traffic(Backend.CPSAT)
                .withDecoupled(true, null), mpmf);
        StringWriter log = new StringWriter();
        Limits limits = Limits.DEFAULT.withBudget(Budget.ofWork(3, null));
        CosmaPipeline.Outcome o = new CosmaPipeline(settings, new PrintWriter(log)::println).run(full, s, budget,
                limits, null);
        Plan fs = o.bestStart();
        assertEquals("FS(mpmf@1)", fs.solver().name(), log.toString());
        assertEquals(0, PlanChecker.requireValid(g, fs, "test").traffic().nonCompulsory());
        assertEquals(dev.memplan.model.SolveStatus.FEASIBLE, fs.solver().status());
        assertEquals(null, fs.solver().bound());
        assertEquals(0, o.result().objective());
    }

    /** The least traffic of Belady and greedy replacement (TFLite's arena) on the minimum-peak orders of these widths. */
    private static long leastOnNarrowerOrders(Graph full, TensorSetting s, long budget, int... widths) {
        Graph g = full.withSetting(s);
        long least = Long.MAX_VALUE;
        for (int w : widths) {
            for (ReplacementPolicy policy : List.of(new BeladyReplacement(), new GreedyReplacement())) {
                Scheme scheme = new Scheme(new GivenOrderScheduler(MinimumPeakScheduler.pinned(w, Backend.CPSAT)
                        .schedule(g, Limits.DEFAULT).schedule(), "w"), policy, AddressRule.TFLITE);
                least = Math.min(least, scheme.plan(full, s, budget, Limits.DEFAULT).traffic().nonCompulsory());
            }
        }
        return least;
    }
}
