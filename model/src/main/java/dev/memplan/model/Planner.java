package dev.memplan.model;

/**
 * The seam every planning method sits behind: the COSMA pipeline (whole graph or divide and
 * conquer, its variants), the baseline schemes, the just-in-time plan. It returns a {@link PlanResult}: the status,
 * the plan checked by the {@link PlanChecker}, the bound and gap, the time and work used, and notes. A planner
 * throws only for a user's mistake (e.g. a schedule that is not one of the graph); a planner that finds no plan
 * says so in the result's status.
 */
public interface Planner {

    /** A short name with the settings that matter, e.g. {@code default/belady/tflite}. */
    String name();

    /** Plans {@code graph} in {@code setting} at {@code budget} bytes within {@code limits}. */
    PlanResult solve(Graph graph, TensorSetting setting, long budget, Limits limits);
}
