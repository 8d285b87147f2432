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
 * and recompute weight lambda, with a free schedule.
 *
 * <p>Variables, per slot t in 0 .. T-1:
 * <ul>
 *   <li>X_{o,t}: operator o runs at t (eq. 6-7's C, which may now be 1 at several t); F_{o,t}: that run is o's
 *       first (it creates). X - F is a recompute; each output a of o then starts a {@code recomputed} segment,
 *       G_{a,t} = X_{o,t} - F_{o,t}, and C_{a,t} = F_{o,t} is COSMA's C.</li>
 *   <li>P_{a,t} (preserved), R_{a,t} (loaded), as COSMA; one spill variable S_a per produced tensor instead of
 *       eq. 3's S_{a,t}: with memory-model.md's host copies a produced tensor is charged once when it has any
 *       loaded segment, and that segment only needs the created segment to have ended, which the residency rows
 *       already force.</li>
 *   <li>L_{a,t} = A * K_{a,t} (eq. 9-11's address) and u, d (eq. 10's order of two tensors) as COSMA.</li>
 * </ul>
 * A slot may stay idle, so that a plan with fewer than k recomputes is one of the program's: a plan of T' <= T
 * runs is the solution whose slots T' .. T-1 are idle. Idle slots are therefore required to be the last ones
 * (no plan is lost, and the idle-in-the-middle twins of each plan are cut); nothing is resident in them (no
 * read follows), and {@link #plan} drops them.
 *
 * <p>Size: 2 n T run variables, 3 m T residency and address variables (m tensors), 2 per pair of tensors and
 * slot for eq. 10, and m spill variables; as many rows, of which eq. 10's 3 per pair and slot dominate:
 * O(m^2 T) for T = n + k. No lifetime windows: every variable spans all T slots (the program is meant for the
 * tiny graphs of its proof; windows with recomputes are the next step).
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
    private final Model model;
    private final long unit;
    private final long weight;
    private final boolean exact;

    private final Variable[][] run;
    private final Variable[][] first;
    private final Variable[][] preserve;
    private final Variable[][] load;
    private final Variable[] spill;
    private final Variable[][] address;

    /**
     * @param graph the graph in its tensor setting
     * @param extraRuns k >= 0: the most recomputes a plan may make (k = 0: COSMA's program, one run each)
     * @param lambda bytes per cost unit, finite and >= 0
     * @throws IllegalArgumentException on a negative k or lambda, a tensor larger than the budget, or an objective
     *     that cannot stay below 2^53 even unscaled
     */
    public RecomputeFormulation(Graph graph, TensorSetting setting, long budget, int extraRuns, double lambda) {
        if (extraRuns < 0) {
            throw new IllegalArgumentException("extra runs must be >= 0, got " + extraRuns);
        }
        if (!(lambda >= 0) || Double.isInfinite(lambda)) {
            throw new IllegalArgumentException("the recompute weight lambda must be a finite number >= 0, got "
                    + lambda);
        }
        this.graph = graph;
        this.setting = setting;
        this.budget = budget;
        this.align = graph.alignment();
        this.n = graph.operatorCount();
        this.m = graph.tensorCount();
        this.slots = n + extraRuns;
        for (int a = 0; a < m; a++) {
            if (graph.size(a) > budget) {
                throw new IllegalArgumentException("tensor '" + graph.tensor(a).name() + "' (" + graph.size(a)
                        + " bytes) is larger than the budget " + budget);
            }
        }
        long[] scale = scale(lambda);
        this.unit = scale[0];
        this.weight = scale[1];
        this.exact = scale[2] == 1;
        this.model = new Model("cosma-recompute-" + graph.name());
        run = new Variable[n][slots];
        first = new Variable[n][slots];
        preserve = new Variable[m][slots];
        load = new Variable[m][slots];
        spill = new Variable[m];
        address = new Variable[m][slots];
        createVariables();
        atMostOneRunPerSlot();
        idleSlotsLast();
        everyOperatorRunsFirstOnce();
        noRunBeforeTheFirst();
        producersRunFirst();
        oneWayToBeResident();
        preservedOnlyIfResidentBefore();
        loadedOnlyAfterCreation();
        spillChargedOnLoad();
        inputsResidentWhenRead();
        noResidencyAfterLastUse();
        bytesWithinBudget();
        residentTensorsDoNotOverlap();
        addressKeptWhilePreserved();
        minimizeTrafficAndRecomputeCost();
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

    private void createVariables() {
        for (int o = 0; o < n; o++) {
            String name = graph.operator(o).name();
            for (int t = 0; t < slots; t++) {
                run[o][t] = model.binary("X_" + name + "_" + t);
                first[o][t] = model.binary("F_" + name + "_" + t);
            }
        }
        for (int a = 0; a < m; a++) {
            String name = graph.tensor(a).name();
            boolean read = graph.consumers(a).length > 0;
            for (int t = 0; t < slots; t++) {
                address[a][t] = model.integer("L_" + name + "_" + t, 0, Math.floorDiv(budget - graph.size(a), align));
                if (read) {
                    if (t > 0) {
                        preserve[a][t] = model.binary("P_" + name + "_" + t);
                    }
                    load[a][t] = model.binary("R_" + name + "_" + t);
                }
            }
            if (read && !graph.isHost(a)) {
                spill[a] = model.binary("S_" + name);
            }
        }
    }

    /** X_{o,t}: o runs at t. */
    private LinearExpr runs(int o, int t) {
        return LinearExpr.term(1, run[o][t]);
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
        if (t < 0 || t >= slots) {
            return LinearExpr.of();
        }
        return plus(plus(made(a, t), preserve[a][t]), load[a][t]);
    }

    /** sum over u < t of F_{o,u}: o has run before t. */
    private LinearExpr ranBefore(int o, int t) {
        LinearExpr e = LinearExpr.of();
        for (int u = 0; u < t; u++) {
            e.add(first[o][u]);
        }
        return e;
    }

    /** L_{a,t} = A * K_{a,t}. */
    private LinearExpr addressOf(int a, int t) {
        return LinearExpr.term(align, address[a][t]);
    }

    private long paddedSize(int a) {
        return Math.floorDiv(graph.size(a) + align - 1, align) * align;
    }

    // ---------------------------------------------------------------- runs (eq. 6-7, extended)

    /** memory-model.md "Recomputation": one run per timestep; here at most one, a slot may stay idle. */
    private void atMostOneRunPerSlot() {
        for (int t = 0; t < slots; t++) {
            LinearExpr sum = LinearExpr.of();
            for (int o = 0; o < n; o++) {
                sum.add(run[o][t]);
            }
            model.lessOrEqual("one_run_t" + t, sum, 1);
        }
    }

    /** Idle slots are the last ones: busy_t >= busy_{t+1}. The first n slots are busy (every operator runs). */
    private void idleSlotsLast() {
        for (int t = 0; t + 1 < slots; t++) {
            LinearExpr diff = LinearExpr.of();
            for (int o = 0; o < n; o++) {
                diff.add(run[o][t]).add(-1, run[o][t + 1]);
            }
            model.greaterOrEqual("idle_last_t" + t, diff, 0);
        }
    }

    /** Eq. 7, extended: each operator has exactly one first run F, and a first run is a run (F <= X). */
    private void everyOperatorRunsFirstOnce() {
        for (int o = 0; o < n; o++) {
            LinearExpr sum = LinearExpr.of();
            for (int t = 0; t < slots; t++) {
                sum.add(first[o][t]);
                model.lessOrEqual("first_is_run_" + graph.operator(o).name() + "_" + t,
                        LinearExpr.term(1, first[o][t]).add(-1, run[o][t]), 0);
            }
            model.equal("eq7_first_" + graph.operator(o).name(), sum, 1);
        }
    }

    /** The first run is the earliest: X_{o,t} <= F_{o,t} + sum_{u<t} F_{o,u}. */
    private void noRunBeforeTheFirst() {
        for (int o = 0; o < n; o++) {
            for (int t = 0; t < slots; t++) {
                LinearExpr e = runs(o, t).add(-1, first[o][t]).add(-1, ranBefore(o, t));
                model.lessOrEqual("first_earliest_" + graph.operator(o).name() + "_" + t, e, 0);
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
                for (int t = 0; t < slots; t++) {
                    model.lessOrEqual("prec_" + graph.operator(p).name() + "_" + graph.operator(c).name() + "_" + t,
                            runs(c, t).add(-1, ranBefore(p, t)), 0);
                }
            }
        }
    }

    // ---------------------------------------------------------------- residency (eq. 1-5, 8, extended)

    /**
     * Eq. 1: C + G + P + R <= 1. With G in it this is also {@code through-recompute}: a recomputed segment is a
     * new copy, never the continuation of one resident at t-1.
     */
    private void oneWayToBeResident() {
        for (int a = 0; a < m; a++) {
            for (int t = 0; t < slots; t++) {
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
            for (int t = 1; t < slots; t++) {
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
            for (int t = 0; t < slots; t++) {
                if (load[a][t] != null) {
                    model.lessOrEqual("eq4_" + graph.tensor(a).name() + "_" + t,
                            LinearExpr.term(1, load[a][t]).add(-1, ranBefore(graph.producer(a), t)), 0);
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
            for (int t = 0; t < slots; t++) {
                model.lessOrEqual("eq8_" + graph.tensor(a).name() + "_" + t,
                        LinearExpr.term(1, load[a][t]).add(-1, spill[a]), 0);
            }
        }
    }

    /** Eq. 5: every run reads each input from a segment: X_{o,t} <= P_{a,t} + R_{a,t}. */
    private void inputsResidentWhenRead() {
        for (int o = 0; o < n; o++) {
            for (int a : graph.inputs(o)) {
                for (int t = 0; t < slots; t++) {
                    LinearExpr e = runs(o, t);
                    if (preserve[a][t] != null) {
                        e.add(-1, preserve[a][t]);
                    }
                    e.add(-1, load[a][t]);
                    model.lessOrEqual("eq5_" + graph.operator(o).name() + "_" + graph.tensor(a).name() + "_" + t,
                            e, 0);
                }
            }
        }
    }

    /**
     * Rule {@code past-last-use} over every run: P_{a,t} + R_{a,t} <= sum over readers c and u >= t of X_{c,u}.
     * A created or recomputed segment may always hold its own slot.
     */
    private void noResidencyAfterLastUse() {
        for (int a = 0; a < m; a++) {
            int[] readers = graph.consumers(a);
            if (readers.length == 0) {
                continue;
            }
            for (int t = 0; t < slots; t++) {
                LinearExpr e = plus(plus(LinearExpr.of(), preserve[a][t]), load[a][t]);
                for (int c : readers) {
                    for (int u = t; u < slots; u++) {
                        e.add(-1, run[c][u]);
                    }
                }
                model.lessOrEqual("last_use_" + graph.tensor(a).name() + "_" + t, e, 0);
            }
        }
    }

    // ---------------------------------------------------------------- allocation (eq. 9-11)

    /** Implied by eq. 9-10, stated to tighten the relaxation: the resident bytes at each slot fit the budget. */
    private void bytesWithinBudget() {
        for (int t = 0; t < slots; t++) {
            LinearExpr bytes = LinearExpr.of();
            for (int a = 0; a < m; a++) {
                bytes.add(graph.size(a), resident(a, t));
            }
            model.lessOrEqual("bytes_t" + t, bytes, budget);
        }
    }

    /**
     * Eq. 10 as {@link CosmaFormulation} states it (copied, not shared: that class keeps its pairs to its
     * lifetime windows): two tensors resident at t are one above the other, a tensor below an aligned one taking
     * its size rounded up to the alignment, per-pair big-M A * highestSlot(a) + padded(a).
     */
    private void residentTensorsDoNotOverlap() {
        for (int t = 0; t < slots; t++) {
            for (int a = 0; a < m; a++) {
                for (int b = a + 1; b < m; b++) {
                    String tag = graph.tensor(a).name() + "_" + graph.tensor(b).name() + "_" + t;
                    Variable up = model.binary("u_" + tag);
                    Variable down = model.binary("d_" + tag);
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
            for (int t = 1; t < slots; t++) {
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
            for (int t = 0; t < slots; t++) {
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
            if (c == 0) {
                continue;
            }
            for (int t = 0; t < slots; t++) {
                cost.add(c, run[o][t]).add(-c, first[o][t]);
            }
        }
        model.minimize(cost);
    }

    // ---------------------------------------------------------------- solutions

    /**
     * The solver's values as a plan: the busy slots as the schedule (idle ones are last and dropped), a segment
     * from each creation (first run), recompute (later run) or load, extended while preserved, at A * K of its
     * first slot. Not checked here: the caller checks it.
     */
    public Plan plan(SolverResult result) {
        List<String> order = new ArrayList<>();
        int[] at = new int[slots];
        boolean[] firstAt = new boolean[slots];
        for (int t = 0; t < slots; t++) {
            at[t] = -1;
            for (int o = 0; o < n; o++) {
                if (result.isSet(run[o][t])) {
                    at[t] = o;
                    firstAt[t] = result.isSet(first[o][t]);
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
                    list.add(new Segment(start, t - 1, align * result.intValue(address[a][start]), origin));
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
