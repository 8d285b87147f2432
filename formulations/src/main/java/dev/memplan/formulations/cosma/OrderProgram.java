package dev.memplan.formulations.cosma;

import dev.memplan.formulations.milp.LinearExpr;
import dev.memplan.formulations.milp.Model;
import dev.memplan.formulations.milp.SolverResult;
import dev.memplan.formulations.milp.Variable;
import dev.memplan.model.Graph;
import dev.memplan.model.Origin;
import dev.memplan.model.Plan;
import dev.memplan.model.Segment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * The integer program of one order of first runs without addresses: its least objective is the order's least
 * traffic when addresses are free (offline general caching with cost = size, {@link FixedOrderBound}'s program
 * over integers). Per tensor and interval between two consecutive events of it (its write, or a host tensor's first
 * read, and its reads) with a timestep strictly inside, a 0/1 "off chip throughout the interval" (one load, at the
 * interval's last event, of the tensor's size); per produced tensor that is not a graph output, a 0/1 spill, at
 * least each of its intervals off; at each timestep t, the bytes of t's operator's own tensors and of the intervals
 * spanning t kept on chip at most the budget. Sizes are in units of the tensor sizes' gcd.
 *
 * <p>A solution is a valid address-free plan paying exactly its objective ({@link #segments}: a tensor resident from
 * each event to the next unless the interval between them is off, where its segment ends at the interval's first
 * event and a loaded one starts at its last), and every plan of the order pays at least the objective of the point
 * it gives ({@link FixedOrderBound}'s validity argument), so the optimum is the order's least traffic and any proven
 * bound of the program bounds every plan of the order. {@link FixedOrderBound#exact} solves it for its bound; the
 * recompute road's order cover for its plan.
 */
public final class OrderProgram {
    /**
     * The most (tensor interval, timestep it spans) pairs a program is built with, each a term of a room row: about
     * 200 MB of model at this cap. The zoo's training graphs of up to 300 operators have about 10^5; a generated
     * training step of 13,423 operators had enough to take 5 GB and 10 s before its solve could read the clock.
     */
    public static final long MAX_SPANS = 4_000_000;

    private final Model model;
    private final LinearExpr objective;
    private final long unit;
    private final int[][] events;
    private final Variable[][] off;
    private final Variable[] spill;

    private OrderProgram(Model model, LinearExpr objective, long unit, int[][] events, Variable[][] off,
                         Variable[] spill) {
        this.model = model;
        this.objective = objective;
        this.unit = unit;
        this.events = events;
        this.off = off;
        this.spill = spill;
    }

    /**
     * The program of {@code order} at {@code budget}, its objective minimized, or null when it would have more than
     * {@link #MAX_SPANS} terms in its room rows.
     *
     * @param g the graph in its tensor setting
     * @param order every operator once, a topological order (indices of {@code g})
     */
    public static OrderProgram of(Graph g, int[] order, long budget) {
        return of(g, order, budget, 0);
    }

    /**
     * {@link #of(Graph, int[], long)} with a margin: at each timestep whose operator's own tensors take at most
     * {@code budget - margin}, the kept bytes are at most {@code budget - margin}; at the others at most their own
     * bytes or the budget, whichever is less (own bytes above the budget leave the row as in the program without a
     * margin). Every solution is still a plan within the budget, with room at most timesteps that a packing can use;
     * its optimum is no bound of the order unless the margin is 0.
     *
     * @param margin bytes, at least 0
     */
    public static OrderProgram of(Graph g, int[] order, long budget, long margin) {
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
            events[x] = IntStream.concat(p >= 0 ? IntStream.of(pos[p]) : IntStream.empty(),
                    Arrays.stream(g.consumers(x)).map(c -> pos[c])).distinct().sorted().toArray();
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
            long own = dev.memplan.model.Budgets.operatorFootprint(g, order[t]);
            long room = margin == 0 ? budget : Math.min(budget, Math.max(own, budget - margin));
            room(g, order[t], spanning.get(t), off, room, unit, model, t);
        }
        model.minimize(objective);
        return new OrderProgram(model, objective, unit, events, off, spill);
    }

    /** The model, to solve (its objective in units of {@link #unit()}). */
    public Model model() {
        return model;
    }

    /** The gcd of the tensor sizes: the program's objective times it is the traffic in bytes. */
    public long unit() {
        return unit;
    }

    /** Adds a row: the objective (in units) at least {@code units}, e.g. a bound already proven. */
    public void atLeast(double units) {
        model.greaterOrEqual("lp", objective, units);
    }

    /**
     * {@code plan}'s segments as the solver's start, when it has any: an interval off where the plan has its tensor
     * off chip at some timestep strictly inside it, a spill where any interval is off. That point is feasible (what it
     * keeps on chip at a timestep the plan holds there, within the budget) and costs at most the plan's traffic (each
     * interval off is a load the plan makes again, each spill one it writes); CP-SAT tries a complete hint first, so
     * an answer is not above the plan it was started from even with little work.
     */
    public void hint(Graph g, Plan plan) {
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

    /** The solution as segments (at offset 0): resident from each event to the next unless the interval is off. */
    public Map<String, List<Segment>> segments(Graph g, SolverResult r) {
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
        for (int x : IntStream.concat(Arrays.stream(g.inputs(op)), Arrays.stream(g.outputs(op))).distinct()
                .toArray()) {
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

    private static long gcd(long a, long b) {
        return b == 0 ? a : gcd(b, a % b);
    }
}
