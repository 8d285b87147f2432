package dev.memplan.formulations.cosma;

import dev.memplan.model.CheckReport;
import dev.memplan.model.Plan;
import dev.memplan.model.SolveStatus;
import java.util.List;

/**
 * What a COSMA solve delivers, honestly labelled: the status (OPTIMAL only when the solver proved it), the
 * checked plan when there is one (its traffic from the {@link dev.memplan.model.PlanChecker}), the objective,
 * the best bound and gap, the time, the back-end, and the model size after pruning and, when it was small
 * enough to build, before.
 *
 * @param plan null when no plan was found (INFEASIBLE or UNKNOWN)
 * @param check the checker's report on the plan, null without one
 * @param objective bytes (traffic or peak footprint) of the plan, null without one
 * @param bound the best proven lower bound in bytes, null when the solver has none
 * @param startingPlanOnly true when the solver found nothing better than the starting solution it was given
 * @param unpruned null when the unreduced model was too large to build for counting
 * @param notes what was skipped or cut short, and why (a model too large for the heap, a step the time limit
 *     left no room for, an interrupt); empty when every step ran
 */
public record CosmaResult(SolveStatus status, Plan plan, CheckReport check, Long objective, Long bound, Double gap,
                          double seconds, String backend, ModelSize pruned, ModelSize unpruned,
                          boolean startingPlanOnly, List<String> notes) {

    public CosmaResult {
        notes = notes == null ? List.of() : List.copyOf(notes);
    }

    /** Without notes. */
    public CosmaResult(SolveStatus status, Plan plan, CheckReport check, Long objective, Long bound, Double gap,
                       double seconds, String backend, ModelSize pruned, ModelSize unpruned,
                       boolean startingPlanOnly) {
        this(status, plan, check, objective, bound, gap, seconds, backend, pruned, unpruned, startingPlanOnly,
                List.of());
    }

    /** This result with more notes. */
    CosmaResult withNotes(List<String> more) {
        if (more.isEmpty()) {
            return this;
        }
        List<String> all = new java.util.ArrayList<>(notes);
        all.addAll(more);
        return new CosmaResult(status, plan, check, objective, bound, gap, seconds, backend, pruned, unpruned,
                startingPlanOnly, all);
    }
}
