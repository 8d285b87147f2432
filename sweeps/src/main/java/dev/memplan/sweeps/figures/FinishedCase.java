package dev.memplan.sweeps.figures;

import java.util.Objects;

/**
 * One finished sweep case as the figures read it: the columns of the {@code results} table (RESULTS-SCHEMA.md)
 * that name the case and say what it found, whether they came from the database or a CSV export (the sweep
 * engine's own row type carries every column). Null stands for SQL NULL (an empty CSV field).
 *
 * @param status {@code OPTIMAL}, {@code FEASIBLE}, {@code INFEASIBLE}, {@code UNKNOWN}, {@code HEURISTIC} or
 *     {@code ERROR}
 * @param trafficNonCompulsory the objective of a spill-only case; null when the case found no plan
 * @param recomputeCost the plan's recompute cost; null without a plan, and in results from before recomputation
 *     (whose plans recompute nothing)
 * @param recomputeWeight the case's recompute weight lambda, null for a spill-only case
 */
public record FinishedCase(String graph, String setting, String budget, Long budgetBytes, String planner,
                        String solver, Double timeLimit, Integer repeat, Status status, Long trafficNonCompulsory,
                        Long bound, Double gap, Double seconds, String error, Long recomputeCost,
                        Double recomputeWeight) {

    /** What a case claims; the model's statuses plus {@code ERROR} for a case that failed. */
    public enum Status {
        OPTIMAL, FEASIBLE, HEURISTIC, UNKNOWN, INFEASIBLE, ERROR;

        /** The mark a figure or table puts on a cell with this status (empty for OPTIMAL). */
        String mark() {
            return switch (this) {
                case OPTIMAL -> "";
                case FEASIBLE -> "F";
                case HEURISTIC -> "H";
                case UNKNOWN -> "U";
                case INFEASIBLE -> "I";
                case ERROR -> "E";
            };
        }
    }

    public FinishedCase {
        Objects.requireNonNull(graph, "graph");
        Objects.requireNonNull(setting, "setting");
        Objects.requireNonNull(budget, "budget");
        Objects.requireNonNull(planner, "planner");
        Objects.requireNonNull(status, "status");
        solver = solver == null ? "" : solver;
    }

    /** A spill-only case (no recompute weight, its recompute cost not recorded). */
    public FinishedCase(String graph, String setting, String budget, Long budgetBytes, String planner, String solver,
                        Double timeLimit, Integer repeat, Status status, Long trafficNonCompulsory, Long bound,
                        Double gap, Double seconds, String error) {
        this(graph, setting, budget, budgetBytes, planner, solver, timeLimit, repeat, status, trafficNonCompulsory,
                bound, gap, seconds, error, null, null);
    }
}
