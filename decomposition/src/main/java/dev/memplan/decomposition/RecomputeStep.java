package dev.memplan.decomposition;

import dev.memplan.baselines.replacement.AddressRule;
import dev.memplan.baselines.replacement.BeladyReplacement;
import dev.memplan.baselines.replacement.GreedyReplacement;
import dev.memplan.baselines.replacement.Recomputation;
import dev.memplan.baselines.replacement.Scheme;
import dev.memplan.baselines.replacement.Schemes;
import dev.memplan.baselines.scheduling.GivenOrderScheduler;
import dev.memplan.formulations.cosma.RecomputeSolver;
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
import java.util.Locale;
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
 *   <li>the joint program ({@link RecomputeSolver}, free schedule, at most {@link #extraRuns} recomputes) with
 *       {@link Shares#RECOMPUTE_JOINT} of the limit, on graphs small enough for it ({@link #jointWhyNot}).</li>
 * </ol>
 * So the answer is never worse than spill-only COSMA within its share, nor than any baseline. Spill-only steps'
 * bounds bound the traffic of plans that do not recompute, not the joint objective: the bound is the joint
 * program's, or 0.
 */
final class RecomputeStep {

    /**
     * The joint program runs when m (m - 1) T is at most this (m tensors, T = n + k run slots): its pairwise order
     * variables, two per pair of tensors and slot, dominate the program (docs/recomputation.md, Size). fig1:train
     * (22 tensors, 20 slots) is about the largest it still improves on within a few work units.
     */
    static final long JOINT_ORDER_VARIABLES = 20_000;

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

    /** Why the joint program does not run on this case, or null when it does. */
    static String jointWhyNot(Graph g, Schedule fixed) {
        if (fixed != null) {
            return "the joint program has no fixed-schedule mode";
        }
        long m = g.tensorCount();
        long slots = g.operatorCount() + extraRuns(g);
        long pairs = m * (m - 1) * slots;
        if (pairs > JOINT_ORDER_VARIABLES) {
            return String.format(Locale.ROOT, "the graph is too large for the joint program without windows (%d "
                    + "tensors, %d run slots: %d order variables, at most %d)", m, slots, pairs,
                    JOINT_ORDER_VARIABLES);
        }
        return null;
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
        String whyNot = feasible ? jointWhyNot(g, fixed) : "below the least aligned budget no plan exists";
        Limits spillLimits = whyNot == null && limits.budget().limited()
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
            extraRuns = extraRuns(g);
            Limits step = limits.child();
            progress.accept("recompute: the joint program (at most " + extraRuns + " recomputes) ...");
            RecomputeSolver.Result r;
            try {
                r = RecomputeSolver.solve(graph, setting, budget, extraRuns, lambda, settings.cosma().backend(), step);
            } catch (IllegalArgumentException e) {
                r = null;
                steps.add(new StepReport(RecomputeOutcome.JOINT, StepReport.Status.SKIPPED, null, null,
                        step.budget().wallSeconds(), work(step), e.getMessage()));
            }
            if (r != null) {
                joint = new RecomputeOutcome.Joint(r.status(), r.objective(), r.bound(), step.budget().wallSeconds());
                steps.add(new StepReport(RecomputeOutcome.JOINT, step.stopped() ? StepReport.Status.OUT_OF_BUDGET
                        : StepReport.Status.DONE, r.objective() == null ? null : r.objective().traffic(), null,
                        step.budget().wallSeconds(), work(step), r.status() + (r.objective() == null ? ", no plan"
                        : ", objective " + r.objective()) + ", bound " + (r.bound() == null ? "-" : r.bound())));
                if (r.objective() != null && (bestObjective == null
                        || r.objective().value() < bestObjective.value())) {
                    best = r.plan();
                    bestCheck = r.check();
                    bestObjective = r.objective();
                    source = RecomputeOutcome.JOINT;
                }
                progress.accept("recompute: the joint program gave " + r.status() + (r.objective() == null ? ""
                        : ", objective " + r.objective()));
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

    /**
     * The most recomputes the joint program allows: a quarter of the operators, at least one (every slot adds m^2
     * order variables; the brute-force proof uses 0 .. 2).
     */
    static int extraRuns(Graph g) {
        return Math.max(1, (g.operatorCount() + 3) / 4);
    }

    private static Double work(Limits step) {
        return step.workMode() ? step.budget().workUsed() : null;
    }
}
