package dev.memplan.formulations.milp;

import dev.memplan.model.Limits;
import dev.memplan.model.SolveStatus;
import java.time.Duration;

/**
 * The part of every back-end that turns what a solver said into a {@link SolverResult}: the wall clock, the
 * check of returned values against the model, the objective, the bound and gap, and the rule that OPTIMAL means
 * proven.
 */
final class Outcomes {

    /** Integer values this close to an integer are snapped to it (solvers' integrality tolerances are ~1e-6). */
    static final double SNAP = 1e-5;
    /** |bound| at or above this is no bound (SCIP's infinity is 1e20). */
    static final double NO_BOUND = 1e20;
    /** A bound this close (relatively) to the objective proves it optimal. */
    static final double PROVEN = 1e-9;
    /** A time limit counts as reached when the solve took at least this fraction of it. */
    static final double REACHED = 0.9;

    private final Model model;
    private final Limits limits;
    private final String backend;
    private final long start = System.nanoTime();
    /** The limit last handed to the solver, in seconds: what {@link #reachedTimeLimit} compares with. */
    private double given = Double.POSITIVE_INFINITY;

    Outcomes(Model model, Limits limits, String backend) {
        this.model = model;
        // The call's own budget from here, so building the solver's model counts against it.
        this.limits = limits.child();
        this.backend = backend;
    }

    /** The limits of this call (from its start: its own child of the budget). */
    Limits limits() {
        return limits;
    }

    static Limits orDefault(Limits limits) {
        return limits == null ? Limits.DEFAULT : limits;
    }

    /**
     * The time limit handed to a solver's own clock: the wall time left; in work mode, for a back-end that counts no
     * deterministic work (SCIP, HiGHS, CBC), the work left read as seconds (a unit takes about a second on the
     * reference machine), within the wall time left. Null: no limit.
     */
    private Duration solverClock() {
        Duration wall = limits.budget().wallLeft();
        if (!limits.workMode()) {
            return wall;
        }
        Duration work = Duration.ofNanos(limits.budget().left());
        return wall == null || work.compareTo(wall) < 0 ? work : wall;
    }

    /** Seconds since this call started. */
    double elapsed() {
        return (System.nanoTime() - start) / 1e9;
    }

    /**
     * The time left in seconds (the limit capped by the command's deadline, read now: building the solver's model
     * counts against it), or infinity; at least a millisecond, since solvers read 0 as "no limit".
     */
    double limitSeconds() {
        Duration limit = solverClock();
        // Not toNanos(): it overflows beyond 292 years (--time-limit 1e12).
        given = limit == null ? Double.POSITIVE_INFINITY
                : Math.max(0.001, limit.getSeconds() + limit.getNano() / 1e9);
        return given;
    }

    /** The time limit in whole milliseconds (at least 1), or 0 for none; saturates for huge limits. */
    long limitMillis() {
        Duration limit = solverClock();
        if (limit == null) {
            given = Double.POSITIVE_INFINITY;
            return 0;
        }
        long millis;
        try {
            millis = limit.toMillis();
        } catch (ArithmeticException e) {
            millis = Long.MAX_VALUE;
        }
        millis = Math.max(1, millis);
        given = millis / 1e3;
        return millis;
    }

    /** Whether a solve that took {@code solveSeconds} ran into the time limit. */
    boolean reachedTimeLimit(double solveSeconds) {
        return solveSeconds >= REACHED * given;
    }

    /** A result without a solution (INFEASIBLE or UNKNOWN), with a dual bound if the solver has one. */
    SolverResult without(SolveStatus status, Double solverBound) {
        Double bound = status == SolveStatus.INFEASIBLE ? null : sanitize(solverBound);
        if (bound != null && model.objectiveIsIntegral()) {
            bound = round(bound);
        }
        return new SolverResult(status, null, null, bound, null, elapsed(), backend, model.variableCount(),
                model.constraintCount());
    }

    /**
     * A result with the solver's values: snaps integer values, refuses values that violate the model, evaluates
     * the objective, and decides OPTIMAL or FEASIBLE. {@code claimedOptimal}: the solver says optimal;
     * {@code solverBound}: its dual bound, null when it has none.
     */
    SolverResult with(boolean claimedOptimal, double[] raw, Double solverBound) {
        double[] values = polish(raw);
        double violation = model.maxScaledViolation(values);
        if (!(violation <= Model.FEASIBILITY_TOLERANCE)) {
            throw new IllegalStateException("bug or numerical trouble in " + backend + ": the solution it returned "
                    + "(claimed " + (claimedOptimal ? "optimal" : "feasible") + ") violates model '" + model.name()
                    + "' by " + violation + " (relative): " + model.worstViolation(values).orElse("?"));
        }
        double objective = model.objective().evaluate(values);
        Double bound = sanitize(solverBound);
        if (bound != null) {
            if (model.objectiveIsIntegral()) {
                bound = round(bound);
            }
            // A dual bound never lies beyond the objective of a solution; clamp numerical noise.
            bound = model.minimizing() ? Math.min(bound, objective) : Math.max(bound, objective);
        }
        boolean optimal;
        if (claimedOptimal && limits.relativeGap() == 0.0) {
            optimal = true; // asked to prove optimality (gap 0) and the solver says it did
        } else {
            optimal = bound != null && Math.abs(objective - bound) <= PROVEN * Math.max(1.0, Math.abs(objective));
        }
        if (optimal) {
            return new SolverResult(SolveStatus.OPTIMAL, values, objective, objective, 0.0, elapsed(), backend,
                    model.variableCount(), model.constraintCount());
        }
        return new SolverResult(SolveStatus.FEASIBLE, values, objective, bound, gap(objective, bound), elapsed(),
                backend, model.variableCount(), model.constraintCount());
    }

    static Double gap(double objective, Double bound) {
        if (bound == null) {
            return null;
        }
        if (objective == bound) {
            return 0.0;
        }
        return Math.abs(objective - bound) / Math.max(Math.abs(objective), 1e-9);
    }

    /** Integer values snapped to the nearest integer, values a hair outside their bounds clamped, -0 as 0. */
    double[] polish(double[] raw) {
        double[] values = raw.clone();
        for (Variable v : model.variables()) {
            int i = v.index();
            double x = values[i];
            if (Double.isNaN(x)) {
                continue;
            }
            if (v.type().isIntegral()) {
                double r = Math.rint(x);
                if (Math.abs(x - r) <= SNAP) {
                    x = r;
                }
            }
            if (x < v.lower() && v.lower() - x <= Model.FEASIBILITY_TOLERANCE * Math.max(1.0, Math.abs(v.lower()))) {
                x = v.lower();
            }
            if (x > v.upper() && x - v.upper() <= Model.FEASIBILITY_TOLERANCE * Math.max(1.0, Math.abs(v.upper()))) {
                x = v.upper();
            }
            values[i] = x == 0.0 ? 0.0 : x;
        }
        return values;
    }

    private static Double sanitize(Double bound) {
        if (bound == null || !Double.isFinite(bound) || Math.abs(bound) >= NO_BOUND) {
            return null;
        }
        return bound == 0.0 ? 0.0 : bound;
    }

    /** An integral objective's bound rounded inwards: up when minimising, down when maximising. */
    private double round(double bound) {
        double slack = 1e-6;
        double r = model.minimizing() ? Math.ceil(bound - slack) : Math.floor(bound + slack);
        return r == 0.0 ? 0.0 : r;
    }

    /** A seed in [0, 2^31 - 2] for solvers with 32-bit seeds. */
    static int seed31(long seed) {
        return (int) Math.floorMod(seed, (long) Integer.MAX_VALUE);
    }
}
