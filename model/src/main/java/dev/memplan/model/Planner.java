package dev.memplan.model;

/**
 * The seam every planning method sits behind (architecture.md): COSMA and its variants, the baseline
 * schemes, divide and conquer. The graph is already in its tensor setting. A planner returns a plan that
 * the {@link PlanChecker} accepts, with its {@link SolverInfo}; a planner that cannot deliver one throws.
 */
public interface Planner {

    /** A short name with the settings that matter, e.g. {@code default/belady/tflite}. */
    String name();

    Plan plan(Graph graph, TensorSetting setting, long budget, Limits limits);
}
