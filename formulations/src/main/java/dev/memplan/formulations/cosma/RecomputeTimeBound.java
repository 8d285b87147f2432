package dev.memplan.formulations.cosma;

import com.google.ortools.linearsolver.MPConstraint;
import com.google.ortools.linearsolver.MPObjective;
import com.google.ortools.linearsolver.MPSolver;
import com.google.ortools.linearsolver.MPVariable;
import com.google.ortools.sat.CpModel;
import com.google.ortools.sat.CpSolver;
import com.google.ortools.sat.CpSolverStatus;
import com.google.ortools.sat.IntVar;
import com.google.ortools.sat.LinearExpr;
import com.google.ortools.sat.LinearExprBuilder;
import com.google.ortools.sat.SatParameters;
import dev.memplan.formulations.milp.CpSatBackend;
import dev.memplan.formulations.milp.Solvers;
import dev.memplan.model.HeapRoom;
import dev.memplan.model.Limits;
import dev.memplan.model.Budget;
import dev.memplan.model.Graph;
import java.time.Duration;
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
 * bytes over the budget in total. Its <em>steps</em> are its operators o with live bytes (as in {@link RecomputeBound})
 * over the budget. A live tensor x's steps are split into <em>classes</em>: a new class starts where a first run
 * reading x surely comes between two consecutive ones (in the order, a reader between them; free, a reader that
 * descends from the first and is an ancestor of the second).
 *
 * <p><b>Validity.</b> Take any plan. For a class k of x, if x is off chip at the first run of some step of k, let s be
 * the last such step: x is read after it, so a segment of x starts in (s, r], r the next first-run read: a load,
 * which costs size(x) (not a host tensor's free first load: that was at or before a read before s) and needs x's one
 * spill when x is produced and not a graph output, or a rerun of x's producer p, which costs lambda c(p). Set
 * l_{k,s} = 1 or r_{k,s} = 1 by that kind, every other l, r of k at 0, and W_{k,t} = 1 at k's steps t up to s (x off
 * at t implies t <= s), R_{k,t} = 1 at those up to s when the start is a rerun. Two classes of x are separated by a
 * read, so their starts differ; one rerun of p starts one segment of each output, in at most one class of it, and the
 * outputs' shares size(x) / out(p) of lambda c(p) sum to at most one. So the plan pays at least sum size(x) l +
 * sum share r + size(x) z_x (z_x >= the l of x: one spill). At a step t, its own bytes and the live tensors with W = 0
 * are on chip, so for every set S of t's live classes with D = s(S) - (B - own(t)) > 0, sum over S of min(size, D)
 * W >= D (knapsack cover, as in FixedOrderBound).
 *
 * <p><b>A rerun's inputs.</b> If R_{k,t} = 1, the rerun comes after step t and reads each input y of p; if y is dead
 * at t (no first run reads it after t), the segment of y holding it then either started after y's last first-run read
 * (b_y = 1: a load, at least size(y) and y's spill when produced and not a graph output, or a rerun of y's producer,
 * its share; an event apart from all of y's class starts, which end at first-run reads) or spans t (h_{y,t} = 1: y on
 * chip at t beyond t's own and live bytes). So R_{k,t} <= h_{y,t} + b_y, and at t the plain room row sum over the live
 * classes of size W - sum size(y) h_{y,t} >= D holds. If instead y comes back by a rerun of its producer q after t,
 * that rerun needs each input z of q too, and a z dead at t is again either on chip at t (h_{z,t}: room at t, z being
 * neither t's own nor live there) or made again after its last first-run read (b_z, its load or its producer's
 * rerun). So for every path y_1, ..., y_m of such needs (y_1 an input of p dead at t, y_{j+1} an input of y_j's
 * producer dead at t), R_{k,t} <= sum over j of (h_{y_j,t} + l_{y_j}) + r_{y_m}, with l_y and r_y the load and rerun
 * parts of b_y: in a plan with R_{k,t} = 1, the first y_j held at t or loaded satisfies it, or else every y_j up to
 * the last is made by a rerun, r_{y_m} = 1. Paths have at most {@link #MAX_DEPTH} tensors, at most {@link #MAX_NEEDS}
 * per class and step, breadth first (fewer rows only weaken the program); a path stops at an operator that may not
 * pay ({@link Reruns#mayPay}: never rerun in some optimal plan, so its outputs' r and a class's r are 0 there, as in
 * {@link RecomputeBound}). Every plan that reruns no such operator, an optimal one among them, gives a point of this
 * program of cost at most its objective (needs beyond the paths are left out: they only add cost).
 *
 * <p><b>The number.</b> Rows are added by separation (prefixes of each step's classes by least W) for at most
 * {@link #MAX_ROUNDS} solves of GLOP, deterministic on every machine. The value reported does not rest on GLOP's
 * tolerances: it is the Lagrangian pi.b + sum_j min(0, c_j - (A^T pi)_j) u_j at the row duals clamped at 0, a lower
 * bound for every pi >= 0 and every variable in [0, u_j], less a margin for rounding in the sums. Without OR-Tools'
 * native libraries, or above {@link #MAX_CELLS} (class, step) cells, it is 0; so it is when the run's wall end has
 * passed (or Ctrl-C came) before the program is built, which on a graph of thousands of operators takes seconds.
 *
 * <p><b>Over integers.</b> The point a plan gives is integral (l, r, W, R, z, h, b in {0, 1}), so the least value of the
 * same program over integers is a bound too, without the LP's integrality gap, and so is any bound on it that CP-SAT
 * proves. There the rows keep integer coefficients (sizes in units; a knapsack row's room rounded down to whole units,
 * which every integral point still meets, the live sizes being whole units) and the costs lie on a grid of
 * 1/{@link #GRID} unit, a rerun's share rounded down exactly (a lower cost only lowers the program). CP-SAT runs on one
 * worker within a share of the run: under a work limit its deterministic time is the limit and is charged as work, so
 * the bound is the same on every machine; the wall end and Ctrl-C stop it as every CP-SAT search. Without reruns (r,
 * R at 0, no rerun's inputs) the program bounds the traffic of the plans that recompute nothing.
 *
 * <p>memplan's own bound; the program is Bar-Noy et al.'s caching relaxation (see {@link FixedOrderBound}) with a
 * recompute option and its inputs' needs. Numbers: BENCHMARKS.md, "The recompute bound summed over time".
 */
final class RecomputeTimeBound {

    /** Most LP solves (one per separation round). */
    static final int MAX_ROUNDS = 12;
    /** Most (class, step) cells: beyond, no program (it has about five variables and three rows per cell). */
    static final int MAX_CELLS = 60_000;
    /** Most tensors on a path of a rerun's needs ({@link #needs}). */
    static final int MAX_DEPTH = 4;
    /** Most paths of a rerun's needs per class and step ({@link #needs}). */
    static final int MAX_NEEDS = 8;
    /** Most prefixes whose cover is tried per step and round. */
    private static final int PREFIXES = 64;
    /** The integer program's costs are whole multiples of 1/this unit (rounded down: a lower bound stays one). */
    static final long GRID = 1024;
    /** The integer program's heap per row term and per variable (CP-SAT's model in Java). */
    private static final long BYTES_PER_TERM = 48;
    private static final long BYTES_PER_VARIABLE = 160;
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
     * @param reruns whether a tensor may come back by a rerun of its producer; without, the program bounds the traffic
     *     of the plans that recompute nothing (r and R at 0, no rerun's inputs)
     * @param run the run's budget: its wall end (or Ctrl-C) ends the separation rounds, keeping the best bound so far
     * @param integral the integer program's share and the value it should reach, or null for the linear program alone
     * @return the bounds on traffic + lambda x recompute cost (not yet on the objectives' grid), 0 without one
     */
    static Value of(Graph g, long budget, double lambda, RecomputeBound.Live pairs, long[] bytes, long[] ownBytes,
                    boolean reruns, Budget run, RecomputeBound.Integral integral) {
        if (run.wallOver()) {
            return Value.NONE;
        }
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
            return Value.NONE;
        }
        List<List<Integer>> liveAt = new ArrayList<>(g.tensorCount());
        for (int x = 0; x < g.tensorCount(); x++) {
            liveAt.add(new ArrayList<>());
        }
        long[] cells = new long[1];
        pairs.forEach((o, x) -> {
            if (step[o] >= 0) {
                liveAt.get(x).add(step[o]);
                cells[0]++;
            }
        });
        if (cells[0] > MAX_CELLS) {
            return Value.NONE;
        }
        // Classes: a tensor and its steps, ascending.
        List<Integer> classTensor = new ArrayList<>();
        List<int[]> classSteps = new ArrayList<>();
        for (int x = 0; x < g.tensorCount(); x++) {
            List<Integer> at = liveAt.get(x);
            at.sort(null);
            int from = 0;
            for (int i = 1; i <= at.size(); i++) {
                if (i == at.size() || pairs.readBetween(x, tightSteps.get(at.get(i - 1)), tightSteps.get(at.get(i)))) {
                    classTensor.add(x);
                    classSteps.add(at.subList(from, i).stream().mapToInt(Integer::intValue).toArray());
                    from = i;
                }
            }
        }
        long[] room = new long[tightSteps.size()];
        for (int s = 0; s < room.length; s++) {
            room[s] = budget - ownBytes[tightSteps.get(s)];
        }
        // What a rerun of each class's producer after each of its steps needs (dead stays dead along the chain).
        boolean[] pays = reruns ? Reruns.ANY.of(g, lambda) : new boolean[n];
        java.util.Map<Long, int[][]> known = new java.util.HashMap<>();
        int[][][][] dead = new int[classTensor.size()][][][];
        for (int k = 0; k < dead.length; k++) {
            int p = g.producer(classTensor.get(k));
            int[] steps = classSteps.get(k);
            dead[k] = new int[steps.length][][];
            for (int i = 0; i < steps.length; i++) {
                int o = tightSteps.get(steps[i]);
                dead[k][i] = p < 0 || !pays[p] ? new int[0][]
                        : known.computeIfAbsent((long) p * n + o, key -> needs(g, o, p, pairs, pays));
            }
        }
        Program program = new Program(g, lambda, pays, classTensor.stream().mapToInt(Integer::intValue).toArray(),
                classSteps.toArray(new int[0][]), room, dead);
        double relaxed = program.solve(run);
        List<String> notes = new ArrayList<>();
        if (integral == null || relaxed >= integral.target() || integral.limits().stopped()) {
            program.close();
            return new Value(relaxed, 0, integral == null ? null : relaxed >= integral.target()
                    ? "not run: the linear program's bound meets the best plan" : "not run: the limit is spent");
        }
        try (program) {
            return new Value(relaxed, program.integral(integral.limits(), notes), notes.get(0));
        }
    }

    /**
     * The needs of a rerun of p after o's first run, as paths: [y] for each input y of p dead at o, then [y, z] for
     * each input z of y's producer dead at o when that producer may pay, and so on, breadth first, paths of at most
     * {@link #MAX_DEPTH} tensors, at most {@link #MAX_NEEDS} of them (the ones left out only weaken the program).
     */
    private static int[][] needs(Graph g, int o, int p, RecomputeBound.Live pairs, boolean[] pays) {
        List<int[]> out = new ArrayList<>();
        java.util.ArrayDeque<int[]> open = new java.util.ArrayDeque<>();
        open.add(new int[0]);
        while (!open.isEmpty() && out.size() < MAX_NEEDS) {
            int[] path = open.poll();
            int q = path.length == 0 ? p : g.producer(path[path.length - 1]);
            if (path.length >= MAX_DEPTH || q < 0 || !pays[q]) {
                continue;
            }
            for (int y : Arrays.stream(g.inputs(q)).distinct().toArray()) {
                if (out.size() < MAX_NEEDS && pairs.dead(o, y)) {
                    int[] longer = Arrays.copyOf(path, path.length + 1);
                    longer[path.length] = y;
                    out.add(longer);
                    open.add(longer);
                }
            }
        }
        return out.toArray(new int[0][]);
    }

    /**
     * The bounds of one chain.
     *
     * @param relaxed the linear program's (its Lagrangian), 0 without one
     * @param integral the integer program's, CP-SAT's proven bound on it, 0 when it did not run or proved nothing
     * @param note how the integer program ended, null when it was not asked for
     */
    record Value(double relaxed, double integral, String note) {

        /** No program: 0. */
        static final Value NONE = new Value(0, 0, null);
    }

    /**
     * The program, per class k and its i-th step: l, r (the last step where x is off, and how it comes back), W (x off
     * at or before the last such step), R (the same, brought back by a rerun); per tensor z (its spill); per dead input
     * y and step, h (held), and b_y (made again: a load, or a rerun of its producer). Sizes and prices in units of the
     * sizes' gcd. Beside the linear rows it keeps each row with integer coefficients for {@link #integral}: the same
     * rows, a knapsack row's room rounded down to whole units (the live sizes are whole units, so a plan's point
     * meets the row with the room rounded down too).
     */
    private static final class Program implements AutoCloseable {
        private final Graph g;
        private final double unit;
        private final long wholeUnit;
        private final boolean[] pays;
        private final MPSolver solver;
        /** The W variable of each step's live classes, and their sizes, per step. */
        private final List<List<Integer>> stepVars = new ArrayList<>();
        private final List<List<Double>> stepSizes = new ArrayList<>();
        private final long[] room;
        private final List<Double> cost = new ArrayList<>();
        /** Each variable's cost on the integer program's grid: in 1/{@link #GRID} units, rounded down. */
        private final List<Long> gridCost = new ArrayList<>();
        private final List<Double> upper = new ArrayList<>();
        private final List<MPVariable> vars = new ArrayList<>();
        private final DualRows dualRows = new DualRows();
        private final List<int[]> intVars = new ArrayList<>();
        private final List<long[]> intCoefs = new ArrayList<>();
        private final List<Long> intRhs = new ArrayList<>();
        private final Set<List<Integer>> seen = new HashSet<>();
        private final int[] spillOf;
        private final double lambda;

        Program(Graph g, double lambda, boolean[] pays, int[] classTensor, int[][] classSteps, long[] room,
                int[][][][] dead) {
            this.g = g;
            this.room = room;
            this.lambda = lambda;
            this.pays = pays;
            long gcd = 0;
            for (int x = 0; x < g.tensorCount(); x++) {
                gcd = java.math.BigInteger.valueOf(gcd).gcd(java.math.BigInteger.valueOf(g.size(x))).longValue();
            }
            this.wholeUnit = Math.max(1, gcd);
            this.unit = wholeUnit;
            this.solver = MPSolver.createSolver("GLOP");
            if (solver == null) {
                throw new IllegalStateException("OR-Tools cannot create the GLOP solver");
            }
            solver.suppressOutput();
            for (int s = 0; s < room.length; s++) {
                stepVars.add(new ArrayList<>());
                stepSizes.add(new ArrayList<>());
            }
            spillOf = new int[g.tensorCount()];
            Arrays.fill(spillOf, -1);
            java.util.Map<Integer, Integer> remake = new java.util.TreeMap<>();
            List<java.util.Map<Integer, Integer>> hold = new ArrayList<>(room.length);
            for (int s = 0; s < room.length; s++) {
                hold.add(new java.util.TreeMap<>());
            }
            for (int k = 0; k < classTensor.length; k++) {
                int x = classTensor[k];
                double size = g.size(x) / unit;
                boolean rerun = g.producer(x) >= 0 && pays[g.producer(x)];
                int[] steps = classSteps[k];
                int len = steps.length;
                int[] w = new int[len];
                int[] bigR = new int[len];
                int spill = spill(x);
                List<Integer> loads = new ArrayList<>();
                int nextW = -1;
                int nextR = -1;
                for (int i = len - 1; i >= 0; i--) {
                    int l = variable(size, whole(x), 1);
                    int r = rerun ? variable(recomputePrice(x), recomputeGrid(x), 1) : variable(0, 0, 0);
                    loads.add(l);
                    w[i] = variable(0, 0, 1);
                    // W_i <= l_i + r_i + W_{i+1}
                    addRow(nextW < 0 ? new int[] {l, r, w[i]} : new int[] {l, r, nextW, w[i]},
                            nextW < 0 ? new long[] {1, 1, -1} : new long[] {1, 1, 1, -1});
                    nextW = w[i];
                    if (rerun) {
                        bigR[i] = variable(0, 0, 1);
                        // R_i >= r_i + R_{i+1}
                        addRow(nextR < 0 ? new int[] {bigR[i], r} : new int[] {bigR[i], r, nextR},
                                nextR < 0 ? new long[] {1, -1} : new long[] {1, -1, -1});
                        nextR = bigR[i];
                    }
                }
                if (spill >= 0) {
                    // z >= the sum of the class's l (at most one of them is 1 in a plan).
                    int[] v = new int[loads.size() + 1];
                    long[] c = new long[v.length];
                    v[0] = spill;
                    c[0] = 1;
                    for (int i = 0; i < loads.size(); i++) {
                        v[i + 1] = loads.get(i);
                        c[i + 1] = -1;
                    }
                    addRow(v, c);
                }
                for (int i = 0; i < len; i++) {
                    stepVars.get(steps[i]).add(w[i]);
                    stepSizes.get(steps[i]).add(size);
                    for (int[] path : dead[k][i]) {
                        // R_i <= the sum over the path of h_{y,i} + l_y, plus the rerun of its last tensor r_y.
                        int[] v = new int[2 * path.length + 2];
                        long[] c = new long[v.length];
                        for (int j = 0; j < path.length; j++) {
                            int y = path[j];
                            Integer b = remake.get(y);
                            if (b == null) {
                                b = remakeOf(y);
                                remake.put(y, b);
                            }
                            v[2 * j] = hold.get(steps[i]).computeIfAbsent(y, t -> variable(0, 0, 1));
                            v[2 * j + 1] = b;
                            c[2 * j] = 1;
                            c[2 * j + 1] = 1;
                            if (j == path.length - 1) {
                                v[2 * j + 2] = b + 1;
                                c[2 * j + 2] = 1;
                            }
                        }
                        v[v.length - 1] = bigR[i];
                        c[v.length - 1] = -1;
                        addRow(v, c);
                    }
                }
            }
            MPObjective objective = solver.objective();
            for (int j = 0; j < vars.size(); j++) {
                objective.setCoefficient(vars.get(j), cost.get(j));
            }
            objective.setMinimization();
            for (int s = 0; s < room.length; s++) {
                int[] all = java.util.stream.IntStream.range(0, stepVars.get(s).size()).toArray();
                cover(s, all);
                if (!hold.get(s).isEmpty()) {
                    // Plain room: sum size W - sum size(y) h_{y,s} >= D (a held input takes room too).
                    int m = all.length;
                    int[] v = new int[m + hold.get(s).size()];
                    double[] coef = new double[v.length];
                    long[] whole = new long[v.length];
                    double demand = -room[s] / unit;
                    long wholeDemand = -Math.floorDiv(room[s], wholeUnit);
                    for (int i = 0; i < m; i++) {
                        v[i] = stepVars.get(s).get(i);
                        coef[i] = stepSizes.get(s).get(i);
                        whole[i] = (long) coef[i];
                        demand += coef[i];
                        wholeDemand += whole[i];
                    }
                    int i = m;
                    for (var e : hold.get(s).entrySet()) {
                        v[i] = e.getValue();
                        coef[i] = -g.size(e.getKey()) / unit;
                        whole[i++] = -g.size(e.getKey()) / wholeUnit;
                    }
                    addRow(v, coef, demand);
                    addIntegerRow(v, whole, wholeDemand);
                }
            }
        }

        /** x's size in units on the integer program's grid. */
        private long whole(int x) {
            return g.size(x) / wholeUnit * GRID;
        }

        /** x's spill variable (created once), -1 for a host tensor or a graph output. */
        private int spill(int x) {
            if (g.isHost(x) || g.isGraphOutput(x)) {
                return -1;
            }
            if (spillOf[x] < 0) {
                spillOf[x] = variable(g.size(x) / unit, whole(x), 1);
            }
            return spillOf[x];
        }

        /** b_y as two variables, a load (with y's spill) and, next to it, a rerun of y's producer; the load's index. */
        private int remakeOf(int y) {
            int load = variable(g.size(y) / unit, whole(y), 1);
            boolean hasProducer = g.producer(y) >= 0 && pays[g.producer(y)];
            variable(hasProducer ? recomputePrice(y) : 0, hasProducer ? recomputeGrid(y) : 0, hasProducer ? 1 : 0);
            int z = spill(y);
            if (z >= 0) {
                addRow(new int[] {z, load}, new long[] {1, -1});
            }
            return load;
        }

        /** A new variable in [0, up] at this cost (and at {@code grid} on the integer program's grid); its index. */
        private int variable(double c, long grid, double up) {
            cost.add(c);
            gridCost.add(grid);
            upper.add(up);
            vars.add(solver.makeNumVar(0, up, "v" + vars.size()));
            return vars.size() - 1;
        }

        /**
         * x's share of a recompute of its producer, lambda c(p) size(x) / out(p), in units (0 for a host tensor). A
         * price above a load and a spill is cut down to them: a lower cost only lowers the program, and keeps GLOP's
         * numbers in scale.
         */
        private double recomputePrice(int x) {
            int p = g.producer(x);
            if (p < 0) {
                return 0; // a host tensor has no rerun: its variable's upper bound is 0
            }
            return Math.min(2.0 * g.size(x) / unit, lambda * g.cost(p) * (g.size(x) / unit) / outBytes(p));
        }

        /** {@link #recomputePrice} on the integer program's grid, exactly and rounded down. */
        private long recomputeGrid(int x) {
            int p = g.producer(x);
            java.math.BigDecimal share = new java.math.BigDecimal(lambda).multiply(java.math.BigDecimal.valueOf(g.cost(p)))
                    .multiply(java.math.BigDecimal.valueOf(g.size(x) / wholeUnit * GRID));
            long down = share.divideToIntegralValue(java.math.BigDecimal.valueOf(outBytes(p)))
                    .min(java.math.BigDecimal.valueOf(2 * whole(x))).longValueExact();
            return Math.max(0, down);
        }

        private long outBytes(int p) {
            long out = 0;
            for (int y : g.outputs(p)) {
                out += g.size(y);
            }
            return out;
        }

        /** The knapsack cover of step s's classes at positions {@code set}: sum min(size, D) W >= D. */
        private boolean cover(int s, int[] set) {
            double total = 0;
            long wholeTotal = 0;
            for (int i : set) {
                total += stepSizes.get(s).get(i);
                wholeTotal += stepSizes.get(s).get(i).longValue();
            }
            double demand = total - room[s] / unit;
            long wholeDemand = wholeTotal - Math.floorDiv(room[s], wholeUnit);
            int[] v = Arrays.stream(set).map(i -> stepVars.get(s).get(i)).sorted().toArray();
            if (demand <= 0 || !seen.add(Arrays.stream(v).boxed().toList())) {
                return false;
            }
            double[] coef = new double[set.length];
            long[] whole = new long[set.length];
            for (int i = 0; i < set.length; i++) {
                int at = stepVars.get(s).indexOf(v[i]);
                coef[i] = Math.min(stepSizes.get(s).get(at), demand);
                whole[i] = Math.min(stepSizes.get(s).get(at).longValue(), wholeDemand);
            }
            addRow(v, coef, demand);
            addIntegerRow(v, whole, wholeDemand);
            return true;
        }

        /** A row with integer coefficients and right-hand side 0, in both programs. */
        private void addRow(int[] v, long[] coef) {
            addRow(v, Arrays.stream(coef).asDoubleStream().toArray(), 0);
            addIntegerRow(v, coef, 0);
        }

        private void addRow(int[] v, double[] coef, double rhs) {
            MPConstraint c = solver.makeConstraint(rhs, MPSolver.infinity());
            for (int i = 0; i < v.length; i++) {
                c.setCoefficient(vars.get(v[i]), coef[i]);
            }
            dualRows.add(c, v, coef, rhs);
        }

        private void addIntegerRow(int[] v, long[] coef, long rhs) {
            intVars.add(v);
            intCoefs.add(coef);
            intRhs.add(rhs);
        }

        /** The separation rounds of the linear program; its best Lagrangian bound in bytes. */
        double solve(Budget run) {
            double best = 0;
            for (int round = 0; round < MAX_ROUNDS; round++) {
                Duration left = run.wallLeft();
                if (left != null) {
                    if (left.isZero()) {
                        run.markWallStop();
                        break;
                    }
                    solver.setTimeLimit(Math.max(1, left.toMillis()));
                }
                if (solver.solve() != MPSolver.ResultStatus.OPTIMAL) {
                    if (run.wallOver()) {
                        run.markWallStop();
                    }
                    break;
                }
                best = Math.max(best, safeBound());
                if (!separate()) {
                    break;
                }
            }
            return best * unit;
        }

        @Override
        public void close() {
            solver.delete();
        }

        /**
         * The same program over integers (every variable in {0, its upper bound}, the rows kept with integer
         * coefficients, the costs on the grid rounded down) on CP-SAT within {@code limits}; CP-SAT's proven bound on
         * its optimum in bytes, 0 when it proved none. One worker with a deterministic-time limit under a work limit,
         * charged as work (the same number on every machine); the wall end and Ctrl-C stop it as every CP-SAT search.
         * Adds a note saying how it ended.
         */
        double integral(Limits limits, List<String> notes) {
            long terms = intVars.stream().mapToLong(v -> v.length).sum();
            long bytes = BYTES_PER_TERM * terms + BYTES_PER_VARIABLE * vars.size();
            if (!HeapRoom.fits(bytes, limits)) {
                notes.add("not run: " + HeapRoom.shortfall("the integer program", bytes, limits));
                return 0;
            }
            // Held while the model lives, as every program's estimate is: a sweep's other jobs then wait for the room.
            HeapRoom.Hold hold = HeapRoom.reserve(bytes, limits);
            if (hold == null) {
                notes.add("not run: stopped while waiting for the heap other jobs hold");
                return 0;
            }
            try (hold) {
                return solveOverIntegers(limits, notes);
            }
        }

        /** {@link #integral}'s model and search, within the heap it holds. */
        private double solveOverIntegers(Limits limits, List<String> notes) {
            CpModel cp = new CpModel();
            IntVar[] x = new IntVar[vars.size()];
            LinearExprBuilder objective = LinearExpr.newBuilder();
            for (int j = 0; j < x.length; j++) {
                x[j] = cp.newIntVar(0, (long) (double) upper.get(j), "v" + j);
                objective.addTerm(x[j], gridCost.get(j));
            }
            for (int r = 0; r < intVars.size(); r++) {
                int[] v = intVars.get(r);
                LinearExprBuilder row = LinearExpr.newBuilder();
                for (int i = 0; i < v.length; i++) {
                    row.addTerm(x[v[i]], intCoefs.get(r)[i]);
                }
                cp.addGreaterOrEqual(row, intRhs.get(r));
            }
            cp.minimize(objective);
            CpSolver cpSolver = new CpSolver();
            SatParameters.Builder params = cpSolver.getParameters();
            params.setLogSearchProgress(Solvers.logRequested());
            params.setNumWorkers(1);
            // Every row in CP-SAT's linear relaxation (presolve turns most of them into clauses, which level 1 leaves
            // out): without, its bound stays near 0 (lraspp_mobilenet_v3_large:train at M_R, BENCHMARKS.md).
            params.setLinearizationLevel(2);
            if (limits.workMode()) {
                CpSatBackend.limitWork(params, limits);
            } else if (limits.budget().wallLeft() != null) {
                params.setMaxTimeInSeconds(Math.max(0.001, limits.budget().wallLeft().toNanos() / 1e9));
            }
            CpSolverStatus status = CpSatBackend.solveBy(cpSolver, cp, Long.MAX_VALUE, limits.budget());
            CpSatBackend.chargeWork(cpSolver, params, limits);
            if (status != CpSolverStatus.OPTIMAL && status != CpSolverStatus.FEASIBLE) {
                notes.add("CP-SAT " + status + ": no bound proven");
                return 0;
            }
            // The objective takes whole values: its proven bound, less a margin for its double, rounded up.
            double proven = cpSolver.bestObjectiveBound();
            double whole = Math.ceil(proven - (1e-9 * Math.abs(proven) + 1e-6));
            notes.add(status == CpSolverStatus.OPTIMAL ? "CP-SAT, optimal" : "CP-SAT's best bound, not closed");
            return Math.max(0, whole) / GRID * unit;
        }

        /** Adds the most violated prefix cover of each step (classes by least W first); false when none is. */
        private boolean separate() {
            boolean added = false;
            double[] value = new double[vars.size()];
            for (int j = 0; j < value.length; j++) {
                value[j] = vars.get(j).solutionValue();
            }
            for (int s = 0; s < room.length; s++) {
                List<Integer> ws = stepVars.get(s);
                List<Double> sizes = stepSizes.get(s);
                int[] positions = new int[ws.size()];
                double[] size = new double[ws.size()];
                double[] at = new double[ws.size()];
                for (int k = 0; k < positions.length; k++) {
                    positions[k] = k;
                    size[k] = sizes.get(k);
                    at[k] = value[ws.get(k)];
                }
                int[] set = KnapsackCover.mostViolated(positions, size, at, room[s] / unit, PREFIXES, VIOLATION);
                if (set != null) {
                    added |= cover(s, set);
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
            DualRows.Part rows = dualRows.lagrangian(reduced);
            double bound = rows.value();
            double magnitude = rows.magnitude();
            for (int j = 0; j < reduced.length; j++) {
                bound += Math.min(0, reduced[j]) * upper.get(j);
                magnitude += Math.abs(cost.get(j)) + Math.abs(reduced[j]);
            }
            return Math.max(0, bound - (1e-9 * magnitude + 1e-6));
        }
    }
}
