package dev.memplan.formulations.cosma;

import dev.memplan.formulations.milp.LinearExpr;
import dev.memplan.formulations.milp.Model;
import dev.memplan.formulations.milp.SolverResult;
import dev.memplan.formulations.milp.Variable;
import dev.memplan.model.ByteRange;
import dev.memplan.model.Graph;
import dev.memplan.model.Origin;
import dev.memplan.model.Plan;
import dev.memplan.model.Schedule;
import dev.memplan.model.Segment;
import dev.memplan.model.TensorSetting;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * COSMA with recomputation (issue 34, item 4; memory-model.md, "Recomputation"): the joint program over order,
 * addresses, spills and recomputes, time-indexed over T = n + k run slots. It extends the COSMA program of
 * {@link CosmaFormulation} (Li, Gupta, Malik, section III) for one graph (already in its tensor setting), budget
 * and recompute weight lambda.
 *
 * <p>Variables, per slot t in 0 .. T-1, each only inside its window (below):
 * <ul>
 *   <li>X_{o,t}: operator o runs at t (eq. 6-7's C, which may now be 1 at several t); F_{o,t}: that run is o's
 *       first (it creates); D_{o,t} = F_{o,0} + ... + F_{o,t}: o has run by t. X - F is a recompute; each output a
 *       of o then starts a {@code recomputed} segment, and C_{a,t} = F_{o,t} is COSMA's C. An operator that may
 *       not run again ({@link Reruns}: outside its set, or one whose rerun cannot pay at lambda,
 *       {@link Reruns#mayPay}, which loses no optimum) has X = F (one variable). Z_{o,t}, an integer, counts the runs of such an
 *       operator at slots >= t.</li>
 *   <li>P_{a,t} (preserved), R_{a,t} (loaded), as COSMA; one spill variable S_a per produced tensor instead of
 *       eq. 3's S_{a,t}: with memory-model.md's host copies a produced tensor is charged once when it has any
 *       loaded segment, and that segment only needs the created segment to have ended, which the residency rows
 *       already force.</li>
 *   <li>With addresses: L_{a,t} = A * K_{a,t} (eq. 9-11's address) and u, d (eq. 10's order of two tensors) as
 *       COSMA. Without them the resident bytes at each slot within the budget are the only memory rows: a
 *       relaxation, whose optimum is a lower bound and whose residency an allocator may or may not pack.</li>
 * </ul>
 * A slot may stay idle, so that a plan with fewer than k recomputes is one of the program's: a plan of T' <= T
 * runs is the solution whose slots T' .. T-1 are idle. Idle slots are therefore required to be the last ones
 * (no plan is lost, and the idle-in-the-middle twins of each plan are cut); nothing is resident in them (no
 * read follows), and {@link #plan} drops them.
 *
 * <p>Windows, none of which loses a plan with at most k recomputes (of the operators {@link Reruns} allows):
 * o's first run lies in [e(o), l(o) + k], e and l the earliest and latest timestep of {@link OperatorWindows}
 * (ancestors first, descendants after: T - 1 - #descendants = l + k); with a fixed schedule of the original
 * operators (the order of the first runs; the recomputes go between them) the first run of the i-th lies in
 * [i, i + k]. A recompute lies after the first run and before the last possible run of a reader of its outputs
 * (a recompute no run reads can be dropped: the later runs move one slot earlier, no objective rises). A tensor
 * is resident from its producer's (a host tensor's first reader's) earliest first run to its last reader's last
 * possible run; two tensors get eq. 10's pair only at slots where both can be resident and neither is dead before
 * the other exists (COSMA section III-F, applied only when no reader of the dead tensor may run again). Without
 * pruning every window is the whole horizon.
 *
 * <p>Size: O(n T) run variables and rows (the D and Z chains keep every precedence and last-use row at a few
 * terms), O(m T) residency variables and rows inside the windows, and with addresses two order variables and
 * three rows per pair of tensors that can be resident together at a slot: O(m^2 T) at worst, eq. 10 dominating.
 *
 * <p>The objective, non-compulsory traffic + lambda x recompute cost, is stated in integers:
 * D x (COSMA's eq. 12) + (lambda D) x sum over recomputes of c(o), with D = 2^j the least power of two (j <= 52)
 * that makes lambda D an integer, lowered while the largest objective value would pass 2^53 (exact in every
 * back-end's arithmetic, {@link ByteRange#MAX}). When lambda D is an integer the optimum is exact; when it is not
 * (lambda not a short binary fraction, e.g. 0.1, or huge costs) lambda D is rounded and {@link #exact()} is
 * false, so a caller does not call the result proven.
 */
public final class RecomputeFormulation {
    private final Graph graph;
    private final TensorSetting setting;
    private final long budget;
    private final long align;
    private final int n;
    private final int m;
    /** T = n + k: the run slots. */
    private final int slots;
    private final boolean addresses;
    private final Model model;
    private final long unit;
    private final long weight;
    private final boolean exact;

    /** The windows of the class comment; the arrays below are its. */
    private final RecomputeWindows windows;
    /** again[o]: o may run more than once. */
    private final boolean[] again;
    /** o's first run lies in [firstLo[o], firstHi[o]]; any run in [firstLo[o], runHi[o]]. */
    private final int[] firstLo;
    private final int[] firstHi;
    private final int[] runHi;
    /** Tensor a can be resident at slots [resLo[a], resHi[a]]. */
    private final int[] resLo;
    private final int[] resHi;
    /** The fixed schedule's order of first runs, null for a free schedule. */
    private final int[] fixedOrder;

    private final Variable[][] run;
    private final Variable[][] first;
    private final Variable[][] done;
    private final Variable[][] later;
    private final Variable[][] preserve;
    private final Variable[][] load;
    private final Variable[] spill;
    private final Variable[][] address;
    private final List<Pair> pairs = new ArrayList<>();

    /** The ordering variables of two tensors at one slot (eq. 10). */
    private record Pair(int a, int b, int t, Variable up, Variable down) {
    }

    /**
     * @param graph the graph in its tensor setting
     * @param extraRuns k >= 0: the most recomputes a plan may make (k = 0: COSMA's program, one run each)
     * @param lambda bytes per cost unit, finite and >= 0
     * @param schedule the order of the original operators' first runs (a topological order of the graph, without
     *     recomputes), null for a free schedule
     * @param reruns the operators that may run again
     * @param prune the windows of the class comment (false: every variable over the whole horizon)
     * @param addresses eq. 9-11; false: the relaxation with the resident bytes within the budget only
     * @throws IllegalArgumentException on a negative k or lambda, a tensor larger than the budget, an invalid
     *     schedule, or an objective that cannot stay below 2^53 even unscaled
     */
    public RecomputeFormulation(Graph graph, TensorSetting setting, long budget, int extraRuns, double lambda,
                                Schedule schedule, Reruns reruns, boolean prune, boolean addresses) {
        this(graph, setting, budget, windows(graph, budget, extraRuns, lambda, schedule, reruns, prune), lambda,
                addresses);
    }

    /** The program over windows computed before (by {@link #windows}), for a caller that sized it first. */
    RecomputeFormulation(Graph graph, TensorSetting setting, long budget, RecomputeWindows windows, double lambda,
                         boolean addresses) {
        this.graph = graph;
        this.setting = setting;
        this.budget = budget;
        this.align = graph.alignment();
        this.n = graph.operatorCount();
        this.m = graph.tensorCount();
        this.slots = windows.slots;
        this.addresses = addresses;
        this.windows = windows;
        this.again = windows.again;
        this.firstLo = windows.firstLo;
        this.firstHi = windows.firstHi;
        this.runHi = windows.runHi;
        this.resLo = windows.resLo;
        this.resHi = windows.resHi;
        this.fixedOrder = windows.fixedOrder;
        long[] scale = scale(lambda);
        this.unit = scale[0];
        this.weight = scale[1];
        this.exact = scale[2] == 1;
        this.model = new Model("cosma-recompute-" + graph.name());
        run = new Variable[n][slots];
        first = new Variable[n][slots];
        done = new Variable[n][slots];
        later = new Variable[n][];
        preserve = new Variable[m][slots];
        load = new Variable[m][slots];
        spill = new Variable[m];
        address = new Variable[m][slots];
        createVariables();
        oneRunPerSlot();
        everyOperatorRunsFirstOnce();
        noRunBeforeTheFirst();
        producersRunFirst();
        firstRunsInScheduleOrder();
        countLaterRuns();
        oneWayToBeResident();
        preservedOnlyIfResidentBefore();
        loadedOnlyAfterCreation();
        spillChargedOnLoad();
        inputsResidentWhenRead();
        noResidencyAfterLastUse();
        bytesWithinBudget();
        if (addresses) {
            residentTensorsDoNotOverlap();
            addressKeptWhilePreserved();
        }
        minimizeTrafficAndRecomputeCost();
    }

    /**
     * The windows of the program of these arguments (the public constructor's), after checking them.
     *
     * @throws IllegalArgumentException as the public constructor
     */
    static RecomputeWindows windows(Graph graph, long budget, int extraRuns, double lambda, Schedule schedule,
                                    Reruns reruns, boolean prune) {
        if (extraRuns < 0) {
            throw new IllegalArgumentException("extra runs must be >= 0, got " + extraRuns);
        }
        if (!(lambda >= 0) || Double.isInfinite(lambda)) {
            throw new IllegalArgumentException("the recompute weight lambda must be a finite number >= 0, got "
                    + lambda);
        }
        for (int a = 0; a < graph.tensorCount(); a++) {
            if (graph.size(a) > budget) {
                throw new IllegalArgumentException("tensor '" + graph.tensor(a).name() + "' (" + graph.size(a)
                        + " bytes) is larger than the budget " + budget);
            }
        }
        return new RecomputeWindows(graph, extraRuns, lambda, schedule, reruns, prune);
    }

    public Model model() {
        return model;
    }

    /** True when the model's objective is exactly D x (traffic + lambda x recompute cost). */
    public boolean exact() {
        return exact;
    }

    /** D: the model's objective is D times the plan's objective (when {@link #exact()}). */
    public long unit() {
        return unit;
    }

    /**
     * {D, lambda D rounded, 1 if exact else 0}: see the class comment. The largest objective value is bounded by
     * every tensor loaded and spilled at every slot, plus k runs of the dearest operator.
     */
    private long[] scale(double lambda) {
        long traffic = 0;
        for (int a = 0; a < m; a++) {
            traffic = ByteRange.add(traffic, ByteRange.times(graph.size(a), slots + 1L));
        }
        long dearest = 0;
        for (int o = 0; o < n; o++) {
            dearest = Math.max(dearest, graph.cost(o));
        }
        long runs = slots - n;
        int needed = 0;
        while (needed < 52 && lambda * Math.scalb(1.0, needed) != Math.rint(lambda * Math.scalb(1.0, needed))) {
            needed++;
        }
        for (int j = needed; j >= 0; j--) {
            double scaledLambda = lambda * Math.scalb(1.0, j);
            long w = Math.round(scaledLambda);
            long d = 1L << j;
            long top = ByteRange.add(ByteRange.times(traffic, d),
                    ByteRange.times(w, ByteRange.times(dearest, runs)));
            if (top <= ByteRange.MAX) {
                boolean isExact = scaledLambda == Math.rint(scaledLambda) && w == scaledLambda;
                return new long[] {d, w, isExact ? 1 : 0};
            }
        }
        throw new IllegalArgumentException("traffic + lambda x recompute cost of graph '" + graph.name()
                + "' can exceed 2^53 even unscaled (lambda " + lambda + ", dearest operator " + dearest + ")");
    }

    // ---------------------------------------------------------------- variables

    private boolean mayRun(int o, int t) {
        return windows.mayRun(o, t);
    }

    private boolean mayRunFirst(int o, int t) {
        return windows.mayRunFirst(o, t);
    }

    private boolean inWindow(int a, int t) {
        return windows.inWindow(a, t);
    }

    private void createVariables() {
        for (int o = 0; o < n; o++) {
            String name = graph.operator(o).name();
            for (int t = firstLo[o]; t <= runHi[o]; t++) {
                if (t <= firstHi[o]) {
                    first[o][t] = model.binary("F_" + name + "_" + t);
                }
                run[o][t] = again[o] ? model.binary("X_" + name + "_" + t) : first[o][t];
            }
            for (int t = firstLo[o]; t < firstHi[o]; t++) {
                done[o][t] = model.binary("D_" + name + "_" + t);
            }
            if (again[o]) {
                later[o] = new Variable[slots];
                for (int t = firstLo[o]; t <= runHi[o]; t++) {
                    later[o][t] = model.integer("Z_" + name + "_" + t, 0, runHi[o] - t + 1L);
                }
            }
        }
        for (int a = 0; a < m; a++) {
            String name = graph.tensor(a).name();
            boolean read = graph.consumers(a).length > 0;
            int p = graph.producer(a);
            for (int t = resLo[a]; t <= resHi[a]; t++) {
                if (addresses) {
                    address[a][t] = model.integer("L_" + name + "_" + t, 0,
                            Math.floorDiv(budget - graph.size(a), align));
                }
                if (read) {
                    if (t > resLo[a]) {
                        preserve[a][t] = model.binary("P_" + name + "_" + t);
                    }
                    if (p < 0 || t > firstLo[p]) {
                        load[a][t] = model.binary("R_" + name + "_" + t);
                    }
                }
            }
            if (read && !graph.isHost(a)) {
                spill[a] = model.binary("S_" + name);
            }
        }
    }

    /** X_{o,t} (0 outside o's window). */
    private LinearExpr runs(int o, int t) {
        return run(LinearExpr.of(), 1, o, t);
    }

    private LinearExpr run(LinearExpr e, double coef, int o, int t) {
        return t >= 0 && t < slots && run[o][t] != null ? e.add(coef, run[o][t]) : e;
    }

    /** C_{a,t} + G_{a,t}: a segment of a produced tensor starts at t because its producer runs there (X_{p,t}). */
    private LinearExpr made(int a, int t) {
        return graph.isHost(a) ? LinearExpr.of() : runs(graph.producer(a), t);
    }

    private static LinearExpr plus(LinearExpr e, Variable v) {
        return v == null ? e : e.add(v);
    }

    /** res_{a,t} = C + G + P + R. */
    private LinearExpr resident(int a, int t) {
        if (t < 0 || t >= slots || !inWindow(a, t)) {
            return LinearExpr.of();
        }
        return plus(plus(made(a, t), preserve[a][t]), load[a][t]);
    }

    /** coef x D_{o,t}: o has run by t (0 before its window, 1 after it). */
    private LinearExpr ranBy(LinearExpr e, double coef, int o, int t) {
        if (t < firstLo[o]) {
            return e;
        }
        if (t >= firstHi[o]) {
            return e.addConstant(coef);
        }
        return e.add(coef, done[o][t]);
    }

    /** L_{a,t} = A * K_{a,t}. */
    private LinearExpr addressOf(int a, int t) {
        return LinearExpr.term(align, address[a][t]);
    }

    private long paddedSize(int a) {
        return Math.floorDiv(graph.size(a) + align - 1, align) * align;
    }

    /** expr <= rhs, left out when it has no variable and holds. */
    private void atMost(String name, LinearExpr expr, double rhs) {
        if (expr.isConstant() && expr.constant() <= rhs) {
            return;
        }
        model.lessOrEqual(name, expr, rhs);
    }

    // ---------------------------------------------------------------- runs (eq. 6-7, extended)

    /**
     * memory-model.md "Recomputation": one run per timestep; here at most one, a slot may stay idle, and the idle
     * slots are the last ones (busy_t >= busy_{t+1}). The first n slots are busy: every operator runs.
     */
    private void oneRunPerSlot() {
        for (int t = 0; t < slots; t++) {
            LinearExpr sum = LinearExpr.of();
            for (int o = 0; o < n; o++) {
                run(sum, 1, o, t);
            }
            if (t < n) {
                model.equal("one_run_t" + t, sum, 1);
            } else {
                model.lessOrEqual("one_run_t" + t, sum, 1);
                LinearExpr diff = sum.copy();
                for (int o = 0; o < n; o++) {
                    run(diff, -1, o, t + 1);
                }
                if (t + 1 < slots) {
                    model.greaterOrEqual("idle_last_t" + t, diff, 0);
                }
            }
        }
    }

    /** Eq. 7, extended: exactly one first run F, F <= X, and D_{o,t} = D_{o,t-1} + F_{o,t} inside the window. */
    private void everyOperatorRunsFirstOnce() {
        for (int o = 0; o < n; o++) {
            String name = graph.operator(o).name();
            LinearExpr sum = LinearExpr.of();
            for (int t = firstLo[o]; t <= firstHi[o]; t++) {
                sum.add(first[o][t]);
                if (again[o]) {
                    model.lessOrEqual("first_is_run_" + name + "_" + t,
                            LinearExpr.term(1, first[o][t]).add(-1, run[o][t]), 0);
                }
                if (t < firstHi[o]) {
                    LinearExpr d = LinearExpr.term(1, done[o][t]).add(-1, first[o][t]);
                    model.equal("done_" + name + "_" + t, ranBy(d, -1, o, t - 1), 0);
                }
            }
            model.equal("eq7_first_" + name, sum, 1);
        }
    }

    /** The first run is the earliest: X_{o,t} <= D_{o,t}. */
    private void noRunBeforeTheFirst() {
        for (int o = 0; o < n; o++) {
            if (!again[o]) {
                continue;
            }
            for (int t = firstLo[o]; t <= Math.min(runHi[o], firstHi[o] - 1); t++) {
                atMost("first_earliest_" + graph.operator(o).name() + "_" + t, ranBy(runs(o, t), -1, o, t), 0);
            }
        }
    }

    /** Checker rule {@code schedule}: every run comes after the first run of each input's producer. */
    private void producersRunFirst() {
        for (int c = 0; c < n; c++) {
            for (int a : graph.inputs(c)) {
                int p = graph.producer(a);
                if (p < 0) {
                    continue;
                }
                for (int t = firstLo[c]; t <= Math.min(runHi[c], firstHi[p]); t++) {
                    atMost("prec_" + graph.operator(p).name() + "_" + graph.operator(c).name() + "_" + t,
                            ranBy(runs(c, t), -1, p, t - 1), 0);
                }
            }
        }
    }

    /** A fixed schedule: the i+1-th operator's first run comes after the i-th's (D_{next,t} <= D_{prev,t-1}). */
    private void firstRunsInScheduleOrder() {
        if (fixedOrder == null) {
            return;
        }
        for (int i = 0; i + 1 < n; i++) {
            int prev = fixedOrder[i];
            int next = fixedOrder[i + 1];
            for (int t = firstLo[next]; t < firstHi[next]; t++) {
                atMost("order_" + graph.operator(next).name() + "_" + t,
                        ranBy(ranBy(LinearExpr.of(), 1, next, t), -1, prev, t - 1), 0);
            }
        }
    }

    /** Z_{o,t} = X_{o,t} + Z_{o,t+1}: the runs of an operator that may run again, at t and later. */
    private void countLaterRuns() {
        for (int o = 0; o < n; o++) {
            if (later[o] == null) {
                continue;
            }
            for (int t = firstLo[o]; t <= runHi[o]; t++) {
                LinearExpr e = LinearExpr.term(1, later[o][t]).add(-1, run[o][t]);
                if (t < runHi[o]) {
                    e.add(-1, later[o][t + 1]);
                }
                model.equal("later_" + graph.operator(o).name() + "_" + t, e, 0);
            }
        }
    }

    /** coef x (the runs of c at slots >= t): Z_{c,t}, or 1 - D_{c,t-1} for an operator that runs once. */
    private LinearExpr laterRuns(LinearExpr e, double coef, int c, int t) {
        if (later[c] == null) {
            return ranBy(e.addConstant(coef), -coef, c, t - 1);
        }
        if (t > runHi[c]) {
            return e;
        }
        return e.add(coef, later[c][Math.max(t, firstLo[c])]);
    }

    // ---------------------------------------------------------------- residency (eq. 1-5, 8, extended)

    /**
     * Eq. 1: C + G + P + R <= 1. With G in it this is also {@code through-recompute}: a recomputed segment is a
     * new copy, never the continuation of one resident at t-1.
     */
    private void oneWayToBeResident() {
        for (int a = 0; a < m; a++) {
            for (int t = resLo[a]; t <= resHi[a]; t++) {
                LinearExpr res = resident(a, t);
                if (res.terms().size() > 1) {
                    model.lessOrEqual("eq1_res_" + graph.tensor(a).name() + "_" + t, res, 1);
                }
            }
        }
    }

    /** Eq. 2: P_{a,t} <= res_{a,t-1}. */
    private void preservedOnlyIfResidentBefore() {
        for (int a = 0; a < m; a++) {
            for (int t = resLo[a] + 1; t <= resHi[a]; t++) {
                if (preserve[a][t] != null) {
                    model.lessOrEqual("eq2_" + graph.tensor(a).name() + "_" + t,
                            LinearExpr.term(1, preserve[a][t]).add(-1, resident(a, t - 1)), 0);
                }
            }
        }
    }

    /**
     * Eq. 4 in memory-model.md's terms ({@code host-copy}, {@code before-creation}): a produced tensor is loaded
     * at t only when its producer first ran before t. Its created segment has then ended before t, since eq. 1
     * keeps the loaded segment apart from it.
     */
    private void loadedOnlyAfterCreation() {
        for (int a = 0; a < m; a++) {
            if (graph.isHost(a)) {
                continue;
            }
            int p = graph.producer(a);
            for (int t = resLo[a]; t <= resHi[a]; t++) {
                if (load[a][t] != null) {
                    atMost("eq4_" + graph.tensor(a).name() + "_" + t,
                            ranBy(LinearExpr.term(1, load[a][t]), -1, p, t - 1), 0);
                }
            }
        }
    }

    /** Eq. 3 and 8 folded: S_a >= R_{a,t}, one charged spill per produced tensor with any loaded segment. */
    private void spillChargedOnLoad() {
        for (int a = 0; a < m; a++) {
            if (spill[a] == null) {
                continue;
            }
            for (int t = resLo[a]; t <= resHi[a]; t++) {
                if (load[a][t] != null) {
                    model.lessOrEqual("eq8_" + graph.tensor(a).name() + "_" + t,
                            LinearExpr.term(1, load[a][t]).add(-1, spill[a]), 0);
                }
            }
        }
    }

    /** Eq. 5: every run reads each input from a segment: X_{o,t} <= P_{a,t} + R_{a,t}. */
    private void inputsResidentWhenRead() {
        for (int o = 0; o < n; o++) {
            for (int a : graph.inputs(o)) {
                for (int t = firstLo[o]; t <= runHi[o]; t++) {
                    LinearExpr e = runs(o, t);
                    if (inWindow(a, t)) {
                        if (preserve[a][t] != null) {
                            e.add(-1, preserve[a][t]);
                        }
                        if (load[a][t] != null) {
                            e.add(-1, load[a][t]);
                        }
                    }
                    model.lessOrEqual("eq5_" + graph.operator(o).name() + "_" + graph.tensor(a).name() + "_" + t,
                            e, 0);
                }
            }
        }
    }

    /**
     * Rule {@code past-last-use} over every run: P_{a,t} + R_{a,t} <= the runs of a's readers at slots >= t.
     * A created or recomputed segment may always hold its own slot.
     */
    private void noResidencyAfterLastUse() {
        for (int a = 0; a < m; a++) {
            int[] readers = graph.consumers(a);
            if (readers.length == 0) {
                continue;
            }
            for (int t = resLo[a]; t <= resHi[a]; t++) {
                LinearExpr e = plus(plus(LinearExpr.of(), preserve[a][t]), load[a][t]);
                if (e.terms().isEmpty()) {
                    continue;
                }
                for (int c : readers) {
                    laterRuns(e, -1, c, t);
                }
                atMost("last_use_" + graph.tensor(a).name() + "_" + t, e, 0);
            }
        }
    }

    // ---------------------------------------------------------------- allocation (eq. 9-11)

    /**
     * Implied by eq. 9-10, stated to tighten the relaxation (and the only memory row without addresses): the
     * resident bytes at each slot fit the budget.
     */
    private void bytesWithinBudget() {
        for (int t = 0; t < slots; t++) {
            LinearExpr bytes = LinearExpr.of();
            for (int a = 0; a < m; a++) {
                if (inWindow(a, t)) {
                    bytes.add(graph.size(a), resident(a, t));
                }
            }
            atMost("bytes_t" + t, bytes, budget);
        }
    }

    /**
     * The number of eq. 10 pairs (tensor, tensor, slot) of the program with addresses of these arguments (two
     * variables and three rows each), counted without building them: O(m^2).
     */
    public long addressPairs() {
        return windows.addressPairs();
    }

    /**
     * Eq. 10 as {@link CosmaFormulation} states it: two tensors resident at t are one above the other, a tensor
     * below an aligned one taking its size rounded up to the alignment, per-pair big-M A * highestSlot(a) +
     * padded(a); only for the pairs that can be resident together at t (class comment).
     */
    private void residentTensorsDoNotOverlap() {
        for (int a = 0; a < m; a++) {
            for (int b = a + 1; b < m; b++) {
                if (!windows.mayPair(a, b)) {
                    continue;
                }
                int lo = Math.max(resLo[a], resLo[b]);
                int hi = Math.min(resHi[a], resHi[b]);
                for (int t = lo; t <= hi; t++) {
                    String tag = graph.tensor(a).name() + "_" + graph.tensor(b).name() + "_" + t;
                    Variable up = model.binary("u_" + tag);
                    Variable down = model.binary("d_" + tag);
                    pairs.add(new Pair(a, b, t, up, down));
                    model.lessOrEqual("eq10_one_" + tag, LinearExpr.term(1, up).add(down), 1);
                    LinearExpr both = resident(a, t).add(resident(b, t));
                    model.greaterOrEqual("eq10_both_" + tag, LinearExpr.term(1, up).add(down).add(-1, both), -1);
                    long bigA = align * Math.floorDiv(budget - graph.size(a), align) + paddedSize(a);
                    model.lessOrEqual("eq10_down_" + tag, addressOf(a, t).add(-1, addressOf(b, t))
                            .add(bigA, down), bigA - paddedSize(a));
                    long bigB = align * Math.floorDiv(budget - graph.size(b), align) + paddedSize(b);
                    model.lessOrEqual("eq10_up_" + tag, addressOf(b, t).add(-1, addressOf(a, t))
                            .add(bigB, up), bigB - paddedSize(b));
                }
            }
        }
    }

    /** Eq. 11 with V = P: a preserved tensor keeps its address. */
    private void addressKeptWhilePreserved() {
        for (int a = 0; a < m; a++) {
            long bigM = Math.floorDiv(budget - graph.size(a), align);
            for (int t = resLo[a] + 1; t <= resHi[a]; t++) {
                if (preserve[a][t] == null || bigM == 0) {
                    continue;
                }
                CosmaFormulation.keepAddress(model, graph.tensor(a).name() + "_" + t, address[a][t - 1],
                        address[a][t], preserve[a][t], bigM);
            }
        }
    }

    // ---------------------------------------------------------------- objective (eq. 12, extended)

    /** D x eq. 12 (loads, charged spills, minus compulsory host loads) + (lambda D) x sum c(o) (X - F). */
    private void minimizeTrafficAndRecomputeCost() {
        LinearExpr cost = LinearExpr.of();
        for (int a = 0; a < m; a++) {
            long size = graph.size(a) * unit;
            for (int t = resLo[a]; t <= resHi[a]; t++) {
                if (load[a][t] != null) {
                    cost.add(size, load[a][t]);
                }
            }
            if (spill[a] != null && !graph.isGraphOutput(a)) {
                cost.add(size, spill[a]);
            }
            if (graph.isHost(a) && graph.consumers(a).length > 0) {
                cost.addConstant(-size);
            }
        }
        for (int o = 0; o < n; o++) {
            long c = weight * graph.cost(o);
            if (c == 0 || !again[o]) {
                continue;
            }
            for (int t = firstLo[o]; t <= runHi[o]; t++) {
                cost.add(c, run[o][t]);
                if (first[o][t] != null) {
                    cost.add(-c, first[o][t]);
                }
            }
        }
        model.minimize(cost);
    }

    // ---------------------------------------------------------------- hints and solutions

    /**
     * Gives a plan of this graph, setting and budget (a spill-only plan, or one with recomputes) to the back-end
     * as a starting solution: every variable of the program its value in that plan. A plan the program cannot
     * hold (more than k recomputes, a rerun {@link Reruns} forbids, a first run out of the fixed schedule's order
     * or out of its window, a segment outside a window) is not given; returns whether it was.
     */
    public boolean hint(Plan plan) {
        List<String> order = plan.schedule().operators();
        if (order.size() > slots) {
            return false;
        }
        int[] at = new int[slots];
        boolean[] firstAt = new boolean[slots];
        boolean[] seen = new boolean[n];
        int firsts = 0;
        for (int t = 0; t < slots; t++) {
            at[t] = t < order.size() ? graph.operatorIndex(order.get(t)) : -1;
            int o = at[t];
            if (o < 0) {
                continue;
            }
            firstAt[t] = !seen[o];
            seen[o] = true;
            if (firstAt[t] ? !mayRunFirst(o, t) || fixedOrder != null && fixedOrder[firsts] != o
                    : !again[o] || !mayRun(o, t)) {
                return false;
            }
            firsts += firstAt[t] ? 1 : 0;
        }
        final int none = 0;
        final int kept = 1;
        final int begun = 2;
        int[][] state = new int[m][slots];
        long[][] offset = new long[m][slots];
        boolean[] loaded = new boolean[m];
        for (int a = 0; a < m; a++) {
            for (Segment s : plan.segmentsOf(graph.tensor(a).name())) {
                for (int t = s.start(); t <= s.end(); t++) {
                    if (!inWindow(a, t) || t > s.start() && preserve[a][t] == null) {
                        return false;
                    }
                    state[a][t] = t == s.start() ? begun : kept;
                    offset[a][t] = s.offset();
                }
                if (s.origin() == Origin.LOADED) {
                    if (load[a][s.start()] == null) {
                        return false;
                    }
                    loaded[a] = true;
                }
            }
        }
        int[] runsLeft = new int[n];
        for (int t = slots - 1; t >= 0; t--) {
            if (at[t] >= 0) {
                runsLeft[at[t]]++;
            }
            for (int o = 0; o < n; o++) {
                if (run[o][t] != null) {
                    model.hint(run[o][t], at[t] == o ? 1 : 0);
                }
                if (first[o][t] != null) {
                    model.hint(first[o][t], at[t] == o && firstAt[t] ? 1 : 0);
                }
                if (later[o] != null && later[o][t] != null) {
                    model.hint(later[o][t], runsLeft[o]);
                }
            }
        }
        for (int o = 0; o < n; o++) {
            boolean ran = false;
            for (int t = 0; t < slots; t++) {
                ran |= at[t] == o;
                if (done[o][t] != null) {
                    model.hint(done[o][t], ran ? 1 : 0);
                }
            }
        }
        for (int a = 0; a < m; a++) {
            for (int t = resLo[a]; t <= resHi[a]; t++) {
                if (preserve[a][t] != null) {
                    model.hint(preserve[a][t], state[a][t] == kept ? 1 : 0);
                }
                if (load[a][t] != null) {
                    boolean starts = state[a][t] == begun && !(at[t] >= 0 && at[t] == graph.producer(a));
                    model.hint(load[a][t], starts ? 1 : 0);
                }
                if (address[a][t] != null) {
                    model.hint(address[a][t], state[a][t] != none ? offset[a][t] / align : 0);
                }
            }
            if (spill[a] != null) {
                model.hint(spill[a], loaded[a] ? 1 : 0);
            }
        }
        for (Pair p : pairs) {
            boolean both = state[p.a()][p.t()] != none && state[p.b()][p.t()] != none;
            boolean aAbove = offset[p.a()][p.t()] > offset[p.b()][p.t()];
            model.hint(p.up(), both && aAbove ? 1 : 0);
            model.hint(p.down(), both && !aAbove ? 1 : 0);
        }
        return true;
    }

    /**
     * The solver's values as a plan: the busy slots as the schedule (idle ones are last and dropped), a segment
     * from each creation (first run), recompute (later run) or load, extended while preserved, at A * K of its
     * first slot (offset 0 without addresses: the caller packs the segments). Not checked here: the caller checks
     * it.
     */
    public Plan plan(SolverResult result) {
        List<String> order = new ArrayList<>();
        int[] at = new int[slots];
        boolean[] firstAt = new boolean[slots];
        for (int t = 0; t < slots; t++) {
            at[t] = -1;
            for (int o = 0; o < n; o++) {
                if (run[o][t] != null && result.isSet(run[o][t])) {
                    at[t] = o;
                    firstAt[t] = first[o][t] != null && result.isSet(first[o][t]);
                    order.add(graph.operator(o).name());
                }
            }
        }
        int length = order.size();
        Map<String, List<Segment>> segments = new LinkedHashMap<>();
        for (int a = 0; a < m; a++) {
            List<Segment> list = new ArrayList<>();
            int start = -1;
            Origin origin = null;
            for (int t = 0; t <= length; t++) {
                boolean made = t < length && !graph.isHost(a) && at[t] == graph.producer(a);
                boolean loaded = t < length && load[a][t] != null && result.isSet(load[a][t]);
                boolean kept = t < length && preserve[a][t] != null && result.isSet(preserve[a][t]);
                if (start >= 0 && !kept) {
                    long offset = addresses ? align * result.intValue(address[a][start]) : 0;
                    list.add(new Segment(start, t - 1, offset, origin));
                    start = -1;
                }
                if (made || loaded) {
                    start = t;
                    origin = loaded ? Origin.LOADED : firstAt[t] ? Origin.CREATED : Origin.RECOMPUTED;
                }
            }
            if (!list.isEmpty()) {
                segments.put(graph.tensor(a).name(), list);
            }
        }
        return new Plan(graph.name(), setting, budget, new Schedule(order), segments, null, null);
    }
}
