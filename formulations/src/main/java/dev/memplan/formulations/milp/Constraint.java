package dev.memplan.formulations.milp;

import java.util.Objects;

/**
 * {@code lower <= expr <= upper}, where {@code expr} includes its constant. An infinite bound
 * ({@link Double#NEGATIVE_INFINITY} / {@link Double#POSITIVE_INFINITY}) is absent. Create constraints with
 * {@link Model#lessOrEqual}, {@link Model#greaterOrEqual}, {@link Model#equal} and {@link Model#range}.
 */
public record Constraint(String name, LinearExpr expr, double lower, double upper) {

    public Constraint {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(expr, "expr");
        if (Double.isNaN(lower) || Double.isNaN(upper)) {
            throw new IllegalArgumentException("constraint '" + name + "': bounds must not be NaN");
        }
        if (lower > upper) {
            throw new IllegalArgumentException(
                    "constraint '" + name + "': lower bound " + lower + " > upper bound " + upper);
        }
        if (lower == Double.POSITIVE_INFINITY || upper == Double.NEGATIVE_INFINITY) {
            throw new IllegalArgumentException(
                    "constraint '" + name + "': bounds [" + lower + ", " + upper + "] admit no value");
        }
    }

    /** How far {@code activity} lies outside {@code [lower, upper]} (0 inside). */
    double violation(double activity) {
        if (Double.isNaN(activity)) {
            return Double.POSITIVE_INFINITY;
        }
        return Math.max(0.0, Math.max(lower - activity, activity - upper));
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder(name).append(": ");
        if (lower == upper) {
            return text.append(expr).append(" = ").append(upper).toString();
        }
        if (lower != Double.NEGATIVE_INFINITY) {
            text.append(lower).append(" <= ");
        }
        text.append(expr);
        if (upper != Double.POSITIVE_INFINITY) {
            text.append(" <= ").append(upper);
        }
        return text.toString();
    }
}
