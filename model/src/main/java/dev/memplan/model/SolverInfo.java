package dev.memplan.model;

import java.util.Objects;

/**
 * Who made a plan and what it claims: the planner's name and settings, the status, the wall time and, when
 * the solver has one, the best bound on the objective (bytes of non-compulsory traffic, or of peak footprint).
 */
public record SolverInfo(String name, SolveStatus status, double seconds, Long bound) {

    public SolverInfo {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(status, "status");
    }

    /** Relative gap between an objective value and the bound, or null without a bound. */
    public Double gap(long objective) {
        if (bound == null) {
            return null;
        }
        if (objective == bound) {
            return 0.0;
        }
        return Math.abs(objective - bound) / (double) Math.max(Math.abs(objective), 1L);
    }
}
