package dev.memplan.decomposition;

import dev.memplan.baselines.replacement.AddressRule;
import dev.memplan.baselines.replacement.BeladyReplacement;
import dev.memplan.baselines.replacement.GreedyReplacement;
import dev.memplan.baselines.replacement.Recomputation;
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
 *   <li>recomputes chosen on the best plan so far, the spill-only plan and the lowest raw baseline plans
 *       ({@link RecomputeSearch}: a rerun in place of a load, a rerun dropped, each kept when the checked objective
 *       falls), the lowest few of their plans then re-planned around them, with
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
 * and the answer is OPTIMAL only when it meets it.
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
     * between them).
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
        if (feasible) {
            raw.addAll(replan(graph, setting, budget, limits, s.plan(), baselines, best, steps));
        }
        // The bound over every plan (any recomputes, any order, or the fixed one): before the recompute search and the
        // joint program, which it spares when a candidate already meets it.
        RecomputeBound.Result lower = feasible ? bound(g, budget, fixed, limits, best, s.plan(), steps)
                : RecomputeBound.Result.NONE;
        if (feasible) {
            choose(graph, setting, budget, limits, starts(g, raw, so.bestStart(), best.plan, s.plan()), best, lower,
                    steps);
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
            onOrder = run(graph, setting, budget, step, baselines(graph, lambda, spillPlan.schedule()), null);
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
     * The most raw plans (not re-planned) the recompute search starts from besides the best plan so far and the
     * spill-only plan: another basin than theirs (on lraspp_mobilenet_v3_large:train M_R at lambda 2^-8 the search
     * went lower from a raw Belady plan than the best plan's objective then).
     */
    static final int CHOOSE_RAW_STARTS = 8;

    /**
     * The recompute search's starts besides {@code best}: {@code spillPlan} when it is another plan, then the
     * {@link #CHOOSE_RAW_STARTS} lowest by objective of the raw plans the step has (the recompute baselines', on the
     * given order and on the spill-only plan's, and the spill-only pipeline's best scheme plan), valid, other than
     * {@code best} and {@code spillPlan} and than each other; the lowest first. O(plans x plan size).
     */
    private List<Start> starts(Graph g, List<RecomputeOutcome.Candidate> raw, Plan scheme, Plan best,
                                  Plan spillPlan) {
        List<Start> all = new ArrayList<>();
        for (RecomputeOutcome.Candidate c : raw) {
            if (c.objective() != null && c.result().check() != null && c.result().check().valid()) {
                all.add(new Start(c.name(), c.result().plan(), c.objective()));
            }
        }
        if (scheme != null) {
            CheckReport c = PlanChecker.check(g, scheme);
            if (c.valid()) {
                all.add(new Start(scheme.solver() == null ? "the spill-only best start" : scheme.solver().name(),
                        scheme, Objective.of(c.traffic(), lambda)));
            }
        }
        // Stable: ties keep the order above (the baselines', the schemes' on the spill-only order, the scheme's).
        all.sort(java.util.Comparator.comparingDouble(c -> c.objective().value()));
        List<Start> out = new ArrayList<>();
        List<Plan> taken = new ArrayList<>();
        taken.add(best);
        if (spillPlan != null) {
            taken.add(spillPlan);
            if (!spillPlan.equals(best)) {
                out.add(new Start(RecomputeOutcome.SPILL_ONLY, spillPlan, null));
            }
        }
        int ranked = 0;
        for (Start c : all) {
            if (ranked < CHOOSE_RAW_STARTS && taken.stream().noneMatch(t -> t != null
                    && t.schedule().equals(c.plan().schedule()) && t.segments().equals(c.plan().segments()))) {
                out.add(c);
                taken.add(c.plan());
                ranked++;
            }
        }
        return out;
    }

    /** A plan the recompute search may start from, its name, its objective (null: the spill-only plan, unranked). */
    private record Start(String name, Plan plan, Objective objective) {
    }

    /**
     * The most plans of the recompute search that are re-planned around their recomputes ({@link RecomputeReplan}),
     * the lowest first: which one re-plans lowest is not the order of their objectives before it (on
     * deeplabv3_resnet50:train M_R at lambda 2^-8 a search's plan 0.07% lower re-planned 5% higher).
     */
    static final int CHOOSE_REPLANS = 3;

    /** What the source of a plan the recompute search made again on its lowest plan re-planned ends with. */
    static final String AGAIN = "re-planned, searched again";

    /** A plan the recompute search made ({@code result}, improved) from the plan named {@code start}. */
    private record Found(String start, RecomputeSearch.Result result) {
    }

    /**
     * The {@code most} lowest plans of {@code found} by objective, one of each plan (order and segments; a tie keeps
     * the earlier start). O(found^2 x plan size).
     */
    private static List<Found> lowestDistinct(List<Found> found, int most) {
        List<Found> sorted = new ArrayList<>(found);
        sorted.sort(java.util.Comparator.comparingDouble(f -> f.result().objective().value()));
        List<Found> out = new ArrayList<>();
        for (Found f : sorted) {
            Plan p = f.result().plan();
            if (out.size() < most && out.stream().map(d -> d.result().plan()).noneMatch(
                    d -> d.schedule().equals(p.schedule()) && d.segments().equals(p.segments()))) {
                out.add(f);
            }
        }
        return out;
    }

    /**
     * Recomputes chosen ({@link RecomputeSearch}: reruns that replace loads, reruns dropped) on the best plan so far,
     * and on the other starts given ({@link #starts}: the spill-only plan and raw plans), with
     * {@link Shares#RECOMPUTE_CHOOSE} of what is left, unless switched off ({@link Technique#CHOOSE}); the searches
     * take {@link Shares#CHOOSE_SEARCH} of that, each start an equal part of what the ones before it left, and the
     * {@link #CHOOSE_REPLANS} lowest distinct plans they made are re-planned around their recomputes
     * ({@link RecomputeReplan}) with 1 - {@link Shares#CHOOSE_AGAIN} of the rest, the lowest first, each
     * {@link Shares#CHOOSE_REPLAN_EACH} of what is left, the last all of it; when a re-planned plan is the lowest, the
     * search runs again on it with what is left. Every plan replaces the best when lower; the step's note names the
     * search whose plan ended lowest.
     */
    private void choose(Graph graph, TensorSetting setting, long budget, Limits limits, List<Start> others,
                        Best best, RecomputeBound.Result lower, List<StepReport> steps) {
        String why = skipped(best, lower, limits);
        if (why != null) {
            steps.add(new StepReport(RecomputeOutcome.CHOOSE, StepReport.Status.SKIPPED, null, null, 0, null, why));
            return;
        }
        Limits step = limits.budget().limited() ? limits.child(Shares.RECOMPUTE_CHOOSE) : limits.child();
        Limits searches = step.budget().limited() ? step.child(Shares.CHOOSE_SEARCH) : step.child();
        List<Plan> starts = new ArrayList<>(List.of(best.plan));
        List<String> names = new ArrayList<>(List.of(best.source));
        for (Start c : others) {
            starts.add(c.plan());
            names.add(c.name());
        }
        Graph g = graph.withSetting(setting);
        List<String> notes = new ArrayList<>();
        List<Found> found = new ArrayList<>();
        for (int i = 0; i < starts.size() && !searches.stopped(); i++) {
            Limits share = searches.budget().limited() ? searches.part(starts.size() - i) : searches.child();
            progress.accept("recompute: choosing recomputes on the plan of " + names.get(i) + " ...");
            Objective from = Objective.of(PlanChecker.check(g, starts.get(i)).traffic(), lambda);
            RecomputeSearch.Result r = RecomputeSearch.run(g, starts.get(i), lambda, share, progress);
            progress.accept("recompute: chosen on the plan of " + names.get(i) + ": " + r.note(from));
            notes.add("from the plan of " + names.get(i) + ": " + r.note(from));
            if (r.improved()) {
                found.add(new Found(names.get(i), r));
            }
        }
        found = lowestDistinct(found, CHOOSE_REPLANS);
        for (Found f : found) {
            best.offer(f.result().plan(), f.result().check(), f.result().objective(), RecomputeOutcome.CHOOSE);
        }
        Objective made = found.isEmpty() ? null : replanLowest(graph, setting, budget, g, step, found, best, notes);
        steps.add(new StepReport(RecomputeOutcome.CHOOSE, step.stopped() ? StepReport.Status.OUT_OF_BUDGET
                : StepReport.Status.DONE, made == null ? null : made.traffic(), null, step.budget().wallSeconds(),
                work(step), String.join(" | ", notes)));
    }

    /**
     * Why the search is skipped (switched off, no plan, the plan meets the bound, the limit spent), or null when it
     * runs.
     */
    private String skipped(Best best, RecomputeBound.Result lower, Limits limits) {
        if (!settings.cosma().uses(Technique.CHOOSE) || best.objective == null
                || best.objective.value() <= lower.value() || limits.stopped()) {
            return !settings.cosma().uses(Technique.CHOOSE) ? "switched off (without " + Technique.CHOOSE.id()
                    + ")" : best.objective == null ? "no plan to start from" : best.objective.value() == 0
                    ? "a plan with objective 0 is optimal" : best.objective.value() <= lower.value() ? "the plan of "
                    + best.source + " meets the bound over every plan: it is optimal" : "the limit is spent";
        }
        return null;
    }

    /**
     * The searches' lowest distinct plans ({@code found}, lowest first) re-planned around their recomputes, then the
     * search again on the lowest re-planned plan when one went below the searches' lowest (see {@link #choose}).
     * Returns the lowest objective made; every plan is offered to {@code best}, every note added to {@code notes}.
     */
    private Objective replanLowest(Graph graph, TensorSetting setting, long budget, Graph g, Limits step,
                                   List<Found> found, Best best, List<String> notes) {
        Objective made = found.get(0).result().objective();
        Limits replans = step.budget().limited() ? step.child(1 - Shares.CHOOSE_AGAIN) : step.child();
        String won = null;
        RecomputeReplan.Result lowest = null;
        for (int i = 0; i < found.size() && !replans.stopped(); i++) {
            Found f = found.get(i);
            Limits share = replans.budget().limited() && i < found.size() - 1
                    ? replans.child(Shares.CHOOSE_REPLAN_EACH) : replans.child();
            progress.accept("recompute: the plan the search made from the plan of " + f.start()
                    + " re-planned around its recomputes ...");
            RecomputeReplan.Result again = RecomputeReplan.run(graph, setting, budget, f.result().plan(), lambda,
                    settings, share, progress);
            progress.accept("recompute: re-planned the search's plan from the plan of " + f.start() + ": "
                    + again.note());
            notes.add("re-planned the search's plan from the plan of " + f.start() + ": " + again.note());
            if (again.plan() != null) {
                best.offer(again.plan(), again.check(), again.objective(), RecomputeOutcome.CHOOSE
                        + ", re-planned");
                if (again.objective().value() < made.value()) {
                    made = again.objective();
                    won = f.start();
                    lowest = again;
                }
            }
        }
        notes.add("the lowest: the search's plan from the plan of " + (won == null ? found.get(0).start()
                + " (no re-planning went below it)" : won + " (after its re-planning)"));
        if (lowest != null && !step.stopped()) {
            // The re-planning moved the plan's loads and spills: the moves the search refused may pay now.
            progress.accept("recompute: choosing recomputes again on the lowest plan re-planned ...");
            RecomputeSearch.Result r = RecomputeSearch.run(g, lowest.plan(), lambda, step.child(), progress);
            progress.accept("recompute: chosen again on the lowest plan re-planned: " + r.note(made));
            notes.add("again on the lowest plan re-planned: " + r.note(made));
            if (r.improved()) {
                best.offer(r.plan(), r.check(), r.objective(), RecomputeOutcome.CHOOSE + ", " + AGAIN);
                made = r.objective().value() < made.value() ? r.objective() : made;
            }
        }
    
        return made;
    }

    /**
     * First, when the best plan so far recomputes nothing, its order covered exactly ({@link OrderCover}, at most
     * {@link Shares#ORDER_COVER} of what is left), offered as a plan: it may meet the bound and spare what follows.
     * Then {@link RecomputeBound}'s bound, its cover over time also as an integer program with
     * {@link Shares#RECOMPUTE_BOUND} of what is left (counted in work) when its linear program does not meet the best
     * plan; with a free schedule, before it, raised to divide and conquer's bounds with the traffic priced for reruns
     * ({@link PricedBounds}, {@link Shares#RECOMPUTE_PRICED} of what is left, unless switched off:
     * {@link Technique#PRICED_BOUNDS}), which spare the integer program when they meet the best plan. Reported as a
     * step ({@link RecomputeOutcome#BOUND}) saying which bound gave the number.
     */
    private RecomputeBound.Result bound(Graph g, long budget, Schedule fixed, Limits limits, Best best,
                                        Plan spillPlan, List<StepReport> steps) {
        progress.accept("recompute: the bound over every plan ...");
        Limits whole = limits.child();
        if (best.plan != null && best.plan.schedule().recomputes() == 0) {
            progress.accept("recompute: the best plan's order covered exactly ...");
            OrderCover.Covered covered = OrderCover.best(g, java.util.Arrays.asList(best.plan, spillPlan),
                    List.of(best.source, RecomputeOutcome.SPILL_ONLY), budget, whole.child(Shares.ORDER_COVER));
            if (covered != null) {
                best.offer(covered.plan(), PlanChecker.check(g, covered.plan()),
                        Objective.of(covered.plan().traffic(), lambda), covered.source());
            }
        }
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
                    lower.integral(), lower.integralNote());
            source = priced.source();
        }
        String note = lower.value() == 0 ? "none" : PipelineReport.lowerBound(lower.value()) + " from "
                + source + (priced == null ? "" : "; priced for reruns: " + priced.note()) + "; the cover over time "
                + PipelineReport.lowerBound(lower.overTime())
                + " (linear program), " + (lower.integralNote() == null ? "no integer program"
                : (lower.integral() > 0 ? PipelineReport.lowerBound(lower.integral()) + " (integer program, "
                + lower.integralNote() + ")" : "integer program " + lower.integralNote())
                + (work(share) == null ? "" : String.format(java.util.Locale.ROOT, ", %.2f units", work(share))));
        steps.add(new StepReport(RecomputeOutcome.BOUND, StepReport.Status.DONE, null,
                (long) Math.floor(lower.value()), whole.budget().wallSeconds(), work(whole), note));
        progress.accept("recompute: bound " + note);
        return lower;
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
    private static final class Best {
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
        return run(graph, setting, budget, limits, baselines(graph, lambda, fixed), steps);
    }

    /**
     * Each scheme while twice {@link Shares#SCHEME_NANOS_PER_OPERATOR} per operator is left, with its step reported
     * in {@code steps} (null: not reported, the schemes of {@link #replan}).
     */
    private List<RecomputeOutcome.Candidate> run(Graph graph, TensorSetting setting, long budget, Limits limits,
                                                 List<Scheme> schemes, List<StepReport> steps) {
        List<RecomputeOutcome.Candidate> out = new ArrayList<>();
        long needs = 2 * Shares.SCHEME_NANOS_PER_OPERATOR * graph.operatorCount();
        for (Scheme scheme : schemes) {
            // The schemes of replan run in the spill-only plan's order: named for it, not for the given order.
            String name = steps == null ? SPILL_ONLY_ORDER + scheme.name().substring(scheme.name().indexOf('/'))
                    : scheme.name();
            if (limits.budget().left() < needs) {
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

    private static Double work(Limits step) {
        return step.workMode() ? step.budget().workUsed() : null;
    }
}
