package dev.memplan.formulations.milp;

import com.google.ortools.linearsolver.MPConstraint;
import com.google.ortools.linearsolver.MPObjective;
import com.google.ortools.linearsolver.MPSolver;
import com.google.ortools.linearsolver.MPSolverParameters;
import com.google.ortools.linearsolver.MPVariable;
import dev.memplan.model.Limits;
import dev.memplan.model.SolveStatus;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * SCIP, CBC or HiGHS through the OR-Tools linear solver wrapper (MPSolver).
 *
 * <p>Limits: time limit ({@code setTimeLimit}); threads ({@code setNumThreads}: SCIP and HiGHS through MPSolver
 * run on one thread whatever is asked, and CBC is not told, because the CBC in OR-Tools 9.15 has no threads and
 * prints a complaint to the process's stdout); relative gap ({@code RELATIVE_MIP_GAP}, and for HiGHS, whose
 * MPSolver interface ignores it and would stop at its own 1e-4, the HiGHS option {@code mip_rel_gap}); seed
 * (SCIP {@code randomization/randomseedshift}, HiGHS {@code random_seed}; none for CBC). Solver output is off;
 * HiGHS also needs {@code output_flag=false} as a solver-specific parameter, or it prints its banner straight to
 * the process's stdout.
 *
 * <p>Status: OPTIMAL and FEASIBLE carry the solution (the bound from {@code bestBound()} for SCIP and CBC; HiGHS
 * through MPSolver reports its objective as the bound, so no bound is reported for HiGHS short of a proven
 * optimum). INFEASIBLE only when proven: not when the solve ran into the time limit, and for HiGHS, which reports
 * "infeasible or unbounded" as infeasible, only after a re-solve without the objective when some variable is
 * unbounded. UNBOUNDED, ABNORMAL, NOT_SOLVED and HiGHS's "unknown" (a status the Java enum lacks) are UNKNOWN.
 * A model the solver calls invalid is a bug: IllegalStateException.
 *
 * <p>Hints are passed with {@code setHint} to SCIP and CBC; not to HiGHS, because OR-Tools 9.15 writes past an
 * empty vector when it hands hints to HiGHS and the JVM crashes.
 */
public final class MpSolverBackend implements MilpSolver {

    private static final int OPTIMAL = 0;
    private static final int FEASIBLE = 1;
    private static final int INFEASIBLE = 2;
    private static final int UNBOUNDED = 3;
    private static final int ABNORMAL = 4;
    private static final int MODEL_INVALID = 5;
    private static final int NOT_SOLVED = 6;
    private static final int CANCELLED_BY_USER = 98;
    private static final int UNKNOWN_STATUS = 99;
    private static final Pattern ENUM_VALUE = Pattern.compile("with value (-?\\d+)");
    private static final AtomicBoolean HIGHS_HINT_NOTED = new AtomicBoolean();

    private final Backend backend;

    public MpSolverBackend(Backend backend) {
        Objects.requireNonNull(backend, "backend");
        if (backend != Backend.SCIP && backend != Backend.CBC && backend != Backend.HIGHS) {
            throw new IllegalArgumentException("MPSolver back-end for scip, cbc or highs, not " + backend.id());
        }
        this.backend = backend;
    }

    @Override
    public String name() {
        return backend.id();
    }

    /** The OR-Tools solver id: "SCIP", "CBC" or "HIGHS" (accepted by {@code MPSolver.createSolver} in 9.15). */
    String solverId() {
        return backend.name();
    }

    @Override
    public SolverResult solve(Model model, Limits limits) {
        Objects.requireNonNull(model, "model");
        Limits lim = Outcomes.orDefault(limits);
        Outcomes out = new Outcomes(model, lim, name());
        Solvers.requireNative(name());
        MPSolver solver = MPSolver.createSolver(solverId());
        if (solver == null) {
            throw new IllegalStateException("OR-Tools cannot create the " + solverId() + " solver");
        }
        MPSolverParameters params = new MPSolverParameters();
        try {
            solver.suppressOutput();
            MPVariable[] xs = build(solver, model);
            configure(solver, params, lim, out);
            passHints(solver, model, xs);

            long t = System.nanoTime();
            int status;
            try (RunningSolvers.Registration r = RunningSolvers.register(solver::interruptSolve)) {
                status = watched(solver, params, out.limitMillis(), lim.budget());
            }
            double solveSeconds = (System.nanoTime() - t) / 1e9;

            switch (status) {
                case OPTIMAL, FEASIBLE -> {
                    double[] values = new double[xs.length];
                    for (int i = 0; i < xs.length; i++) {
                        values[i] = xs[i].solutionValue();
                    }
                    Double bound = backend == Backend.HIGHS ? null : solver.objective().bestBound();
                    return out.with(status == OPTIMAL, values, bound);
                }
                case INFEASIBLE -> {
                    if (out.reachedTimeLimit(solveSeconds)) {
                        return out.without(SolveStatus.UNKNOWN, null);
                    }
                    if (backend == Backend.HIGHS && model.hasUnboundedVariable()) {
                        return recheckInfeasible(model, solver, params, out);
                    }
                    return out.without(SolveStatus.INFEASIBLE, null);
                }
                case UNBOUNDED -> {
                    note(model, "reports the model unbounded");
                    return out.without(SolveStatus.UNKNOWN, null);
                }
                case ABNORMAL -> {
                    if (!out.reachedTimeLimit(solveSeconds)) {
                        note(model, "stopped abnormally");
                    }
                    return out.without(SolveStatus.UNKNOWN, null);
                }
                case NOT_SOLVED, CANCELLED_BY_USER, UNKNOWN_STATUS -> {
                    return out.without(SolveStatus.UNKNOWN, null);
                }
                default -> throw new IllegalStateException(solverId() + " rejected model '" + model.name()
                        + "' (MPSolver status " + describe(status) + "); this is a bug in the model translation");
            }
        } finally {
            params.delete();
            if (model.variableCount() > ASYNC_DELETE_VARIABLES) {
                // Freeing a large native model takes seconds (BENCHMARKS.md, "Allocation at production scale"); the
                // answer is known, so a daemon thread frees it (or the process's exit does).
                Thread free = new Thread(solver::delete, "mpsolver-delete");
                free.setDaemon(true);
                free.start();
            } else {
                solver.delete();
            }
        }
    }

    /** Models with more variables are freed on a daemon thread. */
    private static final int ASYNC_DELETE_VARIABLES = 50_000;

    /**
     * Runs the solver with a watchdog that interrupts it {@code millis} from now (0: none): the solver's own limit
     * does not count the native model's extraction, and on a large model it ran past it.
     */
    private static int watched(MPSolver solver, MPSolverParameters params, long millis, dev.memplan.model.Budget budget) {
        long delay = millis <= 0 ? Long.MAX_VALUE : java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(millis);
        return Watchdog.around(Watchdog.deadlineIn(delay), budget, solver::interruptSolve, () -> run(solver, params));
    }

    private MPVariable[] build(MPSolver solver, Model model) {
        double inf = MPSolver.infinity();
        MPVariable[] xs = new MPVariable[model.variableCount()];
        for (Variable v : model.variables()) {
            double lower = v.lower() == Double.NEGATIVE_INFINITY ? -inf : v.lower();
            double upper = v.upper() == Double.POSITIVE_INFINITY ? inf : v.upper();
            xs[v.index()] = solver.makeVar(lower, upper, v.type().isIntegral(), "x" + v.index());
        }
        int row = 0;
        for (Constraint c : model.constraints()) {
            double constant = c.expr().constant();
            double lower = c.lower() == Double.NEGATIVE_INFINITY ? -inf : c.lower() - constant;
            double upper = c.upper() == Double.POSITIVE_INFINITY ? inf : c.upper() - constant;
            MPConstraint ct = solver.makeConstraint(lower, upper, "c" + row++);
            for (Map.Entry<Variable, Double> term : c.expr().terms().entrySet()) {
                ct.setCoefficient(xs[term.getKey().index()], term.getValue());
            }
        }
        MPObjective objective = solver.objective();
        for (Map.Entry<Variable, Double> term : model.objective().terms().entrySet()) {
            objective.setCoefficient(xs[term.getKey().index()], term.getValue());
        }
        objective.setOffset(model.objective().constant());
        if (model.minimizing()) {
            objective.setMinimization();
        } else {
            objective.setMaximization();
        }
        return xs;
    }

    private void configure(MPSolver solver, MPSolverParameters params, Limits limits, Outcomes out) {
        long millis = out.limitMillis();
        if (millis > 0) {
            solver.setTimeLimit(millis);
        }
        if (Solvers.logRequested()) {
            solver.enableOutput();
        }
        if (backend != Backend.CBC) {
            // The CBC in OR-Tools 9.15 is built without threads: asking for more than one makes it print
            // "No match for threads" straight to the process's stdout. SCIP and HiGHS accept and ignore it.
            solver.setNumThreads(limits.threads());
        }
        params.setDoubleParam(MPSolverParameters.DoubleParam.RELATIVE_MIP_GAP, limits.relativeGap());
        int seed = Outcomes.seed31(limits.seed());
        String specific = switch (backend) {
            // MPSolver's HiGHS interface ignores RELATIVE_MIP_GAP (HiGHS would stop at its own 1e-4) and
            // returns false from setSolverSpecificParametersAsString even though it keeps and applies the string.
            case HIGHS -> "output_flag=false\nlog_to_console=false\nmip_rel_gap="
                    + String.format(Locale.ROOT, "%.17g", limits.relativeGap()) + "\nrandom_seed=" + seed;
            // SCIP's own Ctrl-C handler would swallow the signal; memplan's stops it (RunningSolvers).
            case SCIP -> "randomization/randomseedshift = " + seed + "\nmisc/catchctrlc = FALSE";
            default -> null;
        };
        if (specific != null) {
            solver.setSolverSpecificParametersAsString(specific);
        }
    }

    private void passHints(MPSolver solver, Model model, MPVariable[] xs) {
        Map<Variable, Double> hints = model.hints();
        if (hints.isEmpty()) {
            return;
        }
        if (backend == Backend.HIGHS) {
            if (HIGHS_HINT_NOTED.compareAndSet(false, true)) {
                dev.memplan.model.Notices.warn("hints are not passed to HiGHS (OR-Tools 9.15 crashes on them); "
                        + "solving without a starting solution");
            }
            return;
        }
        MPVariable[] vars = new MPVariable[hints.size()];
        double[] values = new double[hints.size()];
        int k = 0;
        for (Map.Entry<Variable, Double> hint : hints.entrySet()) {
            vars[k] = xs[hint.getKey().index()];
            values[k++] = hint.getValue();
        }
        solver.setHint(vars, values);
    }

    /**
     * Runs the solver and returns the MPSolver status code. OR-Tools' Java enum lacks some codes the native side
     * returns (HiGHS at a time limit without a solution returns 99, "unknown"); their code is read from the
     * exception the enum conversion throws.
     */
    private static int run(MPSolver solver, MPSolverParameters params) {
        try {
            return solver.solve(params).swigValue();
        } catch (IllegalArgumentException e) {
            Matcher m = ENUM_VALUE.matcher(String.valueOf(e.getMessage()));
            if (m.find()) {
                return Integer.parseInt(m.group(1));
            }
            throw e;
        }
    }

    /**
     * HiGHS maps "infeasible or unbounded" to INFEASIBLE. With an unbounded variable the model may be feasible
     * and unbounded; without the objective it cannot be unbounded, so INFEASIBLE then is a proof.
     */
    private SolverResult recheckInfeasible(Model model, MPSolver solver, MPSolverParameters params, Outcomes out) {
        if (out.limitMillis() > 0) {
            double left = out.limitSeconds();
            if (left < 0.001) {
                return out.without(SolveStatus.UNKNOWN, null);
            }
            solver.setTimeLimit((long) (left * 1000));
        }
        solver.objective().clear();
        int status = run(solver, params);
        if (status == INFEASIBLE && !out.reachedTimeLimit(out.elapsed())) {
            return out.without(SolveStatus.INFEASIBLE, null);
        }
        if (status == OPTIMAL || status == FEASIBLE) {
            note(model, "reports the model unbounded (it has a solution, and HiGHS said infeasible or unbounded)");
        }
        return out.without(SolveStatus.UNKNOWN, null);
    }

    private void note(Model model, String what) {
        dev.memplan.model.Notices.warn(solverId() + " " + what + " for model '" + model.name()
                + "'; reporting UNKNOWN");
    }

    private static String describe(int status) {
        return switch (status) {
            case MODEL_INVALID -> "MODEL_INVALID";
            case 7 -> "SOLVER_TYPE_UNAVAILABLE";
            case 84 -> "MODEL_INVALID_SOLUTION_HINT";
            case 85 -> "MODEL_INVALID_SOLVER_PARAMETERS";
            case 113 -> "INCOMPATIBLE_OPTIONS";
            default -> Integer.toString(status);
        };
    }
}
