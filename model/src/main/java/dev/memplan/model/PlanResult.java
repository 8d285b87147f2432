package dev.memplan.model;

import java.util.List;
import java.util.Objects;

/**
 * What a {@link Planner} returns, honestly labelled (its {@link SolveStatus}), as
 * {@link Allocation} is for allocators: the status (OPTIMAL only when proven), the plan and the checker's report
 * on it when there is one, the objective in bytes (non-compulsory traffic, or the peak footprint for a
 * peak-footprint planner), the best proven lower bound and the gap, the wall time, the deterministic work used,
 * and notes on what was skipped or cut short.
 *
 * @param planner the planner's name, e.g. {@code cosma/cpsat} or {@code default/belady/tflite}
 * @param plan null when there is none (INFEASIBLE: proven; UNKNOWN: a limit was reached with nothing found)
 * @param check the {@link PlanChecker}'s report on the plan; null exactly when the plan is
 * @param objective the plan's objective in bytes; null without a plan
 * @param bound the best proven lower bound on the objective in bytes; null when there is none
 * @param gap (objective - bound) / objective; null without both
 * @param work the work units used under a work limit; null without one
 * @param wallStopped true when the wall-time guard stopped counted work early: the result depends on the machine
 */
public record PlanResult(String planner, SolveStatus status, Plan plan, CheckReport check, Long objective, Long bound,
                         Double gap, double seconds, Double work, boolean wallStopped, List<String> notes) {

    public PlanResult {
        Objects.requireNonNull(planner, "planner");
        Objects.requireNonNull(status, "status");
        notes = notes == null ? List.of() : List.copyOf(notes);
        boolean planned = status == SolveStatus.OPTIMAL || status == SolveStatus.FEASIBLE
                || status == SolveStatus.HEURISTIC;
        if (planned != (plan != null)) {
            throw new IllegalArgumentException("status " + status + (planned ? " needs" : " cannot have") + " a plan");
        }
        if ((plan == null) != (check == null)) {
            throw new IllegalArgumentException("a plan comes with the checker's report, and only a plan");
        }
    }

    /** A heuristic's plan, checked here: status HEURISTIC, no bound. */
    public static PlanResult heuristic(String planner, Graph graph, Plan plan, double seconds) {
        CheckReport report = PlanChecker.requireValid(graph, plan, planner);
        return new PlanResult(planner, SolveStatus.HEURISTIC, plan, report, report.traffic().nonCompulsory(), null,
                null, seconds, null, false, List.of());
    }

    /** No plan: {@code status} is INFEASIBLE (proven) or UNKNOWN, with why in words. */
    public static PlanResult none(String planner, SolveStatus status, double seconds, String why) {
        return new PlanResult(planner, status, null, null, null, null, null, seconds, null, false,
                why == null ? List.of() : List.of(why));
    }

    public boolean planned() {
        return plan != null;
    }
}
