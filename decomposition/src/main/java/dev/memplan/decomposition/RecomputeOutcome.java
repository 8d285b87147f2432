package dev.memplan.decomposition;

import dev.memplan.model.Objective;
import dev.memplan.model.PlanResult;
import dev.memplan.model.SolveStatus;
import java.util.List;

/**
 * What the pipeline's recompute step did ({@link CosmaPipeline.Settings#recomputeWeight()} set): the candidates it
 * scored by their {@link Objective} (the best spill-only plan, the recompute baselines, the joint program's plan)
 * and the one it returned.
 *
 * @param lambda the recompute weight, bytes of traffic per cost unit
 * @param status OPTIMAL only when proven: the objective meets {@code bound}, a bound over every plan; else FEASIBLE
 *     (INFEASIBLE, UNKNOWN: no plan). The joint program's optimum among the plans it allows (at most
 *     {@code extraRuns} recomputes, of forward operators on a training graph) proves nothing about the others
 * @param objective the returned plan's objective, from its checked traffic; null without a plan
 * @param bound a lower bound on the objective over every plan (any recomputes; any order, or the fixed schedule's):
 *     {@link dev.memplan.formulations.cosma.RecomputeBound}'s, at most the objective; 0 without a plan. Neither the
 *     spill-only bound (recomputing can lower the traffic below it) nor the joint program's (over its plans only)
 * @param gap (objective - bound) / objective, 0 when the objective is 0; null without a plan
 * @param source the candidate the plan comes from: {@code spill-only}, a baseline's name (with {@code , re-planned}
 *     when {@link RecomputeReplan} improved it), {@link #CHOOSE} (the same, or with {@code , re-planned, searched
 *     again} when the search, run again on its plan re-planned, went lower), or {@code joint program}
 * @param spillOnly the best spill-only plan's objective (its traffic, no recomputes); null when it found none
 * @param baselines the recompute baselines that ran, in order, each with its result and objective
 * @param joint the joint program's result; null when it did not run (the steps say why)
 * @param extraRuns the most recomputes the joint program allowed (0 when it did not run)
 * @param steps every step of it, in order: the baselines, the spill-only steps, the re-planned baseline
 *     ({@link #REPLAN}), the bound ({@link #BOUND}), the chosen recomputes ({@link #CHOOSE}), the joint program
 *     (skipped ones with why in their note)
 */
public record RecomputeOutcome(double lambda, SolveStatus status, Objective objective, double bound, Double gap,
                               String source, Objective spillOnly, List<Candidate> baselines, Joint joint,
                               int extraRuns, List<StepReport> steps) {

    public RecomputeOutcome {
        baselines = List.copyOf(baselines);
        steps = List.copyOf(steps);
    }

    /** The source of a plan the spill-only steps made. */
    public static final String SPILL_ONLY = "spill-only";

    /** The step that re-plans the best recompute baseline's plan around its recomputes ({@link RecomputeReplan}). */
    public static final String REPLAN = "re-planned recompute baseline";

    /** The step that computes the bound over every plan; its note says which bound gave the number. */
    public static final String BOUND = "bound over every plan";

    /**
     * The step that chooses recomputes on the best plan so far ({@link RecomputeSearch}), and the source of its plan
     * (with {@code , re-planned} when {@link RecomputeReplan} then improved it).
     */
    public static final String CHOOSE = "chosen recomputes";

    /** The source of a plan the joint program made. */
    public static final String JOINT = "joint program";

    /**
     * A recompute baseline's run.
     *
     * @param objective its plan's objective, null without a plan
     */
    public record Candidate(String name, PlanResult result, Objective objective) {
    }

    /**
     * The joint program's answer.
     *
     * @param objective its checked plan's objective, null without a plan
     * @param bound its lower bound on the objective over the plans it allows (at most {@code extraRuns} recomputes,
     *     of forward operators on a training graph), null when it has none
     * @param startOnly its plan is the starting plan: it found nothing better
     * @param notes what it skipped and why
     */
    public record Joint(SolveStatus status, Objective objective, Double bound, boolean startOnly, List<String> notes,
                        double seconds) {
        public Joint {
            notes = List.copyOf(notes);
        }
    }
}
