package dev.memplan.formulations.milp;

import java.util.Objects;

/**
 * A decision variable of a {@link Model}: its position in the model ({@code index}, which indexes the value
 * arrays of {@link SolverResult#values()} and {@link Model#maxViolation(double[])}), a name for messages, its
 * type and bounds. Infinite bounds are {@link Double#NEGATIVE_INFINITY} / {@link Double#POSITIVE_INFINITY}.
 * Create variables with {@link Model#binary}, {@link Model#integer} and {@link Model#continuous}.
 */
public record Variable(int index, String name, VarType type, double lower, double upper) {

    public Variable {
        if (index < 0) {
            throw new IllegalArgumentException("variable index must be >= 0, got " + index);
        }
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        if (Double.isNaN(lower) || Double.isNaN(upper)) {
            throw new IllegalArgumentException("variable '" + name + "': bounds must not be NaN");
        }
        if (lower > upper) {
            throw new IllegalArgumentException(
                    "variable '" + name + "': lower bound " + lower + " > upper bound " + upper);
        }
        if (lower == Double.POSITIVE_INFINITY || upper == Double.NEGATIVE_INFINITY) {
            throw new IllegalArgumentException("variable '" + name + "': empty domain [" + lower + ", " + upper + "]");
        }
    }

    /** True when a bound is infinite. */
    public boolean isUnbounded() {
        return Double.isInfinite(lower) || Double.isInfinite(upper);
    }

    @Override
    public String toString() {
        return name;
    }
}
