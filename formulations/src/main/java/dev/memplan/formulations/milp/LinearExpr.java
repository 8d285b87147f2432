package dev.memplan.formulations.milp;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * {@code sum(coef * var) + constant}. The {@code add} methods mutate this expression and return it, so that
 * expressions are built fluently; terms on the same variable are merged (in the order variables were first
 * added) and a term whose coefficient becomes 0 is dropped. Coefficients and the constant must be finite.
 * A {@link Model} stores a copy of every expression it is given, so changing an expression afterwards does not
 * change the model.
 */
public final class LinearExpr {

    private final LinkedHashMap<Variable, Double> terms;
    private double constant;

    private LinearExpr(LinkedHashMap<Variable, Double> terms, double constant) {
        this.terms = terms;
        this.constant = constant;
    }

    /** The empty expression (0). */
    public static LinearExpr of() {
        return new LinearExpr(new LinkedHashMap<>(), 0.0);
    }

    /** {@code coef * v}. */
    public static LinearExpr term(double coef, Variable v) {
        return of().add(coef, v);
    }

    /** The sum of {@code variables}, each with coefficient 1. */
    public static LinearExpr sum(Iterable<Variable> variables) {
        LinearExpr expr = of();
        for (Variable v : variables) {
            expr.add(v);
        }
        return expr;
    }

    /** Adds {@code coef * v}. */
    public LinearExpr add(double coef, Variable v) {
        Objects.requireNonNull(v, "variable");
        requireFinite(coef, "coefficient of '" + v.name() + "'");
        if (coef == 0.0) {
            return this;
        }
        Double merged = terms.merge(v, coef, (a, b) -> a + b == 0.0 ? null : a + b);
        if (merged != null && !Double.isFinite(merged)) {
            throw new IllegalArgumentException("coefficient of '" + v.name() + "' overflows: " + merged);
        }
        return this;
    }

    /** Adds {@code v} (coefficient 1). */
    public LinearExpr add(Variable v) {
        return add(1.0, v);
    }

    /** Adds every term and the constant of {@code other} (which may be this expression). */
    public LinearExpr add(LinearExpr other) {
        return add(1.0, other);
    }

    /** Adds {@code factor * other}: every term and the constant of {@code other} scaled by {@code factor}. */
    public LinearExpr add(double factor, LinearExpr other) {
        Objects.requireNonNull(other, "expression");
        requireFinite(factor, "factor");
        List<Map.Entry<Variable, Double>> snapshot = new ArrayList<>(other.terms.entrySet());
        double otherConstant = other.constant;
        for (Map.Entry<Variable, Double> term : snapshot) {
            add(factor * term.getValue(), term.getKey());
        }
        return addConstant(factor * otherConstant);
    }

    /** Adds {@code c} to the constant. */
    public LinearExpr addConstant(double c) {
        requireFinite(c, "constant");
        double sum = constant + c;
        requireFinite(sum, "constant");
        constant = sum;
        return this;
    }

    /** The merged terms, in the order their variables were first added (a read-only view). */
    public Map<Variable, Double> terms() {
        return Collections.unmodifiableMap(terms);
    }

    /** The constant. */
    public double constant() {
        return constant;
    }

    /** The coefficient of {@code v} (0 when absent). */
    public double coefficient(Variable v) {
        return terms.getOrDefault(v, 0.0);
    }

    /** True when there are no terms (the expression is its constant). */
    public boolean isConstant() {
        return terms.isEmpty();
    }

    /** An independent copy. */
    public LinearExpr copy() {
        return new LinearExpr(new LinkedHashMap<>(terms), constant);
    }

    /** The value at {@code values}, indexed by {@link Variable#index()}. */
    public double evaluate(double[] values) {
        double sum = constant;
        for (Map.Entry<Variable, Double> term : terms.entrySet()) {
            sum += term.getValue() * values[term.getKey().index()];
        }
        return sum;
    }

    /** {@code sum |coef * value| + |constant|}: the magnitude the value of this expression is computed from. */
    double magnitude(double[] values) {
        double sum = Math.abs(constant);
        for (Map.Entry<Variable, Double> term : terms.entrySet()) {
            sum += Math.abs(term.getValue() * values[term.getKey().index()]);
        }
        return sum;
    }

    private static void requireFinite(double value, String what) {
        if (!Double.isFinite(value)) {
            throw new IllegalArgumentException(what + " must be finite, got " + value);
        }
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder();
        for (Map.Entry<Variable, Double> term : terms.entrySet()) {
            double coef = term.getValue();
            if (text.length() > 0) {
                text.append(coef < 0 ? " - " : " + ");
            } else if (coef < 0) {
                text.append('-');
            }
            double magnitude = Math.abs(coef);
            if (magnitude != 1.0) {
                text.append(format(magnitude)).append(' ');
            }
            text.append(term.getKey().name());
        }
        if (constant != 0.0 || text.length() == 0) {
            if (text.length() > 0) {
                text.append(constant < 0 ? " - " : " + ").append(format(Math.abs(constant)));
            } else {
                text.append(format(constant));
            }
        }
        return text.toString();
    }

    private static String format(double value) {
        boolean whole = value == Math.rint(value) && Math.abs(value) < 1e15;
        return whole ? Long.toString((long) value) : Double.toString(value);
    }
}
