package dev.memplan.formulations.placement;

import dev.memplan.formulations.milp.Backend;
import dev.memplan.formulations.milp.LinearExpr;
import dev.memplan.formulations.milp.Model;
import dev.memplan.formulations.milp.SolverResult;
import dev.memplan.formulations.milp.Solvers;
import dev.memplan.formulations.milp.Variable;
import dev.memplan.model.Allocation;
import dev.memplan.model.Allocator;
import dev.memplan.model.Buffer;
import dev.memplan.model.BufferSet;
import dev.memplan.model.Limits;
import dev.memplan.model.Placement;
import dev.memplan.model.SolveStatus;
import java.util.List;
import java.util.Objects;

/**
 * The placement ILP of TelaMalloc (Maas et al., ASPLOS 2023, Section 3.2, Fig. 5), the solver baseline of
 * fixed-schedule buffer packing, on the MILP layer ({@link dev.memplan.formulations.milp}; SCIP by default).
 *
 * <p>Variables: an integer offset per buffer (Fig. 5 variable (1)), written {@code pos_i = alignment_i * k_i}
 * with integer {@code k_i} so that alignment holds by construction, and fixed to its address for a buffer with a
 * fixed offset; one ordering binary {@code B_ij} per pair of buffers live at the same time (Fig. 5 variables (2)
 * and (3) with {@code B~_ij = 1 - B_ij}, which is constraint (2)). Constraints: {@code pos_i + size_i <= M}
 * (constraint (1), as the bound of {@code k_i}), and the disjunction "i below j or j below i" in big-M form
 * (constraints (3) and (4)):
 * <pre>
 *   pos_i + size_i <= pos_j + M1_ij * (1 - B_ij)        pos_j + size_j <= pos_i + M2_ij * B_ij
 * </pre>
 * Fig. 5 writes the inequalities strictly, which on integers would leave a byte between neighbours; here a
 * buffer may end where the next begins. M is per pair, the least that relaxes the constraint given the offset
 * ranges the capacity allows: {@code M1_ij = max pos_i + size_i - min pos_j}. A pair one of whose orders always
 * holds needs no binary; two fixed buffers need none either.
 *
 * <p>Modes: feasibility at the capacity (Fig. 5 as published: no objective), or minimise the height, a variable
 * {@code H >= pos_i + size_i}, {@code H <= capacity}, bounded below by the peak load (the most bytes live at one
 * moment), a valid bound that Fig. 5 does not state but that gives the LP relaxation a bound to prove.
 *
 * <p>Status: OPTIMAL only when minimising and the solver proved the optimum; a packing found in feasibility mode
 * is FEASIBLE; INFEASIBLE only when the solver proved it or the instance is infeasible without search (a
 * buffer larger than the capacity, illegal fixed offsets, more bytes live at a moment than the capacity);
 * UNKNOWN when the solver stopped (time limit) without a packing. Every placement is checked.
 *
 * <p>Size: n integer variables and one binary and two constraints per pair of buffers live at the same time.
 */
public final class PlacementIlp implements Allocator {

    public static final String NAME = "ilp";

    private final Backend backend;
    private final boolean minimize;

    /**
     * @param backend  the MILP solver (SCIP, CBC, HiGHS, CP-SAT or ojAlgo; see {@link Solvers#create})
     * @param minimize true: minimise the height below the capacity; false: any packing below the capacity
     */
    public PlacementIlp(Backend backend, boolean minimize) {
        this.backend = Objects.requireNonNull(backend, "backend");
        this.minimize = minimize;
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
     * As {@link #allocate(BufferSet, long, Limits)}, with a starting packing given to the solver as a hint.
     *
     * @param hint null, or a legal packing of {@code buffers} below {@code capacity}
     * @throws IllegalArgumentException when the hint is not a legal packing below the capacity
     */
    public Allocation allocate(BufferSet buffers, long capacity, Limits limits, Placement hint) {
        long start = System.nanoTime();
        if (capacity < 0) {
            throw new IllegalArgumentException("capacity must be >= 0, got " + capacity);
        }
        PlacementProblem problem = PlacementProblem.of(buffers, capacity);
        if (problem == null) {
            return PlacementProblem.none(SolveStatus.INFEASIBLE, start);
        }
        PlacementProblem.requireLegalHint(buffers, hint, capacity);
        // A binary and two big-M rows per pair: about 1.5 KB a pair inside SCIP.
        String tooBig = PlacementProblem.tooBig(buffers, "placement ILP", 1536, 2048,
                limits == null ? Limits.DEFAULT : limits);
        if (tooBig != null) {
            return PlacementProblem.skipped(buffers, hint, minimize, tooBig, start);
        }
        Formulation f = new Formulation(problem, minimize);
        if (hint != null) {
            f.hint(hint);
        }
        if (f.model.variableCount() == 0) { // every buffer has a fixed offset: nothing to choose
            return PlacementProblem.placed(buffers, f.offsets(null), capacity, false, NAME, start);
        }
        // The time limit holds for the whole call: building the model took some of it.
        SolverResult result = Solvers.create(backend).solve(f.model, limits);
        return switch (result.status()) {
            case OPTIMAL, FEASIBLE -> PlacementProblem.placed(buffers, f.offsets(result), capacity,
                    minimize && result.status() == SolveStatus.OPTIMAL, NAME + "/" + result.backend(), start);
            case INFEASIBLE -> PlacementProblem.none(SolveStatus.INFEASIBLE, start);
            default -> PlacementProblem.none(SolveStatus.UNKNOWN, start);
        };
    }

    /**
     * The least height of a packing (the minimum capacity), by minimising below the height of {@code start}, or
     * below the stacked height when {@code start} is null. OPTIMAL: proven minimum; FEASIBLE: the best packing
     * found; INFEASIBLE only when the fixed offsets collide; UNKNOWN when nothing was found in time.
     *
     * @param start null, or a legal packing (e.g. a heuristic's), which also becomes the hint
     */
    public static Allocation minimumHeight(Backend backend, BufferSet buffers, Placement start, Limits limits) {
        long capacity = PlacementProblem.heightSearchCapacity(buffers, start);
        return new PlacementIlp(backend, true).allocate(buffers, capacity, limits, start);
    }

    /** The ILP of one problem, with its variables. */
    private static final class Formulation {
        final PlacementProblem problem;
        final Model model = new Model("placement-ilp");
        /** k_i, null for a buffer with a fixed offset. */
        final Variable[] k;
        final List<int[]> pairs;
        /** B_ij per pair, null for a pair that needs none. */
        final Variable[] below;
        final Variable height;

        Formulation(PlacementProblem problem, boolean minimize) {
            this.problem = problem;
            BufferSet set = problem.set;
            int n = set.size();
            k = new Variable[n];
            for (int i = 0; i < n; i++) {
                if (!problem.fixed(i)) {
                    Buffer b = set.get(i);
                    k[i] = model.integer("k_" + b.id(), 0, problem.maxOffset[i] / b.alignment());
                }
            }
            pairs = problem.overlappingPairs();
            below = new Variable[pairs.size()];
            addNonOverlap();
            height = minimize ? addHeight() : null;
        }

        /** pos_i as an expression: alignment * k_i, or the fixed offset. */
        LinearExpr pos(int i) {
            Buffer b = problem.set.get(i);
            return k[i] == null ? LinearExpr.of().addConstant(b.fixedOffset()) : LinearExpr.term(b.alignment(), k[i]);
        }

        /** Fig. 5 constraints (2)-(4) with one binary per pair and per-pair big-M. */
        private void addNonOverlap() {
            for (int p = 0; p < pairs.size(); p++) {
                int i = pairs.get(p)[0];
                int j = pairs.get(p)[1];
                long sizeI = problem.set.get(i).size();
                long sizeJ = problem.set.get(j).size();
                long m1 = problem.maxOffset[i] + sizeI - problem.minOffset[j];
                long m2 = problem.maxOffset[j] + sizeJ - problem.minOffset[i];
                if (m1 <= 0 || m2 <= 0) {
                    continue; // one order holds for every offset the capacity allows
                }
                Variable b = model.binary("B_" + problem.set.get(i).id() + "_" + problem.set.get(j).id());
                below[p] = b;
                // B = 1: pos_i + size_i <= pos_j, i.e. pos_i - pos_j + M1 * B <= M1 - size_i.
                model.lessOrEqual("iBelowJ_" + p, pos(i).add(-1, pos(j)).add(m1, b), m1 - sizeI);
                // B = 0: pos_j + size_j <= pos_i, i.e. pos_j - pos_i - M2 * B <= -size_j.
                model.lessOrEqual("jBelowI_" + p, pos(j).add(-1, pos(i)).add(-m2, b), -sizeJ);
            }
        }

        private Variable addHeight() {
            Variable h = model.integer("H", problem.heightLowerBound(), problem.capacity);
            for (int i = 0; i < problem.set.size(); i++) {
                if (k[i] != null) {
                    model.lessOrEqual("height_" + i, pos(i).add(-1, h), -problem.set.get(i).size());
                }
            }
            model.minimize(LinearExpr.term(1, h));
            return h;
        }

        void hint(Placement start) {
            for (int i = 0; i < k.length; i++) {
                if (k[i] != null) {
                    model.hint(k[i], start.offset(i) / problem.set.get(i).alignment());
                }
            }
            for (int p = 0; p < pairs.size(); p++) {
                if (below[p] != null) {
                    model.hint(below[p], start.offset(pairs.get(p)[0]) < start.offset(pairs.get(p)[1]) ? 1 : 0);
                }
            }
            if (height != null) {
                model.hint(height, start.height());
            }
        }

        long[] offsets(SolverResult result) {
            long[] offsets = new long[k.length];
            for (int i = 0; i < k.length; i++) {
                Buffer b = problem.set.get(i);
                offsets[i] = k[i] == null ? b.fixedOffset() : result.intValue(k[i]) * b.alignment();
            }
            return offsets;
        }
    }
}
