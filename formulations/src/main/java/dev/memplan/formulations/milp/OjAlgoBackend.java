package dev.memplan.formulations.milp;

import dev.memplan.model.Limits;
import dev.memplan.model.SolveStatus;
import java.math.BigDecimal;
import java.util.Map;
import java.util.Objects;
import org.ojalgo.optimisation.Expression;
import org.ojalgo.optimisation.ExpressionsBasedModel;
import org.ojalgo.optimisation.Optimisation;
import org.ojalgo.optimisation.integer.IntegerStrategy;
import org.ojalgo.type.context.NumberContext;

/**
 * ojAlgo's {@link ExpressionsBasedModel}: pure Java, so it runs where the OR-Tools native libraries do not
 * (and is the fallback then). Fine for small models; slow on large MILPs.
 *
 * <p>Limits: the time limit sets {@code options.time_abort} and {@code options.time_suffice} (milliseconds);
 * threads set the integer strategy's parallelism; a relative gap {@code g > 0} sets its gap tolerance to
 * {@code ceil(-log10 g)} significant digits (ojAlgo expresses the gap as a {@link NumberContext}; the default
 * is 7 digits). ojAlgo reports no dual bound, so its FEASIBLE results carry none. Hints are set as variable
 * values; ojAlgo starts from them when they form a complete feasible solution.
 *
 * <p>Status: OPTIMAL and DISTINCT are OPTIMAL, unless the solve ran into the time limit (then FEASIBLE);
 * FEASIBLE and APPROXIMATE are FEASIBLE (approximate values that fail the model check are UNKNOWN, since ojAlgo
 * did not claim them feasible); INFEASIBLE only when the solve did not run into the time limit, and, when some
 * variable is unbounded (ojAlgo also says INFEASIBLE for an unbounded model), only after a re-solve without the
 * objective says so too; everything else UNKNOWN. ojAlgo's first use would print a note about hardware profiles
 * to System.out; the system property {@code shut.up.ojAlgo} is set to prevent it.
 */
public final class OjAlgoBackend implements MilpSolver {

    /** ojAlgo's limits when there is none: large, but far from overflowing its clock arithmetic. */
    private static final long NO_LIMIT_MILLIS = Long.MAX_VALUE / 4;

    static {
        // Without this, ojAlgo's first use prints an eight-line note about hardware profiles to System.out.
        if (System.getProperty("shut.up.ojAlgo") == null) {
            System.setProperty("shut.up.ojAlgo", "true");
        }
    }

    @Override
    public String name() {
        return Backend.OJALGO.id();
    }

    @Override
    public SolverResult solve(Model model, Limits limits) {
        Objects.requireNonNull(model, "model");
        Limits lim = Outcomes.orDefault(limits);
        Outcomes out = new Outcomes(model, lim, name());

        long t = System.nanoTime();
        Optimisation.Result result = solve(model, lim, out.limitMillis(), true);
        double solveSeconds = (System.nanoTime() - t) / 1e9;
        Optimisation.State state = result.getState();
        boolean timedOut = out.reachedTimeLimit(solveSeconds);

        switch (state) {
            case OPTIMAL, DISTINCT, FEASIBLE, APPROXIMATE -> {
                double[] values = new double[model.variableCount()];
                for (int i = 0; i < values.length; i++) {
                    values[i] = result.doubleValue(i);
                }
                // ojAlgo's search stopped by the clock is no proof of optimality, whatever state it reports.
                boolean optimal = (state == Optimisation.State.OPTIMAL || state == Optimisation.State.DISTINCT)
                        && !timedOut;
                if (state == Optimisation.State.APPROXIMATE
                        && !(model.maxScaledViolation(out.polish(values)) <= Model.FEASIBILITY_TOLERANCE)) {
                    return out.without(SolveStatus.UNKNOWN, null);
                }
                return out.with(optimal, values, null);
            }
            case INFEASIBLE -> {
                if (timedOut) {
                    return out.without(SolveStatus.UNKNOWN, null);
                }
                if (model.hasUnboundedVariable() && !model.objective().isConstant()) {
                    // ojAlgo also says INFEASIBLE for an unbounded model; without the objective a model cannot be
                    // unbounded, so INFEASIBLE then is a proof.
                    long left = out.limitMillis() == 0 ? 0 : (long) (out.limitSeconds() * 1000);
                    if (out.limitMillis() > 0 && left < 1) {
                        return out.without(SolveStatus.UNKNOWN, null);
                    }
                    Optimisation.Result check = solve(model, lim, left, false);
                    boolean proven = check.getState() == Optimisation.State.INFEASIBLE
                            && !out.reachedTimeLimit(out.elapsed());
                    return out.without(proven ? SolveStatus.INFEASIBLE : SolveStatus.UNKNOWN, null);
                }
                return out.without(SolveStatus.INFEASIBLE, null);
            }
            default -> {
                return out.without(SolveStatus.UNKNOWN, null);
            }
        }
    }

    /** Builds the ojAlgo model (with or without the objective) and solves it within {@code millis} (0: none). */
    private static Optimisation.Result solve(Model model, Limits lim, long millis, boolean objective) {
        Optimisation.Options options = new Optimisation.Options();
        options.time_abort = millis > 0 ? millis : NO_LIMIT_MILLIS;
        options.time_suffice = options.time_abort;
        int threads = lim.threads();
        IntegerStrategy.ConfigurableStrategy strategy =
                IntegerStrategy.newConfigurable().withParallelism(() -> threads);
        if (lim.relativeGap() > 0) {
            int digits = (int) Math.ceil(-Math.log10(lim.relativeGap()));
            strategy = strategy.withGapTolerance(NumberContext.of(Math.max(1, Math.min(15, digits)), 8));
        }
        options.integer(strategy);

        ExpressionsBasedModel ebm = new ExpressionsBasedModel(options);
        org.ojalgo.optimisation.Variable[] xs = new org.ojalgo.optimisation.Variable[model.variableCount()];
        for (Variable v : model.variables()) {
            org.ojalgo.optimisation.Variable x = ebm.addVariable("x" + v.index());
            if (v.type() == VarType.BINARY) {
                x.binary();
            } else if (v.type() == VarType.INTEGER) {
                x.integer(true);
            }
            if (v.lower() != Double.NEGATIVE_INFINITY) {
                x.lower(v.lower());
            }
            if (v.upper() != Double.POSITIVE_INFINITY) {
                x.upper(v.upper());
            }
            xs[v.index()] = x;
        }
        int row = 0;
        for (Constraint c : model.constraints()) {
            Expression e = ebm.addExpression("c" + row++);
            for (Map.Entry<Variable, Double> term : c.expr().terms().entrySet()) {
                e.set(xs[term.getKey().index()], term.getValue());
            }
            double constant = c.expr().constant();
            if (c.lower() != Double.NEGATIVE_INFINITY) {
                e.lower(c.lower() - constant);
            }
            if (c.upper() != Double.POSITIVE_INFINITY) {
                e.upper(c.upper() - constant);
            }
        }
        if (objective) {
            for (Map.Entry<Variable, Double> term : model.objective().terms().entrySet()) {
                xs[term.getKey().index()].weight(term.getValue());
            }
            for (Map.Entry<Variable, Double> hint : model.hints().entrySet()) {
                xs[hint.getKey().index()].setValue(BigDecimal.valueOf(hint.getValue()));
            }
        }
        return model.minimizing() ? ebm.minimise() : ebm.maximise();
    }
}
