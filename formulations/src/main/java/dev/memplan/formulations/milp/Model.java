package dev.memplan.formulations.milp;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A mixed-integer linear program: variables, constraints {@code lower <= expr <= upper}, one linear objective
 * (minimised unless {@link #maximize} is called; an empty objective makes it a feasibility problem) and an
 * optional starting solution ({@link #hint}). Expressions are copied when they are added. Names are for
 * messages only and need not be unique; a null name becomes {@code x<index>} or {@code c<index>}.
 */
public final class Model {

    /**
     * The violation a back-end's values may have, relative to the scale of what they violate (see
     * {@link #maxScaledViolation(double[])}), before the back-end refuses them.
     */
    public static final double FEASIBILITY_TOLERANCE = 1e-6;

    private final String name;
    private final List<Variable> variables = new ArrayList<>();
    private final List<Constraint> constraints = new ArrayList<>();
    private final LinkedHashMap<Variable, Double> hints = new LinkedHashMap<>();
    private LinearExpr objective = LinearExpr.of();
    private boolean minimizing = true;
    /** Variables and constraints added, for the {@link BuildGuard}'s periodic check. */
    private long additions;

    public Model(String name) {
        this.name = Objects.requireNonNull(name, "name");
    }

    public String name() {
        return name;
    }

    // ---------------------------------------------------------------- variables

    /** A 0/1 variable. */
    public Variable binary(String name) {
        return addVariable(name, VarType.BINARY, 0.0, 1.0);
    }

    /** An integer variable in {@code [lower, upper]}. */
    public Variable integer(String name, long lower, long upper) {
        if (lower > upper) {
            throw new IllegalArgumentException(
                    "variable '" + name + "': lower bound " + lower + " > upper bound " + upper);
        }
        return addVariable(name, VarType.INTEGER, lower, upper);
    }

    /** A real variable in {@code [lower, upper]}; either bound may be infinite. */
    public Variable continuous(String name, double lower, double upper) {
        return addVariable(name, VarType.CONTINUOUS, lower, upper);
    }

    private Variable addVariable(String name, VarType type, double lower, double upper) {
        guard();
        int index = variables.size();
        Variable v = new Variable(index, name == null ? "x" + index : name, type, lower, upper);
        variables.add(v);
        return v;
    }

    // ---------------------------------------------------------------- constraints

    /** {@code expr <= rhs}. */
    public Constraint lessOrEqual(String name, LinearExpr expr, double rhs) {
        return range(name, expr, Double.NEGATIVE_INFINITY, rhs);
    }

    /** {@code expr >= rhs}. */
    public Constraint greaterOrEqual(String name, LinearExpr expr, double rhs) {
        return range(name, expr, rhs, Double.POSITIVE_INFINITY);
    }

    /** {@code expr == rhs} (rhs finite). */
    public Constraint equal(String name, LinearExpr expr, double rhs) {
        if (!Double.isFinite(rhs)) {
            throw new IllegalArgumentException("constraint '" + name + "': equality with " + rhs);
        }
        return range(name, expr, rhs, rhs);
    }

    /** {@code lower <= expr <= upper}. */
    public Constraint range(String name, LinearExpr expr, double lower, double upper) {
        Objects.requireNonNull(expr, "expr");
        String label = name == null ? "c" + constraints.size() : name;
        requireOwn(expr, "constraint '" + label + "'");
        guard();
        Constraint c = new Constraint(label, expr.copy(), lower, upper);
        constraints.add(c);
        return c;
    }

    private void guard() {
        if (++additions % BuildGuard.EVERY == 0) {
            BuildGuard.check(name, additions);
        }
    }

    // ---------------------------------------------------------------- objective and hints

    public void minimize(LinearExpr objective) {
        setObjective(objective, true);
    }

    public void maximize(LinearExpr objective) {
        setObjective(objective, false);
    }

    private void setObjective(LinearExpr expr, boolean minimize) {
        Objects.requireNonNull(expr, "objective");
        requireOwn(expr, "the objective");
        this.objective = expr.copy();
        this.minimizing = minimize;
    }

    /**
     * A starting value for {@code v}; hints may cover some or all variables. The value must lie within the
     * variable's bounds and be integral for an integer variable. Back-ends use hints where they can (SCIP, CBC,
     * CP-SAT; ojAlgo when they form a complete feasible solution) and ignore them otherwise.
     */
    public void hint(Variable v, double value) {
        requireOwn(v, "hint");
        if (!Double.isFinite(value) || value < v.lower() || value > v.upper()) {
            throw new IllegalArgumentException(
                    "hint " + value + " for '" + v.name() + "' is outside [" + v.lower() + ", " + v.upper() + "]");
        }
        if (v.type().isIntegral() && value != Math.rint(value)) {
            throw new IllegalArgumentException("hint " + value + " for integer variable '" + v.name() + "'");
        }
        hints.put(v, value);
    }

    // ---------------------------------------------------------------- reading

    public List<Variable> variables() {
        return Collections.unmodifiableList(variables);
    }

    public List<Constraint> constraints() {
        return Collections.unmodifiableList(constraints);
    }

    /** The objective (a copy of what was given; empty when none was set). */
    public LinearExpr objective() {
        return objective;
    }

    public boolean minimizing() {
        return minimizing;
    }

    public Map<Variable, Double> hints() {
        return Collections.unmodifiableMap(hints);
    }

    public int variableCount() {
        return variables.size();
    }

    public int constraintCount() {
        return constraints.size();
    }

    /** True when no variable is continuous. */
    public boolean isPureInteger() {
        return variables.stream().allMatch(v -> v.type().isIntegral());
    }

    /** True when some variable has an infinite bound (so the objective might be unbounded). */
    public boolean hasUnboundedVariable() {
        return variables.stream().anyMatch(Variable::isUnbounded);
    }

    /**
     * True when the objective takes only integer values on integer points: every variable in it is integral and
     * every coefficient and the constant are integers. A dual bound can then be rounded.
     */
    public boolean objectiveIsIntegral() {
        if (!isInteger(objective.constant())) {
            return false;
        }
        for (Map.Entry<Variable, Double> term : objective.terms().entrySet()) {
            if (!term.getKey().type().isIntegral() || !isInteger(term.getValue())) {
                return false;
            }
        }
        return true;
    }

    private static boolean isInteger(double value) {
        return value == Math.rint(value) && Math.abs(value) < 0x1p53;
    }

    // ---------------------------------------------------------------- checking

    /**
     * The largest violation of variable bounds, integrality and constraints by {@code values} (indexed by
     * {@link Variable#index()}), in absolute terms; 0 when the values are feasible. NaN values count as
     * infinitely violating.
     */
    public double maxViolation(double[] values) {
        return worst(values, false).amount;
    }

    /**
     * Like {@link #maxViolation} but relative to the scale of what is violated: a bound {@code b} of a variable
     * by {@code max(1, |b|)}; a constraint bound {@code b} by {@code max(1, |b|, sum |coef * value| + |constant|)};
     * integrality absolutely. Back-ends refuse values whose scaled violation exceeds
     * {@link #FEASIBILITY_TOLERANCE}.
     */
    public double maxScaledViolation(double[] values) {
        return worst(values, true).amount;
    }

    /** The worst scaled violation, described (which variable or constraint, by how much), or empty. */
    public Optional<String> worstViolation(double[] values) {
        Violation v = worst(values, true);
        return v.amount > 0 ? Optional.of(v.what) : Optional.empty();
    }

    private record Violation(double amount, String what) {
        static final Violation NONE = new Violation(0.0, "");

        Violation max(double amount, java.util.function.Supplier<String> what) {
            return amount > this.amount || (Double.isNaN(amount) && !Double.isNaN(this.amount))
                    ? new Violation(Double.isNaN(amount) ? Double.POSITIVE_INFINITY : amount, what.get())
                    : this;
        }
    }

    private Violation worst(double[] values, boolean scaled) {
        Objects.requireNonNull(values, "values");
        if (values.length != variables.size()) {
            throw new IllegalArgumentException(
                    "model '" + name + "' has " + variables.size() + " variables, got " + values.length + " values");
        }
        Violation worst = Violation.NONE;
        for (Variable v : variables) {
            double x = values[v.index()];
            if (Double.isNaN(x)) {
                worst = worst.max(Double.POSITIVE_INFINITY, () -> "variable '" + v.name() + "' is NaN");
                continue;
            }
            double below = v.lower() - x;
            if (below > 0) {
                double amount = scaled ? below / Math.max(1.0, Math.abs(v.lower())) : below;
                worst = worst.max(amount, () -> "variable '" + v.name() + "' = " + x + " < lower bound " + v.lower());
            }
            double above = x - v.upper();
            if (above > 0) {
                double amount = scaled ? above / Math.max(1.0, Math.abs(v.upper())) : above;
                worst = worst.max(amount, () -> "variable '" + v.name() + "' = " + x + " > upper bound " + v.upper());
            }
            if (v.type().isIntegral()) {
                double fraction = Double.isInfinite(x) ? Double.POSITIVE_INFINITY : Math.abs(x - Math.rint(x));
                worst = worst.max(fraction, () -> "integer variable '" + v.name() + "' = " + x);
            }
        }
        for (Constraint c : constraints) {
            double activity = c.expr().evaluate(values);
            double violation = c.violation(activity);
            if (violation > 0) {
                double bound = activity < c.lower() ? c.lower() : c.upper();
                double amount = violation;
                if (scaled && Double.isFinite(violation)) {
                    amount = violation / Math.max(1.0, Math.max(Math.abs(bound), c.expr().magnitude(values)));
                }
                worst = worst.max(amount, () -> "constraint '" + c.name() + "': activity " + activity
                        + (activity < c.lower() ? " < lower bound " : " > upper bound ") + bound);
            }
        }
        return worst;
    }

    // ---------------------------------------------------------------- ownership

    private void requireOwn(LinearExpr expr, String where) {
        for (Variable v : expr.terms().keySet()) {
            requireOwn(v, where);
        }
    }

    private void requireOwn(Variable v, String where) {
        Objects.requireNonNull(v, "variable");
        int i = v.index();
        if (i >= variables.size() || !variables.get(i).equals(v)) {
            throw new IllegalArgumentException(
                    where + ": variable '" + v.name() + "' does not belong to model '" + name + "'");
        }
    }

    @Override
    public String toString() {
        return "Model[" + name + ": " + variables.size() + " variables, " + constraints.size() + " constraints, "
                + (minimizing ? "minimise " : "maximise ") + objective + "]";
    }
}
