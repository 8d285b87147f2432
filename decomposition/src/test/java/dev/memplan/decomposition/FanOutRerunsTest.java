package dev.memplan.decomposition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.formulations.cosma.CosmaSolver;
import dev.memplan.formulations.cosma.RecomputeBound;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.formulations.milp.Solvers;
import dev.memplan.model.Budget;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Objective;
import dev.memplan.model.Operator;
import dev.memplan.model.Plan;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.Schedule;
import dev.memplan.model.Tensor;
import dev.memplan.model.TensorSetting;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class FanOutRerunsTest {

    /**
     * A fan-out F (g -> y1, y2, 4 bytes each, cost 1) whose two copies are live across a peak (P: y1, y2, e, p = 17
     * bytes) before their later readers R1, R2: at budget 13 its order pays a spill and a load of 4 bytes (8). Keeping
     * g in place of both copies after E and running F again before R1 pays one rerun (objective 1 at lambda 1).
     */
    private static Graph fanOut() {
        List<Tensor> tensors = List.of(Tensor.activation("x", 4), Tensor.activation("g", 4), Tensor.activation("y1", 4),
                Tensor.activation("y2", 4), Tensor.activation("e", 1), Tensor.activation("p", 8),
                Tensor.activation("q", 1), Tensor.activation("r1", 1), Tensor.activation("r2", 1));
        List<Operator> ops = List.of(new Operator("A", "op", List.of("x"), List.of("g"), 4L),
                new Operator("F", "add_grad", List.of("g"), List.of("y1", "y2"), 1L),
                new Operator("E", "op", List.of("y1"), List.of("e"), 100L),
                new Operator("P", "op", List.of("e"), List.of("p"), 100L),
                new Operator("Q", "op", List.of("p"), List.of("q"), 100L),
                new Operator("R1", "op", List.of("y1", "q"), List.of("r1"), 100L),
                new Operator("R2", "op", List.of("y2"), List.of("r2"), 100L));
        return new Graph("fan-out", 1, tensors, ops, List.of("r1", "r2"));
    }

    private final Graph g = fanOut().withSetting(TensorSetting.ACTIVATIONS);

    @BeforeEach
    void natives() {
        Assumptions.assumeTrue(Solvers.nativeAvailable(), "OR-Tools natives");
    }

    /** The default order of the fan-out graph covered exactly at {@code budget}. */
    private Plan start(long budget) {
        Plan order = new Plan(g.name(), TensorSetting.ACTIVATIONS, budget, Schedule.defaultOrder(g), Map.of(), null,
                null);
        Plan start = OrderCover.of(g, order, budget, Limits.DEFAULT);
        assertNotNull(start);
        return start;
    }

    /** A plan's objective at lambda. */
    private Objective objective(Plan p, double lambda) {
        return Objective.of(PlanChecker.check(g, p).traffic(), lambda);
    }

    @Test
    void aFanOutsRerunBeatsItsCopiesSpill() {
        Plan start = start(13);
        Objective from = objective(start, 1);
        assertEquals(8, from.value());
        // The two later readers of F's outputs after E: R1 (y1) and R2 (y2), the one that pays its copies' traffic.
        List<FanOutReruns.Candidate> candidates = FanOutReruns.candidates(g, start, 1);
        assertEquals(2, candidates.size());
        assertEquals(8, candidates.get(0).traffic());
        FanOutReruns.Result r = FanOutReruns.run(g, start, from, 1, Limits.DEFAULT);
        assertNotNull(r.plan());
        assertTrue(PlanChecker.check(g, r.plan()).valid());
        assertEquals(1, r.objective().value());
        assertEquals(1, r.added());
        assertEquals(List.of("A", "F", "E", "P", "Q", "F", "R1", "R2"), r.plan().schedule().operators());
    }

    /** Under a work limit each cover takes at most a unit and the same plan comes out twice. */
    @Test
    void underAWorkLimitTheStepIsMeteredAndRepeatable() {
        Plan start = start(13);
        Objective from = objective(start, 1);
        Limits one = Limits.DEFAULT.withBudget(Budget.ofWork(5, Duration.ofSeconds(120)));
        FanOutReruns.Result a = FanOutReruns.run(g, start, from, 1, one);
        Limits two = Limits.DEFAULT.withBudget(Budget.ofWork(5, Duration.ofSeconds(120)));
        FanOutReruns.Result b = FanOutReruns.run(g, start, from, 1, two);
        assertTrue(one.budget().workUsed() <= 5);
        assertEquals(one.budget().workUsed(), two.budget().workUsed());
        assertNotNull(a.plan());
        assertEquals(a.plan().schedule(), b.plan().schedule());
        assertEquals(a.plan().segments(), b.plan().segments());
    }

    /** With room for every tensor the plan pays no traffic on F's copies: nothing to spare, no candidate. */
    @Test
    void aPlanThatKeepsTheCopiesHasNoCandidate() {
        Plan start = start(40);
        assertEquals(0, FanOutReruns.candidates(g, start, 1).size());
        FanOutReruns.Result r = FanOutReruns.run(g, start, objective(start, 1), 1, Limits.DEFAULT);
        assertNull(r.plan());
        assertEquals(0, r.tried());
    }

    /** Where the fan-out may not pay (lambda 16: a rerun costs its outputs' bytes and spills), none is tried. */
    @Test
    void aFanOutThatMayNotPayIsNotTried() {
        Plan start = start(13);
        FanOutReruns.Result r = FanOutReruns.run(g, start, objective(start, 16), 16, Limits.DEFAULT);
        assertNull(r.plan());
        assertEquals(0, r.tried());
    }

    /**
     * When a re-planned plan displaced the best ({@code replaced}), the recompute search's step inserts the fan-outs'
     * reruns into the old best's order too: here the best plan (the fan-out already rerun) has no candidate, the old
     * best (the default order covered, a spill and a load of 8) has one, and the step finds its rerun there.
     */
    @Test
    void theBestBeforeReplanningGetsItsFanOutsRerunToo() {
        Plan old = start(13);
        FanOutReruns.Result rerun = FanOutReruns.run(g, old, objective(old, 1), 1, Limits.DEFAULT);
        assertNotNull(rerun.plan());
        Plan now = rerun.plan();
        assertEquals(0, FanOutReruns.candidates(g, now, 1).size());
        CosmaPipeline.Settings settings = CosmaPipeline.Settings.of(CosmaSolver.Options.traffic(Backend.CPSAT), null)
                .withRecomputeWeight(1.0);
        RecomputeChoice choice = new RecomputeChoice(settings, 1, line -> { });
        for (boolean withOld : new boolean[] {false, true}) {
            RecomputeStep.Best best = new RecomputeStep.Best(now, PlanChecker.check(g, now), objective(now, 1), "now");
            List<StepReport> steps = new ArrayList<>();
            choice.choose(g, TensorSetting.ACTIVATIONS, 13, Limits.DEFAULT, List.of(), best,
                    withOld ? new RecomputeChoice.Start("old", old, objective(old, 1)) : null,
                    RecomputeBound.Result.NONE, steps);
            String note = steps.get(steps.size() - 1).note();
            assertEquals(withOld, note.contains("fan-outs' reruns in the order of old:"), note);
            assertTrue(best.objective().value() <= 1, note);
        }
    }
}
