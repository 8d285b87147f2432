package dev.memplan.formulations.cosma;

import com.google.ortools.linearsolver.MPConstraint;
import com.google.ortools.linearsolver.MPObjective;
import com.google.ortools.linearsolver.MPSolver;
import com.google.ortools.linearsolver.MPVariable;
import dev.memplan.formulations.milp.Solvers;
import dev.memplan.model.Graph;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@link RecomputeBound}'s cover summed over time: the caching linear program of {@link FixedOrderBound} (intervals
 * between reads, knapsack-cover rows) with a second way to bring a tensor back, running its producer again. Valid over
 * every plan whose first runs follow the given order, or, with a free schedule, over every plan.
 *
 * <p><b>The timeline.</b> A chain of operators whose first runs come in the chain's order in every plan covered: the
 * given order, or (free schedule) a path of the graph, each operator an ancestor of the next, the one with the most
 * bytes over the budget in total. At each chain operator o with live bytes (as in {@link RecomputeBound}) over the
 * budget, the live tensors are the ones that may leave. A live tensor x's chain operators are split into
 * <em>classes</em>: a new class starts where a first run reading x surely comes between two consecutive ones (in
 * the order, a reader between them; free, a reader that descends from the first and is an ancestor of the second).
 *
 * <p><b>Validity.</b> Take any plan, and for each class k of x let v_k = 1 when x is off chip at the first run of
 * some operator of k. Then x is read after that timestep t (it is live), so a segment of x starts in (t, r], r the
 * first read after t: a load, which costs size(x) (not a host tensor's free first load: that was at or before a read
 * before t) and needs x's one spill when x is produced and not a graph output, or a recompute of x's producer p,
 * which costs lambda c(p). Two classes of x are separated by a read, so these ranges, and the segment starts, differ.
 * Write v_k = l_k + r_k by the kind of that start: the plan pays at least sum size(x) l_k + size(x) z_x (z_x >= l_k:
 * the spill) + sum lambda c(p) size(x) / out(p) r_k, since one recompute of p starts one segment of each output, in
 * at most one class of it, and those outputs' shares sum to at most one. At chain operator o, its own bytes and the
 * live tensors whose classes have v = 0 are all on chip, so for every set S of o's live classes with D = s(S) - (B -
 * own(o)) > 0, sum over S of min(size, D) (l + r) >= D (knapsack cover, as in FixedOrderBound).
 *
 * <p><b>A recompute's inputs.</b> Let r_k = 1 and y an input of p that is dead at the first step s of class k (no
 * first run reads y after it). The rerun, after a step of k, reads y, so a segment of y holds it then: one that
 * started after y's last first-run read (b_y = 1: a load, at least size(y), or a recompute of y's producer, its share
 * as above; an event of y apart from all of y's class events, which end at first-run reads; a load needs y's one
 * spill when y is produced and not a graph output) or an older one, which then spans step s (h_{y,s} = 1: y is on chip
 * at s, beyond o's own and live bytes). So r_k <= h_{y,s} + b_y, and at s the plain room row sum over the live classes
 * of size (l + r) - sum size(y) h_{y,s} >= D holds. So every plan gives a point of this program of cost at most its
 * objective (y's own inputs are left out: they only add cost).
 *
 * <p><b>The number.</b> Rows are added by separation (prefixes of each operator's classes by least l + r) for at most
 * {@link #MAX_ROUNDS} solves of GLOP, deterministic on every machine. The value reported does not rest on GLOP's
 * tolerances: it is the Lagrangian pi.b + sum_j min(0, c_j - (A^T pi)_j) at the row duals clamped at 0, a lower bound
 * for every pi >= 0 and every variable in [0, 1], less a margin for rounding in the sums. Without OR-Tools' native
 * libraries it is 0.
 *
 * <p>memplan's own bound; the program is Bar-Noy et al.'s caching relaxation (see {@link FixedOrderBound}) with a
 * recompute option priced per interval. Numbers: BENCHMARKS.md, "The recompute bound summed over time".
 */
final class RecomputeTimeBound {

    /** Most LP solves (one per separation round). */
    static final int MAX_ROUNDS = 20;
    /** Most prefixes whose cover is tried per chain operator and round. */
    private static final int PREFIXES = 64;
    /** A cut enters when it is violated by more than this fraction of its right-hand side. */
    private static final double VIOLATION = 1e-6;

    private RecomputeTimeBound() {
    }

    /**
     * @param g the graph in its tensor setting
     * @param budget the budget B
     * @param lambda the recompute weight
     * @param pairs the live pairs (free schedule or a given order)
     * @param bytes each operator's own plus live bytes
     * @param ownBytes each operator's own bytes
     * @return the lower bound on traffic + lambda x recompute cost (not yet on the objectives' grid), 0 without one
     */
    static double of(Graph g, long budget, double lambda, RecomputeBound.Live pairs, long[] bytes, long[] ownBytes) {
        int[] chain = pairs.chain(bytes, budget);
        int n = g.operatorCount();
        int[] step = new int[n];
        Arrays.fill(step, -1);
        List<Integer> tightSteps = new ArrayList<>();
        for (int i = 0; i < chain.length; i++) {
            if (bytes[chain[i]] > budget) {
                step[chain[i]] = tightSteps.size();
                tightSteps.add(chain[i]);
            }
        }
        if (tightSteps.isEmpty() || !Solvers.nativeAvailable()) {
            return 0;
        }
        int steps = tightSteps.size();
        List<List<Integer>> liveAt = new ArrayList<>(g.tensorCount());
        for (int x = 0; x < g.tensorCount(); x++) {
            liveAt.add(new ArrayList<>());
        }
        pairs.forEach((o, x) -> {
            if (step[o] >= 0) {
                liveAt.get(x).add(step[o]);
            }
        });
        // Classes: (tensor, the tight steps it spans); spanning.get(s): the classes live at step s.
        List<Integer> classTensor = new ArrayList<>();
        List<List<Integer>> spanning = new ArrayList<>(steps);
        for (int s = 0; s < steps; s++) {
            spanning.add(new ArrayList<>());
        }
        for (int x = 0; x < g.tensorCount(); x++) {
            List<Integer> at = liveAt.get(x);
            at.sort(null);
            for (int i = 0; i < at.size(); i++) {
                if (i == 0 || pairs.readBetween(x, tightSteps.get(at.get(i - 1)), tightSteps.get(at.get(i)))) {
                    classTensor.add(x);
                }
                spanning.get(at.get(i)).add(classTensor.size() - 1);
            }
        }
        long[] room = new long[steps];
        for (int s = 0; s < steps; s++) {
            room[s] = budget - ownBytes[tightSteps.get(s)];
        }
        // Each class's first step and the inputs of its producer surely dead there.
        int[] first = new int[classTensor.size()];
        Arrays.fill(first, -1);
        for (int s = 0; s < steps; s++) {
            for (int k : spanning.get(s)) {
                first[k] = first[k] < 0 ? s : first[k];
            }
        }
        int[][] deadInputs = new int[first.length][];
        for (int k = 0; k < first.length; k++) {
            int o = tightSteps.get(first[k]);
            int p = g.producer(classTensor.get(k));
            deadInputs[k] = p < 0 ? new int[0]
                    : Arrays.stream(g.inputs(p)).distinct().filter(y -> pairs.dead(o, y)).toArray();
        }
        return new Program(g, lambda, classTensor.stream().mapToInt(Integer::intValue).toArray(),
                spanning.stream().map(l -> l.stream().mapToInt(Integer::intValue).toArray()).toArray(int[][]::new),
                room, first, deadInputs).solve();
    }

    /**
     * The program: per class k, l_k (left, brought back by a load) and r_k (by a recompute, produced tensors only);
     * per produced tensor that is not a graph output, z (its spill); per input y of a recomputed producer that is dead
     * at the first step s of a class, h_{y,s} (y held on chip there) and b_y (y made again after its last first-run
     * read), split in a load (with y's spill) and a rerun of y's producer (its share). Sizes and prices in units of the
     * sizes' gcd.
     */
    private static final class Program {
        private final Graph g;
        private final int[] classTensor;
        private final int[][] spanning;
        private final long[] room;
        private final double unit;
        private final MPSolver solver;
        /** Variable j's cost and upper bound; l_k is 2k, r_k is 2k + 1, the spills, holds and remakes follow. */
        private final List<Double> cost = new ArrayList<>();
        private final List<Double> upper = new ArrayList<>();
        private final List<MPVariable> vars = new ArrayList<>();
        private final List<MPConstraint> rows = new ArrayList<>();
        private final List<int[]> rowVars = new ArrayList<>();
        private final List<double[]> rowCoefs = new ArrayList<>();
        private final List<Double> rowRhs = new ArrayList<>();
        private final Set<List<Integer>> seen = new HashSet<>();

        Program(Graph g, double lambda, int[] classTensor, int[][] spanning, long[] room, int[] first,
                int[][] deadInputs) {
            this.g = g;
            this.classTensor = classTensor;
            this.spanning = spanning;
            this.room = room;
            long gcd = 0;
            for (int x = 0; x < g.tensorCount(); x++) {
                gcd = java.math.BigInteger.valueOf(gcd).gcd(java.math.BigInteger.valueOf(g.size(x))).longValue();
            }
            this.unit = Math.max(1, gcd);
            this.solver = MPSolver.createSolver("GLOP");
            if (solver == null) {
                throw new IllegalStateException("OR-Tools cannot create the GLOP solver");
            }
            solver.suppressOutput();
            int m = classTensor.length;
            for (int k = 0; k < m; k++) {
                int x = classTensor[k];
                variable(g.size(x) / unit, 1);
                // A host tensor cannot be recomputed: its r stays at 0.
                variable(recomputePrice(x, lambda), g.producer(x) < 0 ? 0 : 1);
            }
            int[] spillOf = new int[g.tensorCount()];
            Arrays.fill(spillOf, -1);
            for (int k = 0; k < m; k++) {
                int x = classTensor[k];
                if (!g.isHost(x) && !g.isGraphOutput(x)) {
                    if (spillOf[x] < 0) {
                        spillOf[x] = variable(g.size(x) / unit, 1);
                    }
                    addRow(new int[] {spillOf[x], 2 * k}, new double[] {1, -1}, 0); // z >= l: one spill
                }
            }
            // What a recompute needs: r_k <= h_{y,s} + b_y for each input y of its producer dead at its first step s,
            // b_y = a load (size; its spill once, z_y >= the load, when y is produced and not a graph output) + a rerun
            // of y's producer (its share; none for a host tensor).
            java.util.Map<Integer, Integer> remake = new java.util.TreeMap<>();
            List<java.util.Map<Integer, Integer>> hold = new ArrayList<>(spanning.length);
            for (int s = 0; s < spanning.length; s++) {
                hold.add(new java.util.TreeMap<>());
            }
            for (int k = 0; k < m; k++) {
                for (int y : deadInputs[k]) {
                    int b = remake.computeIfAbsent(y, t -> {
                        int load = variable(g.size(t) / unit, 1);
                        variable(recomputePrice(t, lambda), g.producer(t) < 0 ? 0 : 1);
                        if (!g.isHost(t) && !g.isGraphOutput(t)) {
                            if (spillOf[t] < 0) {
                                spillOf[t] = variable(g.size(t) / unit, 1);
                            }
                            addRow(new int[] {spillOf[t], load}, new double[] {1, -1}, 0);
                        }
                        return load;
                    });
                    int h = hold.get(first[k]).computeIfAbsent(y, t -> variable(0, 1));
                    addRow(new int[] {h, b, b + 1, 2 * k + 1}, new double[] {1, 1, 1, -1}, 0);
                }
            }
            MPObjective objective = solver.objective();
            for (int j = 0; j < vars.size(); j++) {
                objective.setCoefficient(vars.get(j), cost.get(j));
            }
            objective.setMinimization();
            for (int s = 0; s < spanning.length; s++) {
                cover(spanning[s], room[s]);
                if (!hold.get(s).isEmpty()) {
                    // Plain room: sum size (l + r) - sum size(y) h_{y,s} >= D (a held input takes room too).
                    int[] set = spanning[s];
                    int[] v = new int[2 * set.length + hold.get(s).size()];
                    double[] coef = new double[v.length];
                    double demand = -room[s] / unit;
                    for (int i = 0; i < set.length; i++) {
                        v[2 * i] = 2 * set[i];
                        v[2 * i + 1] = 2 * set[i] + 1;
                        coef[2 * i] = size(set[i]);
                        coef[2 * i + 1] = size(set[i]);
                        demand += size(set[i]);
                    }
                    int i = 2 * set.length;
                    for (var e : hold.get(s).entrySet()) {
                        v[i] = e.getValue();
                        coef[i++] = -g.size(e.getKey()) / unit;
                    }
                    addRow(v, coef, demand);
                }
            }
        }

        /** A new variable in [0, up] at this cost; its index. */
        private int variable(double c, double up) {
            cost.add(c);
            upper.add(up);
            vars.add(solver.makeNumVar(0, up, "v" + vars.size()));
            return vars.size() - 1;
        }

        /**
         * x's share of a recompute of its producer, lambda c(p) size(x) / out(p), in units; host tensors: 0 (never
         * used). A price above a load and a spill is cut down to them: a lower cost only lowers the program, and keeps
         * GLOP's numbers in scale.
         */
        private double recomputePrice(int x, double lambda) {
            int p = g.producer(x);
            return p < 0 ? 0 : Math.min(2.0 * g.size(x) / unit, lambda * g.cost(p) * (g.size(x) / unit) / outBytes(p));
        }

        private long outBytes(int p) {
            long out = 0;
            for (int y : g.outputs(p)) {
                out += g.size(y);
            }
            return out;
        }

        private double size(int k) {
            return g.size(classTensor[k]) / unit;
        }

        /** The knapsack cover of the classes {@code set} against room C: sum min(s, D) (l + r) >= D. */
        private boolean cover(int[] set, long bytesRoom) {
            double total = 0;
            for (int k : set) {
                total += size(k);
            }
            double demand = total - bytesRoom / unit;
            int[] sorted = set.clone();
            Arrays.sort(sorted);
            if (demand <= 0 || !seen.add(Arrays.stream(sorted).boxed().toList())) {
                return false;
            }
            int[] v = new int[2 * sorted.length];
            double[] coef = new double[v.length];
            for (int i = 0; i < sorted.length; i++) {
                v[2 * i] = 2 * sorted[i];
                v[2 * i + 1] = 2 * sorted[i] + 1;
                coef[2 * i] = Math.min(size(sorted[i]), demand);
                coef[2 * i + 1] = coef[2 * i];
            }
            addRow(v, coef, demand);
            return true;
        }

        private void addRow(int[] v, double[] coef, double rhs) {
            MPConstraint c = solver.makeConstraint(rhs, MPSolver.infinity());
            for (int i = 0; i < v.length; i++) {
                c.setCoefficient(vars.get(v[i]), coef[i]);
            }
            rows.add(c);
            rowVars.add(v);
            rowCoefs.add(coef);
            rowRhs.add(rhs);
        }

        double solve() {
            try {
                double best = 0;
                for (int round = 0; round < MAX_ROUNDS; round++) {
                    if (solver.solve() != MPSolver.ResultStatus.OPTIMAL) {
                        break;
                    }
                    best = Math.max(best, safeBound());
                    if (!separate()) {
                        break;
                    }
                }
                return best * unit;
            } finally {
                solver.delete();
            }
        }

        /** Adds the most violated prefix cover of each step (classes by least l + r first); false when none is. */
        private boolean separate() {
            boolean added = false;
            double[] v = new double[classTensor.length];
            for (int k = 0; k < v.length; k++) {
                v[k] = vars.get(2 * k).solutionValue() + vars.get(2 * k + 1).solutionValue();
            }
            for (int s = 0; s < spanning.length; s++) {
                Integer[] byValue = Arrays.stream(spanning[s]).boxed().toArray(Integer[]::new);
                Arrays.sort(byValue, (a, b) -> v[a] != v[b] ? Double.compare(v[a], v[b])
                        : size(a) != size(b) ? Double.compare(size(b), size(a)) : Integer.compare(a, b));
                double total = 0;
                int best = -1;
                double bestViolation = 0;
                int tried = 0;
                for (int k = 0; k < byValue.length && tried < PREFIXES; k++) {
                    total += size(byValue[k]);
                    double demand = total - room[s] / unit;
                    if (demand <= 0) {
                        continue;
                    }
                    tried++;
                    double lhs = 0;
                    for (int j = 0; j <= k; j++) {
                        lhs += Math.min(size(byValue[j]), demand) * v[byValue[j]];
                    }
                    double violation = (demand - lhs) / demand;
                    if (violation > VIOLATION && violation > bestViolation) {
                        bestViolation = violation;
                        best = k;
                    }
                }
                if (best >= 0) {
                    int[] set = new int[best + 1];
                    for (int j = 0; j <= best; j++) {
                        set[j] = byValue[j];
                    }
                    added |= cover(set, room[s]);
                }
            }
            return added;
        }

        /**
         * The Lagrangian of the row duals clamped at 0: pi.b + sum_j min(0, c_j - (A^T pi)_j) over the variables in
         * [0, 1] (r of a host tensor in [0, 0]), less a margin far above the rounding in these sums.
         */
        private double safeBound() {
            double[] reduced = cost.stream().mapToDouble(Double::doubleValue).toArray();
            double bound = 0;
            double magnitude = 0;
            for (int r = 0; r < rows.size(); r++) {
                double pi = Math.max(0, rows.get(r).dualValue());
                if (pi == 0) {
                    continue;
                }
                bound += pi * rowRhs.get(r);
                magnitude += Math.abs(pi * rowRhs.get(r));
                int[] v = rowVars.get(r);
                double[] coef = rowCoefs.get(r);
                for (int i = 0; i < v.length; i++) {
                    reduced[v[i]] -= pi * coef[i];
                    magnitude += Math.abs(pi * coef[i]);
                }
            }
            for (int j = 0; j < reduced.length; j++) {
                bound += Math.min(0, reduced[j]) * upper.get(j);
                magnitude += Math.abs(cost.get(j)) + Math.abs(reduced[j]);
            }
            return Math.max(0, bound - (1e-9 * magnitude + 1e-6));
        }
    }
}
