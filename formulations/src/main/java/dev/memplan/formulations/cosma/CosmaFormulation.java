package dev.memplan.formulations.cosma;

import dev.memplan.formulations.milp.LinearExpr;
import dev.memplan.formulations.milp.Model;
import dev.memplan.formulations.milp.SolverResult;
import dev.memplan.formulations.milp.Variable;
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
 * The COSMA integer linear program (Li, Gupta, Malik, "Combined Scheduling, Memory Allocation and Tensor
 * Replacement for Minimizing Off-Chip Data Accesses of DNN Accelerators", section III, eq. 1-17) over the
 * memory model of memory-model.md, for one graph (already in its tensor setting) and budget.
 *
 * <p>Variables, per tensor a and timestep t, only inside the windows of {@link OperatorWindows}:
 * <ul>
 *   <li>C_{a,t}: created. Siblings share one variable per operator and timestep (eq. 6 by construction), so
 *       C_{a,t} is the operator's "runs at t" variable; with a fixed schedule it is the constant of eq. 16.
 *   <li>P_{a,t}: preserved (resident, in the same segment as at t-1); R_{a,t}: loaded (a loaded segment starts);
 *       S_{a,t}: spilled (written out; charged once unless a graph output).
 *   <li>L_{a,t}: base address, as A * K_{a,t} with an integer K (A the graph's alignment, memory-model.md rule 5:
 *       every address a multiple of A by construction; K = L when A = 1); V_{a,t} of eq. 11 equals P_{a,t}
 *       (eq. 11's last three rows force it given eq. 2), so P is used directly. u_{a,b,t}, d_{a,b,t}: order of
 *       two resident tensors' addresses (eq. 10).
 * </ul>
 * Added to the paper, as memory-model.md requires: exactly one operator per timestep; host tensors are never
 * created and always have a host copy (eq. 4 does not apply to them); no residency after the last use;
 * precedence of producer before consumer (implied by eq. 2-5, stated to tighten the relaxation). Eq. 1 is
 * split: C + P + R <= 1 (one way to be resident) and C + P + S <= 1, so that a spill at t and a load at t
 * are a legal move through host memory (back-to-back segments).
 *
 * <p>Size: one C per operator and timestep of its window; P, R, S and L per tensor and timestep of its window
 * (eq. 4 and the last-use rows grow with the square of a window); u and d per pair of tensors that can be
 * resident together, per such timestep. {@link ModelEstimate} counts them before a build.
 */
public final class CosmaFormulation {
    private final Graph graph;
    private final TensorSetting setting;
    private final long budget;
    /** The graph's alignment A: every address is A * (the value of its address variable). */
    private final long align;
    private final CosmaObjective objective;
    private final boolean addresses;
    private final OperatorWindows windows;
    private final Schedule fixedSchedule;
    private final int n;
    private final Model model;
    /** Null: no forced inequalities. */
    private final ForcedTraffic forced;
    /** The room at each timestep of the program without addresses; null: the budget. */
    private final long[] capacity;

    /** run[o][t]: the operator runs at t (null outside its window); with a fixed schedule, no variables. */
    private final Variable[][] run;
    private final Variable[][] preserve;
    private final Variable[][] load;
    private final Variable[][] spill;
    private final Variable[][] address;
    private final List<Pair> pairs = new ArrayList<>();
    private Variable peak;

    /** The ordering variables of two tensors at one timestep (eq. 10). */
    private record Pair(int a, int b, int t, Variable up, Variable down) {
    }

    /**
     * @param graph the graph in its tensor setting
     * @param fixedSchedule null for a free schedule (eq. 1-12), otherwise eq. 16-17
     * @param addresses include the allocation (eq. 9-11); without it, TRAFFIC keeps only the bytes on chip within
     *     the budget: a relaxation whose optimum is a lower bound on the true one, and whose residency a
     *     fixed-schedule allocator may or may not pack
     * @param prune use the lifetime windows (false: every variable over the whole horizon, for comparison)
     */
    public CosmaFormulation(Graph graph, TensorSetting setting, long budget, CosmaObjective objective,
                            Schedule fixedSchedule, boolean addresses, boolean prune) {
        this(graph, setting, budget, objective, fixedSchedule, addresses, prune,
                ForcedTraffic.of(graph, OperatorWindows.of(graph, fixedSchedule, prune), budget));
    }

    /**
     * @param forced the forced traffic of this graph, budget, schedule and pruning (computed once by the caller),
     *     whose round trips and compulsory loads become valid inequalities (TRAFFIC); null for none, only to
     *     measure what they buy
     */
    public CosmaFormulation(Graph graph, TensorSetting setting, long budget, CosmaObjective objective,
                            Schedule fixedSchedule, boolean addresses, boolean prune, ForcedTraffic forced) {
        this(graph, setting, budget, objective, fixedSchedule, addresses, prune, forced, null);
    }

    /**
     * The program without addresses with room that changes over time: at timestep t the resident tensors' sizes
     * sum to at most {@code capacity[t]} (at most the budget) instead of the budget. Divide and conquer uses it for
     * a window of a plan whose other tensors stay where they are: the bytes they keep on chip at each of the
     * window's timesteps are not the window's (the addresses of those tensors, hence fragmentation, are ignored:
     * the program proposes an order, the whole graph's program then decides it).
     *
     * @param capacity one entry per timestep, each at most the budget; null: the budget everywhere
     * @throws IllegalArgumentException with addresses, or when the capacity has the wrong length or exceeds the
     *     budget
     */
    public CosmaFormulation(Graph graph, TensorSetting setting, long budget, CosmaObjective objective,
                            Schedule fixedSchedule, boolean addresses, boolean prune, ForcedTraffic forced,
                            long[] capacity) {
        if (capacity != null) {
            if (addresses || objective != CosmaObjective.TRAFFIC) {
                throw new IllegalArgumentException("a capacity per timestep is for the traffic program without "
                        + "addresses only");
            }
            if (capacity.length != graph.operatorCount()) {
                throw new IllegalArgumentException("capacity has " + capacity.length + " timesteps, the graph "
                        + graph.operatorCount());
            }
            for (long c : capacity) {
                if (c > budget) {
                    throw new IllegalArgumentException("capacity " + c + " is above the budget " + budget);
                }
            }
        }
        this.capacity = capacity == null ? null : capacity.clone();
        this.graph = graph;
        this.setting = setting;
        this.budget = budget;
        this.align = graph.alignment();
        this.objective = objective;
        this.addresses = addresses;
        this.fixedSchedule = fixedSchedule;
        this.windows = OperatorWindows.of(graph, fixedSchedule, prune);
        this.n = graph.operatorCount();
        this.forced = forced;
        int nt = graph.tensorCount();
        this.model = new Model("cosma-" + objective.name().toLowerCase() + "-" + graph.name());
        run = new Variable[graph.operatorCount()][n];
        preserve = new Variable[nt][n];
        load = new Variable[nt][n];
        spill = new Variable[nt][n];
        address = new Variable[nt][n];
        createVariables();
        oneOperatorPerTimestep();
        everyOperatorRunsOnce();
        producersRunBeforeConsumers();
        oneWayToBeResident();
        preservedOnlyIfResidentBefore();
        spilledOnlyIfResidentBefore();
        loadedOnlyWithAHostCopy();
        atMostOneSpill();
        inputsResidentWhenRead();
        noResidencyAfterLastUse();
        if (this.addresses) {
            addressesWithinBudget();
            residentTensorsDoNotOverlap();
            addressKeptWhilePreserved();
        }
        if (objective == CosmaObjective.TRAFFIC) {
            bytesWithinBudget();
            if (forced != null) {
                forcedRoundTrips();
            }
            minimizeTraffic();
        } else {
            onlyCompulsoryLoads();
            minimizePeakFootprint();
        }
    }

    public Model model() {
        return model;
    }

    public OperatorWindows windows() {
        return windows;
    }


    // ---------------------------------------------------------------- variables

    private void createVariables() {
        if (fixedSchedule == null) {
            for (int o = 0; o < graph.operatorCount(); o++) {
                for (int t = windows.earliest(o); t <= windows.latest(o); t++) {
                    run[o][t] = model.binary("C_" + graph.operator(o).name() + "_" + t);
                }
            }
        }
        for (int a = 0; a < graph.tensorCount(); a++) {
            String name = graph.tensor(a).name();
            boolean produced = !graph.isHost(a);
            boolean read = graph.consumers(a).length > 0;
            for (int t = windows.tensorFirst(a); t <= windows.tensorLast(a); t++) {
                if (addresses) {
                    address[a][t] = model.integer("L_" + name + "_" + t, 0, highestSlot(a));
                }
                if (!read) {
                    continue;
                }
                boolean afterCreation = !produced || t > windows.earliest(graph.producer(a));
                if (t > windows.tensorFirst(a) && afterCreation) {
                    preserve[a][t] = model.binary("P_" + name + "_" + t);
                }
                if (afterCreation) {
                    load[a][t] = model.binary("R_" + name + "_" + t);
                }
                if (produced && afterCreation && objective == CosmaObjective.TRAFFIC) {
                    spill[a][t] = model.binary("S_" + name + "_" + t);
                }
            }
        }
    }

    /** The largest K with A * K + Size(a) <= M_B (eq. 9 on the aligned addresses); -1 when the tensor never fits. */
    private long highestSlot(int a) {
        return Math.floorDiv(budget - graph.size(a), align);
    }

    /** Size(a) rounded up to the alignment: what a tensor below another one takes, since the other is aligned. */
    private long paddedSize(int a) {
        return Math.floorDiv(graph.size(a) + align - 1, align) * align;
    }

    /** L_{a,t} = A * K_{a,t}. */
    private LinearExpr addressOf(int a, int t) {
        return LinearExpr.term(align, address[a][t]);
    }

    /** C of an operator at t: its variable, a constant with a fixed schedule, or nothing outside its window. */
    private LinearExpr runs(int o, int t) {
        if (!windows.canRun(o, t)) {
            return LinearExpr.of();
        }
        if (fixedSchedule != null) {
            return LinearExpr.of().addConstant(1);
        }
        return LinearExpr.term(1, run[o][t]);
    }

    /** C_{a,t}: the tensor is created at t (its producer runs at t). */
    private LinearExpr created(int a, int t) {
        return graph.isHost(a) ? LinearExpr.of() : runs(graph.producer(a), t);
    }

    private static LinearExpr plus(LinearExpr e, Variable v) {
        return v == null ? e : e.add(v);
    }

    /** res_{a,t} = C + P + R (eq. 10's definition). */
    private LinearExpr resident(int a, int t) {
        if (t < 0 || t >= n || !windows.canBeResident(a, t)) {
            return LinearExpr.of();
        }
        return plus(plus(created(a, t), preserve[a][t]), load[a][t]);
    }

    /** A new expression: k times e. */
    private static LinearExpr scaled(LinearExpr e, double k) {
        LinearExpr out = LinearExpr.of().addConstant(k * e.constant());
        e.terms().forEach((v, c) -> out.add(k * c, v));
        return out;
    }

    /** More than one term (a constant counts as one): a constraint that says something. */
    private static boolean severalTerms(LinearExpr e) {
        return e.terms().size() + (e.constant() != 0 ? 1 : 0) > 1;
    }

    private boolean hasVariable(LinearExpr e) {
        return !e.terms().isEmpty();
    }

    // ---------------------------------------------------------------- scheduling

    /** memory-model.md "Time": exactly one operator per timestep (not in the paper). */
    private void oneOperatorPerTimestep() {
        if (fixedSchedule != null) {
            return;
        }
        for (int t = 0; t < n; t++) {
            LinearExpr sum = LinearExpr.of();
            for (int o = 0; o < graph.operatorCount(); o++) {
                sum.add(runs(o, t));
            }
            model.equal("one_op_t" + t, sum, 1);
        }
    }

    /** Eq. 7 (per operator, siblings sharing it by eq. 6): every operator runs exactly once. */
    private void everyOperatorRunsOnce() {
        if (fixedSchedule != null) {
            return;
        }
        for (int o = 0; o < graph.operatorCount(); o++) {
            LinearExpr sum = LinearExpr.of();
            for (int t = windows.earliest(o); t <= windows.latest(o); t++) {
                sum.add(runs(o, t));
            }
            model.equal("eq7_once_" + graph.operator(o).name(), sum, 1);
        }
    }

    /** Producer before consumer: sum t*C_c >= sum t*C_p + 1. Implied by eq. 2-5; tightens the relaxation. */
    private void producersRunBeforeConsumers() {
        if (fixedSchedule != null) {
            return;
        }
        for (int c = 0; c < graph.operatorCount(); c++) {
            for (int a : graph.inputs(c)) {
                int p = graph.producer(a);
                if (p < 0) {
                    continue;
                }
                LinearExpr diff = LinearExpr.of();
                for (int t = windows.earliest(c); t <= windows.latest(c); t++) {
                    diff.add(t, run[c][t]);
                }
                for (int t = windows.earliest(p); t <= windows.latest(p); t++) {
                    diff.add(-t, run[p][t]);
                }
                model.greaterOrEqual("prec_" + graph.operator(p).name() + "_" + graph.operator(c).name(), diff, 1);
            }
        }
    }

    // ---------------------------------------------------------------- residency (eq. 1-5, 8)

    /** Eq. 1, split: C + P + R <= 1 and C + P + S <= 1 (a spill and a load at t form a move through host). */
    private void oneWayToBeResident() {
        for (int a = 0; a < graph.tensorCount(); a++) {
            for (int t = Math.max(0, windows.tensorFirst(a)); t <= windows.tensorLast(a); t++) {
                LinearExpr res = resident(a, t);
                if (severalTerms(res)) {
                    model.lessOrEqual("eq1_res_" + graph.tensor(a).name() + "_" + t, res, 1);
                }
                if (spill[a][t] != null) {
                    LinearExpr e = plus(plus(created(a, t), preserve[a][t]), spill[a][t]);
                    if (severalTerms(e)) {
                        model.lessOrEqual("eq1_spill_" + graph.tensor(a).name() + "_" + t, e, 1);
                    }
                }
            }
        }
    }

    /** Eq. 2: P_{a,t} <= C_{a,t-1} + P_{a,t-1} + R_{a,t-1}. */
    private void preservedOnlyIfResidentBefore() {
        for (int a = 0; a < graph.tensorCount(); a++) {
            for (int t = 0; t < n; t++) {
                if (preserve[a][t] != null) {
                    model.lessOrEqual("eq2_" + graph.tensor(a).name() + "_" + t,
                            LinearExpr.term(1, preserve[a][t]).add(scaled(resident(a, t - 1), -1)), 0);
                }
            }
        }
    }

    /** Eq. 3: S_{a,t} <= C_{a,t-1} + P_{a,t-1}. */
    private void spilledOnlyIfResidentBefore() {
        for (int a = 0; a < graph.tensorCount(); a++) {
            for (int t = 0; t < n; t++) {
                if (spill[a][t] != null) {
                    LinearExpr before = t == 0 ? LinearExpr.of() : plus(created(a, t - 1), preserve[a][t - 1]);
                    model.lessOrEqual("eq3_" + graph.tensor(a).name() + "_" + t,
                            LinearExpr.term(1, spill[a][t]).add(scaled(before, -1)), 0);
                }
            }
        }
    }

    /** Eq. 4: a produced tensor is loaded only after a spill (host tensors always have a host copy). */
    private void loadedOnlyWithAHostCopy() {
        for (int a = 0; a < graph.tensorCount(); a++) {
            if (graph.isHost(a)) {
                continue;
            }
            LinearExpr spilledSoFar = LinearExpr.of();
            for (int t = 0; t < n; t++) {
                if (spill[a][t] != null) {
                    spilledSoFar.add(spill[a][t]);
                }
                if (load[a][t] != null) {
                    model.lessOrEqual("eq4_" + graph.tensor(a).name() + "_" + t,
                            LinearExpr.term(1, load[a][t]).add(scaled(spilledSoFar, -1)), 0);
                }
            }
        }
    }

    /** Eq. 8: at most one spill per tensor (host memory keeps the copy). */
    private void atMostOneSpill() {
        for (int a = 0; a < graph.tensorCount(); a++) {
            LinearExpr sum = LinearExpr.of();
            for (int t = 0; t < n; t++) {
                if (spill[a][t] != null) {
                    sum.add(spill[a][t]);
                }
            }
            if (sum.terms().size() > 1) {
                model.lessOrEqual("eq8_" + graph.tensor(a).name(), sum, 1);
            }
        }
    }

    /** Eq. 5: when an operator runs at t, each input is preserved or loaded at t. */
    private void inputsResidentWhenRead() {
        for (int o = 0; o < graph.operatorCount(); o++) {
            for (int a : graph.inputs(o)) {
                for (int t = windows.earliest(o); t <= windows.latest(o); t++) {
                    LinearExpr e = runs(o, t);
                    if (preserve[a][t] != null) {
                        e.add(-1, preserve[a][t]);
                    }
                    if (load[a][t] != null) {
                        e.add(-1, load[a][t]);
                    }
                    model.lessOrEqual("eq5_" + graph.operator(o).name() + "_" + graph.tensor(a).name() + "_" + t, e, 0);
                }
            }
        }
    }

    /** Rule 3: resident at t (other than at creation) only if some reader runs at t or later. */
    private void noResidencyAfterLastUse() {
        for (int a = 0; a < graph.tensorCount(); a++) {
            int[] readers = graph.consumers(a);
            if (readers.length == 0) {
                continue;
            }
            for (int t = windows.tensorFirst(a); t <= windows.tensorLast(a); t++) {
                LinearExpr kept = plus(plus(LinearExpr.of(), preserve[a][t]), load[a][t]);
                if (!hasVariable(kept)) {
                    continue;
                }
                LinearExpr later = LinearExpr.of();
                for (int c : readers) {
                    for (int u = Math.max(t, windows.earliest(c)); u <= windows.latest(c); u++) {
                        later.add(runs(c, u));
                    }
                }
                if (later.constant() >= 1 && !hasVariable(later)) {
                    continue;
                }
                model.lessOrEqual("last_use_" + graph.tensor(a).name() + "_" + t, kept.add(scaled(later, -1)), 0);
            }
        }
    }

    /**
     * At every timestep the resident tensors' sizes sum to at most the budget: implied by eq. 9-10 (disjoint
     * ranges below M_B), stated as a valid inequality that tightens the relaxation, and the only memory
     * constraint of the program without addresses.
     */
    private void bytesWithinBudget() {
        for (int t = 0; t < n; t++) {
            LinearExpr bytes = LinearExpr.of();
            for (int a = 0; a < graph.tensorCount(); a++) {
                bytes.add(scaled(resident(a, t), graph.size(a)));
            }
            long room = capacity == null ? budget : capacity[t];
            if (hasVariable(bytes) || bytes.constant() > room) {
                model.lessOrEqual("bytes_t" + t, bytes, room);
            }
        }
    }

    /**
     * The loads and spills that every plan makes, as valid inequalities: the compulsory load of each used host
     * tensor, and the round trips that {@link ForcedTraffic} proves. Without them the relaxation, with its
     * fractional schedule, loads a host tensor only by the fraction of its reader that runs at one timestep
     * (the objective, which subtracts the compulsory loads, goes negative; an example: BENCHMARKS.md, "COSMA at
     * scale"), and keeps a tensor partly resident while an operator that leaves no room for it partly runs.
     */
    private void forcedRoundTrips() {
        for (int a = 0; a < graph.tensorCount(); a++) {
            int k = forced.loads(a);
            boolean usedHost = graph.isHost(a) && graph.consumers(a).length > 0;
            if (k == 0 && !usedHost) {
                continue;
            }
            LinearExpr loads = LinearExpr.of();
            LinearExpr spills = LinearExpr.of();
            for (int t = 0; t < n; t++) {
                if (load[a][t] != null) {
                    loads.add(load[a][t]);
                }
                if (spill[a][t] != null) {
                    spills.add(spill[a][t]);
                }
            }
            model.greaterOrEqual("forced_loads_" + graph.tensor(a).name(), loads, k + (graph.isHost(a) ? 1 : 0));
            if (forced.spill(a)) {
                model.greaterOrEqual("forced_spill_" + graph.tensor(a).name(), spills, 1);
            }
        }
        for (int[] group : forced.groups()) {
            LinearExpr loads = LinearExpr.of();
            LinearExpr spills = LinearExpr.of();
            for (int a : group) {
                for (int t = 0; t < n; t++) {
                    if (load[a][t] != null) {
                        loads.add(load[a][t]);
                    }
                    if (spill[a][t] != null) {
                        spills.add(spill[a][t]);
                    }
                }
            }
            String tag = graph.tensor(group[0]).name() + "_" + group.length;
            model.greaterOrEqual("forced_group_loads_" + tag, loads, group.length - 1);
            model.greaterOrEqual("forced_group_spills_" + tag, spills, group.length - 1);
        }
    }

    // ---------------------------------------------------------------- allocation (eq. 9-11)

    /** Eq. 9: L_{a,t} + Size(a) <= M_B, as the upper bound of L. */
    private void addressesWithinBudget() {
        for (int a = 0; a < graph.tensorCount(); a++) {
            if (windows.tensorFirst(a) <= windows.tensorLast(a) && graph.size(a) > budget) {
                throw new IllegalArgumentException("tensor '" + graph.tensor(a).name() + "' (" + graph.size(a)
                        + " bytes) is larger than the budget " + budget);
            }
        }
    }

    /**
     * Eq. 10: two tensors resident at t are ordered one above the other. Below an aligned tensor, a tensor takes
     * its size rounded up to the alignment (the next multiple of A above its end is the lowest address the other
     * can have), which keeps the program exact and tightens it. Per-pair big-M = the largest L_a + padded(a) -
     * L_b can be, A * highestSlot(a) + padded(a) (= M_B when A = 1). Pairs only where both can be resident
     * together.
     */
    private void residentTensorsDoNotOverlap() {
        for (int t = 0; t < n; t++) {
            List<Integer> here = new ArrayList<>();
            for (int a = 0; a < graph.tensorCount(); a++) {
                if (address[a][t] != null) {
                    here.add(a);
                }
            }
            for (int i = 0; i < here.size(); i++) {
                for (int j = i + 1; j < here.size(); j++) {
                    int a = here.get(i);
                    int b = here.get(j);
                    if (!windows.canCoexist(a, b, t)) {
                        continue;
                    }
                    String tag = graph.tensor(a).name() + "_" + graph.tensor(b).name() + "_" + t;
                    Variable up = model.binary("u_" + tag);
                    Variable down = model.binary("d_" + tag);
                    pairs.add(new Pair(a, b, t, up, down));
                    model.lessOrEqual("eq10_one_" + tag, LinearExpr.term(1, up).add(down), 1);
                    LinearExpr both = resident(a, t).add(resident(b, t));
                    model.greaterOrEqual("eq10_both_" + tag, LinearExpr.term(1, up).add(down).add(scaled(both, -1)), -1);
                    // d = 1: a below b.  L_a + padded(a) - L_b <= M_a (1 - d)
                    long bigA = align * highestSlot(a) + paddedSize(a);
                    model.lessOrEqual("eq10_down_" + tag, addressOf(a, t).add(scaled(addressOf(b, t), -1))
                            .add(bigA, down), bigA - paddedSize(a));
                    // u = 1: a above b.  L_b + padded(b) - L_a <= M_b (1 - u)
                    long bigB = align * highestSlot(b) + paddedSize(b);
                    model.lessOrEqual("eq10_up_" + tag, addressOf(b, t).add(scaled(addressOf(a, t), -1))
                            .add(bigB, up), bigB - paddedSize(b));
                }
            }
        }
    }

    /**
     * Eq. 11 with V = P: a preserved tensor keeps its address, stated on K = L / A (big-M = the largest K,
     * (M_B - Size(a)) / A rounded down).
     */
    private void addressKeptWhilePreserved() {
        for (int a = 0; a < graph.tensorCount(); a++) {
            long bigM = highestSlot(a);
            for (int t = 1; t < n; t++) {
                if (preserve[a][t] == null || address[a][t - 1] == null || bigM == 0) {
                    continue;
                }
                keepAddress(model, graph.tensor(a).name() + "_" + t, address[a][t - 1], address[a][t],
                        preserve[a][t], bigM);
            }
        }
    }

    /**
     * Eq. 11's two rows for one tensor and timestep: |K_before - K_now| <= bigM (1 - P), so a preserved tensor keeps
     * its address. Shared with {@link RecomputeFormulation}, which states eq. 11 over its run slots.
     */
    static void keepAddress(Model model, String tag, Variable before, Variable now, Variable preserved, long bigM) {
        model.lessOrEqual("eq11_a_" + tag, LinearExpr.term(1, before).add(-1, now).add(bigM, preserved), bigM);
        model.lessOrEqual("eq11_b_" + tag, LinearExpr.term(1, now).add(-1, before).add(bigM, preserved), bigM);
    }

    // ---------------------------------------------------------------- objectives

    /**
     * Eq. 12 as memory-model.md defines it: every load and every charged spill (not of graph outputs), minus the
     * compulsory first load of each used host tensor, so the objective is the non-compulsory traffic itself.
     */
    private void minimizeTraffic() {
        LinearExpr cost = LinearExpr.of();
        for (int a = 0; a < graph.tensorCount(); a++) {
            long size = graph.size(a);
            for (int t = 0; t < n; t++) {
                if (load[a][t] != null) {
                    cost.add(size, load[a][t]);
                }
                if (spill[a][t] != null && !graph.isGraphOutput(a)) {
                    cost.add(size, spill[a][t]);
                }
            }
            if (graph.isHost(a) && graph.consumers(a).length > 0) {
                cost.addConstant(-size);
            }
        }
        if (forced != null && forced.bound() > 0) {
            // A proven lower bound: lets the back-end stop as soon as it finds a plan that pays no more.
            model.greaterOrEqual("forced_traffic", cost, forced.bound());
        }
        model.minimize(cost);
    }

    /** Eq. 13: only the compulsory load of each used host tensor; produced tensors are never loaded. */
    private void onlyCompulsoryLoads() {
        for (int a = 0; a < graph.tensorCount(); a++) {
            LinearExpr loads = LinearExpr.of();
            for (int t = 0; t < n; t++) {
                if (load[a][t] != null) {
                    loads.add(load[a][t]);
                }
            }
            if (!hasVariable(loads)) {
                continue;
            }
            if (graph.isHost(a)) {
                model.equal("eq13_" + graph.tensor(a).name(), loads, 1);
            } else {
                model.equal("eq13_" + graph.tensor(a).name(), loads, 0);
            }
        }
    }

    /** Eq. 14-15: the bytes resident at every timestep stay below M_peak, which is minimised. */
    private void minimizePeakFootprint() {
        long total = graph.tensors().stream().mapToLong(x -> x.size()).sum();
        peak = model.integer("M_peak", 0, total);
        for (int t = 0; t < n; t++) {
            LinearExpr bytes = LinearExpr.of();
            for (int a = 0; a < graph.tensorCount(); a++) {
                bytes.add(scaled(resident(a, t), graph.size(a)));
            }
            model.lessOrEqual("eq14_t" + t, bytes.add(-1, peak), 0);
        }
        model.minimize(LinearExpr.term(1, peak));
    }

    // ---------------------------------------------------------------- solutions

    /** The schedule in a solution. */
    public Schedule schedule(SolverResult result) {
        if (fixedSchedule != null) {
            return fixedSchedule;
        }
        String[] order = new String[n];
        for (int o = 0; o < graph.operatorCount(); o++) {
            for (int t = windows.earliest(o); t <= windows.latest(o); t++) {
                if (result.value(run[o][t]) > 0.5) {
                    order[t] = graph.operator(o).name();
                }
            }
        }
        return new Schedule(List.of(order));
    }

    /**
     * Extraction: the solver's values as a plan (segments with offsets). The plan is not checked here, the caller
     * does that (a plan that fails the checker is a bug). Without addresses every offset is 0: the residency,
     * to be packed by a fixed-schedule allocator.
     */
    public Plan plan(SolverResult result) {
        Schedule schedule = schedule(result);
        int[] position = new int[graph.operatorCount()];
        for (int t = 0; t < n; t++) {
            position[graph.operatorIndex(schedule.operators().get(t))] = t;
        }
        Map<String, List<Segment>> segments = new LinkedHashMap<>();
        for (int a = 0; a < graph.tensorCount(); a++) {
            List<Segment> list = new ArrayList<>();
            int start = -1;
            Origin origin = null;
            for (int t = Math.max(0, windows.tensorFirst(a)); t <= windows.tensorLast(a) + 1; t++) {
                boolean isCreated = t < n && !graph.isHost(a) && position[graph.producer(a)] == t;
                boolean isLoaded = t < n && load[a][t] != null && result.value(load[a][t]) > 0.5;
                boolean isKept = t < n && preserve[a][t] != null && result.value(preserve[a][t]) > 0.5;
                if (start >= 0 && !isKept) {
                    long offset = addresses ? align * Math.round(result.value(address[a][start])) : 0;
                    list.add(new Segment(start, t - 1, offset, origin));
                    start = -1;
                }
                if (isCreated || isLoaded) {
                    start = t;
                    origin = isCreated ? Origin.CREATED : Origin.LOADED;
                }
            }
            if (!list.isEmpty()) {
                segments.put(graph.tensor(a).name(), list);
            }
        }
        return new Plan(graph.name(), setting, budget, schedule, segments, null, null);
    }

    /** The peak footprint variable's value (PEAK objective). */
    public long peak(SolverResult result) {
        return Math.round(result.value(peak));
    }

    /**
     * A starting solution from a valid plan (of this graph, setting and budget, and of the fixed schedule if
     * there is one): every variable's value in that plan, so that a solver stopped by a time limit has a plan.
     */
    public void hint(Plan plan) {
        Schedule schedule = plan.schedule();
        int[] position = new int[graph.operatorCount()];
        for (int t = 0; t < n; t++) {
            position[graph.operatorIndex(schedule.operators().get(t))] = t;
        }
        if (fixedSchedule == null) {
            for (int o = 0; o < graph.operatorCount(); o++) {
                for (int t = windows.earliest(o); t <= windows.latest(o); t++) {
                    model.hint(run[o][t], position[o] == t ? 1 : 0);
                }
            }
        }
        int[][] state = new int[graph.tensorCount()][n];
        long[][] offset = new long[graph.tensorCount()][n];
        final int none = 0;
        final int kept = 1;
        final int begun = 2;
        for (int a = 0; a < graph.tensorCount(); a++) {
            List<Segment> list = plan.segmentsOf(graph.tensor(a).name());
            int firstEnd = -1;
            boolean reloaded = false;
            for (Segment s : list) {
                for (int t = s.start(); t <= s.end(); t++) {
                    state[a][t] = t == s.start() ? begun : kept;
                    offset[a][t] = s.offset();
                }
                if (s.origin() == Origin.CREATED) {
                    firstEnd = s.end();
                } else if (!graph.isHost(a)) {
                    reloaded = true;
                }
                if (s.origin() == Origin.LOADED && load[a][s.start()] != null) {
                    model.hint(load[a][s.start()], 1);
                }
            }
            for (int t = 0; t < n; t++) {
                if (preserve[a][t] != null) {
                    model.hint(preserve[a][t], state[a][t] == kept ? 1 : 0);
                }
                if (load[a][t] != null && state[a][t] != begun) {
                    model.hint(load[a][t], 0);
                }
                if (spill[a][t] != null) {
                    model.hint(spill[a][t], reloaded && t == firstEnd + 1 ? 1 : 0);
                }
                if (address[a][t] != null) {
                    model.hint(address[a][t], state[a][t] != none ? offset[a][t] / align : 0);
                }
            }
        }
        for (Pair p : pairs) {
            boolean both = state[p.a()][p.t()] != none && state[p.b()][p.t()] != none;
            boolean aAbove = offset[p.a()][p.t()] > offset[p.b()][p.t()];
            model.hint(p.up(), both && aAbove ? 1 : 0);
            model.hint(p.down(), both && !aAbove ? 1 : 0);
        }
        if (peak != null) {
            long best = 0;
            for (int t = 0; t < n; t++) {
                long bytes = 0;
                for (int a = 0; a < graph.tensorCount(); a++) {
                    bytes += state[a][t] != none ? graph.size(a) : 0;
                }
                best = Math.max(best, bytes);
            }
            model.hint(peak, best);
        }
    }
}
