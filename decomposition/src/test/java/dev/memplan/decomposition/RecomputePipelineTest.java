package dev.memplan.decomposition;

import static dev.memplan.formulations.RecomputeGraphs.readEarlyAndLate;
import static dev.memplan.formulations.RecomputeGraphs.skips;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.baselines.replacement.Scheme;
import dev.memplan.baselines.replacement.Schemes;
import dev.memplan.datasets.Examples;
import dev.memplan.datasets.TrainingGraphs;
import dev.memplan.formulations.cosma.CosmaSolver;
import dev.memplan.formulations.cosma.RecomputeBound;
import dev.memplan.formulations.cosma.Technique;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.model.Budget;
import dev.memplan.model.Budgets;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Objective;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.Schedule;
import dev.memplan.model.SolveStatus;
import dev.memplan.model.TensorSetting;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The pipeline with a recompute weight ({@link RecomputeStep}): the answer is a checked plan never worse, by traffic +
 * lambda x recompute cost, than the spill-only steps' plan or any recompute baseline; proven only when it is; and
 * without a weight nothing changes.
 */
class RecomputePipelineTest {
    private static final TensorSetting ALL = TensorSetting.ALL;
    private static final TensorSetting ACT = TensorSetting.ACTIVATIONS;

    /**
     * The road on the whole graph, without the exact search over runs ({@link Technique#RUN_PATHS}): on graphs this
     * small it proves the optimum before the steps these tests look at run (RunPathSearchTest tests it in the road).
     */
    private static CosmaPipeline.Settings settings(Double lambda) {
        return CosmaPipeline.Settings.of(CosmaSolver.Options.traffic(Backend.CPSAT)
                        .without(java.util.Set.of(Technique.RUN_PATHS)), null)
                .withDecompose(CosmaPipeline.Decompose.NONE).withRecomputeWeight(lambda);
    }

    /**
     * The same without the re-planned baseline ({@link Technique#REPLAN}) and the chosen recomputes
     * ({@link Technique#CHOOSE}, {@link Technique#RERUN_COVER}): the joint program's own answer.
     */
    private static CosmaPipeline.Settings jointOnly(Double lambda) {
        return CosmaPipeline.Settings.of(CosmaSolver.Options.traffic(Backend.CPSAT)
                        .without(java.util.Set.of(Technique.REPLAN, Technique.CHOOSE, Technique.RERUN_COVER,
                                Technique.RUN_PATHS)), null)
                .withDecompose(CosmaPipeline.Decompose.NONE).withRecomputeWeight(lambda);
    }

    private static Limits work(double units) {
        return Limits.DEFAULT.withBudget(Budget.ofWork(units, null));
    }

    @Test
    void aCheapRecomputeBeatsSpillOnlyAndIsProven() {
        Graph g = readEarlyAndLate();
        CosmaPipeline.Outcome o = new CosmaPipeline(jointOnly(1.0), null).run(g, ALL, 9, Limits.DEFAULT, null);
        RecomputeOutcome rc = o.recompute();
        assertEquals(8.0, rc.spillOnly().value());
        assertEquals(new Objective(0, 1, 1.0), rc.objective());
        assertEquals(RecomputeOutcome.JOINT, rc.source());
        assertEquals(SolveStatus.OPTIMAL, rc.status());
        assertEquals(SolveStatus.OPTIMAL, o.result().status());
        assertEquals(1.0, rc.bound());
        assertEquals(0.0, rc.gap());
        assertTrue(PlanChecker.check(g.withSetting(ALL), o.result().plan()).valid());
        assertEquals(1, o.result().check().traffic().recomputes());
        assertEquals(List.of("a", "b", "c", "a", "d"), o.result().plan().schedule().operators());
        assertEquals(1L, o.result().objective());
        neverWorseThanACandidate(rc);
    }

    @Test
    void aDearRecomputeKeepsTheSpillOnlyPlan() {
        Graph g = readEarlyAndLate();
        CosmaPipeline.Outcome o = new CosmaPipeline(settings(64.0), null).run(g, ALL, 9, Limits.DEFAULT, null);
        RecomputeOutcome rc = o.recompute();
        assertEquals(new Objective(8, 0, 64.0), rc.objective());
        assertEquals(RecomputeOutcome.SPILL_ONLY, rc.source());
        // The bound over every plan is 8 (y off chip while c runs: its spill and load): proven.
        assertEquals(SolveStatus.OPTIMAL, rc.status());
        assertEquals(0, o.result().check().traffic().recomputes());
        neverWorseThanACandidate(rc);
    }

    /**
     * With the room capped at a kilobyte every recompute program is too large: the joint program is a
     * skipped step whose one-line reason names each program's estimate and the room, and the answer is still the best
     * checked candidate (no OutOfMemoryError is needed to get there).
     */
    @Test
    void programsAboveTheHeapRoomAreSkippedWithTheirEstimates() {
        Graph g = readEarlyAndLate();
        CosmaPipeline.Outcome o;
        try (dev.memplan.model.HeapRoom.Hold cap = dev.memplan.model.HeapRoom.roomAtMost(1024)) {
            o = new CosmaPipeline(jointOnly(1.0), null).run(g, ALL, 9, work(10), null);
        }
        RecomputeOutcome rc = o.recompute();
        assertNull(rc.joint());
        StepReport joint = rc.steps().stream().filter(s -> s.name().equals(RecomputeOutcome.JOINT)).findFirst()
                .orElseThrow();
        assertEquals(StepReport.Status.SKIPPED, joint.status());
        assertTrue(joint.note().contains("the joint program skipped (about ")
                && joint.note().contains("the program without addresses skipped (about ")
                && joint.note().contains("room this run gives a structure") && !joint.note().contains("\n"), joint.note());
        assertTrue(PlanChecker.check(g.withSetting(ALL), o.result().plan()).valid());
        neverWorseThanACandidate(rc);
    }

    @Test
    void withoutAWeightNothingChanges() {
        Graph g = readEarlyAndLate();
        CosmaPipeline.Outcome without = new CosmaPipeline(settings(null), null).run(g, ALL, 9, Limits.DEFAULT, null);
        assertNull(without.recompute());
        assertEquals(SolveStatus.OPTIMAL, without.result().status());
        assertEquals(8L, without.result().objective());
        assertEquals(8L, without.result().bound());
        assertEquals(0, without.result().check().traffic().recomputes());
        CosmaPipeline.Outcome with = new CosmaPipeline(settings(1.0), null).run(g, ALL, 9, Limits.DEFAULT, null);
        assertEquals(without.result().check().traffic().nonCompulsory(), with.recompute().spillOnly().traffic());
    }

    @Test
    void belowMrTheWeightChangesNothing() {
        Graph g = readEarlyAndLate();
        long below = Budgets.minimumRequired(g.withSetting(ALL)) - 1;
        IllegalArgumentException without = assertThrows(IllegalArgumentException.class,
                () -> new CosmaPipeline(settings(null), null).run(g, ALL, below, Limits.DEFAULT, null));
        IllegalArgumentException with = assertThrows(IllegalArgumentException.class,
                () -> new CosmaPipeline(settings(1.0), null).run(g, ALL, below, Limits.DEFAULT, null));
        assertEquals(without.getMessage(), with.getMessage());
    }

    /**
     * fig1's training step at M_R, a cheap and a dear weight, under a small work limit: the whole graph, divide and
     * conquer and a fixed schedule each give a checked plan no worse than the spill-only plan and every baseline; on
     * the fixed schedule the operators first run in its order (recomputes come between).
     */
    @Test
    void aTrainingGraphGoesTheSameRoadWithAWeight() {
        Graph g = TrainingGraphs.of(Examples.graph("fig1"), TrainingGraphs.Step.BACKWARD);
        long mr = Budgets.minimumRequired(g.withSetting(ACT));
        for (double lambda : new double[] {1.0 / 64, 64}) {
            CosmaPipeline.Outcome whole = new CosmaPipeline(settings(lambda), null).run(g, ACT, mr, work(1), null);
            checked(g, whole);
            // checkpoint-sqrt and DTR, Belady and greedy, then the rungs of checkpointing by price that drop something
            assertEquals(Schemes.recompute(g, lambda).stream().map(Scheme::name).toList(),
                    whole.recompute().baselines().stream().map(RecomputeOutcome.Candidate::name).toList());
            assertTrue(lambda < 1 || whole.recompute().baselines().size() == 4, "at 64 nothing is cheap to rerun");
            jointRanUnlessTheBoundWasMet(whole);
            assertTrue(whole.recompute().steps().stream().map(StepReport::name).toList()
                    .containsAll(List.of("spill-only", RecomputeOutcome.JOINT)));

            CosmaPipeline.Outcome dnc = new CosmaPipeline(settings(lambda).withDecompose(CosmaPipeline.Decompose.ALWAYS)
                    .withMaxPart(8), null).run(g, ACT, mr, work(1), null);
            assertNotNull(dnc.dnc(), "divide and conquer ran");
            checked(g, dnc);

            Schedule order = Schedule.defaultOrder(g.withSetting(ACT));
            CosmaPipeline.Outcome fixed = new CosmaPipeline(CosmaPipeline.Settings.of(
                    CosmaSolver.Options.traffic(Backend.CPSAT).withSchedule(order), null).withRecomputeWeight(lambda),
                    null).run(g, ACT, mr, work(1), null);
            checked(g, fixed);
            jointRanUnlessTheBoundWasMet(fixed);
            // Every plan on the fixed schedule runs the operators first in its order; recomputes come between.
            List<String> firstRuns = new ArrayList<>(new LinkedHashSet<>(
                    fixed.result().plan().schedule().operators()));
            assertEquals(order.operators(), firstRuns);
        }
    }

    /** The joint program ran, or it was skipped because a plan met the bound over every plan: then OPTIMAL. */
    private static void jointRanUnlessTheBoundWasMet(CosmaPipeline.Outcome o) {
        RecomputeOutcome rc = o.recompute();
        if (rc.joint() == null) {
            StepReport joint = rc.steps().stream().filter(st -> st.name().equals(RecomputeOutcome.JOINT)).findFirst()
                    .orElseThrow();
            assertEquals(StepReport.Status.SKIPPED, joint.status());
            assertEquals(SolveStatus.OPTIMAL, rc.status(), "the joint program was skipped: " + joint.note());
            assertTrue(rc.objective().value() <= rc.bound(), "skipped, yet the bound is not met");
        }
    }

    /**
     * gen:layered:40's training step (113 operators) at its M_R under divide and conquer (parts of 8), lambda 1: no
     * baseline beats spill-only, but a DTR plan re-planned around its recomputes through divide and conquer on its
     * runs ({@link RecomputeReplan}) beats both, strictly; the answer is checked, and the same under the same work
     * limit.
     */
    @Test
    void divideAndConquerOnTheRunsOfADtrPlanBeatsEveryBaselineAndSpillOnly() {
        Graph g = TrainingGraphs.of(dev.memplan.datasets.GeneratedGraphs.graph("gen:layered:40"),
                TrainingGraphs.Step.BACKWARD);
        long mr = Budgets.minimumRequired(g.withSetting(ACT));
        CosmaPipeline.Settings dnc = settings(1.0).withDecompose(CosmaPipeline.Decompose.ALWAYS).withMaxPart(8);
        CosmaPipeline.Outcome o = new CosmaPipeline(dnc, null).run(g, ACT, mr, work(4), null);
        RecomputeOutcome rc = o.recompute();
        checked(g, o);
        assertNotNull(o.dnc(), "the spill-only steps divided the graph");
        // The re-planned DTR plan is the answer, or the start of the recomputes chosen on it (RecomputeSearchTest),
        // or of the reruns placed at once on its runs (RerunCoverTest).
        assertTrue(rc.source().endsWith(", re-planned") || rc.source().startsWith(RecomputeOutcome.CHOOSE)
                || rc.source().endsWith(", re-planned, " + RerunCover.SOURCE), rows(o).toString());
        assertTrue(rc.objective().value() < rc.spillOnly().value(), rc.objective() + " vs " + rc.spillOnly());
        double baseline = rc.baselines().stream().filter(c -> c.objective() != null)
                .mapToDouble(c -> c.objective().value()).min().orElseThrow();
        assertTrue(rc.objective().value() < baseline, rc.objective() + " vs " + baseline);
        assertTrue(o.result().check().traffic().recomputes() > 0);
        StepReport replan = rc.steps().stream().filter(s -> s.name().equals(RecomputeOutcome.REPLAN)).findFirst()
                .orElseThrow();
        assertEquals(StepReport.Status.DONE, replan.status());
        assertTrue(replan.note().contains("divide and conquer, unrolled traffic"), replan.note());
        assertEquals(replan.note(), rows(o).get(RecomputeOutcome.REPLAN));

        CosmaPipeline.Outcome again = new CosmaPipeline(dnc, null).run(g, ACT, mr, work(4), null);
        assertEquals(rc.objective(), again.recompute().objective());
        assertEquals(o.result().plan().schedule(), again.result().plan().schedule());
    }

    /**
     * Under divide and conquer (parts of 2) on chains with skips, at M_R .. M_R + 2, a cheap and a dear weight: the
     * answer is never below the brute force's optimum over the plans with as many recomputes as it makes, and where a
     * re-planned recompute plan is the answer it often meets that optimum.
     */
    @Test
    void underDivideAndConquerTheAnswerAgreesWithTheBruteForce() {
        int replanned = 0;
        int meets = 0;
        for (int seed = 0; seed < 4; seed++) {
            Graph g = skips(300 + seed, 5);
            Graph s = g.withSetting(ALL);
            long mr = Budgets.minimumRequired(s);
            for (long b = mr; b <= mr + 2; b++) {
                for (double lambda : new double[] {0.125, 64}) {
                    CosmaPipeline.Outcome o = new CosmaPipeline(settings(lambda)
                            .withDecompose(CosmaPipeline.Decompose.ALWAYS).withMaxPart(2), null)
                            .run(g, ALL, b, Limits.DEFAULT, null);
                    RecomputeOutcome rc = o.recompute();
                    String where = g.name() + " B " + b + " lambda " + lambda;
                    assertTrue(PlanChecker.check(s, o.result().plan()).valid(), where);
                    int recomputes = (int) o.result().check().traffic().recomputes();
                    if (recomputes > 2) {
                        continue;
                    }
                    double optimum = dev.memplan.formulations.RecomputeGraphs.minimumObjective(g, ALL, b, recomputes,
                            lambda);
                    assertTrue(rc.objective().value() >= optimum - 1e-9, where + ": " + rc.objective() + " below "
                            + optimum);
                    if (rc.source().endsWith(", re-planned")) {
                        replanned++;
                        meets += rc.objective().value() <= optimum + 1e-9 ? 1 : 0;
                    }
                }
            }
        }
        assertTrue(replanned > 0 && meets > 0, "re-planned answers " + replanned + ", at the optimum " + meets);
    }

    /**
     * The run's bound is {@link RecomputeBound}'s over every plan (free, or in the fixed schedule's order), in the
     * outcome and in the result, and the status is OPTIMAL exactly when the objective meets it: the joint program's
     * optimum over its own plans (at most k recomputes) is not called optimal when the bound stays below it.
     */
    @Test
    void theBoundCoversEveryPlanAndOptimalMeansTheObjectiveMeetsIt() {
        int optimal = 0;
        int feasible = 0;
        int jointOptimalOnly = 0;
        for (int seed = 0; seed < 12; seed++) {
            Graph g = skips(200 + seed, 5 + seed / 6 * 3);
            Graph s = g.withSetting(ALL);
            long mr = Budgets.minimumRequired(s);
            for (long b = mr; b <= mr + 2; b++) {
                for (double lambda : new double[] {0.125, 64}) {
                    for (boolean fixedOrder : new boolean[] {false, true}) {
                        Schedule order = fixedOrder ? Schedule.defaultOrder(s) : null;
                        CosmaPipeline.Settings settings = fixedOrder ? CosmaPipeline.Settings.of(
                                CosmaSolver.Options.traffic(Backend.CPSAT).withSchedule(order)
                                        .without(java.util.Set.of(Technique.RUN_PATHS)), null)
                                .withRecomputeWeight(lambda) : settings(lambda);
                        CosmaPipeline.Outcome o = new CosmaPipeline(settings, null).run(g, ALL, b, Limits.DEFAULT,
                                null);
                        RecomputeOutcome rc = o.recompute();
                        String where = g.name() + " B " + b + " lambda " + lambda + (fixedOrder ? " fixed" : " free");
                        assertTrue(PlanChecker.check(s, o.result().plan()).valid(), where);
                        double value = rc.objective().value();
                        // The bound with its integer program (solved to optimality on graphs this small).
                        double lower = RecomputeBound.of(s, b, lambda, order == null ? null : order.resolve(s),
                                Budget.unlimited(), new RecomputeBound.Integral(Limits.DEFAULT.child(), value))
                                .value();
                        assertEquals(Math.min(lower, value), rc.bound(), where);
                        assertEquals((long) Math.floor(rc.bound()), o.result().bound(), where);
                        assertEquals(value <= lower, rc.status() == SolveStatus.OPTIMAL, where);
                        assertEquals(rc.status(), o.result().status(), where);
                        assertEquals(value == 0 ? 0.0 : (value - rc.bound()) / value, rc.gap(), 1e-12, where);
                        if (rc.status() == SolveStatus.OPTIMAL) {
                            optimal++;
                        } else {
                            assertEquals(SolveStatus.FEASIBLE, rc.status(), where);
                            assertTrue(rc.gap() > 0, where);
                            feasible++;
                            if (rc.joint() != null && rc.joint().status() == SolveStatus.OPTIMAL) {
                                jointOptimalOnly++;
                            }
                        }
                    }
                }
            }
        }
        assertTrue(optimal > 0 && feasible > 0 && jointOptimalOnly > 0, "proven " + optimal + ", not proven "
                + feasible + ", of which optimal for the joint program only " + jointOptimalOnly);
    }

    /**
     * The recompute step's reports, in the order the steps ran: each baseline, the spill-only steps, the re-planned
     * baseline (switched off here), the bound over every plan (its note names the bound that gave the number), the
     * chosen recomputes (switched off here), the joint program; each DONE, with the traffic of the plan it made and,
     * under a work limit, the work it used.
     */
    @Test
    void theStepsReportInTheOrderTheyRan() {
        Graph g = readEarlyAndLate();
        CosmaPipeline.Outcome o = new CosmaPipeline(jointOnly(1.0), null).run(g, ALL, 9, work(100), null);
        RecomputeOutcome rc = o.recompute();
        List<String> names = new ArrayList<>(rc.baselines().stream().map(RecomputeOutcome.Candidate::name).toList());
        names.add(RecomputeOutcome.SPILL_ONLY);
        names.add(RecomputeOutcome.REPLAN);
        names.add(RecomputeOutcome.BOUND);
        names.add(RecomputeOutcome.CHOOSE);
        names.add(RecomputeOutcome.JOINT);
        List<StepReport> steps = rc.steps();
        assertEquals(names, steps.stream().map(StepReport::name).toList());
        for (StepReport step : steps) {
            if (step.name().equals(RecomputeOutcome.REPLAN) || step.name().equals(RecomputeOutcome.CHOOSE)) {
                String id = step.name().equals(RecomputeOutcome.REPLAN) ? "replan" : "choose";
                assertEquals(new StepReport(step.name(), StepReport.Status.SKIPPED, null, null, 0, null,
                        "switched off (without " + id + ")"), step);
                continue;
            }
            assertEquals(StepReport.Status.DONE, step.status(), step.name());
            assertNotNull(step.work(), step.name() + ": a work-limited step reports its work");
        }
        for (int i = 0; i < rc.baselines().size(); i++) {
            Objective b = rc.baselines().get(i).objective();
            assertEquals(b == null ? null : b.traffic(), steps.get(i).traffic(), names.get(i));
        }
        assertEquals(8L, steps.get(names.size() - 5).traffic(), "spill only pays the round trip of y");
        StepReport bound = steps.get(names.size() - 3);
        assertEquals(1L, bound.bound(), "running a again, lambda x 1");
        assertTrue(bound.note().startsWith("1 from "), bound.note());
        assertEquals(0L, steps.get(names.size() - 1).traffic(), "the joint program recomputes a instead");
        assertEquals(RecomputeOutcome.JOINT, rc.source());
    }

    /** A plan that pays nothing is optimal: the joint program is skipped, and its step says why. */
    @Test
    void aPlanThatPaysNothingSkipsTheJointProgramAndSaysWhy() {
        Graph g = readEarlyAndLate();
        long roomy = g.withSetting(ALL).tensors().stream().mapToLong(t -> t.size()).sum();
        CosmaPipeline.Outcome o = new CosmaPipeline(settings(1.0), null).run(g, ALL, roomy, Limits.DEFAULT, null);
        RecomputeOutcome rc = o.recompute();
        assertEquals(0.0, rc.objective().value());
        assertEquals(SolveStatus.OPTIMAL, rc.status());
        assertNull(rc.joint());
        assertEquals(0, rc.extraRuns());
        StepReport last = rc.steps().get(rc.steps().size() - 1);
        assertEquals(new StepReport(RecomputeOutcome.JOINT, StepReport.Status.SKIPPED, null, null, 0, null,
                "a plan with objective 0 is optimal"), last);
        assertEquals("skipped: a plan with objective 0 is optimal", rows(o).get(RecomputeOutcome.JOINT));
    }

    /** A run whose budget is spent before the joint program skips it with that reason; the plan is still checked. */
    @Test
    void aSpentBudgetSkipsTheJointProgram() {
        Graph g = readEarlyAndLate();
        Budget run = Budget.ofWork(100, null);
        run.cancel();
        CosmaPipeline.Outcome o = new CosmaPipeline(settings(1.0), null).run(g, ALL, 9,
                Limits.DEFAULT.withBudget(run), null);
        RecomputeOutcome rc = o.recompute();
        StepReport last = rc.steps().get(rc.steps().size() - 1);
        assertEquals(RecomputeOutcome.JOINT, last.name());
        assertEquals(StepReport.Status.SKIPPED, last.status());
        assertEquals("the limit is spent", last.note());
        assertNull(rc.joint());
        if (o.result().plan() != null) {
            assertTrue(PlanChecker.check(g.withSetting(ALL), o.result().plan()).valid());
        }
    }

    /** solve's report of a recompute run reads the outcome: the answer's rows, then each candidate's. */
    @Test
    void theSolveReportReadsTheRecomputeStep() {
        Graph g = readEarlyAndLate();
        CosmaPipeline.Outcome o = new CosmaPipeline(jointOnly(1.0), null).run(g, ALL, 9, Limits.DEFAULT, null);
        RecomputeOutcome rc = o.recompute();
        java.util.Map<String, String> rows = rows(o);
        assertEquals(SolveStatus.OPTIMAL.name(), rows.get("status"));
        assertEquals(rc.objective() + " (traffic + lambda x recompute cost)", rows.get("objective"));
        assertEquals("0", rows.get("non-compulsory traffic"));
        assertEquals("1", rows.get("recomputes"));
        assertEquals(RecomputeOutcome.JOINT, rows.get("plan from"));
        assertTrue(rows.get("spill-only").contains("traffic 8"), rows.get("spill-only"));
        for (RecomputeOutcome.Candidate c : rc.baselines()) {
            assertEquals(c.objective() == null ? null : c.objective().toString(),
                    c.objective() == null ? null : rows.get(c.name()), c.name());
        }
        assertTrue(rows.get(RecomputeOutcome.JOINT).startsWith("OPTIMAL, " + rc.joint().objective()),
                rows.get(RecomputeOutcome.JOINT));
    }

    private static java.util.Map<String, String> rows(CosmaPipeline.Outcome o) {
        java.util.Map<String, String> rows = new java.util.LinkedHashMap<>();
        PipelineReport.result(o, dev.memplan.formulations.cosma.CosmaObjective.TRAFFIC, true)
                .forEach(r -> rows.put(r.label(), r.value()));
        return rows;
    }

    private static void checked(Graph g, CosmaPipeline.Outcome o) {
        RecomputeOutcome rc = o.recompute();
        assertNotNull(o.result().plan());
        assertTrue(PlanChecker.check(g.withSetting(ACT), o.result().plan()).valid());
        assertEquals(Objective.of(o.result().check().traffic(), rc.lambda()), rc.objective());
        assertTrue(rc.status() == SolveStatus.OPTIMAL || rc.status() == SolveStatus.FEASIBLE, rc.status().name());
        assertTrue(rc.bound() >= 0 && rc.bound() <= rc.objective().value());
        neverWorseThanACandidate(rc);
    }

    private static void neverWorseThanACandidate(RecomputeOutcome rc) {
        double value = rc.objective().value();
        assertNotNull(rc.spillOnly());
        assertTrue(value <= rc.spillOnly().value(), "spill-only " + rc.spillOnly() + ", answer " + rc.objective());
        for (RecomputeOutcome.Candidate c : rc.baselines()) {
            assertTrue(c.objective() == null || value <= c.objective().value(), c.name() + " " + c.objective());
        }
        if (rc.joint() != null && rc.joint().objective() != null) {
            assertTrue(value <= rc.joint().objective().value());
        }
    }
}
