package dev.memplan.decomposition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.formulations.cosma.CosmaSolver;
import dev.memplan.formulations.cosma.RecomputeBound;
import dev.memplan.formulations.cosma.Technique;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.formulations.milp.Solvers;
import dev.memplan.model.CheckReport;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Objective;
import dev.memplan.model.Operator;
import dev.memplan.model.Plan;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.Schedule;
import dev.memplan.model.Tensor;
import dev.memplan.model.TensorSetting;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class CoverRerunsTest {

    /**
     * A forward pass B (x1 -> b, 8 bytes, cost 1), C (x2 -> c, 4 bytes, cost 6), M (b, c -> m, 2), a loss L (m -> l,
     * 1) and a backward GC (l, c -> gc) then GB (gc, b -> gb). At budget 14 the loss's moment (b, c, m, l: 15 bytes)
     * must free a byte. Holding b and running C again before GC pays 6 at lambda 1; running B again before GB (b
     * off chip from M to GB, 0.125 per byte) pays 1: the bound's cheap rerun. Either pays one load of its host input
     * (M's moment is full: b, c, m).
     */
    private static Graph lossMoment() {
        List<Tensor> tensors = List.of(Tensor.activation("x1", 1), Tensor.activation("x2", 1),
                Tensor.activation("b", 8), Tensor.activation("c", 4), Tensor.activation("m", 2),
                Tensor.activation("l", 1), Tensor.activation("gc", 1), Tensor.activation("gb", 1));
        List<Operator> ops = List.of(new Operator("B", "op", List.of("x1"), List.of("b"), 1L),
                new Operator("C", "op", List.of("x2"), List.of("c"), 6L),
                new Operator("M", "op", List.of("b", "c"), List.of("m"), 1L),
                new Operator("L", "op", List.of("m"), List.of("l"), 1L),
                new Operator("GC", "op", List.of("l", "c"), List.of("gc"), 1L),
                new Operator("GB", "op", List.of("gc", "b"), List.of("gb"), 1L));
        return new Graph("loss-moment", 1, tensors, ops, List.of("gb"));
    }

    private final Graph g = lossMoment().withSetting(TensorSetting.ACTIVATIONS);

    @BeforeEach
    void natives() {
        Assumptions.assumeTrue(Solvers.nativeAvailable(), "OR-Tools natives");
    }

    /** The runs covered exactly at budget 14 (the plan the searches would be given). */
    private Plan covered(List<String> runs) {
        Plan order = new Plan(g.name(), TensorSetting.ACTIVATIONS, 14, new Schedule(runs), Map.of(), null, null);
        RunGraph rg = RunGraph.ofRuns(g, order.schedule(), TensorSetting.ACTIVATIONS, 14);
        Plan c = OrderCover.of(rg.graph(), rg.plan(), 14, Limits.DEFAULT);
        assertNotNull(c);
        Plan back = rg.back(c);
        assertNotNull(back);
        return back;
    }

    @Test
    void theCheapRerunReplacesTheDearOne() {
        Plan start = covered(List.of("B", "C", "M", "L", "C", "GC", "GB"));
        Objective from = Objective.of(PlanChecker.check(g, start).traffic(), 1);
        assertEquals(6 + 1, from.value());
        // b waits from M to GB, held, and frees 8 bytes less x1's (not held then) for a rerun of cost 1.
        CoverReruns.Candidate first = CoverReruns.candidates(g, start, 1).get(0);
        assertEquals("B", g.operator(first.operator()).name());
        assertEquals(6, first.at());
        CoverReruns.Result r = CoverReruns.run(g, start, from, 1, Limits.DEFAULT);
        assertNotNull(r.plan());
        CheckReport check = PlanChecker.check(g, r.plan());
        assertTrue(check.valid(), check.toString());
        assertEquals(1 + 1, r.objective().value());
        assertEquals(1, r.inserted());
        assertEquals(1, r.dropped());
        List<String> runs = r.plan().schedule().operators();
        assertEquals(1, Collections.frequency(runs, "C"));
        assertEquals(2, Collections.frequency(runs, "B"));
    }

    /**
     * In the search step ({@link RecomputeChoice#choose}) the cheap rerun is also inserted into the searches' lowest
     * plan: the best plan is the optimum (its cover finds nothing); the one other start reruns C for c and GB once
     * more at the end (x1's load 1 + reruns 7), and the search drops GB's idle rerun (1 + 6) but cannot trade C's
     * rerun for B's (each alone rises). Inserting B's rerun into the search's plan and dropping C's makes 1 + 1,
     * the optimum.
     */
    @Test
    void theCheapRerunIsAlsoInsertedIntoTheSearchesLowestPlan() {
        Plan optimum = covered(List.of("B", "C", "M", "L", "GC", "B", "GB"));
        Plan idle = covered(List.of("B", "C", "M", "L", "C", "GC", "GB", "GB"));
        assertEquals(8, Objective.of(PlanChecker.check(g, idle).traffic(), 1).value());
        CosmaPipeline.Settings settings = CosmaPipeline.Settings.of(CosmaSolver.Options.traffic(Backend.CPSAT)
                .without(Set.of(Technique.RUN_PATHS)), null).withDecompose(CosmaPipeline.Decompose.NONE)
                .withRecomputeWeight(1.0);
        RecomputeStep.Best best = new RecomputeStep.Best(optimum, PlanChecker.check(g, optimum),
                Objective.of(PlanChecker.check(g, optimum).traffic(), 1), "optimum");
        List<StepReport> steps = new ArrayList<>();
        new RecomputeChoice(settings, 1, line -> { }).choose(g, TensorSetting.ACTIVATIONS, 14, Limits.DEFAULT,
                List.of(new RecomputeChoice.Start("idle", idle, null)), best, RecomputeBound.Result.NONE, steps);
        String note = steps.get(0).note();
        assertTrue(note.contains("from the plan of idle: 5 moves tried, 0 recomputes added, 1 dropped; "
                + "1 + 1 x 6 = 7 from 1 + 1 x 7 = 8"), note);
        assertTrue(note.contains("the bound's cheap reruns in the plan of the search from idle: 4 orders covered, "
                + "1 reruns inserted, 1 dropped; 1 + 1 x 1 = 2 from 1 + 1 x 6 = 7"), note);
        assertEquals(2, best.objective().value());
    }

    @Test
    void nothingWhenTheStartAlreadyHasTheCheapRerun() {
        // Here b is already made again before GB (the least objective of the graph at budget 14): whatever is
        // inserted and dropped, no plan below the start is returned.
        Plan start = covered(List.of("B", "C", "M", "L", "GC", "B", "GB"));
        Objective from = Objective.of(PlanChecker.check(g, start).traffic(), 1);
        assertEquals(1 + 1, from.value());
        CoverReruns.Result r = CoverReruns.run(g, start, from, 1, Limits.DEFAULT);
        assertNull(r.plan());
        assertEquals(from, r.objective());
    }
}
