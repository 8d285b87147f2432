package dev.memplan.decomposition;

import dev.memplan.baselines.replacement.AddressRule;
import dev.memplan.baselines.replacement.BeladyReplacement;
import dev.memplan.baselines.replacement.GreedyReplacement;
import dev.memplan.baselines.replacement.Recomputation;
import dev.memplan.baselines.replacement.Scheme;
import dev.memplan.baselines.replacement.Schemes;
import dev.memplan.baselines.scheduling.GivenOrderScheduler;
import dev.memplan.formulations.cosma.RecomputeSolver;
import dev.memplan.formulations.cosma.Reruns;
import dev.memplan.model.Budgets;
import dev.memplan.model.CheckReport;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Objective;
import dev.memplan.model.Plan;
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
 *   <li>the joint program ({@link RecomputeSolver}, at most {@link #EXTRA_RUNS} recomputes of the forward
 *       operators ({@link Reruns#FORWARD}), in the fixed schedule's order when there is one) with
 *       {@link Shares#RECOMPUTE_JOINT} of the limit, started from the best plan so far; the program skips what is
 *       too large for it and says so in its notes.</li>
 * </ol>
 * So the answer is never worse than spill-only COSMA within its share, nor than any baseline. Spill-only steps'
 * bounds bound the traffic of plans that do not recompute, not the joint objective: the bound is the joint
 * program's (over the plans it allows), or 0.
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
        String whyNot = feasible ? null : "below the least aligned budget no plan exists";
        Limits spillLimits = feasible && limits.budget().limited()
                ? limits.child(1 - Shares.RECOMPUTE_JOINT) : limits.child();
        CosmaPipeline.Outcome so = spillOnly.apply(spillLimits);
        PlanResult s = so.result();
        Objective spill = s.planned() ? Objective.of(s.check().traffic(), lambda) : null;
        steps.add(new StepReport("spill-only", StepReport.Status.DONE, spill == null ? null : spill.traffic(),
                s.bound(), s.seconds(), s.work(), s.status() + (spill == null ? ", no plan"
                        : ", objective " + spill + "; its bound is on the traffic of plans that do not recompute")));

        // The best so far, in the order spill-only, baselines; the joint program's plan replaces it only when lower.
        Plan best = s.plan();
        CheckReport bestCheck = s.check();
        Objective bestObjective = spill;
        String source = spill == null ? null : RecomputeOutcome.SPILL_ONLY;
        for (RecomputeOutcome.Candidate c : baselines) {
            if (c.objective() != null && (bestObjective == null || c.objective().value() < bestObjective.value())) {
                best = c.result().plan();
                bestCheck = c.result().check();
                bestObjective = c.objective();
                source = c.name();
            }
        }
        RecomputeOutcome.Joint joint = null;
        int extraRuns = 0;
        if (whyNot == null && bestObjective != null && bestObjective.value() == 0) {
            whyNot = "a plan with objective 0 is optimal";
        } else if (whyNot == null && limits.stopped()) {
            whyNot = "the limit is spent";
        }
        if (whyNot != null) {
            steps.add(new StepReport(RecomputeOutcome.JOINT, StepReport.Status.SKIPPED, null, null, 0, null, whyNot));
            progress.accept("recompute: joint program skipped: " + whyNot);
        } else {
            extraRuns = Math.min(EXTRA_RUNS, g.operatorCount());
            // What is left; without any limit, Shares.STEP_CAP of wall time.
            Limits step = limits.budget().limited() ? limits.child() : limits.child(Shares.RECOMPUTE_JOINT);
            progress.accept("recompute: the joint program (at most " + extraRuns + " recomputes, from the plan of "
                    + source + ") ...");
            RecomputeSolver.Request request = RecomputeSolver.Request.of(extraRuns, lambda, settings.cosma().backend())
                    .withStart(best).withSchedule(fixed).withReruns(Reruns.FORWARD)
                    .without(settings.cosma().without());
            RecomputeSolver.Result r;
            try {
                r = RecomputeSolver.solve(graph, setting, budget, request, step);
            } catch (IllegalArgumentException e) {
                r = null;
                steps.add(new StepReport(RecomputeOutcome.JOINT, StepReport.Status.SKIPPED, null, null,
                        step.budget().wallSeconds(), work(step), e.getMessage()));
            } catch (OutOfMemoryError e) {
                // The last resort: each program is sized before it is built and skipped when it would not fit
                // (ModelEstimate, HeapRoom), so this is an estimate that fell short (the solver's copy, a search).
                // The best checked plan so far stands.
                r = null;
                steps.add(new StepReport(RecomputeOutcome.JOINT, StepReport.Status.SKIPPED, null, null,
                        step.budget().wallSeconds(), work(step), "the joint program ran out of heap (give more with"
                        + " MEMPLAN_JAVA_OPTS=-Xmx...); the best plan so far is kept"));
                progress.accept("recompute: the joint program ran out of heap; the best plan so far is kept");
            }
            if (r != null && !r.built()) {
                // Every program was too large for the heap or the limits: a skipped step, with the estimates.
                String why = String.join("; ", r.notes());
                steps.add(new StepReport(RecomputeOutcome.JOINT, StepReport.Status.SKIPPED, null, null,
                        step.budget().wallSeconds(), work(step), why));
                progress.accept("recompute: the joint program skipped: " + why);
            } else if (r != null) {
                joint = new RecomputeOutcome.Joint(r.status(), r.objective(), r.bound(), r.startOnly(), r.notes(),
                        step.budget().wallSeconds());
                steps.add(new StepReport(RecomputeOutcome.JOINT, step.stopped() ? StepReport.Status.OUT_OF_BUDGET
                        : StepReport.Status.DONE, r.objective() == null ? null : r.objective().traffic(), null,
                        step.budget().wallSeconds(), work(step), r.status() + (r.objective() == null ? ", no plan"
                        : ", objective " + r.objective()) + ", bound " + (r.bound() == null ? "-" : r.bound())
                        + (r.notes().isEmpty() ? "" : "; " + String.join("; ", r.notes()))));
                if (r.objective() != null && !r.startOnly() && (bestObjective == null
                        || r.objective().value() < bestObjective.value())) {
                    best = r.plan();
                    bestCheck = r.check();
                    bestObjective = r.objective();
                    source = RecomputeOutcome.JOINT;
                }
                progress.accept("recompute: the joint program gave " + r.status() + (r.objective() == null ? ""
                        : ", objective " + r.objective()) + (r.startOnly() ? " (its starting plan)" : ""));
            }
        }
        // The joint program's bound holds over plans with at most extraRuns recomputes: a plan below it (a baseline
        // that recomputes more) shows it is no bound of this case, and then 0 is the bound.
        double bound = 0;
        if (joint != null && joint.objective() != null && joint.status() == SolveStatus.OPTIMAL) {
            bound = joint.objective().value();
        } else if (joint != null && joint.bound() != null) {
            bound = Math.max(0, joint.bound());
        }
        if (bestObjective != null && bestObjective.value() < bound) {
            bound = 0;
        }
        SolveStatus status;
        if (bestObjective == null) {
            status = s.status() == SolveStatus.INFEASIBLE ? SolveStatus.INFEASIBLE : SolveStatus.UNKNOWN;
        } else if (bestObjective.value() == 0 || (joint != null && joint.status() == SolveStatus.OPTIMAL
                && bestObjective.value() >= bound)) {
            status = SolveStatus.OPTIMAL;
        } else {
            status = SolveStatus.FEASIBLE;
        }
        Double gap = bestObjective == null ? null
                : bestObjective.value() == 0 ? 0.0 : (bestObjective.value() - bound) / bestObjective.value();
        RecomputeOutcome outcome = new RecomputeOutcome(lambda, status, bestObjective, bound, gap, source, spill,
                baselines, joint, extraRuns, steps);
        List<String> notes = new ArrayList<>(s.notes());
        PlanResult result = new PlanResult(s.planner(), status, best, bestCheck,
                bestObjective == null ? null : Math.round(bestObjective.value()),
                bestObjective == null ? null : (long) Math.floor(bound), gap, clock.wallSeconds(), clock.workUsed(),
                limits.budget().wallStopped(), notes);
        return new CosmaPipeline.Outcome(result, so.whole(), so.dnc(), so.fsDefault(), so.fsMpmf(), so.bestStart(),
                so.dncOptions(), outcome);
    }

    private List<RecomputeOutcome.Candidate> runBaselines(Graph graph, TensorSetting setting, long budget,
                                                          Limits limits, Schedule fixed, List<StepReport> steps) {
        List<RecomputeOutcome.Candidate> out = new ArrayList<>();
        long needs = 2 * Shares.SCHEME_NANOS_PER_OPERATOR * graph.operatorCount();
        for (Scheme scheme : baselines(graph, lambda, fixed)) {
            if (limits.budget().left() < needs) {
                steps.add(new StepReport(scheme.name(), StepReport.Status.SKIPPED, null, null, 0, null,
                        "no time left within the limit"));
                progress.accept("recompute baseline " + scheme.name() + " skipped: no time left within the limit");
                continue;
            }
            progress.accept("recompute baseline " + scheme.name() + " ...");
            Limits step = limits.child();
            PlanResult r = scheme.solve(graph, setting, budget, step);
            Objective o = r.planned() ? Objective.of(r.check().traffic(), lambda) : null;
            out.add(new RecomputeOutcome.Candidate(scheme.name(), r, o));
            steps.add(new StepReport(scheme.name(), StepReport.Status.DONE, o == null ? null : o.traffic(), null,
                    step.budget().wallSeconds(), work(step), o == null ? "no plan: " + String.join("; ", r.notes())
                    : "objective " + o));
        }
        return out;
    }

    private static Double work(Limits step) {
        return step.workMode() ? step.budget().workUsed() : null;
    }
}
