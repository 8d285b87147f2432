package dev.memplan.decomposition;

import dev.memplan.baselines.replacement.AddressRule;
import dev.memplan.baselines.replacement.BeladyReplacement;
import dev.memplan.baselines.replacement.GreedyReplacement;
import dev.memplan.baselines.replacement.Recomputation;
import dev.memplan.baselines.replacement.ReplacementPolicy;
import dev.memplan.baselines.replacement.Scheme;
import dev.memplan.baselines.replacement.Schemes;
import dev.memplan.baselines.scheduling.GivenOrderScheduler;
import dev.memplan.formulations.cosma.RecomputeBound;
import dev.memplan.formulations.cosma.RecomputeSolver;
import dev.memplan.formulations.cosma.Reruns;
import dev.memplan.formulations.cosma.Technique;
import dev.memplan.model.Budgets;
import dev.memplan.model.CheckReport;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Objective;
import dev.memplan.model.Plan;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.PlanResult;
import dev.memplan.model.Schedule;
import dev.memplan.model.Shares;
import dev.memplan.model.SolveStatus;
import dev.memplan.model.TensorSetting;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The pipeline with a recompute weight lambda (memory-model.md, "Recomputation"): the objective is non-compulsory
 * traffic + lambda x recompute cost, and the answer is the best checked plan by that objective among
 * <ol>
 *   <li>the recompute baselines ({@link #baselines}: sqrt(n) checkpointing on a training graph and DTR, each with
 *       Belady and greedy spilling), run first like the schemes, each while the time or work left allows it;</li>
 *   <li>the spill-only pipeline's plan (whole graph, divide and conquer, or the fixed schedule's program, whichever
 *       the settings choose), objective its traffic;</li>
 *   <li>the best few plans that recompute (the baselines' and, with a free schedule, the same recomputations on the
 *       spill-only plan's order), each with its order, spills and addresses re-planned around its recomputes through
 *       the spill-only road ({@link RecomputeReplan}: the fixed-schedule program and, with a free schedule, divide
 *       and conquer, on its runs unrolled), with {@link Shares#RECOMPUTE_REPLAN} of what is left;</li>
 *   <li>recomputes chosen ({@link RecomputeChoice}) on the best plan so far, the spill-only plan and the lowest raw
 *       baseline plans ({@link RecomputeSearch}: a rerun in place of a load, a rerun dropped, each kept when the
 *       checked objective falls), the lowest few of their plans then re-planned around them, with
 *       {@link Shares#RECOMPUTE_CHOOSE} of what the bound over every plan ({@link #bound}) leaves, unless a plan
 *       meets it;</li>
 *   <li>the joint program ({@link RecomputeSolver}, at most {@link #EXTRA_RUNS} recomputes of the forward
 *       operators ({@link Reruns#FORWARD}; of those only the ones that {@link Reruns#mayPay}, which loses no plan it
 *       bounds), in the fixed schedule's order when there is one) with
 *       {@link Shares#RECOMPUTE_JOINT} of the limit, started from the best plan so far; the program skips what is
 *       too large for it and says so in its notes.</li>
 * </ol>
 * So the answer is never worse than spill-only COSMA within its share, nor than any baseline. Spill-only steps'
 * bounds bound the traffic of plans that do not recompute, and the joint program's bound the plans it allows, not
 * the joint objective: the bound is {@link RecomputeBound}'s, over every plan (any recomputes; any order, or the fixed
 * schedule's), with a free schedule raised to divide and conquer's bounds priced for reruns ({@link PricedBounds}),
 * on a graph of at most 64 tensors and 64 operators to the exact search over runs ({@link RunPathSearch}, whose plan
 * is offered when it finishes and packs), and the answer is OPTIMAL only when it meets it.
 */
final class RecomputeStep {

    /**
     * The most recomputes the joint program allows (at most one per operator): RecomputeBench's setting on the zoo's
     * training graphs (every slot adds a column of variables to every tensor).
     */
    static final int EXTRA_RUNS = 16;

    private final CosmaPipeline.Settings settings;
    private final double lambda;
    private final Consumer<String> progress;

    RecomputeStep(CosmaPipeline.Settings settings, double lambda, Consumer<String> progress) {
        this.settings = settings;
        this.lambda = lambda;
        this.progress = progress;
    }

    /**
     * The recompute baselines of a case: on a free schedule {@link Schemes#recompute}; on a fixed one the same
     * recomputations after Belady and greedy replacement on that order (its first runs; the recomputes are added
     * between them), checkpointing by price's rungs with both policies among them on a training graph ({@link
     * Schemes#cheap(Graph, double, dev.memplan.baselines.scheduling.Scheduler, ReplacementPolicy)}). With a free
     * schedule the re-planning runs these on the spill-only plan's order too, whose peak is far below the default
     * order's on a training step (the levelled order reaches M_P): the rungs' drops then leave less to spill.
     */
    static List<Scheme> baselines(Graph graph, double lambda, Schedule fixed) {
        if (fixed == null) {
            return Schemes.recompute(graph, lambda);
        }
        List<Scheme> schemes = new ArrayList<>();
        for (Recomputation r : List.of(Recomputation.checkpoint(0, lambda), Recomputation.dtr(lambda))) {
            if (r.appliesTo(graph)) {
                schemes.add(new Scheme(new GivenOrderScheduler(fixed), new BeladyReplacement(), AddressRule.TFLITE, r));
                schemes.add(new Scheme(new GivenOrderScheduler(fixed), new GreedyReplacement(), AddressRule.TFLITE, r));
            }
        }
        for (ReplacementPolicy policy : List.of(new BeladyReplacement(), new GreedyReplacement())) {
            schemes.addAll(Schemes.cheap(graph, lambda, new GivenOrderScheduler(fixed), policy));
        }
        return schemes;
    }

    /**
     * One run.
     *
     * @param spillOnly the spill-only pipeline, run with the limits given
     */
    CosmaPipeline.Outcome run(Graph graph, TensorSetting setting, long budget, Limits limits,
                              Function<Limits, CosmaPipeline.Outcome> spillOnly) {
        RunShares clock = new RunShares(limits, 0);
        Graph g = graph.withSetting(setting);
        Schedule fixed = settings.cosma().schedule();
        List<StepReport> steps = new ArrayList<>();
        boolean feasible = budget >= Budgets.minimumFeasible(g);
        List<RecomputeOutcome.Candidate> baselines = feasible ? runBaselines(graph, setting, budget, limits, fixed,
                steps) : List.of();
        Limits spillLimits = feasible && limits.budget().limited()
                ? limits.child(1 - Shares.RECOMPUTE_JOINT) : limits.child();
        CosmaPipeline.Outcome so = spillOnly.apply(spillLimits);
        PlanResult s = so.result();
        Objective spill = s.planned() ? Objective.of(s.check().traffic(), lambda) : null;
        steps.add(new StepReport("spill-only", StepReport.Status.DONE, spill == null ? null : spill.traffic(),
                s.bound(), s.seconds(), s.work(), s.status() + (spill == null ? ", no plan"
                        : ", objective " + spill + "; its bound is on the traffic of plans that do not recompute")));

        // The best so far, in the order spill-only, baselines; the joint program's plan replaces it only when lower.
        Best best = new Best(s.plan(), s.check(), spill, spill == null ? null : RecomputeOutcome.SPILL_ONLY);
        for (RecomputeOutcome.Candidate c : baselines) {
            best.offer(c.result().plan(), c.result().check(), c.objective(), c.name());
        }
        List<RecomputeOutcome.Candidate> raw = new ArrayList<>(baselines);
        // The best plan before the re-planning, when a re-planned plan displaced it: a second fan-out start.
        RecomputeChoice.Start replaced = null;
        if (feasible) {
            RecomputeChoice.Start before = best.plan == null ? null
                    : new RecomputeChoice.Start(best.source, best.plan, best.objective);
            raw.addAll(replan(graph, setting, budget, limits, s.plan(), baselines, best, steps));
            replaced = before != null && best.plan != before.plan() ? before : null;
        }
        // The bound over every plan (any recomputes, any order, or the fixed one): before the recompute search and the
        // joint program, which it spares when a candidate already meets it.
        List<RecomputeChoice.Start> displaced = new ArrayList<>();
        RecomputeBound.Result lower = feasible ? bound(g, budget, fixed, limits, best, s.plan(), displaced, steps)
                : RecomputeBound.Result.NONE;
        if (feasible) {
            RecomputeChoice choice = new RecomputeChoice(settings, lambda, progress);
            // Not when the limit is spent: choose skips then, and the starts check a scheme's plan (seconds on
            // thousands of operators, past the limit).
            List<RecomputeChoice.Start> starts = limits.stopped() ? List.of() : choice.starts(g, raw, so.bestStart(),
                    new RecomputeChoice.Start(best.source, best.plan, null),
                    displaced.isEmpty() ? null : displaced.get(0), s.plan());
            choice.choose(graph, setting, budget, limits, starts, best, replaced, lower, steps);
        }
        String whyNot = feasible ? skipReason(best, lower, limits) : "below the least aligned budget no plan exists";
        RecomputeOutcome.Joint joint = null;
        int extraRuns = 0;
        if (whyNot != null) {
            steps.add(new StepReport(RecomputeOutcome.JOINT, StepReport.Status.SKIPPED, null, null, 0, null, whyNot));
            progress.accept("recompute: joint program skipped: " + whyNot);
        } else {
            extraRuns = Math.min(EXTRA_RUNS, g.operatorCount());
            joint = runJoint(graph, setting, budget, limits, fixed, extraRuns, best, steps);
        }
        Verdict verdict = Verdict.of(best.objective, lower, s.status());
        RecomputeOutcome outcome = new RecomputeOutcome(lambda, verdict.status(), best.objective, verdict.bound(),
                verdict.gap(), best.source, spill, baselines, joint, extraRuns, steps);
        List<String> notes = new ArrayList<>(s.notes());
        PlanResult result = new PlanResult(s.planner(), verdict.status(), best.plan, best.check,
                best.objective == null ? null : Math.round(best.objective.value()),
                best.objective == null ? null : (long) Math.floor(verdict.bound()), verdict.gap(),
                clock.wallSeconds(), clock.workUsed(), limits.budget().wallStopped(), notes);
        return new CosmaPipeline.Outcome(result, so.whole(), so.dnc(), so.fsDefault(), so.fsMpmf(), so.bestStart(),
                so.dncOptions(), outcome);
    }

    /**
     * The recompute plans re-planned through the spill-only road ({@link RecomputeReplan}) with
     * {@link Shares#RECOMPUTE_REPLAN} of what is left, unless switched off ({@link Technique#REPLAN}): the
     * {@link #REPLAN_STARTS} best plans that recompute among the baselines' and, with a free schedule, the same
     * recomputations run on the spill-only plan's order (an order COSMA chose, often far less traffic than the default
     * one); each start, the best first, gets half of what the step has left, the last all of it. Every plan replaces
     * the best when lower.
     *
     * @return the recompute schemes' plans on the spill-only plan's order (empty when none ran)
     */
    private List<RecomputeOutcome.Candidate> replan(Graph graph, TensorSetting setting, long budget, Limits limits,
                                                    Plan spillPlan, List<RecomputeOutcome.Candidate> baselines,
                                                    Best best, List<StepReport> steps) {
        if (!settings.cosma().uses(Technique.REPLAN) || best.objective == null || best.objective.value() == 0
                || limits.stopped()) {
            String why = !settings.cosma().uses(Technique.REPLAN) ? "switched off (without " + Technique.REPLAN.id()
                    + ")" : best.objective == null ? "no plan to start from" : best.objective.value() == 0
                    ? "a plan with objective 0 is optimal" : "the limit is spent";
            steps.add(new StepReport(RecomputeOutcome.REPLAN, StepReport.Status.SKIPPED, null, null, 0, null, why));
            return List.of();
        }
        Limits step = limits.budget().limited() ? limits.child(Shares.RECOMPUTE_REPLAN) : limits.child();
        List<RecomputeOutcome.Candidate> starts = new ArrayList<>(baselines);
        List<RecomputeOutcome.Candidate> onOrder = List.of();
        if (settings.cosma().schedule() == null && spillPlan != null) {
            onOrder = run(graph, setting, budget, step, baselines(graph, lambda, spillPlan.schedule()), null, 0);
            for (RecomputeOutcome.Candidate c : onOrder) {
                best.offer(c.result().plan(), c.result().check(), c.objective(), c.name());
            }
            starts.addAll(onOrder);
        }
        starts.removeIf(c -> c.objective() == null || c.result().check().traffic().recomputes() == 0);
        starts.sort(java.util.Comparator.comparingDouble(c -> c.objective().value()));
        // A scheme on the spill-only order may give a baseline's plan again (when that order is the default one).
        List<RecomputeOutcome.Candidate> distinct = new ArrayList<>();
        for (RecomputeOutcome.Candidate c : starts) {
            Plan p = c.result().plan();
            if (distinct.size() < REPLAN_STARTS && distinct.stream().map(d -> d.result().plan()).noneMatch(
                    d -> d.schedule().equals(p.schedule()) && d.segments().equals(p.segments()))) {
                distinct.add(c);
            }
        }
        starts = distinct;
        if (starts.isEmpty()) {
            steps.add(new StepReport(RecomputeOutcome.REPLAN, StepReport.Status.SKIPPED, null, null, 0, null,
                    "no recompute plan to start from"));
            return onOrder;
        }
        List<String> notes = new ArrayList<>();
        Objective made = null;
        for (int i = 0; i < starts.size() && !step.stopped(); i++) {
            RecomputeOutcome.Candidate start = starts.get(i);
            Limits share = step.budget().limited() && i < starts.size() - 1 ? step.child(Shares.REPLAN_EACH_START)
                    : step.child();
            progress.accept("recompute: the plan of " + start.name() + " re-planned around its recomputes ...");
            RecomputeReplan.Result r = RecomputeReplan.run(graph, setting, budget, start.result().plan(), lambda,
                    settings, share, progress);
            progress.accept("recompute: re-planned " + start.name() + ": " + r.note());
            notes.add(start.name() + ": " + r.note());
            if (r.plan() != null) {
                best.offer(r.plan(), r.check(), r.objective(), start.name() + ", re-planned");
                made = made == null || r.objective().value() < made.value() ? r.objective() : made;
            }
        }
        steps.add(new StepReport(RecomputeOutcome.REPLAN, step.stopped() ? StepReport.Status.OUT_OF_BUDGET
                : StepReport.Status.DONE, made == null ? null : made.traffic(), null, step.budget().wallSeconds(),
                work(step), String.join(" | ", notes)));
        return onOrder;
    }

    /**
     * First, when the best plan so far recomputes nothing, its order covered exactly ({@link OrderCover}, at most
     * {@link Shares#ORDER_COVER} of what is left), offered as a plan: it may meet the bound and spare what follows; then
     * the best plan's order moved operator by operator while its LP falls ({@link OrderCover#moved}, again at most
     * {@link Shares#ORDER_COVER} of what is left), covered exactly when the LP is below the best plan.
     * Then {@link RecomputeBound}'s bound, its cover over time also as an integer program with
     * {@link Shares#RECOMPUTE_BOUND} of what is left (counted in work) when its linear program does not meet the best
     * plan; with a free schedule, before it, raised to divide and conquer's bounds with the traffic priced for reruns
     * ({@link PricedBounds}, {@link Shares#RECOMPUTE_PRICED} of what is left, unless switched off:
     * {@link Technique#PRICED_BOUNDS}), which spare the integer program when they meet the best plan. Last, on a graph
     * {@link RunPathSearch#applies} to, when the bound is still below the best plan, the exact search over runs with
     * {@link RunPathSearch#SHARE} of what is left (counted in work, unless switched off: {@link Technique#RUN_PATHS}),
     * which raises the bound and offers its plan when it finishes and packs. Reported as a
     * step ({@link RecomputeOutcome#BOUND}) saying which bound gave the number. The plan {@link #rerunCover} replaced
     * as the best, if it did, is added to {@code displaced}.
     */
    private RecomputeBound.Result bound(Graph g, long budget, Schedule fixed, Limits limits, Best best,
                                        Plan spillPlan, List<RecomputeChoice.Start> displaced,
                                        List<StepReport> steps) {
        progress.accept("recompute: the bound over every plan ...");
        Limits whole = limits.child();
        if (best.plan != null && best.plan.schedule().recomputes() == 0) {
            progress.accept("recompute: the best plan's order covered exactly ...");
            OrderCover.Covered covered = OrderCover.best(g, java.util.Arrays.asList(best.plan, spillPlan),
                    List.of(best.source, RecomputeOutcome.SPILL_ONLY), budget, whole.child(Shares.ORDER_COVER));
            if (covered != null) {
                best.offer(covered.plan(), covered.check(),
                        Objective.of(covered.plan().traffic(), lambda), covered.source());
            }
            OrderCover.Covered moved = !settings.cosma().uses(Technique.ORDER_MOVES) ? null
                    : OrderCover.moved(g, best.plan, best.source, budget, whole.child(Shares.ORDER_COVER));
            if (moved != null) {
                progress.accept("recompute: the best plan's order moved operator by operator: "
                        + moved.plan().traffic().nonCompulsory() + " from " + best.objective);
                best.offer(moved.plan(), moved.check(), Objective.of(moved.plan().traffic(), lambda),
                        moved.source());
            }
        }
        rerunCover(g, budget, whole, best, displaced);
        PricedBounds.Result priced = null;
        if (fixed == null && settings.cosma().uses(Technique.PRICED_BOUNDS)) {
            progress.accept("recompute: divide and conquer's bounds priced for reruns ...");
            priced = PricedBounds.of(g, budget, lambda, best.objective == null ? Double.POSITIVE_INFINITY
                    : best.objective.value(), whole.child(Shares.RECOMPUTE_PRICED));
        }
        long byOrders = priced == null ? 0 : priced.value();
        Limits share = whole.child(Shares.RECOMPUTE_BOUND);
        RecomputeBound.Result lower = RecomputeBound.of(g, budget, lambda, fixed == null ? null : fixed.resolve(g),
                limits.budget(), best.objective == null || !settings.cosma().uses(Technique.INTEGRAL_BOUND)
                        || byOrders >= best.objective.value() ? null
                        : new RecomputeBound.Integral(share, best.objective.value()));
        String source = lower.source();
        if (byOrders > lower.value()) {
            // The priced bound is the answer's; the rest of the record stays RecomputeBound's.
            lower = new RecomputeBound.Result(byOrders, lower.operator(), lower.excess(), lower.overTime(),
                    lower.integral(), lower.integralNote(), lower.laterMoment());
            source = priced.source();
        }
        String paths = "";
        if (settings.cosma().uses(Technique.RUN_PATHS) && RunPathSearch.applies(g) && best.objective != null
                && lower.value() < best.objective.value() && !whole.stopped()) {
            Limits searched = whole.child(RunPathSearch.SHARE);
            progress.accept("recompute: the exact search over runs without addresses ...");
            RunPathSearch.Result r = RunPathSearch.of(g, best.plan.setting(), budget, lambda,
                    best.objective.value(), searched);
            Plan plan = fixed == null ? RunPathSearch.packed(g, r.plan(), budget, searched.child()) : null;
            if (plan != null) {
                best.offer(plan, PlanChecker.check(g, plan), Objective.of(plan.traffic(), lambda),
                        RunPathSearch.SOURCE);
            }
            paths = "; the exact search over runs " + PipelineReport.lowerBound(r.bound()) + (r.exact()
                    ? (r.plan() == null ? " (finished: no plan below the best)" : " (finished, its plan "
                    + (plan == null ? "does not pack" : "packed") + ")") : " (cut short)") + ", "
                    + r.expanded() + " states expanded"
                    + (work(searched) == null ? "" : String.format(java.util.Locale.ROOT, ", %.2f units",
                    work(searched)));
            if (r.bound() > lower.value()) {
                lower = new RecomputeBound.Result(r.bound(), lower.operator(), lower.excess(), lower.overTime(),
                        lower.integral(), lower.integralNote(), lower.laterMoment());
                source = "the exact search over runs without addresses";
            }
        }
        String note = lower.value() == 0 ? "none" : PipelineReport.lowerBound(lower.value()) + " from "
                + source + (priced == null ? "" : "; priced for reruns: " + priced.note()) + "; the cover over time "
                + PipelineReport.lowerBound(lower.overTime())
                + " (linear program), " + (lower.integralNote() == null ? "no integer program"
                : (lower.integral() > 0 ? PipelineReport.lowerBound(lower.integral()) + " (integer program, "
                + lower.integralNote() + ")" : "integer program " + lower.integralNote())
                + (work(share) == null ? "" : String.format(java.util.Locale.ROOT, ", %.2f units", work(share))))
                + paths;
        steps.add(new StepReport(RecomputeOutcome.BOUND, StepReport.Status.DONE, null,
                (long) Math.floor(lower.value()), whole.budget().wallSeconds(), work(whole), note));
        progress.accept("recompute: bound " + note);
        return lower;
    }

    /**
     * The best plan's runs with reruns placed at once wherever a return could be a rerun, covered exactly
     * ({@link RerunCover}, at most {@link Shares#RERUN_COVER} of what is left), offered as a plan: it may meet the
     * bound and spare the search. Unless switched off ({@link Technique#RERUN_COVER}). When its plan replaces the
     * best, the plan it replaced is added to {@code displaced}: the recompute search starts from both
     * ({@link RecomputeChoice#starts}).
     */
    private void rerunCover(Graph g, long budget, Limits whole, Best best, List<RecomputeChoice.Start> displaced) {
        if (best.plan == null || !settings.cosma().uses(Technique.RERUN_COVER) || whole.stopped()) {
            return;
        }
        progress.accept("recompute: reruns placed at once on the best plan's runs, covered exactly ...");
        RerunCover.Result r = RerunCover.of(g, best.plan, budget, lambda, whole.child(Shares.RERUN_COVER));
        if (r != null) {
            progress.accept("recompute: reruns placed at once: " + r.candidates() + " tried, " + r.kept() + " kept; "
                    + r.objective() + " from " + best.objective);
            RecomputeChoice.Start before = new RecomputeChoice.Start(best.source, best.plan, best.objective);
            best.offer(r.plan(), r.check(), r.objective(), best.source + ", " + RerunCover.SOURCE);
            if (best.plan != before.plan()) {
                displaced.add(before);
            }
        }
    }

    /** The scheduler's part of the name of a recompute scheme run in the spill-only plan's order. */
    static final String SPILL_ONLY_ORDER = "spill-only-order";

    /** The most recompute plans {@link #replan} starts from: the baselines' best few cover DTR's and checkpointing's. */
    static final int REPLAN_STARTS = 3;

    /** Why the joint program need not run, or null when it should. */
    private static String skipReason(Best best, RecomputeBound.Result lower, Limits limits) {
        if (best.objective != null && best.objective.value() == 0) {
            return "a plan with objective 0 is optimal";
        }
        if (best.objective != null && best.objective.value() <= lower.value()) {
            return "the plan of " + best.source + " meets the bound over every plan: it is optimal";
        }
        return limits.stopped() ? "the limit is spent" : null;
    }

    /** The joint program from the best plan so far, in what is left; its plan replaces the best when lower. */
    private RecomputeOutcome.Joint runJoint(Graph graph, TensorSetting setting, long budget, Limits limits,
                                            Schedule fixed, int extraRuns, Best best, List<StepReport> steps) {
        // What is left; without any limit, Shares.STEP_CAP of wall time.
        Limits step = limits.budget().limited() ? limits.child() : limits.child(Shares.RECOMPUTE_JOINT);
        progress.accept("recompute: the joint program (at most " + extraRuns + " recomputes, from the plan of "
                + best.source + ") ...");
        RecomputeSolver.Request request = RecomputeSolver.Request.of(extraRuns, lambda, settings.cosma().backend())
                .withStart(best.plan).withSchedule(fixed).withReruns(Reruns.FORWARD)
                .without(settings.cosma().without());
        RecomputeSolver.Result r;
        try {
            r = RecomputeSolver.solve(graph, setting, budget, request, step);
        } catch (IllegalArgumentException e) {
            steps.add(new StepReport(RecomputeOutcome.JOINT, StepReport.Status.SKIPPED, null, null,
                    step.budget().wallSeconds(), work(step), e.getMessage()));
            return null;
        } catch (OutOfMemoryError e) {
            // The last resort: each program is sized before it is built and skipped when it would not fit
            // (ModelEstimate, HeapRoom), so this is an estimate that fell short (the solver's copy, a search).
            // The best checked plan so far stands.
            steps.add(new StepReport(RecomputeOutcome.JOINT, StepReport.Status.SKIPPED, null, null,
                    step.budget().wallSeconds(), work(step), "the joint program ran out of heap (give more with"
                    + " MEMPLAN_JAVA_OPTS=-Xmx...); the best plan so far is kept"));
            progress.accept("recompute: the joint program ran out of heap; the best plan so far is kept");
            return null;
        }
        if (!r.built()) {
            // Every program was too large for the heap or the limits: a skipped step, with the estimates.
            String why = String.join("; ", r.notes());
            steps.add(new StepReport(RecomputeOutcome.JOINT, StepReport.Status.SKIPPED, null, null,
                    step.budget().wallSeconds(), work(step), why));
            progress.accept("recompute: the joint program skipped: " + why);
            return null;
        }
        steps.add(new StepReport(RecomputeOutcome.JOINT, step.stopped() ? StepReport.Status.OUT_OF_BUDGET
                : StepReport.Status.DONE, r.objective() == null ? null : r.objective().traffic(), null,
                step.budget().wallSeconds(), work(step), r.status() + (r.objective() == null ? ", no plan"
                : ", objective " + r.objective()) + ", bound " + (r.bound() == null ? "-" : r.bound())
                + (r.notes().isEmpty() ? "" : "; " + String.join("; ", r.notes()))));
        if (!r.startOnly()) {
            best.offer(r.plan(), r.check(), r.objective(), RecomputeOutcome.JOINT);
        }
        progress.accept("recompute: the joint program gave " + r.status() + (r.objective() == null ? ""
                : ", objective " + r.objective()) + (r.startOnly() ? " (its starting plan)" : ""));
        return new RecomputeOutcome.Joint(r.status(), r.objective(), r.bound(), r.startOnly(), r.notes(),
                step.budget().wallSeconds());
    }

    /** The best checked plan so far, by objective; ties keep the earlier one. */
    static final class Best {
        private Plan plan;
        private CheckReport check;
        private Objective objective;
        private String source;

        Best(Plan plan, CheckReport check, Objective objective, String source) {
            this.plan = plan;
            this.check = check;
            this.objective = objective;
            this.source = source;
        }

        Plan plan() {
            return plan;
        }

        Objective objective() {
            return objective;
        }

        String source() {
            return source;
        }

        void offer(Plan p, CheckReport c, Objective o, String name) {
            if (o != null && (objective == null || o.value() < objective.value())) {
                plan = p;
                check = c;
                objective = o;
                source = name;
            }
        }
    }

    /**
     * Status, bound and gap of a run. Only the bound over every plan proves anything: the joint program's holds over
     * the plans it allows (at most extraRuns recomputes, of forward operators), so an optimum among those is no
     * optimum of the case.
     */
    private record Verdict(SolveStatus status, double bound, Double gap) {
        static Verdict of(Objective best, RecomputeBound.Result lower, SolveStatus spillStatus) {
            if (best == null) {
                return new Verdict(spillStatus == SolveStatus.INFEASIBLE ? SolveStatus.INFEASIBLE
                        : SolveStatus.UNKNOWN, 0, null);
            }
            double bound = Math.min(lower.value(), best.value());
            SolveStatus status = best.value() <= lower.value() ? SolveStatus.OPTIMAL : SolveStatus.FEASIBLE;
            return new Verdict(status, bound, best.value() == 0 ? 0.0 : (best.value() - bound) / best.value());
        }
    }

    private List<RecomputeOutcome.Candidate> runBaselines(Graph graph, TensorSetting setting, long budget,
                                                          Limits limits, Schedule fixed, List<StepReport> steps) {
        long spillOnlyStart = limits.budget().schemeNeeds(graph.operatorCount());
        return run(graph, setting, budget, limits, baselines(graph, lambda, fixed), steps, spillOnlyStart);
    }

    /**
     * Each scheme while twice {@link Shares#SCHEME_NANOS_PER_OPERATOR} per operator and {@code reserve} are left,
     * with its step reported in {@code steps} (null: not reported, the schemes of {@link #replan}). The baselines
     * run before the spill-only road, whose divide and conquer makes one scheme's plan however little time is left
     * (its answer under any limit): they keep that scheme's time in reserve, so a tight {@code --time-limit} skips a
     * baseline rather than overrun (gen:layered:5000:train at 5 s ran a baseline, then the must-have plan past it).
     */
    private List<RecomputeOutcome.Candidate> run(Graph graph, TensorSetting setting, long budget, Limits limits,
                                                 List<Scheme> schemes, List<StepReport> steps, long reserve) {
        List<RecomputeOutcome.Candidate> out = new ArrayList<>();
        long needs = limits.budget().schemeNeeds(graph.operatorCount());
        for (Scheme scheme : schemes) {
            // The schemes of replan run in the spill-only plan's order: named for it, not for the given order.
            String name = steps == null ? SPILL_ONLY_ORDER + scheme.name().substring(scheme.name().indexOf('/'))
                    : scheme.name();
            if (limits.budget().left() < needs + reserve) {
                if (steps != null) {
                    steps.add(new StepReport(name, StepReport.Status.SKIPPED, null, null, 0, null,
                            "no time left within the limit"));
                }
                progress.accept("recompute baseline " + name + " skipped: no time left within the limit");
                continue;
            }
            progress.accept("recompute baseline " + name + " ...");
            Limits step = limits.child();
            PlanResult r = scheme.solve(graph, setting, budget, step);
            Objective o = r.planned() ? Objective.of(r.check().traffic(), lambda) : null;
            out.add(new RecomputeOutcome.Candidate(name, r, o));
            if (steps != null) {
                steps.add(new StepReport(name, StepReport.Status.DONE, o == null ? null : o.traffic(), null,
                        step.budget().wallSeconds(), work(step), o == null ? "no plan: " + String.join("; ",
                        r.notes()) : "objective " + o));
            }
        }
        return out;
    }

    static Double work(Limits step) {
        return step.workMode() ? step.budget().workUsed() : null;
    }
}
