package dev.memplan.model;

/**
 * A checked plan's result given a higher lower bound after its run: the status (OPTIMAL once the plan pays no more
 * than the bound), the bound shown (never above the plan's value), the gap, and the plan carrying them in its
 * {@link SolverInfo}; the plan's segments do not change.
 *
 * @param status the result's status with the new bound
 * @param bound the bound shown: the new bound, at most the plan's value
 * @param gap (value - bound) / value, 0 for a value of 0
 * @param plan the plan with the new status and bound
 */
public record RaisedBound(SolveStatus status, long bound, double gap, Plan plan) {

    /**
     * @param plan the result's plan
     * @param value the plan's objective
     * @param status the result's status before
     * @param bound the new bound, above the result's
     * @param name the planner's name when the plan carries no {@link SolverInfo}
     * @param seconds the run's seconds when the plan carries no {@link SolverInfo}
     */
    public static RaisedBound of(Plan plan, long value, SolveStatus status, long bound, String name, double seconds) {
        SolveStatus raised = value <= bound ? SolveStatus.OPTIMAL : status;
        long shown = Math.min(bound, value);
        double gap = value == 0 ? 0.0 : (value - shown) / (double) value;
        SolverInfo info = plan.solver();
        Plan carried = plan.withResult(plan.traffic(), new SolverInfo(info == null ? name : info.name(), raised,
                info == null ? seconds : info.seconds(), shown));
        return new RaisedBound(raised, shown, gap, carried);
    }
}
