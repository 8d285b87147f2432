package dev.memplan.formulations.cosma;

import com.google.ortools.linearsolver.MPConstraint;
import com.google.ortools.linearsolver.MPObjective;
import com.google.ortools.linearsolver.MPSolver;
import com.google.ortools.linearsolver.MPVariable;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.formulations.milp.SolverResult;
import dev.memplan.formulations.milp.Solvers;
import dev.memplan.model.Limits;
import dev.memplan.model.Graph;
import dev.memplan.model.RaisedBound;
import dev.memplan.model.SolveStatus;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A lower bound on the non-compulsory traffic (memory-model.md, "Traffic": loads beyond the first of each host
 * tensor, plus one spill for each produced tensor that is not a graph output and is loaded again) of every plan
 * that runs the operators in one given order at a budget B, in the graph's tensor setting, without recomputes.
 *
 * <p>With the order fixed and addresses relaxed, deciding what stays on chip is offline general caching with
 * cost = size (Folwarczny and Sgall, 2015: strongly NP-hard). This class solves the linear relaxation of
 * Bar-Noy, Bar-Yehuda, Freund, Naor and Schieber (STOC 2000; JACM 2001), with knapsack-cover inequalities as Cohen
 * and Kaplan state them for variable sizes, on the <em>intervals</em> of each tensor: between its creation (or, for
 * a host tensor, its first read) and its first read, and between consecutive reads, when at least one timestep lies
 * strictly between them. Variable y_I in [0, 1] says the tensor leaves the chip somewhere inside interval I, z_a in
 * [0, 1] that produced tensor a pays its spill.
 *
 * <p><b>Validity.</b> Take any plan with this order, and let y_I = 1 when its tensor is off chip at some timestep
 * strictly inside I = (u, v), z_a = 1 when a is produced, not a graph output and has a loaded segment. (1) Cost:
 * the tensor is read at v, so some segment contains v; it starts after the timestep where the tensor was off chip,
 * hence in (u, v], and it is a loaded segment (the only created one starts at the producer's timestep, at or before
 * u). The ranges (u, v] of one tensor's intervals are disjoint and none contains its first read, so these loads are
 * distinct and none is a host tensor's free first load: the plan pays at least size(a) y_I for every interval, and
 * size(a) z_a for the spill, with z_a >= y_I. (2) Room: at a timestep t, the operator's own inputs and outputs
 * (req_t bytes) are resident, and so is every tensor whose interval spans t with y_I = 0; their sizes sum to at
 * most B - req_t. So for every set S of intervals spanning t with s(S) > C_t = B - req_t, the ones of S that leave
 * weigh at least D = s(S) - C_t, and (knapsack cover) sum over S of min(s_I, D) y_I >= D, since one leaving
 * interval of size >= D covers D alone. An interval larger than C_t at some t inside it is never kept: y_I = 1.
 * Every plan's (y, z) satisfies every row, so the least objective of the linear program is at most its traffic.
 * Any set of those rows keeps that true, so the rows are added by separation (prefixes of each timestep's intervals
 * sorted by y, least first) until none is violated or {@link #MAX_ROUNDS} rounds have run. The number reported does
 * not rest on the LP solver's tolerances: it is the Lagrangian value pi.b + sum_j min(0, c_j - (A^T pi)_j) of the
 * solver's row duals pi clamped at 0, which is a lower bound for every pi >= 0 and every y, z in [0, 1], rounded up
 * to a multiple of the sizes' gcd (every plan's traffic is one), the highest over the separation rounds GLOP solved
 * to optimality (each round's rows are rows of the program; a spill variable whose tensor has an interval never kept
 * is fixed at 1 with it, as every plan pays that spill). Addresses and alignment only add to a plan's
 * cost, and so does keeping a host tensor before its first read, so none is modelled.
 *
 * <p>Size: one variable per interval (at most one per read), rows only at timesteps where the intervals spanning t
 * do not all fit; each separation round is O(sum over those timesteps of k log k + 64 k), k the intervals spanning
 * t. Solved with GLOP through OR-Tools' MPSolver; without the native libraries the bound is 0.
 */
public final class FixedOrderBound {

    /** Most separation rounds (each one LP solve). */
    public static final int MAX_ROUNDS = 40;
    /** Most prefixes whose cover is tried per timestep and round (keeps a round O(PREFIXES x k) per timestep). */
    private static final int PREFIXES = 64;
    /** A cut enters when it is violated by more than this fraction of its right-hand side. */
    private static final double VIOLATION = 1e-6;

    /**
     * The bound and the program that gave it.
     *
     * @param traffic the lower bound in bytes (a multiple of the sizes' gcd)
     * @param relaxation the LP's optimum, in bytes, as the solver reports it (the bound is its safe rounding)
     * @param intervals the intervals that may be kept or left (variables y)
     * @param rows the room rows: one per tight timestep plus the knapsack covers added
     * @param rounds the LP solves
     * @param rounded the traffic of an address-free plan of the order rounded from the LP's last solution ({@link
     *     #rounded}): at least the order's least traffic without addresses, an upper bound on it; in bytes
     */
    public record Result(long traffic, double relaxation, int intervals, int rows, int rounds, long rounded) {
    }

    /**
     * The integer program on the same intervals, solved within limits.
     *
     * @param bound a lower bound in bytes: the higher of the LP's and the program's proven bound
     * @param value the least traffic of a solution found (an address-free plan of the order), null without one
     * @param optimal true when the program proved {@code value} optimal: the order's least traffic without addresses
     * @param lp the LP it started from
     */
    public record Exact(long bound, Long value, boolean optimal, Result lp) {
    }

    private FixedOrderBound() {
    }

    /**
     * @param g the graph in its tensor setting
     * @param order every operator once, a topological order (indices of {@code g})
     * @param budget the budget B in bytes (at least M_R)
     */
    public static Result of(Graph g, int[] order, long budget) {
        int n = g.operatorCount();
        if (order.length != n) {
            throw new IllegalArgumentException("the order has " + order.length + " timesteps, the graph " + n
                    + " operators (recomputes are not covered by this bound)");
        }
        long unit = unit(g);
        int[] pos = positions(order);
        Instance in = Instance.of(g, order, pos, budget, unit);
        if (in.tight.isEmpty()) {
            return new Result(in.fixedCost * unit, in.fixedCost * (double) unit, in.tensorOf.length, 0, 0,
                    in.fixedCost * unit);
        }
        if (!Solvers.nativeAvailable()) {
            return new Result(in.fixedCost * unit, Double.NaN, in.tensorOf.length, 0, 0,
                    in.rounded(new double[in.tensorOf.length]) * unit);
        }
        return new Program(in).solve(unit);
    }

    /**
     * The integer version of the program ({@link OrderProgram}: y and z in {0, 1}, where the room rows alone are
     * exact), from the LP's bound. Its optimum is the least traffic of the order without addresses (keep a kept
     * interval's tensor throughout it, evict a left one right after the interval's first timestep and load it at its
     * last: a valid address-free plan paying exactly the objective), hence a lower bound with addresses; any proven
     * bound of it is one too. Solved on CP-SAT (integer arithmetic: its bound needs no safe rounding); past {@link
     * OrderProgram#MAX_SPANS}, the LP's bound alone.
     *
     * @param limits the program's limits (a work limit keeps the answer the same on every machine)
     */
    public static Exact exact(Graph g, int[] order, long budget, Limits limits) {
        Result lp = of(g, order, budget);
        if (lp.rows() == 0 && lp.rounds() == 0 && !Double.isNaN(lp.relaxation())) {
            return new Exact(lp.traffic(), lp.traffic(), true, lp);
        }
        OrderProgram program = OrderProgram.of(g, order, budget);
        if (program == null) {
            return new Exact(lp.traffic(), null, false, lp);
        }
        long unit = program.unit();
        program.atLeast(Math.ceil(lp.traffic() / (double) unit - 1e-9));
        SolverResult r = Solvers.create(Backend.CPSAT).solve(program.model(), limits);
        long bound = lp.traffic();
        if (r.bound() != null) {
            bound = Math.max(bound, (long) Math.ceil(r.bound() - 1e-6) * unit);
        }
        Long value = r.hasSolution() ? Math.round(r.objective()) * unit : null;
        boolean optimal = r.status() == SolveStatus.OPTIMAL;
        if (optimal) {
            bound = Math.max(bound, value);
        }
        return new Exact(value == null ? bound : Math.min(bound, value), value, optimal, lp);
    }

    /**
     * A fixed-schedule result with this bound of its plan's order, when the bound is higher than the result's: the
     * bound, the gap and the status (OPTIMAL once the plan pays no more) change, the plan's segments do not. The
     * result as it is when it is proven, has no plan, or traffic is not its objective.
     *
     * @param g the graph in its tensor setting
     * @param r the result of a fixed-schedule traffic run at {@code budget}
     */
    public static CosmaResult raise(Graph g, CosmaResult r, long budget) {
        if (r.plan() == null || r.objective() == null || r.status() == SolveStatus.OPTIMAL
                || r.plan().schedule().recomputes() > 0) {
            return r;
        }
        long bound = of(g, r.plan().schedule().resolve(g), budget).traffic();
        if (r.bound() != null && bound <= r.bound()) {
            return r;
        }
        RaisedBound raised = RaisedBound.of(r.plan(), r.objective(), r.status(), bound, "cosma/" + r.backend(),
                r.seconds());
        return new CosmaResult(raised.status(), raised.plan(), r.check(), r.objective(), raised.bound(), raised.gap(),
                r.seconds(), r.backend(), r.pruned(), r.unpruned(), r.startingPlanOnly(), r.notes());
    }

    /**
     * The intervals and the tight timesteps, sizes in units of the gcd.
     *
     * @param tensorOf each interval's tensor
     * @param size each interval's size (its tensor's, in units)
     * @param always intervals that never fit beside some timestep's operator: left in every plan
     * @param spillOf for each interval, the index of its tensor's spill variable, or -1 (host tensor, graph output)
     * @param spills the number of spill variables
     * @param tight for each timestep whose free intervals do not all fit: {t, C_t} and its free intervals
     * @param fixedCost the cost of the intervals left in every plan and their spills (units)
     */
    private record Instance(int[] tensorOf, long[] size, boolean[] always, int[] spillOf, int spills,
                            List<Tight> tight, long fixedCost) {

        static Instance of(Graph g, int[] order, int[] pos, long budget, long unit) {
            int n = order.length;
            List<int[]> intervals = new ArrayList<>();
            for (int a = 0; a < g.tensorCount(); a++) {
                int[] reads = Arrays.stream(g.consumers(a)).map(o -> pos[o]).distinct().sorted().toArray();
                if (reads.length == 0) {
                    continue;
                }
                int from = g.producer(a) >= 0 ? pos[g.producer(a)] : reads[0];
                for (int r : reads) {
                    if (r - from >= 2) {
                        intervals.add(new int[] {a, from, r});
                    }
                    from = r;
                }
            }
            int m = intervals.size();
            int[] tensorOf = new int[m];
            long[] size = new long[m];
            for (int i = 0; i < m; i++) {
                tensorOf[i] = intervals.get(i)[0];
                size[i] = g.size(tensorOf[i]) / unit;
            }
            long[] room = new long[n];
            for (int t = 0; t < n; t++) {
                int o = order[t];
                long req = Arrays.stream(java.util.stream.IntStream.concat(Arrays.stream(g.inputs(o)),
                        Arrays.stream(g.outputs(o))).distinct().toArray()).mapToLong(g::size).sum();
                room[t] = Math.floorDiv(budget - req, unit);
            }
            // Intervals by timestep spanned (strictly inside), and those that never fit.
            List<List<Integer>> spanning = new ArrayList<>(n);
            for (int t = 0; t < n; t++) {
                spanning.add(new ArrayList<>());
            }
            boolean[] always = new boolean[m];
            for (int i = 0; i < m; i++) {
                int[] iv = intervals.get(i);
                for (int t = iv[1] + 1; t < iv[2]; t++) {
                    spanning.get(t).add(i);
                    always[i] |= size[i] > room[t];
                }
            }
            int[] spillOf = new int[m];
            int[] spillIndex = new int[g.tensorCount()];
            Arrays.fill(spillIndex, -1);
            int spills = 0;
            boolean[] spillPaid = new boolean[g.tensorCount()];
            long fixedCost = 0;
            for (int i = 0; i < m; i++) {
                int a = tensorOf[i];
                boolean charged = !g.isHost(a) && !g.isGraphOutput(a);
                if (charged && spillIndex[a] < 0) {
                    spillIndex[a] = spills++;
                }
                spillOf[i] = charged ? spillIndex[a] : -1;
                if (always[i]) {
                    fixedCost += size[i];
                    if (charged && !spillPaid[a]) {
                        spillPaid[a] = true;
                        fixedCost += size[i];
                    }
                }
            }
            List<Tight> tight = new ArrayList<>();
            for (int t = 0; t < n; t++) {
                int[] free = spanning.get(t).stream().mapToInt(Integer::intValue).filter(i -> !always[i]).toArray();
                long total = Arrays.stream(free).mapToLong(i -> size[i]).sum();
                if (total > room[t]) {
                    tight.add(new Tight(room[t], free));
                }
            }
            return new Instance(tensorOf, size, always, spillOf, spills, tight, fixedCost);
        }

        /**
         * The cost in units of a point of the program over integers rounded from LP values {@code v} of the
         * intervals: off the intervals always off and those at 1; then at each tight timestep in turn, while the kept
         * intervals spanning it pass its room, the kept one with the highest value leaves (ties: one whose tensor
         * already pays its spill, then the larger); last, each interval so left, largest first, comes back when it
         * fits at every tight timestep it spans. Every room row then holds (a non-tight timestep fits all of its
         * intervals), so the point is an address-free plan of the order ({@link OrderProgram}) paying this cost:
         * an upper bound on the order's least traffic without addresses. Deterministic: it reads only v and the
         * instance. O(sum over tight timesteps of k log k), k the intervals spanning it.
         */
        long rounded(double[] v) {
            int m = tensorOf.length;
            boolean[] off = new boolean[m];
            boolean[] paid = new boolean[spills];
            for (int i = 0; i < m; i++) {
                off[i] = always[i] || v[i] >= 1 - 1e-9;
                if (off[i] && spillOf[i] >= 0) {
                    paid[spillOf[i]] = true;
                }
            }
            long[] load = new long[tight.size()];
            List<List<Integer>> tightOf = new ArrayList<>(m);
            for (int i = 0; i < m; i++) {
                tightOf.add(new ArrayList<>());
            }
            boolean[] forced = off.clone();
            for (int k = 0; k < tight.size(); k++) {
                Tight t = tight.get(k);
                for (int i : t.free()) {
                    tightOf.get(i).add(k);
                    load[k] += off[i] ? 0 : size[i];
                }
            }
            for (int k = 0; k < tight.size(); k++) {
                Tight t = tight.get(k);
                if (load[k] <= t.room()) {
                    continue;
                }
                Integer[] kept = Arrays.stream(t.free()).filter(i -> !off[i]).boxed().toArray(Integer[]::new);
                Arrays.sort(kept, (a, b) -> {
                    int c = Double.compare(v[b], v[a]);
                    if (c != 0) {
                        return c;
                    }
                    boolean pa = spillOf[a] < 0 || paid[spillOf[a]];
                    boolean pb = spillOf[b] < 0 || paid[spillOf[b]];
                    return pa != pb ? (pa ? -1 : 1) : Long.compare(size[b], size[a]);
                });
                for (int j = 0; j < kept.length && load[k] > t.room(); j++) {
                    int i = kept[j];
                    off[i] = true;
                    if (spillOf[i] >= 0) {
                        paid[spillOf[i]] = true;
                    }
                    for (int q : tightOf.get(i)) {
                        load[q] -= size[i];
                    }
                }
            }
            Integer[] left = java.util.stream.IntStream.range(0, m).filter(i -> off[i] && !forced[i]).boxed()
                    .sorted((a, b) -> Long.compare(size[b], size[a])).toArray(Integer[]::new);
            for (int i : left) {
                boolean fits = true;
                for (int q : tightOf.get(i)) {
                    fits &= load[q] + size[i] <= tight.get(q).room();
                }
                if (fits) {
                    off[i] = false;
                    for (int q : tightOf.get(i)) {
                        load[q] += size[i];
                    }
                }
            }
            return roundedCost(this, off);
        }
    }

    /**
     * {@link #rounded} of an instance: the cost in units of a 0/1 point of the program that satisfies every room row.
     */
    private static long roundedCost(Instance in, boolean[] off) {
        long cost = 0;
        boolean[] paid = new boolean[in.spills];
        for (int i = 0; i < off.length; i++) {
            if (off[i]) {
                cost += in.size[i];
                if (in.spillOf[i] >= 0 && !paid[in.spillOf[i]]) {
                    paid[in.spillOf[i]] = true;
                    cost += in.size[i];
                }
            }
        }
        return cost;
    }

    /** A timestep where the intervals spanning it, free to stay, do not all fit: its room C_t and those intervals. */
    private record Tight(long room, int[] free) {
    }

    /** The LP and its rows (in the form sum coef x >= rhs), for the safe bound. */
    private static final class Program {
        private final Instance in;
        private final MPSolver solver;
        private final MPVariable[] y;
        private final MPVariable[] z;
        private final boolean[] spillForced;
        private final DualRows dualRows = new DualRows();
        private final Set<List<Integer>> seen = new HashSet<>();
        private int covers;

        Program(Instance in) {
            this.in = in;
            this.solver = MPSolver.createSolver("GLOP");
            if (solver == null) {
                throw new IllegalStateException("OR-Tools cannot create the GLOP solver");
            }
            solver.suppressOutput();
            int m = in.tensorOf.length;
            y = new MPVariable[m];
            z = new MPVariable[in.spills];
            MPObjective objective = solver.objective();
            // A tensor with an interval never kept pays its spill in every plan: its z is fixed at 1 like that y.
            // Left free in [0, 1], z sits on both its bound and its row z >= y = 1, and GLOP may give that row a
            // zero dual: the Lagrangian then loses the spill (on r2plus1d18:train at M_R an order moved by one
            // operator lost 63 MB of its LP of 494,884,802 so).
            spillForced = new boolean[in.spills];
            for (int i = 0; i < m; i++) {
                if (in.always[i] && in.spillOf[i] >= 0) {
                    spillForced[in.spillOf[i]] = true;
                }
            }
            for (int j = 0; j < in.spills; j++) {
                z[j] = solver.makeNumVar(spillForced[j] ? 1 : 0, 1, "z" + j);
            }
            for (int i = 0; i < m; i++) {
                y[i] = solver.makeNumVar(in.always[i] ? 1 : 0, 1, "y" + i);
                objective.setCoefficient(y[i], in.size[i]);
                if (in.spillOf[i] >= 0) {
                    MPVariable s = z[in.spillOf[i]];
                    objective.setCoefficient(s, in.size[i]);
                    // z >= y: one spill once any interval of the tensor leaves.
                    addRow(new int[] {m + in.spillOf[i], i}, new double[] {1, -1}, 0);
                }
            }
            objective.setMinimization();
            for (Tight t : in.tight) {
                cover(t.free(), t.room());
            }
        }

        /** The knapsack cover of the intervals {@code set} against room C: sum min(s, D) y >= D, D = s(set) - C. */
        private boolean cover(int[] set, long room) {
            long total = 0;
            for (int i : set) {
                total += in.size[i];
            }
            long demand = total - room;
            int[] sorted = set.clone();
            Arrays.sort(sorted);
            if (demand <= 0 || !seen.add(Arrays.stream(sorted).boxed().toList())) {
                return false;
            }
            double[] coef = new double[sorted.length];
            for (int k = 0; k < sorted.length; k++) {
                coef[k] = Math.min(in.size[sorted[k]], demand);
            }
            addRow(sorted, coef, demand);
            covers++;
            return true;
        }

        private void addRow(int[] vars, double[] coef, double rhs) {
            MPConstraint c = solver.makeConstraint(rhs, MPSolver.infinity());
            for (int k = 0; k < vars.length; k++) {
                c.setCoefficient(variable(vars[k]), coef[k]);
            }
            dualRows.add(c, vars, coef, rhs);
        }

        private MPVariable variable(int index) {
            return index < y.length ? y[index] : z[index - y.length];
        }

        /**
         * Solves and separates; the bound is the highest Lagrangian over the rounds GLOP solved to optimality (each
         * is a bound, whatever the rows: a round GLOP does not solve, which on r2plus1d18:train at M_R happened
         * after an order's third cut round, keeps the rounds' before it, where the last round's alone left only
         * the intervals never kept, 431,513,600 of an LP of 494,884,802), and the rounding is that of the last
         * such round's point.
         */
        Result solve(long unit) {
            try {
                int rounds = 0;
                double value = Double.NaN;
                long safe = 0;
                double[] v = new double[y.length];
                while (true) {
                    MPSolver.ResultStatus status = solver.solve();
                    rounds++;
                    if (status != MPSolver.ResultStatus.OPTIMAL) {
                        break;
                    }
                    value = solver.objective().value();
                    safe = Math.max(safe, safeBound());
                    for (int i = 0; i < y.length; i++) {
                        v[i] = y[i].solutionValue();
                    }
                    if (rounds >= MAX_ROUNDS || !separate()) {
                        break;
                    }
                }
                long units = Math.max(in.fixedCost, safe);
                return new Result(units * unit, value * unit, y.length, covers, rounds, in.rounded(v) * unit);
            } finally {
                solver.delete();
            }
        }

        /** Adds the most violated prefix cover of each tight timestep; false when none is violated. */
        private boolean separate() {
            boolean added = false;
            double[] v = new double[y.length];
            for (int i = 0; i < y.length; i++) {
                v[i] = y[i].solutionValue();
            }
            for (Tight t : in.tight) {
                int[] free = t.free();
                double[] size = new double[free.length];
                double[] value = new double[free.length];
                for (int k = 0; k < free.length; k++) {
                    size[k] = in.size[free[k]];
                    value[k] = v[free[k]];
                }
                int[] set = KnapsackCover.mostViolated(free, size, value, t.room(), PREFIXES, VIOLATION);
                if (set != null) {
                    added |= cover(set, t.room());
                }
            }
            return added;
        }

        /**
         * The Lagrangian bound of the row duals clamped at 0: pi.b + sum_j min(0, c_j - (A^T pi)_j) over the
         * variables in [0, 1] (at 1 for a variable fixed there: c_j - (A^T pi)_j), rounded up to a unit.
         */
        private long safeBound() {
            int m = y.length;
            double[] reduced = new double[m + z.length];
            for (int i = 0; i < m; i++) {
                reduced[i] = in.size[i];
                if (in.spillOf[i] >= 0) {
                    reduced[m + in.spillOf[i]] = in.size[i];
                }
            }
            DualRows.Part rows = dualRows.lagrangian(reduced);
            double bound = rows.value();
            double magnitude = rows.magnitude();
            for (int j = 0; j < reduced.length; j++) {
                boolean fixedAtOne = j < m ? in.always[j] : spillForced[j - m];
                bound += fixedAtOne ? reduced[j] : Math.min(0, reduced[j]);
                magnitude += Math.abs(reduced[j]);
            }
            // Rounding in the sums above: far below this margin; every plan's traffic is a whole number of units.
            double margin = 1e-9 * magnitude + 1e-6;
            return Math.max(0, (long) Math.ceil(bound - margin));
        }
    }

    /** The gcd of the tensor sizes (every plan's traffic is a multiple of it). */
    private static long unit(Graph g) {
        long unit = 0;
        for (int a = 0; a < g.tensorCount(); a++) {
            unit = gcd(unit, g.size(a));
        }
        return Math.max(1, unit);
    }

    /** Each operator's timestep in the order. */
    private static int[] positions(int[] order) {
        int[] pos = new int[order.length];
        for (int t = 0; t < order.length; t++) {
            pos[order[t]] = t;
        }
        return pos;
    }

    private static long gcd(long a, long b) {
        while (b != 0) {
            long r = a % b;
            a = b;
            b = r;
        }
        return a;
    }
}
