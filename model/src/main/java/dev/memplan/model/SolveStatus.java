package dev.memplan.model;

/**
 * What a result claims, and no more: OPTIMAL and INFEASIBLE only when proven. A time limit never turns into
 * {@link #INFEASIBLE}.
 */
public enum SolveStatus {
    /** Proven optimal. */
    OPTIMAL,
    /** A valid plan, not proven optimal; a bound and gap may come with it. */
    FEASIBLE,
    /** Proven: no plan exists. */
    INFEASIBLE,
    /** A limit was reached with nothing found. */
    UNKNOWN,
    /** Not the result of an optimisation: a heuristic or a plan written by hand. */
    HEURISTIC
}
