package dev.memplan.formulations.placement;

import com.google.ortools.sat.CpModel;
import com.google.ortools.sat.CpSolver;
import com.google.ortools.sat.CpSolverStatus;
import dev.memplan.formulations.milp.RunningSolvers;
import com.google.ortools.sat.CumulativeConstraint;
import com.google.ortools.sat.IntVar;
import com.google.ortools.sat.IntervalVar;
import com.google.ortools.sat.LinearExpr;
import com.google.ortools.sat.NoOverlap2dConstraint;
import com.google.ortools.sat.SatParameters;
import dev.memplan.formulations.milp.Solvers;
import dev.memplan.model.Allocation;
import dev.memplan.model.Allocator;
import dev.memplan.model.Buffer;
import dev.memplan.model.BufferSet;
import dev.memplan.model.Limits;
import dev.memplan.model.Placement;
import dev.memplan.model.SolveStatus;

/**
 * Fixed-schedule buffer packing as a two-dimensional no-overlap constraint in OR-Tools CP-SAT: each buffer is a
 * rectangle whose time side is fixed ({@code [lower, upper)}) and whose address side {@code [pos, pos + size)}
 * is to be chosen, and no two rectangles may overlap (CP-SAT's {@code NoOverlap2D}). This is the CP view of the
 * TelaMalloc problem (Maas et al., ASPLOS 2023, Section 5.1) with the disjunctions left to CP-SAT's 2D
 * propagators instead of one literal per pair. {@code pos = alignment * k} with an integer {@code k}; a buffer
 * with a fixed offset has a fixed address interval.
 *
 * <p>Modes: feasibility at the capacity ({@code pos + size <= capacity}), or minimise the height {@code H}, with
 * every {@code pos + size <= H <= capacity} and {@code H} at least the peak load. A redundant cumulative
 * constraint can be added on the address axis: the buffers that cover one address are live at disjoint times,
 * so their durations sum to at most the time span (the projection bound of 2D strip packing). The same
 * constraint over time would say nothing: time intervals are fixed, and their load is checked before solving.
 *
 * <p>Limits: time limit = {@code max_time_in_seconds}, threads = {@code num_workers}, seed =
 * {@code random_seed}, relative gap = {@code relative_gap_limit} (minimise mode). A start packing becomes CP-SAT's
 * hint.
 *
 * <p>Status: OPTIMAL only when minimising and CP-SAT proved the optimum (a stop at the gap limit is FEASIBLE
 * unless the bound meets the height); a packing in feasibility mode is FEASIBLE; INFEASIBLE when CP-SAT proved it
 * or the instance is infeasible without search (see {@link PlacementIlp}); UNKNOWN when stopped without a
 * packing. Every placement is checked.
 *
 * <p>Size: one integer and two intervals per buffer, no variable per pair (the pairwise reasoning is CP-SAT's
 * propagators'); the search is exponential in the worst case.
 */
public final class PlacementCpSat implements Allocator {
    /**
     * Above this many buffers CP-SAT runs without its presolve: presolving the NoOverlap2D of 100,001 buffers ran
     * far past the time limit, and neither its own limit nor a stop request interrupts it (BENCHMARKS.md,
     * "Allocation at production scale").
     * Decided by size alone, so the same input gets the same model on any machine.
     */
    static final int PRESOLVE_MAX_BUFFERS = 20_000;

    /**
     * CP-SAT's deterministic time per work unit on placement models, as {@code memplan allocate} counts it: their
     * no-overlap propagation does far less deterministic time in a wall second than COSMA's programs
     * (calibration: BENCHMARKS.md, "Allocation at production scale"). Inside a plan's solve the packer keeps
     * COSMA's rate ({@link dev.memplan.formulations.milp.CpSatBackend#DETERMINISTIC_TIME_PER_UNIT}).
     */
    public static final double CALIBRATED_TIME_PER_UNIT = 0.05;

    public static final String NAME = "cpsat";

    private final boolean minimize;
    private final boolean addressCumulative;
    private double perUnit = dev.memplan.formulations.milp.CpSatBackend.DETERMINISTIC_TIME_PER_UNIT;

    /** This allocator with allocate's calibration of work units ({@link #CALIBRATED_TIME_PER_UNIT}). */
    public PlacementCpSat calibrated() {
        PlacementCpSat c = new PlacementCpSat(minimize, addressCumulative);
        c.perUnit = CALIBRATED_TIME_PER_UNIT;
        return c;
    }

    /**
     * @param minimize          true: minimise the height below the capacity; false: any packing below the capacity
     * @param addressCumulative true: add the redundant cumulative constraint on the address axis
     */
    public PlacementCpSat(boolean minimize, boolean addressCumulative) {
        this.minimize = minimize;
        this.addressCumulative = addressCumulative;
    }

    /** Without the redundant constraint: NoOverlap2D alone. */
    public PlacementCpSat(boolean minimize) {
        this(minimize, false);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Allocation allocate(BufferSet buffers, long capacity, Limits limits) {
        return allocate(buffers, capacity, limits, null);
    }

    /**
     * As {@link #allocate(BufferSet, long, Limits)}, with a starting packing given to CP-SAT as a hint.
     *
     * @param hint null, or a legal packing of {@code buffers} below {@code capacity}
     * @throws IllegalArgumentException when the hint is not a legal packing below the capacity
     * @throws IllegalStateException    when the OR-Tools native libraries cannot be loaded
     */
    public Allocation allocate(BufferSet buffers, long capacity, Limits limits, Placement hint) {
        long start = System.nanoTime();
        if (capacity < 0) {
            throw new IllegalArgumentException("capacity must be >= 0, got " + capacity);
        }
        Limits lim = limits == null ? Limits.DEFAULT : limits;
        PlacementProblem problem = PlacementProblem.of(buffers, capacity);
        if (problem == null) {
            return PlacementProblem.none(SolveStatus.INFEASIBLE, start);
        }
        PlacementProblem.requireLegalHint(buffers, hint, capacity);
        // Two intervals per buffer and CP-SAT's pairwise no-overlap reasoning: about 4 KB a buffer, 64 B a pair.
        String tooBig = PlacementProblem.tooBig(buffers, "placement CP-SAT model", 64, 4096, lim);
        if (tooBig != null) {
            return PlacementProblem.skipped(buffers, hint, minimize, tooBig, start);
        }
        if (!Solvers.nativeAvailable()) {
            throw new IllegalStateException("CP-SAT needs the OR-Tools native libraries, which could not be loaded ("
                    + Solvers.nativeFailure() + ")");
        }
        Formulation f = new Formulation(problem, minimize, addressCumulative);
        if (hint != null) {
            f.hint(hint);
        }
        CpSolver solver = new CpSolver();
        SatParameters.Builder params = solver.getParameters();
        params.setLogSearchProgress(false);
        params.setLogToStdout(false);
        params.setNumWorkers(lim.threads());
        params.setRandomSeed((int) Math.floorMod(lim.seed(), (long) Integer.MAX_VALUE));
        if (minimize) {
            params.setRelativeGapLimit(lim.relativeGap());
        }
        if (lim.workMode()) {
            dev.memplan.formulations.milp.CpSatBackend.limitWork(params, lim, perUnit);
        } else if (lim.budget().wallLeft() != null) {
            // The budget's clock runs for the whole call: building the model took some of it (at least 1 ms left).
            long left = Math.max(1_000_000, lim.budget().wallLeft().toNanos());
            params.setMaxTimeInSeconds(left / 1e9);
        }
        params.setCatchSigintSignal(false);
        if (buffers.size() > PRESOLVE_MAX_BUFFERS) {
            params.setCpModelPresolve(false);
        }
        CpSolverStatus status;
        try (RunningSolvers.Registration r = RunningSolvers.register(solver::stopSearch);
             dev.memplan.model.Budget.Registration stop = lim.budget().onStop(solver::stopSearch)) {
            status = dev.memplan.formulations.milp.Watchdog.around(Long.MAX_VALUE, lim.budget(), solver::stopSearch,
                    () -> solver.solve(f.cp));
        }
        dev.memplan.formulations.milp.CpSatBackend.chargeWork(solver, params, lim, perUnit);
        switch (status) {
            case OPTIMAL, FEASIBLE -> {
                long[] offsets = new long[buffers.size()];
                for (int i = 0; i < offsets.length; i++) {
                    Buffer b = buffers.get(i);
                    offsets[i] = f.k[i] == null ? b.fixedOffset() : solver.value(f.k[i]) * b.alignment();
                }
                // OPTIMAL at a gap limit above 0 means "within the gap"; proven only where the bound meets.
                boolean proven = minimize && status == CpSolverStatus.OPTIMAL
                        && (lim.relativeGap() == 0.0 || solver.objectiveValue() <= solver.bestObjectiveBound());
                return PlacementProblem.placed(buffers, offsets, capacity, proven, NAME, start);
            }
            case INFEASIBLE -> {
                return PlacementProblem.none(SolveStatus.INFEASIBLE, start);
            }
            case MODEL_INVALID -> throw new IllegalStateException("bug: CP-SAT rejected the placement model: "
                    + f.cp.validate());
            default -> {
                return PlacementProblem.none(SolveStatus.UNKNOWN, start);
            }
        }
    }

    /**
     * The least height of a packing (the minimum capacity), by minimising below the height of {@code start}, or
     * below the stacked height when {@code start} is null. OPTIMAL: proven minimum; FEASIBLE: the best packing
     * found; INFEASIBLE only when the fixed offsets collide; UNKNOWN when nothing was found in time.
     *
     * @param start null, or a legal packing (e.g. a heuristic's), which also becomes the hint
     */
    public static Allocation minimumHeight(BufferSet buffers, Placement start, Limits limits) {
        long capacity = PlacementProblem.heightSearchCapacity(buffers, start);
        return new PlacementCpSat(true).allocate(buffers, capacity, limits, start);
    }

    /** As {@link #minimumHeight(BufferSet, Placement, Limits)}, with allocate's calibration of work units. */
    public static Allocation minimumHeightCalibrated(BufferSet buffers, Placement start, Limits limits) {
        long capacity = PlacementProblem.heightSearchCapacity(buffers, start);
        return new PlacementCpSat(true).calibrated().allocate(buffers, capacity, limits, start);
    }

    /** The CP-SAT model of one problem, with its variables. */
    private static final class Formulation {
        final CpModel cp = new CpModel();
        final PlacementProblem problem;
        /** k_i, null for a buffer with a fixed offset. */
        final IntVar[] k;
        final IntervalVar[] time;
        final IntervalVar[] address;
        final IntVar height;

        Formulation(PlacementProblem problem, boolean minimize, boolean addressCumulative) {
            this.problem = problem;
            BufferSet set = problem.set;
            int n = set.size();
            k = new IntVar[n];
            time = new IntervalVar[n];
            address = new IntervalVar[n];
            for (int i = 0; i < n; i++) {
                Buffer b = set.get(i);
                time[i] = cp.newFixedInterval(b.lower(), b.upper() - b.lower(), "t_" + b.id());
                if (problem.fixed(i)) {
                    address[i] = cp.newFixedInterval(b.fixedOffset(), b.size(), "a_" + b.id());
                } else {
                    k[i] = cp.newIntVar(0, problem.maxOffset[i] / b.alignment(), "k_" + b.id());
                    address[i] = cp.newFixedSizeIntervalVar(LinearExpr.term(k[i], b.alignment()), b.size(),
                            "a_" + b.id());
                }
            }
            addNoOverlap();
            height = minimize ? addHeight() : null;
            if (addressCumulative && n > 0) {
                addAddressCumulative();
            }
        }

        /** No two buffers share a moment and an address. */
        private void addNoOverlap() {
            NoOverlap2dConstraint noOverlap = cp.addNoOverlap2D();
            for (int i = 0; i < time.length; i++) {
                noOverlap.addRectangle(time[i], address[i]);
            }
        }

        /** H >= pos_i + size_i, minimised; fixed buffers are already below H's lower bound. */
        private IntVar addHeight() {
            IntVar h = cp.newIntVar(problem.heightLowerBound(), problem.capacity, "H");
            for (int i = 0; i < k.length; i++) {
                if (k[i] != null) {
                    Buffer b = problem.set.get(i);
                    cp.addLessOrEqual(LinearExpr.affine(k[i], b.alignment(), b.size()), h);
                }
            }
            cp.minimize(h);
            return h;
        }

        /** Buffers covering one address are live at disjoint times: their durations fit in the time span. */
        private void addAddressCumulative() {
            long first = Long.MAX_VALUE;
            long last = Long.MIN_VALUE;
            for (Buffer b : problem.set.buffers()) {
                first = Math.min(first, b.lower());
                last = Math.max(last, b.upper());
            }
            CumulativeConstraint durations = cp.addCumulative(last - first);
            for (int i = 0; i < address.length; i++) {
                Buffer b = problem.set.get(i);
                durations.addDemand(address[i], b.upper() - b.lower());
            }
        }

        void hint(Placement start) {
            for (int i = 0; i < k.length; i++) {
                if (k[i] != null) {
                    cp.addHint(k[i], start.offset(i) / problem.set.get(i).alignment());
                }
            }
            if (height != null) {
                cp.addHint(height, start.height());
            }
        }
    }
}
