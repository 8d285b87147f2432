package dev.memplan.formulations.mmap;

import com.google.ortools.sat.BoolVar;
import com.google.ortools.sat.CpModel;
import com.google.ortools.sat.CpSolver;
import com.google.ortools.sat.CpSolverStatus;
import com.google.ortools.sat.CumulativeConstraint;
import com.google.ortools.sat.IntVar;
import com.google.ortools.sat.IntervalVar;
import com.google.ortools.sat.LinearExpr;
import com.google.ortools.sat.LinearExprBuilder;
import com.google.ortools.sat.Literal;
import com.google.ortools.sat.NoOverlap2dConstraint;
import com.google.ortools.sat.SatParameters;
import dev.memplan.formulations.milp.Solvers;
import dev.memplan.formulations.placement.PlacementCpSat;
import dev.memplan.model.Allocation;
import dev.memplan.model.Buffer;
import dev.memplan.model.BufferSet;
import dev.memplan.model.Limits;
import dev.memplan.model.Shares;
import dev.memplan.model.SolveStatus;
import dev.memplan.model.mmap.Action;
import dev.memplan.model.mmap.Decision;
import dev.memplan.model.mmap.Mapping;
import dev.memplan.model.mmap.MappingChecker;
import dev.memplan.model.mmap.MappingPlanner;
import dev.memplan.model.mmap.MappingResult;
import dev.memplan.model.mmap.MmapBuffer;
import dev.memplan.model.mmap.MmapInstance;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The exact two-level memory mapping program in OR-Tools CP-SAT: over all mappings (not only those the game's
 * latest-start and first-fit rules reach) maximise the total benefit of the placed buffers (MMap-MuZero paper,
 * Section 4.1 and Appendix A). Per buffer: literals placed = copy + nocopy, the interval {@code [s, e]} (s variable
 * for an input, e for an output), the offset o. The constraint families:
 * <ul>
 * <li>live range and use time: bounds of s and e; a NoCopy output keeps its whole live range;
 * <li>Eq. 5, copy supply: {@code s <= latestCopyStart} (an output: {@code e >= earliestCopyEnd}), exact since the
 *     supply of {@code [s, time)} grows as s falls;
 * <li>Eq. 6, one copy at a time: the copy step intervals {@code [s, time)} and {@code [time + 1, e + 1)}, present
 *     with the copy literal, under one NoOverlap;
 * <li>NoCopy: one earlier buffer j of the same tensor is placed with {@code s_j <= s - 1 <= e_j} (an output:
 *     {@code s_j <= time});
 * <li>capacity and overlap: rectangles {@code [s, e + 1) x [o, o + size)}, present with the placed literal, under
 *     NoOverlap2D, {@code 0 <= o <= capacity - size}, and the redundant cumulative of the sizes over time;
 * <li>aliasing: members of a group share the placed literal and the offset (Eq. 4).
 * </ul>
 * A start mapping (e.g. the best of the greedy policy's and MCTS's), found in a quarter of the time limit, becomes
 * CP-SAT's hint and the fallback: the result is never worse than the start. Before the full program, the same
 * program without offsets ({@link #relax}: the capacity only as the cumulative) runs with half of what is left: its
 * bound holds for every mapping, and its intervals, packed, are a mapping (optimal when the relaxation is). Beside
 * it all, on a thread of its own, the time-indexed LP ({@link MmapLpBound}) gives a tighter bound when it ends by
 * the deadline. Anytime: under a time limit it returns the best mapping found with CP-SAT's bound; OPTIMAL only when
 * CP-SAT proved it. Every mapping is checked.
 *
 * <p>Size: a few literals, integers and intervals per buffer, plus a literal per pair of buffers of one tensor
 * (NoCopy's source); the search is CP-SAT's, exponential in the worst case.
 */
public final class MmapCpSat implements MappingPlanner {

    public static final String NAME = "exact";

    private final MappingPlanner start;

    /** @param start null, or a planner whose mapping is the hint and the fallback */
    public MmapCpSat(MappingPlanner start) {
        this.start = start;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public MappingResult plan(MmapInstance in, Limits limits) {
        long t0 = System.nanoTime();
        // Under a work limit CP-SAT counts deterministic time; the wall clock is only the command's outer guard.
        java.time.Duration wall = limits.budget().wallLeft();
        long deadline = wall == null ? Long.MAX_VALUE : t0 + Math.min(wall.toNanos(), Long.MAX_VALUE / 4);
        Solvers.requireNative("the exact mapping planner (CP-SAT)");
        // The time-indexed LP bound runs beside the search, on its own thread, to the end or to the deadline. It
        // counts no work: its value does not depend on the machine, only whether it ends before the wall deadline.
        java.util.concurrent.CompletableFuture<java.util.OptionalLong> lp =
                java.util.concurrent.CompletableFuture.supplyAsync(() -> MmapLpBound.of(in, deadline), LP_THREAD);
        MappingResult r = search(in, limits, t0, deadline);
        java.util.OptionalLong lpBound;
        try {
            lpBound = lp.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            lpBound = java.util.OptionalLong.empty();
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException("bug: the mapping LP bound failed", e.getCause());
        }
        if (lpBound.isEmpty()) {
            if (limits.workMode() && deadline != Long.MAX_VALUE && System.nanoTime() - deadline >= 0) {
                limits.budget().markWallStop();
            }
            return r;
        }
        long bound = lpBound.getAsLong();
        if (r.mapping() == null || (r.bound() >= 0 && r.bound() <= bound)) {
            return r;
        }
        boolean proven = r.reward() >= bound;
        return MappingResult.checked(NAME, in, r.mapping(), proven ? SolveStatus.OPTIMAL : r.status(),
                proven ? r.reward() : bound, t0, r.note() + "; bound from the time-indexed LP: " + bound);
    }

    /** One daemon thread per LP bound: a command that ends does not wait for it. */
    private static final java.util.concurrent.Executor LP_THREAD = task -> {
        Thread t = new Thread(task, "mmap-lp-bound");
        t.setDaemon(true);
        t.start();
    };

    /** The start, the relaxation without offsets and the full program, within the limits. */
    private MappingResult search(MmapInstance in, Limits limits, long t0, long deadline) {
        // The start gets its part of the time (or work); CP-SAT the rest.
        Limits startLimits = partOf(limits, Shares.MMAP_START_DIVISOR);
        Mapping hint = start == null ? null : start.plan(in, startLimits).mapping();
        long trivial = in.benefitBound();
        // The relaxation without offsets first, with half of what is left: its bound holds for every mapping, and a
        // packing of its intervals is a mapping with its reward (optimal when the relaxation is).
        Relaxed relaxed = relax(in, hint, half(limits), deadline);
        if (relaxed.bound() < trivial) {
            trivial = relaxed.bound();
        }
        if (relaxed.packed() != null && (hint == null || relaxed.packed().reward(in) > hint.reward(in))) {
            hint = relaxed.packed();
        }
        if (hint != null && hint.reward(in) >= trivial) {
            return MappingResult.checked(NAME, in, hint, SolveStatus.OPTIMAL, trivial, t0, hint == relaxed.packed()
                    ? "the relaxation without offsets proved its optimum and its intervals were packed"
                    : "the start mapping meets the bound of the relaxation without offsets");
        }
        Program p = new Program(in, true);
        double built = (System.nanoTime() - t0) / 1e9;
        if (hint != null) {
            p.hint(hint);
        }
        CpSolver solver = new CpSolver();
        SatParameters.Builder params = parameters(solver, limits);
        if (limits.workMode()) {
            dev.memplan.formulations.milp.CpSatBackend.limitWork(params, limits);
        } else if (deadline != Long.MAX_VALUE) {
            double left = (deadline - System.nanoTime()) / 1e9;
            if (left <= 0.05) {
                return fallback(in, hint, trivial, t0, "no time left for CP-SAT");
            }
            params.setMaxTimeInSeconds(left);
        }
        CpSolverStatus status = dev.memplan.formulations.milp.CpSatBackend.solveBy(solver, p.cp, deadline,
                limits.budget());
        dev.memplan.formulations.milp.CpSatBackend.chargeWork(solver, params, limits);
        if (status == CpSolverStatus.MODEL_INVALID) {
            throw new IllegalStateException("bug: CP-SAT rejected the mapping model: " + p.cp.validate());
        }
        if (status == CpSolverStatus.INFEASIBLE) {
            throw new IllegalStateException("bug: CP-SAT calls the mapping problem infeasible, but dropping every"
                    + " buffer is a valid mapping");
        }
        if (status != CpSolverStatus.OPTIMAL && status != CpSolverStatus.FEASIBLE) {
            // Without a solution CP-SAT's objective bound means nothing; the trivial bound still holds.
            return fallback(in, hint, trivial, t0, "CP-SAT found no mapping in time");
        }
        long bound = Math.min(trivial, (long) Math.floor(solver.bestObjectiveBound() + 1e-6));
        Mapping found = p.mapping(solver);
        long reward = found.reward(in);
        if (hint != null && hint.reward(in) > reward) {
            return MappingResult.checked(NAME, in, hint, SolveStatus.FEASIBLE, bound, t0,
                    "the start mapping; CP-SAT found no better one in time");
        }
        boolean proven = status == CpSolverStatus.OPTIMAL || reward >= bound;
        return MappingResult.checked(NAME, in, found, proven ? SolveStatus.OPTIMAL : SolveStatus.FEASIBLE,
                proven ? reward : bound, t0, "CP-SAT " + status.name().toLowerCase(java.util.Locale.ROOT)
                + String.format(java.util.Locale.ROOT, " (start, relaxation without offsets and model in %.1f s; %s)",
                built, relaxed.note()));
    }

    /** The relaxation's upper bound alone (for tests: never below the optimum). */
    static long relaxationBound(MmapInstance in, Limits limits) {
        return relax(in, null, limits, Long.MAX_VALUE).bound();
    }

    /** CP-SAT's parameters for both programs: quiet, the threads and seed of the limits, linearisation level 2. */
    private static SatParameters.Builder parameters(CpSolver solver, Limits limits) {
        SatParameters.Builder params = solver.getParameters();
        params.setLogSearchProgress(false);
        params.setNumWorkers(limits.threads());
        // Level 2 linearises the cumulative and NoOverlap2D: it proves ResNet-50 optimal where level 1 stalls.
        params.setLinearizationLevel(2);
        params.setRandomSeed((int) Math.floorMod(limits.seed(), (long) Integer.MAX_VALUE));
        // Interleaved search: CP-SAT's subsolvers (LNS among them) in a fixed round robin, deterministic whatever the
        // number of workers, so it also runs under a work limit (one worker). It finds rewards the plain search
        // misses, at more wall time per unit (BENCHMARKS.md, "interleaved search").
        params.setInterleaveSearch(true);
        return params;
    }


    /** The relaxation's part of the time or work left. */
    private static Limits half(Limits limits) {
        return partOf(limits, Shares.MMAP_RELAXATION_DIVISOR);
    }

    /** 1/n of the time or work left; all of it without a limit (the mapping search has no step cap). */
    private static Limits partOf(Limits limits, int n) {
        return limits.budget().limited() ? limits.part(n) : limits;
    }

    /**
     * The relaxation's outcome: its upper bound on every mapping's reward (the trivial bound when it found none),
     * and the packing of its best solution's intervals as a checked mapping, or null.
     */
    private record Relaxed(long bound, Mapping packed, String note) {
    }

    /**
     * The program without offsets: every constraint but the addresses, the capacity as a cumulative of the sizes
     * over time (a knapsack at each step). Its optimum bounds the mapping problem's from above. Its best solution's
     * intervals are then packed into the capacity ({@link PlacementCpSat}, an alias group as one buffer over its
     * members' whole span, the largest size): where they fit, the mapping is whole.
     */
    private static Relaxed relax(MmapInstance in, Mapping hint, Limits limits, long deadline) {
        long trivial = in.benefitBound();
        Program r = new Program(in, false);
        if (hint != null) {
            r.hint(hint);
        }
        CpSolver solver = new CpSolver();
        SatParameters.Builder params = parameters(solver, limits);
        long end = deadline;
        if (limits.workMode()) {
            dev.memplan.formulations.milp.CpSatBackend.limitWork(params, limits);
        } else if (limits.budget().wallLeft() != null) {
            long nanos = limits.budget().wallLeft().toNanos();
            double left = nanos / 1e9;
            if (left <= 0.05) {
                return new Relaxed(trivial, null, "relaxation: no time left");
            }
            params.setMaxTimeInSeconds(left);
            end = Math.min(deadline, System.nanoTime() + nanos);
        }
        CpSolverStatus status = dev.memplan.formulations.milp.CpSatBackend.solveBy(solver, r.cp, end,
                limits.budget());
        dev.memplan.formulations.milp.CpSatBackend.chargeWork(solver, params, limits);
        if (status != CpSolverStatus.OPTIMAL && status != CpSolverStatus.FEASIBLE) {
            return new Relaxed(trivial, null, "relaxation: no solution in its share");
        }
        long bound = Math.min(trivial, (long) Math.floor(solver.bestObjectiveBound() + 1e-6));
        Mapping packed = pack(in, r.mapping(solver), limits);
        long value = Math.round(solver.objectiveValue());
        return new Relaxed(bound, packed, String.format(java.util.Locale.ROOT, "relaxation: %s %d, bound %d, %s",
                status.name().toLowerCase(java.util.Locale.ROOT), value, bound, packed == null
                        ? "its intervals did not pack" : packed.reward(in) >= value ? "its intervals packed"
                        : "its intervals did not all pack, first fit kept " + packed.reward(in)));
    }

    /** The relaxation's mapping (offsets 0) with offsets from a packing of its intervals; null when none fits. */
    private static Mapping pack(MmapInstance in, Mapping loose, Limits limits) {
        List<Decision> ds = loose.decisions();
        List<Buffer> buffers = new ArrayList<>();
        List<Integer> roots = new ArrayList<>();
        for (int i = 0; i < in.size(); i++) {
            int[] group = in.aliasGroup(i);
            if (group[0] != i || !ds.get(i).placed()) {
                continue;
            }
            long first = Long.MAX_VALUE;
            long last = Long.MIN_VALUE;
            long size = 0;
            for (int j : group) {
                first = Math.min(first, ds.get(j).start());
                last = Math.max(last, ds.get(j).end());
                size = Math.max(size, in.buffer(j).size());
            }
            if (size > 0) {
                // An empty group takes no room: it keeps offset 0.
                buffers.add(new Buffer("b" + i, first, last + 1, size));
                roots.add(i);
            }
        }
        if (buffers.isEmpty()) {
            return MappingChecker.check(in, loose).valid() ? loose : null;
        }
        Allocation a = new PlacementCpSat(false).allocate(new BufferSet(buffers), in.capacity(), limits);
        if (!a.solved()) {
            return firstFit(in, ds, buffers, roots);
        }
        Decision[] out = ds.toArray(Decision[]::new);
        for (int k = 0; k < roots.size(); k++) {
            long offset = a.placement().offset(k);
            for (int j : in.aliasGroup(roots.get(k))) {
                Decision d = out[j];
                out[j] = new Decision(d.action(), d.start(), d.end(), offset);
            }
        }
        Mapping m = new Mapping(Arrays.asList(out));
        return MappingChecker.check(in, m).valid() ? m : null;
    }

    /**
     * When the relaxation's intervals do not all fit: the alias groups by benefit per byte-step, each at the lowest
     * offset free over its span (first fit), dropped when none is; then, while the checker finds a broken rule (a
     * NoCopy whose source was dropped, say), the cheapest buffer it names is dropped with its group. A valid mapping
     * below the relaxation's reward, a start for the full program; null when nothing is left.
     */
    private static Mapping firstFit(MmapInstance in, List<Decision> ds, List<Buffer> units, List<Integer> roots) {
        Integer[] order = new Integer[units.size()];
        double[] density = new double[units.size()];
        for (int k = 0; k < order.length; k++) {
            order[k] = k;
            long benefit = 0;
            for (int j : in.aliasGroup(roots.get(k))) {
                benefit += in.buffer(j).benefit();
            }
            Buffer u = units.get(k);
            density[k] = benefit / ((double) u.size() * (u.upper() - u.lower()));
        }
        Arrays.sort(order, (x, y) -> x != y && density[x] == density[y] ? Integer.compare(x, y)
                : Double.compare(density[y], density[x]));
        Decision[] out = ds.toArray(Decision[]::new);
        List<Buffer> placedUnits = new ArrayList<>();
        List<Long> placedOffsets = new ArrayList<>();
        for (int k : order) {
            Buffer u = units.get(k);
            List<long[]> busy = new ArrayList<>();
            for (int q = 0; q < placedUnits.size(); q++) {
                Buffer v = placedUnits.get(q);
                if (v.lower() < u.upper() && u.lower() < v.upper()) {
                    busy.add(new long[] {placedOffsets.get(q), placedOffsets.get(q) + v.size()});
                }
            }
            busy.sort((x, y) -> Long.compare(x[0], y[0]));
            long at = 0;
            for (long[] b : busy) {
                if (b[0] - at >= u.size()) {
                    break;
                }
                at = Math.max(at, b[1]);
            }
            boolean fits = at + u.size() <= in.capacity();
            if (fits) {
                placedUnits.add(u);
                placedOffsets.add(at);
            }
            for (int j : in.aliasGroup(roots.get(k))) {
                Decision d = out[j];
                out[j] = fits ? new Decision(d.action(), d.start(), d.end(), at) : Decision.DROP;
            }
        }
        Mapping m = new Mapping(Arrays.asList(out));
        for (int guard = 0; guard <= in.size(); guard++) {
            dev.memplan.model.mmap.MappingReport report = MappingChecker.check(in, m);
            if (report.valid()) {
                return m;
            }
            int cheapest = -1;
            for (int j : report.violations().get(0).buffers()) {
                if (out[j].placed() && (cheapest < 0 || in.buffer(j).benefit() < in.buffer(cheapest).benefit())) {
                    cheapest = j;
                }
            }
            if (cheapest < 0) {
                return null;
            }
            for (int j : in.aliasGroup(cheapest)) {
                out[j] = Decision.DROP;
            }
            m = new Mapping(Arrays.asList(out));
        }
        return null;
    }

    private static MappingResult fallback(MmapInstance in, Mapping hint, long bound, long t0, String why) {
        if (hint == null) {
            return new MappingResult(NAME, null, SolveStatus.UNKNOWN, -1, bound, (System.nanoTime() - t0) / 1e9, why);
        }
        return MappingResult.checked(NAME, in, hint, SolveStatus.FEASIBLE, bound, t0, "the start mapping: " + why);
    }

    /** The CP-SAT model of one instance with its variables. */
    private static final class Program {
        final CpModel cp = new CpModel();
        final MmapInstance in;
        final BoolVar[] placed;
        final BoolVar[] copy;
        final BoolVar[] noCopy;
        /** The copy has steps (is not empty). */
        final BoolVar[] copyBusy;
        final IntVar[] start;
        final IntVar[] end;
        final IntVar[] offset;
        final int[][] sources;
        final BoolVar[][] from;
        /** False: the relaxation without offsets, the capacity a cumulative over time (no NoOverlap2D). */
        final boolean addresses;

        Program(MmapInstance in, boolean addresses) {
            this.in = in;
            this.addresses = addresses;
            int n = in.size();
            placed = new BoolVar[n];
            copy = new BoolVar[n];
            noCopy = new BoolVar[n];
            copyBusy = new BoolVar[n];
            start = new IntVar[n];
            end = new IntVar[n];
            offset = new IntVar[n];
            sources = new int[n][];
            from = new BoolVar[n][];
            for (int i = 0; i < n; i++) {
                variables(i);
            }
            copySupply();
            oneCopyAtATime();
            noCopySources();
            noOverlap();
            aliasing();
            LinearExprBuilder reward = LinearExpr.newBuilder();
            for (int i = 0; i < n; i++) {
                reward.addTerm(placed[i], in.buffer(i).benefit());
            }
            cp.maximize(reward);
        }

        private void variables(int i) {
            MmapBuffer b = in.buffer(i);
            placed[i] = cp.newBoolVar("p" + i);
            copy[i] = cp.newBoolVar("c" + i);
            noCopy[i] = cp.newBoolVar("n" + i);
            cp.addEquality(LinearExpr.sum(new Literal[] {copy[i], noCopy[i]}), placed[i]);
            start[i] = b.output() ? cp.newConstant(b.time()) : cp.newIntVar(b.liveFirst(), b.time(), "s" + i);
            end[i] = b.output() ? cp.newIntVar(b.time(), b.liveLast(), "e" + i) : cp.newConstant(b.time());
            if (b.size() > in.capacity()) {
                cp.addEquality(placed[i], 0);
                offset[i] = cp.newConstant(0);
            } else if (!addresses) {
                offset[i] = cp.newConstant(0);
            } else {
                offset[i] = cp.newIntVar(0, in.capacity() - b.size(), "o" + i);
            }
        }

        /** Eq. 5: the copy's steps supply its demand. */
        private void copySupply() {
            for (int i = 0; i < in.size(); i++) {
                MmapBuffer b = in.buffer(i);
                int limit = b.output() ? in.earliestCopyEnd(i) : in.latestCopyStart(i);
                if (limit < 0) {
                    cp.addEquality(copy[i], 0);
                } else if (b.output()) {
                    cp.addGreaterOrEqual(end[i], limit).onlyEnforceIf(copy[i]);
                } else {
                    cp.addLessOrEqual(start[i], limit).onlyEnforceIf(copy[i]);
                }
            }
        }

        /**
         * Eq. 6: copy step intervals never share a step. An interval is present only when the copy has steps:
         * CP-SAT's NoOverlap would not let an empty interval sit strictly inside another one.
         */
        private void oneCopyAtATime() {
            List<IntervalVar> steps = new ArrayList<>();
            for (int i = 0; i < in.size(); i++) {
                MmapBuffer b = in.buffer(i);
                int t = b.time();
                BoolVar busy = cp.newBoolVar("q" + i);
                cp.addImplication(busy, copy[i]);
                Literal[] idle = {copy[i], busy.not()};
                if (b.output()) {
                    cp.addGreaterOrEqual(end[i], t + 1L).onlyEnforceIf(busy);
                    cp.addLessOrEqual(end[i], t).onlyEnforceIf(idle);
                    steps.add(cp.newOptionalIntervalVar(LinearExpr.constant(t + 1L), LinearExpr.affine(end[i], 1, -t),
                            LinearExpr.affine(end[i], 1, 1), busy, "copy" + i));
                } else {
                    cp.addLessOrEqual(start[i], t - 1L).onlyEnforceIf(busy);
                    cp.addGreaterOrEqual(start[i], t).onlyEnforceIf(idle);
                    steps.add(cp.newOptionalIntervalVar(start[i], LinearExpr.affine(start[i], -1, t),
                            LinearExpr.constant(t), busy, "copy" + i));
                }
                copyBusy[i] = busy;
            }
            cp.addNoOverlap(steps);
        }

        /** NoCopy extends an earlier allocation of the same tensor. */
        private void noCopySources() {
            for (int i = 0; i < in.size(); i++) {
                MmapBuffer b = in.buffer(i);
                List<Integer> candidates = new ArrayList<>();
                for (int j : in.earlierOfTensor(i)) {
                    MmapBuffer c = in.buffer(j);
                    boolean possible = b.output() || c.liveFirst() <= b.time() - 1 && c.liveLast() >= b.liveFirst() - 1;
                    if (possible) {
                        candidates.add(j);
                    }
                }
                sources[i] = candidates.stream().mapToInt(Integer::intValue).toArray();
                from[i] = new BoolVar[sources[i].length];
                if (sources[i].length == 0) {
                    cp.addEquality(noCopy[i], 0);
                    continue;
                }
                if (b.output()) {
                    cp.addEquality(end[i], b.liveLast()).onlyEnforceIf(noCopy[i]);
                }
                Literal[] any = new Literal[sources[i].length + 1];
                for (int k = 0; k < sources[i].length; k++) {
                    int j = sources[i][k];
                    BoolVar u = cp.newBoolVar("u" + i + "_" + j);
                    from[i][k] = u;
                    any[k] = u;
                    cp.addImplication(u, placed[j]);
                    if (b.output()) {
                        cp.addLessOrEqual(start[j], b.time()).onlyEnforceIf(u);
                    } else {
                        cp.addLessOrEqual(LinearExpr.affine(start[j], 1, 1), start[i]).onlyEnforceIf(u);
                        cp.addGreaterOrEqual(LinearExpr.affine(end[j], 1, 1), start[i]).onlyEnforceIf(u);
                    }
                }
                any[sources[i].length] = noCopy[i].not();
                cp.addBoolOr(any);
            }
        }

        /**
         * Capacity and overlap: the placed rectangles [s, e + 1) x [o, o + size) are disjoint. The sizes live at one
         * time fit the capacity (a cumulative over the time sides), redundant but it gives CP-SAT's LP a bound.
         */
        private void noOverlap() {
            NoOverlap2dConstraint rects = addresses ? cp.addNoOverlap2D() : null;
            CumulativeConstraint load = cp.addCumulative(in.capacity());
            for (int i = 0; i < in.size(); i++) {
                MmapBuffer b = in.buffer(i);
                if (b.size() > in.capacity()) {
                    continue;
                }
                // One side of the interval is the use time, so its length has one variable (CP-SAT needs that).
                LinearExpr length = b.output() ? LinearExpr.affine(end[i], 1, 1 - b.time())
                        : LinearExpr.affine(start[i], -1, b.time() + 1L);
                IntervalVar time = cp.newOptionalIntervalVar(start[i], length, LinearExpr.affine(end[i], 1, 1),
                        placed[i], "t" + i);
                if (addresses) {
                    IntervalVar address = cp.newOptionalFixedSizeIntervalVar(offset[i], b.size(), placed[i], "a" + i);
                    rects.addRectangle(time, address);
                }
                load.addDemand(time, b.size());
            }
        }

        /** Eq. 4 and the all-or-nothing rule: a group shares its placed literal and its offset. */
        private void aliasing() {
            for (int i = 0; i < in.size(); i++) {
                int[] group = in.aliasGroup(i);
                if (group[0] != i) {
                    cp.addEquality(placed[i], placed[group[0]]);
                    if (addresses) {
                        cp.addEquality(offset[i], offset[group[0]]);
                    }
                }
            }
        }

        void hint(Mapping m) {
            if (!MappingChecker.check(in, m).valid()) {
                throw new IllegalArgumentException("the start mapping is not valid");
            }
            for (int i = 0; i < in.size(); i++) {
                Decision d = m.decisions().get(i);
                MmapBuffer b = in.buffer(i);
                cp.addHint(placed[i], d.placed() ? 1 : 0);
                cp.addHint(copy[i], d.action() == Action.COPY ? 1 : 0);
                cp.addHint(noCopy[i], d.action() == Action.NOCOPY ? 1 : 0);
                cp.addHint(copyBusy[i], d.action() == Action.COPY && (b.output() ? d.end() > b.time()
                        : d.start() < b.time()) ? 1 : 0);
                // A complete hint (dropped buffers at their use time, offset 0) lets CP-SAT's first dive follow it.
                hintVar(start[i], d.placed() ? d.start() : b.time());
                hintVar(end[i], d.placed() ? d.end() : b.time());
                hintVar(offset[i], d.placed() ? d.offset() : 0);
                boolean chosen = false;
                for (int k = 0; k < sources[i].length; k++) {
                    Decision s = m.decisions().get(sources[i][k]);
                    boolean fits = d.action() == Action.NOCOPY && !chosen && s.placed()
                            && (in.buffer(i).output() ? s.start() <= in.buffer(i).time()
                            : s.start() <= d.start() - 1 && d.start() - 1 <= s.end());
                    chosen |= fits;
                    cp.addHint(from[i][k], fits ? 1 : 0);
                }
            }
        }

        private void hintVar(IntVar v, long value) {
            if (v.getDomain().min() != v.getDomain().max()) {
                cp.addHint(v, value);
            }
        }

        Mapping mapping(CpSolver solver) {
            Decision[] ds = new Decision[in.size()];
            for (int i = 0; i < ds.length; i++) {
                if (!solver.booleanValue(placed[i])) {
                    ds[i] = Decision.DROP;
                } else {
                    ds[i] = new Decision(solver.booleanValue(copy[i]) ? Action.COPY : Action.NOCOPY,
                            (int) solver.value(start[i]), (int) solver.value(end[i]), solver.value(offset[i]));
                }
            }
            return new Mapping(Arrays.asList(ds));
        }
    }
}
