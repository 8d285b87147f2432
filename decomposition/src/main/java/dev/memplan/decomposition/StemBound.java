package dev.memplan.decomposition;

import dev.memplan.model.Budget;
import dev.memplan.model.Budgets;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Schedule;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * A lower bound on the non-compulsory traffic of every plan of a graph with a free schedule, from its stem solved
 * exactly: the least traffic of the graph's first k operators (a down-set of the default order) together with
 * their <em>readers</em>, the operators outside that read a tensor written inside. The readers keep the tensors
 * the later operators need live: a tensor the stem hands on cannot be dropped as a cut output the way a part of
 * {@link DivideAndConquer} drops it; it stays resident, or is spilled and loaded again, until its readers have run.
 *
 * <p><b>The stem bounds the graph.</b> Let S be any set of operators and P any plan of the whole graph. Keep P's
 * timesteps of S in P's order (topological within S), cut every segment of a tensor of S's graph ({@link SubGraph})
 * down to those timesteps and to the tensor's last read in S, and drop the empty pieces. This is a plan of S's
 * graph: every operator's tensors are resident at its timestep at P's offsets, with no more bytes than P has there.
 * It pays no more: a tensor written in S keeps its created segment, so its loaded pieces come from distinct loaded
 * segments of P; a tensor written outside S is a host tensor of S's graph, whose first piece is free and whose every
 * further piece comes from a loaded segment of P (at most one of its segments is the created one); a spill charged
 * in S's graph is of a tensor written in S, not a graph output, with a loaded segment, which P charges too.
 *
 * <p><b>The stem exactly.</b> S's graph is solved without addresses (bytes within the budget; a relaxation, since
 * disjoint ranges in [0, B) sum to at most B), by Dijkstra's algorithm over states (operators done, tensors held on
 * chip, tensors spilled). Any plan can be put in a form that pays no more and holds no more at any timestep: each
 * segment starts at its creation or at a read and ends at a read (or at its creation), so between two consecutive
 * events of a tensor it is resident throughout or off chip throughout, and off chip costs one load (plus the
 * tensor's spill, once, when it is written in S and not a graph output). The search charges that cost when it drops
 * a held tensor; it drops only just before an operator that would not fit otherwise, and only a minimal set of held
 * tensors that makes it fit. Any plan in that form is matched by the search at no more cost: where the plan drops a
 * set, a minimal subset of it, plus the tensors the plan dropped earlier and the search still holds, makes the
 * operator fit; each tensor the search drops is off chip in the plan within the same interval, so it is paid there
 * too, and one the search never drops before its read costs it nothing. So the search's optimum is at most every
 * plan's traffic, and when it stops early (its work or a state cap), the least cost of a state not yet expanded is.
 * Alignment is not covered; a fixed schedule is (it is one of the orders), but the bound is used for free schedules
 * only. Recomputation is not covered by the traffic (a recompute is not in S's graph), but the argument holds for
 * any nonnegative price per load and per spill of each tensor, and with the prices of
 * {@link TrafficPrices#withReruns} it bounds the objective with recomputes ({@link PricedBounds}).
 *
 * <p><b>Plans.</b> Each state keeps the state it was reached from, so a proven optimum comes with its path: the
 * stem's operators in an optimal order, and what leaves the chip before each ({@link StemPlans} makes whole-graph
 * plans of it). With the order fixed ({@link #fixedOrder}) the search has one ready operator per state; the argument
 * above, read for plans of that order, makes its optimum the least traffic of that order without addresses, and its
 * path a plan of it once the segments are packed.
 *
 * <p>Cost: states are the down-sets of S's graph times the subsets of held and spilled tensors that are reached
 * below the optimum; each expansion tries every ready operator and every minimal set of held tensors to drop.
 * Measured on the NAS networks: BENCHMARKS.md, "The stem exactly".
 */
public final class StemBound {
    /**
     * Default stem size (operators of the default order): the NAS networks' pressure sits in their first 30-40
     * operators (BENCHMARKS.md, issue 35).
     */
    public static final int DEFAULT_SIZE = 30;
    /** The fewest operators a growing stem grows by ({@link #growing}). */
    static final int GROWTH = 10;
    /** Most states kept before the search stops with the bound it has. */
    public static final int DEFAULT_STATE_CAP = 2_000_000;
    /** Successor states generated per work unit. */
    static final long SUCCESSORS_PER_UNIT = 1_000_000L;

    /**
     * @param traffic the lower bound on the whole graph's non-compulsory traffic
     * @param proven true when the search reached the end of the stem: {@code traffic} is the stem's least traffic
     *     without addresses
     * @param operators the stem's operators with their readers
     * @param states the states the search kept
     * @param order when proven, the stem's operators (indices of the whole graph) in the order of a least-traffic
     *     path of the search; otherwise empty
     */
    public record Result(long traffic, boolean proven, int operators, int states, int[] order) {
    }

    private StemBound() {
    }

    /**
     * The first {@code size} operators of the default order (all of them when the graph has fewer) and every other
     * operator that reads a tensor one of them writes, in the default order, as a graph of its own.
     */
    static SubGraph stem(Graph g, int size) {
        int k = Math.min(size, g.operatorCount());
        BitSet in = new BitSet(g.operatorCount());
        in.set(0, k);
        for (int o = 0; o < k; o++) {
            for (int t : g.outputs(o)) {
                for (int c : g.consumers(t)) {
                    in.set(c);
                }
            }
        }
        return SubGraph.of(g, in.stream().toArray(), g.name() + "/stem" + k);
    }

    /**
     * The stem bound of a graph in its tensor setting at a budget.
     *
     * @param size operators of the stem (before their readers)
     * @param stateCap most states kept
     * @param limits the search's budget (under a work limit, {@link #SUCCESSORS_PER_UNIT} successors per unit)
     * @throws IllegalArgumentException when the budget is below the stem's M_R (then below the graph's)
     */
    public static Result of(Graph g, long budget, int size, int stateCap, Limits limits) {
        return of(g, budget, size, Long.MAX_VALUE, stateCap, limits);
    }

    /**
     * The stem bound as above, stopped once every state left costs at least {@code target} (the traffic of the best
     * plan known): the bound is then the target, and that plan is optimal.
     */
    static Result of(Graph g, long budget, int size, long target, int stateCap, Limits limits) {
        return of(g, TrafficPrices.spillOnly(g), budget, size, target, stateCap, limits);
    }

    /**
     * The stem bound as above with each tensor's loads and spill charged at {@code prices} (of the whole graph's
     * tensors) instead of its size: the least priced traffic of the stem, a bound on whatever those prices bound
     * ({@link TrafficPrices}). The argument of the class comment holds for any nonnegative prices: it matches each
     * drop of the search with a while the plan holds the tensor off chip, whatever that while costs.
     */
    static Result of(Graph g, TrafficPrices prices, long budget, int size, long target, int stateCap,
                     Limits limits) {
        SubGraph stem = stem(g, size);
        Graph s = stem.graph();
        if (budget < Budgets.minimumRequired(s)) {
            throw new IllegalArgumentException("budget " + budget + " is below the stem's M_R = "
                    + Budgets.minimumRequired(s) + ": no plan exists");
        }
        Budget.Meter meter = limits.workMode() ? limits.budget().meter(SUCCESSORS_PER_UNIT) : null;
        Result r = new Search(s, prices.on(g, stem), budget, target, stateCap, limits, meter, null).run();
        int[] order = Arrays.stream(r.order()).map(o -> stem.operators()[o]).toArray();
        return new Result(r.traffic(), r.proven(), r.operators(), r.states(), order);
    }

    /**
     * The bound of growing stems: {@link #DEFAULT_SIZE} operators, then a quarter more each time (at least
     * {@link #GROWTH} operators more; a stem too large for its work or state cap costs as much as every smaller one
     * before it, and a proven stem's order is what gives plans), while the search
     * proves its stem's optimum below the target (the traffic of the best plan known, read before each stem) within
     * {@code limits} and the graph has operators left; the highest bound found (a larger stem's graph holds a smaller
     * one's, so its optimum is no lower). Each proven stem's order (indices of the whole graph) goes to
     * {@code proven} as soon as it is found, which may lower the target by finding a better plan.
     */
    static long growing(Graph g, long budget, LongSupplier target, Limits limits, Consumer<int[]> proven) {
        return growing(g, TrafficPrices.spillOnly(g), budget, target, limits, proven);
    }

    /** The growing stems as above, each tensor's traffic charged at {@code prices} ({@link #of(Graph,
     * TrafficPrices, long, int, long, int, Limits)}). */
    static long growing(Graph g, TrafficPrices prices, long budget, LongSupplier target, Limits limits,
                        Consumer<int[]> proven) {
        long bound = 0;
        for (int size = DEFAULT_SIZE; ; size += Math.max(GROWTH, size / 4)) {
            Result r = of(g, prices, budget, size, target.getAsLong(), DEFAULT_STATE_CAP, limits);
            bound = Math.max(bound, r.traffic());
            if (r.proven()) {
                proven.accept(r.order());
            }
            if (!r.proven() || bound >= target.getAsLong() || size >= g.operatorCount() || limits.stopped()) {
                return bound;
            }
        }
    }

    /**
     * A whole-graph order that runs the stem's operators in {@code stemOrder}: before each, its ancestors not yet run,
     * in the order of {@code reference} (a topological order of the graph), and after the last, every operator left,
     * in that order. Topological: an operator runs after its ancestors, which run in a topological order.
     */
    static Schedule extend(Graph g, int[] stemOrder, int[] reference) {
        int n = g.operatorCount();
        int[] position = new int[n];
        for (int i = 0; i < reference.length; i++) {
            position[reference[i]] = i;
        }
        BitSet emitted = new BitSet(n);
        List<String> names = new ArrayList<>(n);
        for (int o : stemOrder) {
            BitSet ancestors = new BitSet(n);
            java.util.ArrayDeque<Integer> stack = new java.util.ArrayDeque<>(List.of(o));
            while (!stack.isEmpty()) {
                int x = stack.pop();
                if (emitted.get(x) || ancestors.get(x)) {
                    continue;
                }
                ancestors.set(x);
                for (int t : g.inputs(x)) {
                    if (g.producer(t) >= 0) {
                        stack.push(g.producer(t));
                    }
                }
            }
            ancestors.stream().boxed().sorted(java.util.Comparator.comparingInt(x -> position[x])).forEach(x -> {
                emitted.set(x);
                names.add(g.operator(x).name());
            });
        }
        for (int o : reference) {
            if (!emitted.get(o)) {
                names.add(g.operator(o).name());
            }
        }
        return new Schedule(names);
    }

    /**
     * A state of the search: done operators, held tensors, spilled tensors (bit sets), in one array; the state it was
     * reached from (null at the start) and the operator run to get here.
     */
    private record Node(long cost, long order, long[] key, Node parent, int op, int[] drops) {

        /** The steps from the start to this state, in order. */
        List<Step> path() {
            List<Step> steps = new ArrayList<>();
            for (Node n = this; n.parent != null; n = n.parent) {
                steps.add(new Step(n.op, n.drops));
            }
            java.util.Collections.reverse(steps);
            return steps;
        }
    }

    /**
     * One step of a search path: the tensors that leave the chip just before the operator runs, then the operator.
     * Indices of the searched graph.
     */
    record Step(int op, int[] drops) {
    }

    /**
     * The least traffic without addresses of the whole graph in a fixed order (the search above with one ready
     * operator at a time), with its path; null when the search stopped first (its work or the state cap).
     */
    static List<Step> fixedOrder(Graph g, long budget, Schedule order, int stateCap, Limits limits) {
        Budget.Meter meter = limits.workMode() ? limits.budget().meter(SUCCESSORS_PER_UNIT) : null;
        Search search = new Search(g, TrafficPrices.spillOnly(g), budget, Long.MAX_VALUE, stateCap, limits, meter,
                order.resolve(g));
        return search.run().proven() ? search.lastPath : null;
    }

    private static final int[] NONE = new int[0];

    /** Dijkstra's algorithm over the stem's states. */
    private static final class Search {
        private final Graph g;
        private final TrafficPrices prices;
        private final long budget;
        private final long target;
        private final int stateCap;
        private final Limits limits;
        private final Budget.Meter meter;
        private final int opWords;
        private final int tensorWords;
        private final int[][] own;
        private final long[] ownBytes;
        /** When not null, the only order searched (operator indices). */
        private final int[] fixed;
        /** The path of the last optimum found, or null. */
        private List<Step> lastPath;

        Search(Graph g, TrafficPrices prices, long budget, long target, int stateCap, Limits limits,
               Budget.Meter meter, int[] fixed) {
            this.fixed = fixed;
            this.g = g;
            this.prices = prices;
            this.budget = budget;
            this.target = target;
            this.stateCap = stateCap;
            this.limits = limits;
            this.meter = meter;
            this.opWords = (g.operatorCount() + 63) / 64;
            this.tensorWords = (g.tensorCount() + 63) / 64;
            this.own = new int[g.operatorCount()][];
            this.ownBytes = new long[g.operatorCount()];
            for (int o = 0; o < g.operatorCount(); o++) {
                own[o] = PeakBound.own(g, o);
                for (int x : own[o]) {
                    ownBytes[o] += g.size(x);
                }
            }
        }

        Result run() {
            int n = g.operatorCount();
            Map<PeakBound.Key, Long> best = new HashMap<>();
            PriorityQueue<Node> queue = new PriorityQueue<>((a, b) -> a.cost != b.cost ? Long.compare(a.cost, b.cost)
                    : Long.compare(a.order, b.order));
            long[] start = new long[opWords + 2 * tensorWords];
            best.put(new PeakBound.Key(start), 0L);
            queue.add(new Node(0, 0, start, null, -1, NONE));
            long order = 1;
            long expanded = 0;
            while (!queue.isEmpty()) {
                Node node = queue.poll();
                PeakBound.Key key = new PeakBound.Key(node.key);
                if (best.get(key) < node.cost) {
                    continue;
                }
                if (Long.bitCount(node.key[0]) + countDone(node.key) == n) {
                    lastPath = node.path();
                    return new Result(node.cost, true, n, best.size(),
                            lastPath.stream().mapToInt(Step::op).toArray());
                }
                if (node.cost >= target) {
                    return new Result(node.cost, false, n, best.size(), NONE);
                }
                if ((++expanded & 255) == 0 && over()) {
                    return new Result(node.cost, false, n, best.size(), NONE);
                }
                List<long[]> next = new ArrayList<>();
                List<Long> costs = new ArrayList<>();
                List<Integer> ops = new ArrayList<>();
                List<int[]> dropped = new ArrayList<>();
                if (!successors(node.key, next, costs, ops, dropped)
                        || meter != null && !meter.step(next.size())) {
                    return new Result(node.cost, false, n, best.size(), NONE);
                }
                for (int i = 0; i < next.size(); i++) {
                    long cost = node.cost + costs.get(i);
                    PeakBound.Key k = new PeakBound.Key(next.get(i));
                    Long old = best.get(k);
                    if (old == null && best.size() >= stateCap) {
                        return new Result(node.cost, false, n, best.size(), NONE);
                    }
                    if (old == null || cost < old) {
                        best.put(k, cost);
                        queue.add(new Node(cost, order++, next.get(i), node, ops.get(i), dropped.get(i)));
                    }
                }
            }
            throw new IllegalStateException("bug: the stem search ran out of states before the end of the stem");
        }

        private boolean over() {
            return meter != null ? limits.budget().wallOver() : limits.stopped();
        }

        private static int countAll(long[] done) {
            int c = 0;
            for (long w : done) {
                c += Long.bitCount(w);
            }
            return c;
        }

        /** Done operators beyond the first word (the first is counted by the caller). */
        private int countDone(long[] key) {
            int c = 0;
            for (int w = 1; w < opWords; w++) {
                c += Long.bitCount(key[w]);
            }
            return c;
        }

        private boolean held(long[] key, int x) {
            return (key[opWords + (x >> 6)] & (1L << (x & 63))) != 0;
        }

        private static void set(long[] key, int base, int i, boolean on) {
            if (on) {
                key[base + (i >> 6)] |= 1L << (i & 63);
            } else {
                key[base + (i >> 6)] &= ~(1L << (i & 63));
            }
        }

        /** Whether tensor x is written (or, a host tensor, read) by a done operator and read by one not done. */
        private boolean live(long[] done, int x) {
            return PeakBound.isLive(g, x, done, false);
        }

        /**
         * Every state one operator later, with what it costs to get there; false, with nothing built, when they are
         * more than the state cap (the ways to drop held bytes grow as subsets of the held tensors: millions on a
         * recompute plan's runs that hold many small copies). Each is a new state with another held set, so the
         * search would have stopped at the cap on them: stopping before building them gives the same result.
         */
        private boolean successors(long[] key, List<long[]> next, List<Long> costs, List<Integer> ops,
                                   List<int[]> dropped) {
            long[] done = Arrays.copyOf(key, opWords);
            List<Integer> heldList = held(key);
            int doneCount = fixed == null ? 0 : countAll(done);
            for (int o = 0; o < g.operatorCount(); o++) {
                if (PeakBound.has(done, o) || !PeakBound.ready(g, done, o, false)
                        || (fixed != null && fixed[doneCount] != o)) {
                    continue;
                }
                // The held tensors the operator does not read may leave the chip; its own must all be resident.
                List<Integer> others = new ArrayList<>();
                long heldBytes = 0;
                for (int x : heldList) {
                    if (!reads(o, x)) {
                        others.add(x);
                        heldBytes += g.size(x);
                    }
                }
                long need = ownBytes[o] + heldBytes - budget;
                others.sort((a, b) -> Long.compare(g.size(b), g.size(a)));
                List<int[]> drops = new ArrayList<>();
                if (need <= 0) {
                    drops.add(new int[0]);
                } else {
                    minimalDrops(others, 0, need, 0, new ArrayList<>(), drops);
                }
                if (next.size() + drops.size() > stateCap) {
                    return false;
                }
                for (int[] drop : drops) {
                    long[] after = key.clone();
                    costs.add(advance(key, after, o, drop));
                    next.add(after);
                    ops.add(o);
                    dropped.add(drop);
                }
            }
            return true;
        }

        /** The held tensors of a state. */
        private List<Integer> held(long[] key) {
            List<Integer> held = new ArrayList<>();
            for (int w = 0; w < tensorWords; w++) {
                long bits = key[opWords + w];
                while (bits != 0) {
                    held.add(w * 64 + Long.numberOfTrailingZeros(bits));
                    bits &= bits - 1;
                }
            }
            return held;
        }

        /**
         * Moves {@code after}, a copy of the state {@code key}, past operator o with the held tensors {@code drop}
         * sent off chip (each spilled the first time it leaves, loaded again later: its load and spill prices, then
         * its load price; spill only, twice its size, then once); its outputs held while live. What the move costs.
         */
        private long advance(long[] key, long[] after, int o, int[] drop) {
            set(after, 0, o, true);
            long cost = 0;
            for (int x : drop) {
                cost += prices.load()[x];
                boolean spillable = g.producer(x) >= 0 && !g.isGraphOutput(x);
                if (spillable && (key[opWords + tensorWords + (x >> 6)] & (1L << (x & 63))) == 0) {
                    cost += prices.spill()[x];
                    set(after, opWords + tensorWords, x, true);
                }
                set(after, opWords, x, false);
            }
            long[] doneAfter = Arrays.copyOf(after, opWords);
            for (int x : own[o]) {
                boolean stays = live(doneAfter, x);
                set(after, opWords, x, stays);
                if (!stays) {
                    set(after, opWords + tensorWords, x, false);
                }
            }
            return cost;
        }

        private boolean reads(int o, int x) {
            for (int y : g.inputs(o)) {
                if (y == x) {
                    return true;
                }
            }
            return false;
        }

        /**
         * Every minimal set of {@code others} (sorted by size, largest first) from index i on whose sizes, added to
         * {@code sum}, reach {@code need}: minimal when leaving out any one of them falls short; stops once there are
         * more than the state cap.
         */
        private void minimalDrops(List<Integer> others, int i, long need, long sum, List<Integer> chosen,
                                  List<int[]> out) {
            if (out.size() > stateCap) {
                return;
            }
            if (sum >= need) {
                long smallest = g.size(chosen.get(chosen.size() - 1));
                if (sum - smallest < need) {
                    out.add(chosen.stream().mapToInt(Integer::intValue).toArray());
                }
                return;
            }
            for (int j = i; j < others.size(); j++) {
                chosen.add(others.get(j));
                minimalDrops(others, j + 1, need, sum + g.size(others.get(j)), chosen, out);
                chosen.remove(chosen.size() - 1);
            }
        }
    }
}
