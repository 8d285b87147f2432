package dev.memplan.decomposition;

import dev.memplan.baselines.allocation.Portfolio;
import dev.memplan.baselines.scheduling.LeximaxScheduler;
import dev.memplan.baselines.scheduling.MinimumPeakScheduler;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.formulations.milp.LinearExpr;
import dev.memplan.formulations.milp.Model;
import dev.memplan.formulations.milp.SolverResult;
import dev.memplan.formulations.milp.Solvers;
import dev.memplan.formulations.milp.Variable;
import dev.memplan.model.Allocation;
import dev.memplan.model.CheckReport;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Origin;
import dev.memplan.model.Plan;
import dev.memplan.model.PlanBuffers;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.Schedule;
import dev.memplan.model.Segment;
import dev.memplan.model.SolveStatus;
import dev.memplan.model.Shares;
import dev.memplan.model.SolverInfo;
import dev.memplan.model.TensorSetting;
import dev.memplan.model.TrainingStep;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A spill-only plan of one order of first runs with the least traffic of that order without addresses, then packed.
 *
 * <p>The program is {@link dev.memplan.formulations.cosma.FixedOrderBound#exact}'s, over integers: per tensor and
 * interval between two consecutive events of it (its write, or a host tensor's first read, and its reads) with a
 * first run strictly inside, a 0/1 "off chip throughout the interval" (one load, at the interval's last event), per
 * produced tensor that is not a graph output a 0/1 spill, at least each of its intervals off, and at each first run t
 * the bytes of t's own tensors and of the intervals spanning t kept on chip at most the budget. Its optimum is the
 * least traffic of the order without addresses (that class's comment); a solution is read as segments, a tensor
 * resident from each event to the next unless the interval between them is off, where the segment ends at the
 * interval's first event and a loaded one starts at its last. The segments are packed by the allocator portfolio
 * ({@link Portfolio#minimize}) and the plan is checked; it is returned only when it fits the budget and is valid.
 *
 * <p>The orders of divide and conquer's and the schemes' plans are often better than their plans: on the training
 * graphs at lambda 1 the road's spill-only plans paid more than this program's packed optimum in their own order
 * (BENCHMARKS.md, "Where the lambda-1 gaps lie"). Solved on CP-SAT under the caller's limits (one worker and its
 * deterministic time as work under a work limit, so the same plan on every machine).
 */
final class OrderCover {
    /** The name of the plans it makes (the solver row of the plan). */
    static final String NAME = "order-cover";
    /** What the recompute step's "plan from" adds to the source of a plan this made better. */
    static final String SOURCE = "its order covered exactly";
    /** The recompute step's "plan from" of a plan of a training step's levelled order. */
    static final String LEVELLED = "the levelled order covered exactly";

    /** The "plan from" of a plan of the minimum-peak order of a beam of this width. */
    static final String MINIMUM_PEAK = "the minimum-peak order of width %d covered exactly";

    /**
     * A plan this made, the model checker's report on it (the callers offer both on), and where its order came from
     * (a "plan from" of the recompute step; null from {@link #cover}).
     */
    record Covered(Plan plan, CheckReport check, String source) {
    }

    /**
     * The most (tensor interval, timestep it spans) pairs a program is built with, each a term of a room row: about
     * 200 MB of model at this cap. The zoo's training graphs of up to 300 operators have about 10^5; a generated
     * training step of 13,423 operators had enough to take 5 GB and 10 s before its solve could read the clock.
     */
    static final long MAX_SPANS = 4_000_000;

    private OrderCover() {
    }

    /**
     * The lowest of the packed optima of several orders: each distinct order of first runs among {@code from}'s
     * plans (in the order given; plans that recompute have none), then, on a training step ({@link TrainingStep}),
     * its default order levelled ({@link LeximaxScheduler}, the order {@link LevelledStarts} plans on) and, up to
     * {@link DivideAndConquer#WHOLE_GRAPH_LIMIT} operators, the minimum-peak orders of the beam's ladder (the
     * restarts' orders): the first with {@link Shares#ORDER_COVER_FIRST} of the limits when others follow, each other
     * an equal part of what the ones before it left; null when none gives a plan. The road's best plan need not
     * have the best order to cover: its plan came from replacement and packing, not from the order's own optimum
     * (BENCHMARKS.md, "The order cover on more than one order").
     *
     * @param g the graph in the plans' tensor setting
     * @param from plans whose orders are covered (nulls skipped)
     * @param sources where each of {@code from} comes from ("plan from" of the recompute step)
     * @param budget the budget in bytes
     * @param limits the whole step's limits
     */
    static Covered best(Graph g, List<Plan> from, List<String> sources, long budget, Limits limits) {
        List<Schedule> orders = new ArrayList<>();
        List<String> named = new ArrayList<>();
        List<Plan> hints = new ArrayList<>();
        TensorSetting setting = null;
        for (int i = 0; i < from.size(); i++) {
            Plan p = from.get(i);
            if (p != null && p.schedule().operators().size() == g.operatorCount()
                    && !orders.contains(p.schedule())) {
                orders.add(p.schedule());
                hints.add(p);
                named.add(sources.get(i) + ", " + SOURCE);
                setting = setting == null ? p.setting() : setting;
            }
        }
        if (setting == null || limits.stopped()) {
            return null;
        }
        if (TrainingStep.forwardCount(g) >= 0) {
            Schedule levelled = new LeximaxScheduler().schedule(g, limits).schedule();
            if (!orders.contains(levelled)) {
                orders.add(levelled);
                named.add(LEVELLED);
            }
            if (g.operatorCount() <= DivideAndConquer.WHOLE_GRAPH_LIMIT) {
                minimumPeakOrders(g, limits, orders, named);
            }
        }
        Covered best = null;
        for (int i = 0; i < orders.size() && !limits.stopped(); i++) {
            Limits share = !limits.budget().limited() || i == orders.size() - 1 ? limits.child()
                    : i == 0 ? limits.child(Shares.ORDER_COVER_FIRST) : limits.part(orders.size() - i);
            Covered c = cover(g, i < hints.size() ? hints.get(i)
                    : new Plan(g.name(), setting, budget, orders.get(i), Map.of(), null, null), budget, share);
            if (c != null && (best == null
                    || c.plan().traffic().nonCompulsory() < best.plan().traffic().nonCompulsory())) {
                best = new Covered(c.plan(), c.check(), named.get(i));
            }
        }
        return best;
    }

    /**
     * The minimum-peak orders at each width of the beam's ladder up to the width the graph's size gives (the
     * restarts' orders, {@link Restarts}), each not yet in {@code orders}, added with its name, while the limits last.
     */
    private static void minimumPeakOrders(Graph g, Limits limits, List<Schedule> orders, List<String> named) {
        for (int w : MinimumPeakScheduler.rungs(MinimumPeakScheduler.sizedWidth(g.operatorCount()))) {
            if (limits.stopped()) {
                return;
            }
            Schedule order = MinimumPeakScheduler.pinnedOrder(w, Backend.CPSAT).schedule(g, limits).schedule();
            if (!orders.contains(order)) {
                orders.add(order);
                named.add(String.format(MINIMUM_PEAK, w));
            }
        }
    }

    /**
     * The packed optimum of {@code from}'s order, or null when the program finds no solution within limits, the
     * packing does not fit the budget, the plan is not valid, {@code from} recomputes (its order is not one of
     * first runs only), the limits are spent before it starts, or the program would pass {@link #MAX_SPANS}.
     *
     * @param g the graph in {@code from}'s tensor setting
     * @param from a plan whose order is kept
     * @param budget the budget in bytes
     * @param limits the program's and the packing's limits (half each)
     */
    static Plan of(Graph g, Plan from, long budget, Limits limits) {
        Covered c = cover(g, from, budget, limits);
        return c == null ? null : c.plan();
    }

    /** {@link #of} with the checker's report on the plan, without a source. */
    private static Covered cover(Graph g, Plan from, long budget, Limits limits) {
        if (from == null || from.schedule().operators().size() != g.operatorCount() || !Solvers.nativeAvailable()
                || limits.stopped()) {
            return null;
        }
        int[] order = from.schedule().resolve(g);
        Program program = Program.of(g, order, budget);
        if (program == null) {
            return null;
        }
        program.hint(g, from);
        SolverResult r = Solvers.create(Backend.CPSAT).solve(program.model(), limits.child(Shares.ORDER_COVER_PROGRAM));
        if (!r.hasSolution()) {
            return null;
        }
        Plan loose = new Plan(g.name(), from.setting(), budget, from.schedule(), program.segments(g, r), null, null);
        Allocation packed = Portfolio.minimize(PlanBuffers.toBufferSet(g, loose), limits.child()).allocation();
        if (packed == null || !packed.solved() || packed.placement().height() > budget) {
            return null;
        }
        Plan plan = PlanBuffers.withPlacement(loose, packed.placement());
        CheckReport check = PlanChecker.check(g, plan);
        if (!check.valid()) {
            return null;
        }
        return new Covered(plan.withResult(check.traffic(), new SolverInfo(NAME, SolveStatus.HEURISTIC, 0, null)),
                check, null);
    }

    /**
     * The integer program of one order: its model, each tensor's events (timesteps, sorted) and the 0/1 "off chip
     * throughout the interval" of each interval between two consecutive events (null where none is needed).
     */
    private record Program(Model model, int[][] events, Variable[][] off, Variable[] spill) {
        /** The program, or null when it would have more than {@link #MAX_SPANS} terms in its room rows. */
        static Program of(Graph g, int[] order, long budget) {
            int n = order.length;
            int[] pos = new int[n];
            for (int i = 0; i < n; i++) {
                pos[order[i]] = i;
            }
            int m = g.tensorCount();
            long unit = 0;
            for (int x = 0; x < m; x++) {
                unit = gcd(unit, g.size(x));
            }
            unit = Math.max(1, unit);
            int[][] events = new int[m][];
            for (int x = 0; x < m; x++) {
                int p = g.producer(x);
                events[x] = java.util.stream.IntStream.concat(p >= 0 ? java.util.stream.IntStream.of(pos[p])
                        : java.util.stream.IntStream.empty(), Arrays.stream(g.consumers(x)).map(c -> pos[c]))
                        .distinct().sorted().toArray();
            }
            long spans = 0;
            for (int[] e : events) {
                for (int i = 0; i + 1 < e.length; i++) {
                    spans += Math.max(0, e[i + 1] - e[i] - 1);
                }
            }
            if (spans > MAX_SPANS) {
                return null;
            }
            Model model = new Model("order cover");
            Variable[][] off = new Variable[m][];
            Variable[] spill = new Variable[m];
            LinearExpr objective = LinearExpr.of();
            List<List<long[]>> spanning = new ArrayList<>();
            for (int t = 0; t < n; t++) {
                spanning.add(new ArrayList<>());
            }
            for (int x = 0; x < m; x++) {
                spill[x] = intervals(g, x, events[x], unit, model, objective, spanning, off);
            }
            for (int t = 0; t < n; t++) {
                room(g, order[t], spanning.get(t), off, budget, unit, model, t);
            }
            model.minimize(objective);
            return new Program(model, events, off, spill);
        }

        /**
         * {@code plan}'s segments as the solver's start, when it has any: an interval off where the plan has its
         * tensor off chip at some timestep strictly inside it, a spill where any interval is off. That point is
         * feasible (what it keeps on chip at a timestep the plan holds there, within the budget) and costs at most
         * the plan's traffic (each interval off is a load the plan makes again, each spill one it writes); CP-SAT tries
         * a complete hint first, so an answer is not above the plan it was started from even with little work.
         */
        void hint(Graph g, Plan plan) {
            for (int x = 0; x < events.length; x++) {
                List<Segment> segments = plan.segments().get(g.tensor(x).name());
                if (segments == null || off[x].length == 0) {
                    continue;
                }
                boolean spilled = false;
                for (int i = 0; i < off[x].length; i++) {
                    if (off[x][i] == null) {
                        continue;
                    }
                    boolean away = false;
                    for (int t = events[x][i] + 1; t < events[x][i + 1] && !away; t++) {
                        int at = t;
                        away = segments.stream().noneMatch(sg -> sg.start() <= at && at <= sg.end());
                    }
                    model.hint(off[x][i], away ? 1 : 0);
                    spilled |= away;
                }
                if (spill[x] != null) {
                    model.hint(spill[x], spilled ? 1 : 0);
                }
            }
        }

        /**
         * Tensor x's interval variables, their cost and its spill's (returned, null for none), and the timesteps each
         * spans.
         */
        private static Variable intervals(Graph g, int x, int[] e, long unit, Model model, LinearExpr objective,
                                          List<List<long[]>> spanning, Variable[][] off) {
            off[x] = new Variable[Math.max(0, e.length - 1)];
            boolean spills = g.producer(x) >= 0 && !g.isGraphOutput(x);
            Variable spill = null;
            for (int i = 0; i + 1 < e.length; i++) {
                if (e[i + 1] - e[i] < 2 || g.size(x) == 0) {
                    continue;
                }
                Variable y = model.binary("y" + x + "_" + i);
                off[x][i] = y;
                objective.add(g.size(x) / unit, y);
                if (spills) {
                    if (spill == null) {
                        spill = model.binary("z" + x);
                        objective.add(g.size(x) / unit, spill);
                    }
                    model.greaterOrEqual("spill" + x + "_" + i, LinearExpr.term(1, spill).add(-1, y), 0);
                }
                for (int t = e[i] + 1; t < e[i + 1]; t++) {
                    spanning.get(t).add(new long[] {x, i});
                }
            }
            return spill;
        }

        /** Timestep t's row: of the intervals spanning it, enough bytes off chip for op's tensors to fit. */
        private static void room(Graph g, int op, List<long[]> spanning, Variable[][] off, long budget, long unit,
                                 Model model, int t) {
            long demand = -budget;
            for (int x : PeakBound.own(g, op)) {
                demand += g.size(x);
            }
            for (long[] s : spanning) {
                demand += g.size((int) s[0]);
            }
            if (demand <= 0) {
                return;
            }
            LinearExpr left = LinearExpr.of();
            for (long[] s : spanning) {
                left.add(g.size((int) s[0]) / unit, off[(int) s[0]][(int) s[1]]);
            }
            model.greaterOrEqual("room" + t, left, Math.ceil(demand / (double) unit));
        }

        /** The solution as segments: resident from each event to the next unless the interval between is off. */
        Map<String, List<Segment>> segments(Graph g, SolverResult r) {
            Map<String, List<Segment>> segments = new LinkedHashMap<>();
            for (int x = 0; x < events.length; x++) {
                int[] e = events[x];
                if (e.length == 0) {
                    continue;
                }
                List<Segment> list = new ArrayList<>();
                int start = e[0];
                Origin origin = g.producer(x) >= 0 ? Origin.CREATED : Origin.LOADED;
                for (int i = 0; i + 1 < e.length; i++) {
                    if (off[x][i] != null && r.isSet(off[x][i])) {
                        list.add(new Segment(start, e[i], 0, origin));
                        start = e[i + 1];
                        origin = Origin.LOADED;
                    }
                }
                list.add(new Segment(start, e[e.length - 1], 0, origin));
                segments.put(g.tensor(x).name(), list);
            }
            return segments;
        }
    }

    private static long gcd(long a, long b) {
        return b == 0 ? a : gcd(b, a % b);
    }
}
