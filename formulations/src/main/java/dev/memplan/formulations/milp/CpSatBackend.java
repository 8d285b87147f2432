package dev.memplan.formulations.milp;

import com.google.ortools.sat.CpModel;
import com.google.ortools.sat.CpSolver;
import com.google.ortools.sat.CpSolverStatus;
import com.google.ortools.sat.IntVar;
import com.google.ortools.sat.LinearExpr;
import com.google.ortools.sat.LinearExprBuilder;
import com.google.ortools.sat.SatParameters;
import dev.memplan.model.Budget;
import dev.memplan.model.Limits;
import dev.memplan.model.SolveStatus;
import java.util.Map;
import java.util.Objects;

/**
 * OR-Tools CP-SAT. Integer and binary variables only, and integer data: a continuous variable, or a non-integer
 * coefficient, bound or constant, makes {@link #solve} throw UnsupportedOperationException naming the first
 * offender.
 *
 * <p>Limits: {@code max_time_in_seconds}, {@code num_workers} = threads, {@code relative_gap_limit},
 * {@code random_seed}; logging off. Hints go to {@code addHint}.
 *
 * <p>Status: OPTIMAL, FEASIBLE (with CP-SAT's best objective bound), INFEASIBLE (CP-SAT only says so when it
 * proved it), UNKNOWN (without a bound: stopped early, CP-SAT reports a placeholder 0). MODEL_INVALID is a bug
 * in the translation: IllegalStateException with CP-SAT's validation message.
 */
public final class CpSatBackend implements MilpSolver {

    private static final String NEEDS_INTEGERS = "CP-SAT needs integer coefficients: ";

    @Override
    public String name() {
        return Backend.CPSAT.id();
    }

    @Override
    public SolverResult solve(Model model, Limits limits) {
        Objects.requireNonNull(model, "model");
        Limits lim = Outcomes.orDefault(limits);
        Outcomes out = new Outcomes(model, lim, name());
        checkIntegral(model);
        Solvers.requireNative(name());

        CpModel cp = new CpModel();
        IntVar[] xs = new IntVar[model.variableCount()];
        for (Variable v : model.variables()) {
            long lower = (long) v.lower();
            long upper = (long) v.upper();
            xs[v.index()] = v.type() == VarType.BINARY && lower == 0 && upper == 1
                    ? cp.newBoolVar("x" + v.index())
                    : cp.newIntVar(lower, upper, "x" + v.index());
        }
        int translated = 0;
        for (Constraint c : model.constraints()) {
            if (++translated % BuildGuard.EVERY == 0 && lim.stopped()) {
                // The command's time is up (or Ctrl-C) before the solver's copy of a large model is complete.
                return out.without(SolveStatus.UNKNOWN, null);
            }
            long constant = (long) c.expr().constant();
            long lower = c.lower() == Double.NEGATIVE_INFINITY ? Long.MIN_VALUE : (long) c.lower() - constant;
            long upper = c.upper() == Double.POSITIVE_INFINITY ? Long.MAX_VALUE : (long) c.upper() - constant;
            cp.addLinearConstraint(linear(c.expr(), xs, false), lower, upper);
        }
        if (!model.objective().isConstant()) {
            LinearExpr objective = linear(model.objective(), xs, true);
            if (model.minimizing()) {
                cp.minimize(objective);
            } else {
                cp.maximize(objective);
            }
        }
        for (Map.Entry<Variable, Double> hint : model.hints().entrySet()) {
            cp.addHint(xs[hint.getKey().index()], (long) (double) hint.getValue());
        }
        String invalid = cp.validate();
        if (invalid != null && !invalid.isEmpty()) {
            throw new IllegalStateException("CP-SAT rejected model '" + model.name() + "': " + invalid);
        }

        CpSolver solver = new CpSolver();
        SatParameters.Builder params = solver.getParameters();
        boolean log = Solvers.logRequested();
        params.setLogSearchProgress(log);
        params.setLogToStdout(log);
        params.setNumWorkers(lim.threads());
        params.setRelativeGapLimit(lim.relativeGap());
        params.setRandomSeed(Outcomes.seed31(lim.seed()));
        if (lim.workMode()) {
            limitWork(params, out.limits());
        } else if (lim.budget().wallLeft() != null) {
            params.setMaxTimeInSeconds(out.limitSeconds());
        }

        // memplan's own handler stops the search (RunningSolvers); CP-SAT's would swallow the user's Ctrl-C.
        params.setCatchSigintSignal(false);
        CpSolverStatus status;
        Budget budget = out.limits().budget();
        try (RunningSolvers.Registration r = RunningSolvers.register(solver::stopSearch);
             Budget.Registration stop = budget.onStop(solver::stopSearch)) {
            // CP-SAT's own time limit ends the search; the watchdog repeats a stop requested on the budget.
            status = Watchdog.around(Long.MAX_VALUE, budget, solver::stopSearch, () -> solver.solve(cp));
        }
        chargeWork(solver, params, out.limits());
        boolean hasObjective = !model.objective().isConstant();
        switch (status) {
            case OPTIMAL, FEASIBLE -> {
                double[] values = new double[xs.length];
                for (int i = 0; i < xs.length; i++) {
                    values[i] = solver.value(xs[i]);
                }
                Double bound = hasObjective ? solver.bestObjectiveBound() : null;
                return out.with(status == CpSolverStatus.OPTIMAL, values, bound);
            }
            case INFEASIBLE -> {
                return out.without(SolveStatus.INFEASIBLE, null);
            }
            case MODEL_INVALID -> throw new IllegalStateException("CP-SAT rejected model '" + model.name() + "': "
                    + firstNonEmpty(cp.validate(), solver.getSolutionInfo(), "MODEL_INVALID"));
            default -> {
                // Without a solution CP-SAT's bound can be a placeholder (0 when stopped before presolve ends).
                return out.without(SolveStatus.UNKNOWN, null);
            }
        }
    }

    /**
     * Deterministic time CP-SAT spends per work unit, so that a unit takes about a wall second on the quiet
     * reference machine (2 cores, one worker). CP-SAT's deterministic time runs slower than the clock on the large
     * programs without addresses of the fixed-schedule steps and windows, hence less than 1.0 (calibration:
     * BENCHMARKS.md, "Deterministic work limits", "Work calibration").
     */
    public static final double DETERMINISTIC_TIME_PER_UNIT = 0.6;

    /**
     * Solves with a stop request at {@code deadline} ({@link System#nanoTime()} terms; Long.MAX_VALUE: none) from a
     * watchdog as well as CP-SAT's own limit, which does not cover everything on large models under load. (It does
     * not reach CP-SAT's presolve of a huge NoOverlap2D: the placement model turns presolve off by size instead.)
     * The search also stops when {@code budget} is cancelled or the run interrupted, as every solve of this class does
     * (a {@link Watchdog} polls its stop flag while the solve runs).
     */
    public static CpSolverStatus solveBy(CpSolver solver, CpModel model, long deadline, Budget budget) {
        solver.getParameters().setCatchSigintSignal(false);
        try (RunningSolvers.Registration r = RunningSolvers.register(solver::stopSearch);
             Budget.Registration stop = budget.onStop(solver::stopSearch)) {
            return Watchdog.around(deadline, budget, solver::stopSearch, () -> solver.solve(model));
        }
    }


    /**
     * Sets a work-mode limit on CP-SAT: its deterministic time for the work left in {@code limits}, one worker
     * (CP-SAT's parallel portfolio is not deterministic), and the wall time to the command's deadline as the
     * outer guard.
     */
    public static void limitWork(SatParameters.Builder params, Limits limits) {
        limitWork(params, limits, DETERMINISTIC_TIME_PER_UNIT);
    }

    /** As {@link #limitWork(SatParameters.Builder, Limits)}, with the model's own deterministic time per unit. */
    public static void limitWork(SatParameters.Builder params, Limits limits, double perUnit) {
        // The work left at the budget's resolution (billionths of a unit), as CP-SAT's limit has always been set.
        double units = limits.budget().left() / 1e9;
        params.setNumWorkers(1);
        params.setMaxDeterministicTime(Math.max(1e-4, units * perUnit));
        java.time.Duration wall = limits.budget().wallLeft();
        if (wall != null) {
            params.setMaxTimeInSeconds(Math.max(0.001, wall.toNanos() / 1e9));
        }
    }

    /**
     * Charges the deterministic time CP-SAT used to the work budget (in work mode), and marks the budget when the
     * wall-time guard, not the work, stopped the search.
     */
    public static void chargeWork(CpSolver solver, SatParameters.Builder params, Limits limits) {
        chargeWork(solver, params, limits, DETERMINISTIC_TIME_PER_UNIT);
    }

    /** As {@link #chargeWork(CpSolver, SatParameters.Builder, Limits)}, with the model's own time per unit. */
    public static void chargeWork(CpSolver solver, SatParameters.Builder params, Limits limits, double perUnit) {
        if (!limits.workMode()) {
            return;
        }
        double used = solver.response().getDeterministicTime();
        limits.budget().charge(used / perUnit);
        if (params.hasMaxTimeInSeconds() && solver.wallTime() >= 0.95 * params.getMaxTimeInSeconds()
                && used < 0.95 * params.getMaxDeterministicTime()) {
            limits.budget().markWallStop();
        }
    }

    /** The expression without its constant, unless {@code withConstant}. */
    private static LinearExpr linear(dev.memplan.formulations.milp.LinearExpr expr, IntVar[] xs, boolean withConstant) {
        LinearExprBuilder builder = LinearExpr.newBuilder();
        for (Map.Entry<Variable, Double> term : expr.terms().entrySet()) {
            builder.addTerm(xs[term.getKey().index()], (long) (double) term.getValue());
        }
        if (withConstant && expr.constant() != 0.0) {
            builder.add((long) expr.constant());
        }
        return builder.build();
    }

    /** Throws UnsupportedOperationException naming the first thing CP-SAT cannot take. */
    static void checkIntegral(Model model) {
        for (Variable v : model.variables()) {
            if (v.type() == VarType.CONTINUOUS) {
                throw new UnsupportedOperationException(NEEDS_INTEGERS + "variable '" + v.name() + "' is continuous");
            }
            requireInteger(v.lower(), () -> "lower bound " + v.lower() + " of variable '" + v.name() + "'");
            requireInteger(v.upper(), () -> "upper bound " + v.upper() + " of variable '" + v.name() + "'");
        }
        for (Constraint c : model.constraints()) {
            String where = " in constraint '" + c.name() + "'";
            checkExpr(c.expr(), where);
            if (c.lower() != Double.NEGATIVE_INFINITY) {
                requireInteger(c.lower(), () -> "lower bound " + c.lower() + " of constraint '" + c.name() + "'");
            }
            if (c.upper() != Double.POSITIVE_INFINITY) {
                requireInteger(c.upper(), () -> "upper bound " + c.upper() + " of constraint '" + c.name() + "'");
            }
        }
        checkExpr(model.objective(), " in the objective");
    }

    private static void checkExpr(dev.memplan.formulations.milp.LinearExpr expr, String where) {
        for (Map.Entry<Variable, Double> term : expr.terms().entrySet()) {
            requireInteger(term.getValue(),
                    () -> "coefficient " + term.getValue() + " of '" + term.getKey().name() + "'" + where);
        }
        requireInteger(expr.constant(), () -> "constant " + expr.constant() + where);
    }

    private static void requireInteger(double value, java.util.function.Supplier<String> what) {
        if (!(value == Math.rint(value) && Math.abs(value) < 0x1p62)) {
            throw new UnsupportedOperationException(NEEDS_INTEGERS + what.get() + " is not an integer CP-SAT can take");
        }
    }

    private static String firstNonEmpty(String... texts) {
        for (String text : texts) {
            if (text != null && !text.isBlank()) {
                return text;
            }
        }
        return "";
    }
}
