package dev.memplan.formulations.milp;

import dev.memplan.model.SolveStatus;
import java.util.Objects;

/**
 * What a back-end found.
 *
 * @param status      {@code OPTIMAL} (proven), {@code FEASIBLE} (a solution, not proven optimal),
 *                    {@code INFEASIBLE} (proven: no solution exists; never because a limit was hit) or
 *                    {@code UNKNOWN} (no solution and no proof)
 * @param values      the solution indexed by {@link Variable#index()} (integer variables hold exact integers),
 *                    checked against the model; null without a solution
 * @param objective   the objective evaluated at {@code values}; null without a solution
 * @param bound       the best proven bound on the optimum (a lower bound when minimising, an upper bound when
 *                    maximising); equal to {@code objective} when {@code OPTIMAL}; null when the solver has none
 * @param gap         {@code |objective - bound| / max(|objective|, 1e-9)}, 0 when they are equal; null without
 *                    both
 * @param seconds     wall time of the whole call: building the solver's model, solving, checking
 * @param backend     the {@link Backend#id()} of the back-end that solved it
 * @param variables   the model's variable count
 * @param constraints the model's constraint count
 */
public record SolverResult(SolveStatus status, double[] values, Double objective, Double bound, Double gap,
                           double seconds, String backend, int variables, int constraints) {

    public SolverResult {
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(backend, "backend");
    }

    /** True when {@link #values()} holds a solution. */
    public boolean hasSolution() {
        return values != null;
    }

    /** The value of {@code v} in the solution; IllegalStateException when there is none. */
    public double value(Variable v) {
        if (values == null) {
            throw new IllegalStateException("no solution (" + status + " from " + backend + ")");
        }
        return values[v.index()];
    }

    /** The value of an integer or binary variable as a long. */
    public long intValue(Variable v) {
        return Math.round(value(v));
    }

    /** The value of a binary variable as a boolean (value above 0.5). */
    public boolean isSet(Variable v) {
        return value(v) > 0.5;
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder(status.name()).append(" by ").append(backend);
        if (objective != null) {
            text.append(", objective ").append(objective);
        }
        if (bound != null) {
            text.append(", bound ").append(bound);
        }
        if (gap != null) {
            text.append(", gap ").append(gap);
        }
        return text.append(String.format(java.util.Locale.ROOT, ", %.3f s, %d variables, %d constraints", seconds,
                variables, constraints)).toString();
    }
}
