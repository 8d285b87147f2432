package dev.memplan.decomposition;

import dev.memplan.baselines.allocation.Portfolio;
import dev.memplan.formulations.cosma.Reruns;
import dev.memplan.model.Allocation;
import dev.memplan.model.Budget;
import dev.memplan.model.CheckReport;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Plan;
import dev.memplan.model.PlanBuffers;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.Schedule;
import dev.memplan.model.Segment;
import dev.memplan.model.SolveStatus;
import dev.memplan.model.SolverInfo;
import dev.memplan.model.TensorSetting;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * An exact shortest-path search over the runs of a tiny graph with recomputation, without addresses: the least
 * non-compulsory traffic + lambda x recompute cost (memory-model.md, "Recomputation") of a relaxation of the
 * contract, so its optimum (and, cut short, its least open estimate) is a lower bound over every plan, any order,
 * any number of reruns. Meant for graphs of at most {@link #MAX_TENSORS} tensors.
 *
 * <h2>The relaxation</h2>
 *
 * A state is (D, S, W): the operators run at least once, the tensors on chip between two runs, the produced tensors
 * already charged their spill. A move runs one operator o: every producer of o's inputs is in D; if o is in D the
 * run is a rerun (charged lambda c(o)); each input not in S is loaded just before the run (its bytes, plus its spill
 * when it is produced, not a graph output and not yet in W; then it joins W); the run needs its inputs and outputs
 * and a kept subset K of S on chip, bytes(in(o) u out(o) u K) <= B; afterwards S = in(o) u out(o) u K. Every load of
 * a host tensor pays its bytes here and the used host tensors' bytes (their compulsory first loads) are subtracted
 * from the path's cost at the end, which equals charging each host tensor's first load nothing.
 *
 * <p>Why every valid plan maps to a path of cost at most its objective: take the plan's runs in order; before run t
 * drop what is not resident at t, load what a loaded segment starting at t brings (only the tensors read at t:
 * a loaded segment that starts with no read can start at its first read or be deleted, which frees bytes and never
 * adds traffic, as in {@code RecomputeBruteForce}'s normal plans), then run. The resident bytes at t are the plan's
 * (the relaxation forgets only the addresses: disjoint ranges inside [0, B) sum to at most B). Each loaded segment
 * is one load; a produced tensor loaded again was spilled once (charged at its first load here); each rerun pays
 * lambda c(o); so the path costs exactly the objective, with the compulsory loads subtracted.
 *
 * <h2>What the search skips, and why nothing below the optimum is lost</h2>
 *
 * <ul>
 *   <li>Drops are chosen at runs only, as a maximal kept set K: dropping is free, and keeping a tensor one run
 *       longer is possible whenever it fits, so a state with a superset on chip (same D, a superset W, a cost no
 *       higher) reaches every state the other reaches at no higher cost: it <i>dominates</i> it, and a dominated
 *       state is never expanded. More generally a state dominates another with the same D when its cost plus the
 *       loads and spills the other has paid for and it has not is at most the other's cost ({@link #covers}): at a
 *       low lambda most states below the optimum differ only so (what was written out, a tensor rerun instead of
 *       kept). A tensor no later run can read (every reader in D and none may run again) is dropped at once (it
 *       cannot matter).</li>
 *   <li>Only operators that {@link Reruns#mayPay} run again: some optimal plan reruns no other (its proof), and
 *       a rerun whose outputs are all on chip or can no longer be read makes nothing a later run can use (drop it:
 *       the state after it is dominated by the one before).</li>
 * </ul>
 *
 * <h2>The estimate (A*)</h2>
 *
 * For a state, every tensor some operator not in D reads that is off chip must be on chip again before that
 * operator's first run: a host tensor by a load (its bytes), a tensor whose producer p is in D by loads of it or by a
 * rerun of p, which makes all of p's outputs at once. Grouped by producer, each group costs at least the least of
 * its loads' sum (bytes, plus the spill where not yet in W) and lambda c(p) (when p may run again). The events are
 * distinct (a load brings one tensor, a rerun is charged to its own outputs only), so the sum is admissible; it is
 * also consistent (a move that brings a tensor back pays at least its share, and a move only removes from the
 * needed set the inputs it runs with, which are on chip), so states leave the queue in order of f = g + h and the
 * least f on the queue is a lower bound on the optimum whenever the search stops.
 *
 * <p>The search is counted in work ({@link #STEPS_PER_UNIT} states generated a unit) and so is deterministic: ties
 * in f are broken by the larger cost so far, then by the order in which states were made.
 */
final class RunPathSearch {

    /** The most tensors of a graph the search takes (its sets are 64-bit masks). */
    static final int MAX_TENSORS = 64;

    /** States generated per work unit (about a second's worth on the shared machine). */
    static final long STEPS_PER_UNIT = 500_000;

    /**
     * Of what the bound step has left, the search's share in the road: half, since on the tiny graphs it takes it
     * alone proves what the steps after it (plan moves, the joint program) leave open (fig1:train at M_R and 2^-8 needs
     * 22 units of about 49 left; at a quarter it was cut short at 42.5), and it stops at its optimum or its cap.
     */
    static final double SHARE = 0.5;

    /**
     * The most states the search keeps, those not dominated when made, each held until the end as a parent or on the
     * queue (a count, so the same everywhere; about 100 bytes each).
     */
    static final long MAX_STATES = 4_000_000;

    /**
     * The most states the search makes, dominated or not (a count: without a limit of work or time it bounds the
     * search's time, about a minute on the loaded shared machine; fig1:train at M_R and 2^-8 makes 10.9 million,
     * and 40 units of work make as many, more than the road's share of 60).
     */
    static final long MAX_MADE = 20_000_000;

    /**
     * The search's answer.
     *
     * @param bound a lower bound on the objective of every plan (the optimum without addresses when {@code exact})
     * @param exact whether the search finished: the bound is the relaxation's optimum (or the cut-off reached)
     * @param plan the optimal path as a plan without addresses (offsets 0), null when not exact or cut off
     * @param expanded states expanded
     * @param generated states generated
     */
    record Result(double bound, boolean exact, Plan plan, long expanded, long generated) {
    }

    private final Graph g;
    private final TensorSetting setting;
    private final long budget;
    private final int m;
    private final int n;
    private final long[] size;
    private final long[] in;
    private final long[] out;
    private final long[] ioBytes;
    private final long[] spill;
    private final double[] rerun;
    private final int[] producer;
    private final long[][] needs;
    private final int[][] readers;
    private final long spillable;
    private final long hostUsed;
    private final double lambda;
    private final long tensorMask;

    private RunPathSearch(Graph g, TensorSetting setting, long budget, double lambda) {
        this.g = g;
        this.setting = setting;
        this.lambda = lambda;
        this.budget = budget;
        m = g.tensorCount();
        n = g.operatorCount();
        size = new long[m];
        spill = new long[m];
        producer = new int[m];
        readers = new int[m][];
        long sp = 0;
        long hu = 0;
        for (int x = 0; x < m; x++) {
            size[x] = g.size(x);
            producer[x] = g.producer(x);
            readers[x] = g.consumers(x);
            if (producer[x] >= 0 && !g.isGraphOutput(x)) {
                spill[x] = size[x];
                sp |= 1L << x;
            }
            if (producer[x] < 0 && readers[x].length > 0) {
                hu += size[x];
            }
        }
        spillable = sp;
        tensorMask = m == 64 ? -1L : (1L << m) - 1;
        hostUsed = hu;
        in = new long[n];
        out = new long[n];
        ioBytes = new long[n];
        rerun = new double[n];
        needs = new long[n][];
        boolean[] may = Reruns.ANY.of(g, lambda);
        for (int o = 0; o < n; o++) {
            needs[o] = new long[words(n)];
            for (int x : g.inputs(o)) {
                in[o] |= 1L << x;
                if (producer[x] >= 0) {
                    needs[o][producer[x] >> 6] |= 1L << producer[x];
                }
            }
            for (int x : g.outputs(o)) {
                out[o] |= 1L << x;
            }
            ioBytes[o] = bytes(in[o] | out[o]);
            rerun[o] = may[o] ? lambda * g.cost(o) : Double.NaN;
        }
    }

    /** The most operators of a graph the road runs the search on (a size rule: above it, it cannot finish). */
    static final int MAX_OPERATORS = 64;

    /** The plan's source when the search's optimum packs (`plan from`). */
    static final String SOURCE = "the exact search over runs";

    /** Whether the search takes the graph (in the setting already applied). */
    static boolean fits(Graph g) {
        return g.tensorCount() <= MAX_TENSORS;
    }

    /** Whether the road runs the search: at most {@link #MAX_TENSORS} tensors and {@link #MAX_OPERATORS} operators. */
    static boolean applies(Graph g) {
        return fits(g) && g.operatorCount() <= MAX_OPERATORS;
    }

    /**
     * The search's plan packed by the allocator portfolio and checked, or null when it does not fit the budget or
     * the checker refuses it (the relaxation forgets addresses).
     */
    static Plan packed(Graph g, Plan loose, long budget, Limits limits) {
        if (loose == null) {
            return null;
        }
        Allocation a = Portfolio.minimize(PlanBuffers.toBufferSet(g, loose), limits).allocation();
        if (a == null || !a.solved() || a.placement().height() > budget) {
            return null;
        }
        Plan plan = PlanBuffers.withPlacement(loose, a.placement());
        CheckReport check = PlanChecker.check(g, plan);
        return check.valid() ? plan.withResult(check.traffic(), new SolverInfo("run-path-search",
                SolveStatus.HEURISTIC, 0, null)) : null;
    }

    /**
     * The search on {@code g} (a setting already applied) at {@code budget} and recompute weight {@code lambda},
     * with the states whose estimate is at least {@code cutoff} (an objective some plan has, or infinity) left out.
     */
    static Result of(Graph g, TensorSetting setting, long budget, double lambda, double cutoff, Limits limits) {
        return of(g, setting, budget, lambda, cutoff, limits, false);
    }

    /**
     * As {@link #of(Graph, TensorSetting, long, double, double, Limits)}; with {@code plain} a state dominates another
     * only with a superset on chip and written out and a cost no higher (the rule before {@link #covers}' offsets, for
     * tests: both searches reach the same optimum).
     */
    static Result of(Graph g, TensorSetting setting, long budget, double lambda, double cutoff, Limits limits,
                     boolean plain) {
        if (!fits(g)) {
            throw new IllegalArgumentException("more than " + MAX_TENSORS + " tensors: " + g.tensorCount());
        }
        RunPathSearch search = new RunPathSearch(g, setting, budget, lambda);
        search.plain = plain;
        Result r = search.search(cutoff, limits);
        if (search.exactSums(cutoff)) {
            return r;
        }
        // Sums of doubles may have rounded: the bound is lowered by far more than any rounding could raise it.
        return new Result(r.bound() - 1e-9 * Math.max(1, Math.abs(r.bound())), r.exact(), r.plan(), r.expanded(),
                r.generated());
    }

    /**
     * Whether every cost the search adds is computed exactly: each lambda c(o) is the exact product, and every term
     * (sizes, rerun costs) is a multiple of 2^e with the largest sum the search keeps (the cut-off or a plan's cost,
     * plus the host tensors' loads) below 2^(e + 53), so every sum of them is exact in a double.
     */
    private boolean exactSums(double cutoff) {
        int low = Integer.MAX_VALUE;
        for (int x = 0; x < m; x++) {
            low = Math.min(low, Long.numberOfTrailingZeros(size[x]));
        }
        for (int o = 0; o < n; o++) {
            double v = rerun[o];
            if (Double.isNaN(v) || v == 0) {
                continue;
            }
            if (new java.math.BigDecimal(v).compareTo(new java.math.BigDecimal(lambda).multiply(
                    java.math.BigDecimal.valueOf(g.cost(o)))) != 0 || Double.isInfinite(v)) {
                return false;
            }
            long mant = (Double.doubleToLongBits(v) & ((1L << 52) - 1)) | (1L << 52);
            low = Math.min(low, Math.getExponent(v) - 52 + Long.numberOfTrailingZeros(mant));
        }
        // A plan that loads every input just in time (and spills each produced one) costs at most twice the inputs'
        // bytes: no path below the optimum, nor below the cut-off, sums to more than the lesser of the two.
        double loadAll = 0;
        for (int o = 0; o < n; o++) {
            loadAll += 2.0 * bytes(in[o]);
        }
        double most = Math.min(cutoff, loadAll) + hostUsed + 1;
        return low == Integer.MAX_VALUE || most < Math.scalb(1.0, low + 53);
    }

    private static int words(int bits) {
        return Math.max(1, (bits + 63) >> 6);
    }

    private long bytes(long mask) {
        long b = 0;
        for (long r = mask; r != 0; r &= r - 1) {
            b += size[Long.numberOfTrailingZeros(r)];
        }
        return b;
    }

    /** The operators run at least once, with what depends on them alone, and the states seen with them. */
    private final class Done {
        final long[] bits;
        final int count;
        /** Tensors some operator not in the set reads. */
        final long needed;
        /** Tensors no later run can read: every reader in the set, none may run again. */
        final long dead;
        /** The states seen with these runs, by what they hold on chip. */
        final Map<Long, List<Label>> byChip = new HashMap<>();
        final Map<Integer, Done> next = new HashMap<>();

        Done(long[] bits) {
            this.bits = bits;
            int c = 0;
            long nd = 0;
            for (int o = 0; o < n; o++) {
                if (has(o)) {
                    c++;
                } else {
                    nd |= in[o];
                }
            }
            count = c;
            needed = nd;
            long d = 0;
            for (int x = 0; x < m; x++) {
                boolean live = false;
                for (int r : readers[x]) {
                    if (!has(r) || !Double.isNaN(rerun[r])) {
                        live = true;
                        break;
                    }
                }
                if (!live) {
                    d |= 1L << x;
                }
            }
            dead = d;
        }

        boolean has(int o) {
            return (bits[o >> 6] & (1L << o)) != 0;
        }

        boolean hasAll(long[] ops) {
            for (int w = 0; w < ops.length; w++) {
                if ((ops[w] & ~bits[w]) != 0) {
                    return false;
                }
            }
            return true;
        }
    }

    /** A state: the operators run (its {@link Done}), on chip, written out, its cost and how it was reached. */
    private static final class Label {
        final Done done;
        final long chip;
        final long written;
        final double cost;
        final double f;
        final Label parent;
        final int op;
        final long seq;
        boolean removed;

        Label(Done done, long chip, long written, double cost, double f, Label parent, int op, long seq) {
            this.done = done;
            this.chip = chip;
            this.written = written;
            this.cost = cost;
            this.f = f;
            this.parent = parent;
            this.op = op;
            this.seq = seq;
        }
    }

    private final Map<Key, Done> dones = new LinkedHashMap<>();
    private PriorityQueue<Label> open;
    private long seq;
    /** States kept (not dominated when made): what the search holds at most, the cap's count. */
    private long held;
    /** Whether dominance is the plain rule, without {@link #covers}' offsets (for tests). */
    private boolean plain;
    private double limitF;
    private int[] sharers;

    private record Key(long[] bits) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && Arrays.equals(bits, k.bits);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(bits);
        }
    }

    private Done done(long[] bits) {
        return dones.computeIfAbsent(new Key(bits), k -> new Done(bits));
    }

    private Done after(Done d, int o) {
        if (d.has(o)) {
            return d;
        }
        Done nx = d.next.get(o);
        if (nx == null) {
            long[] bits = d.bits.clone();
            bits[o >> 6] |= 1L << o;
            nx = done(bits);
            d.next.put(o, nx);
        }
        return nx;
    }

    /** The admissible, consistent estimate of what is still to pay from a state (class comment). */
    private double estimate(Done d, long chip, long written, double[] group, int[] touched) {
        long missing = d.needed & ~chip;
        double h = 0;
        int k = 0;
        for (long r = missing; r != 0; r &= r - 1) {
            int x = Long.numberOfTrailingZeros(r);
            int p = producer[x];
            if (p < 0) {
                h += size[x];
            } else if (d.has(p)) {
                long load = size[x] + ((written & (1L << x)) != 0 ? 0 : spill[x]);
                if (group[p] == 0) {
                    touched[k++] = p;
                }
                group[p] += load;
            }
        }
        // A rerun of p needs p's inputs on chip: each input that is off chip and not itself charged above (not read
        // by an operator not in D) must come back too, by a load or its own producer's rerun; one such return may
        // serve several groups' reruns, so each of the j groups that need it is charged 1/j of its least price.
        for (int i = 0; i < k; i++) {
            int p = touched[i];
            if (!Double.isNaN(rerun[p])) {
                for (long r = in[p] & ~chip & ~missing; r != 0; r &= r - 1) {
                    sharers[Long.numberOfTrailingZeros(r)]++;
                }
            }
        }
        for (int i = 0; i < k; i++) {
            int p = touched[i];
            double way = group[p];
            if (!Double.isNaN(rerun[p])) {
                double rerunWay = rerun[p];
                for (long r = in[p] & ~chip & ~missing; r != 0; r &= r - 1) {
                    int y = Long.numberOfTrailingZeros(r);
                    rerunWay += back(y, written) / sharers[y];
                }
                way = Math.min(way, rerunWay);
            }
            h += way;
            group[p] = 0;
        }
        for (int i = 0; i < k; i++) {
            for (long r = in[touched[i]]; r != 0; r &= r - 1) {
                sharers[Long.numberOfTrailingZeros(r)] = 0;
            }
        }
        return h;
    }

    /** The least a tensor off chip costs to bring back once: its load (and spill), or its producer's rerun. */
    private double back(int y, long written) {
        int q = producer[y];
        if (q < 0) {
            return size[y];
        }
        double load = size[y] + ((written & (1L << y)) != 0 ? 0 : spill[y]);
        return Double.isNaN(rerun[q]) ? load : Math.min(load, rerun[q]);
    }

    private Result search(double cutoff, Limits limits) {
        Budget.Meter meter = limits.workMode() ? limits.budget().meter(STEPS_PER_UNIT) : null;
        // Objectives are compared with a little room for rounding: a state is left out only when its estimate is
        // above the cut-off by more than that, so no path below the cut-off is lost to rounding.
        limitF = cutoff + hostUsed + 1e-9 * Math.max(1, Math.abs(cutoff));
        open = new PriorityQueue<>((a, b) -> a.f != b.f ? Double.compare(a.f, b.f)
                : a.cost != b.cost ? Double.compare(b.cost, a.cost) : Long.compare(a.seq, b.seq));
        double[] group = new double[n];
        int[] touched = new int[n];
        sharers = new int[m];
        Done root = done(new long[words(n)]);
        insert(new Label(root, 0, 0, 0, estimate(root, 0, 0, group, touched), null, -1, seq++));
        long expanded = 0;
        long generated = 0;
        long made = 0;
        boolean stopped = false;
        long[] items = new long[m];
        while (!open.isEmpty()) {
            Label l = open.poll();
            if (l.removed) {
                continue;
            }
            if (l.done.count == n) {
                return new Result(l.cost - hostUsed, true, plan(l), expanded, generated);
            }
            boolean over = meter != null ? !meter.step(1 + made) || limits.budget().wallOver()
                    : (expanded & 255) == 0 && limits.stopped();
            if (over || held > MAX_STATES || generated > MAX_MADE) {
                open.add(l);
                stopped = true;
                break;
            }
            expanded++;
            made = 0;
            Done d = l.done;
            for (int o = 0; o < n; o++) {
                if (!d.hasAll(needs[o])) {
                    continue;
                }
                boolean first = !d.has(o);
                double c = l.cost;
                if (!first) {
                    long fresh = out[o] & ~l.chip & ~d.dead;
                    if (Double.isNaN(rerun[o]) || fresh == 0) {
                        continue;
                    }
                    c += rerun[o];
                }
                long loads = in[o] & ~l.chip;
                for (long r = loads; r != 0; r &= r - 1) {
                    int x = Long.numberOfTrailingZeros(r);
                    c += size[x] + ((l.written & (1L << x)) != 0 ? 0 : spill[x]);
                }
                Done nd = after(d, o);
                long written = (l.written | (loads & spillable)) & ~nd.dead;
                long room = budget - ioBytes[o];
                if (room < 0) {
                    continue;
                }
                long base = in[o] | out[o];
                long candidates = l.chip & ~base & ~nd.dead;
                int k = 0;
                long total = 0;
                for (long r = candidates; r != 0; r &= r - 1) {
                    int x = Long.numberOfTrailingZeros(r);
                    items[k++] = x;
                    total += size[x];
                }
                long keep = base & ~nd.dead;
                if (total <= room) {
                    made++;
                    offer(nd, keep | candidates, written, c, l, o, group, touched);
                } else {
                    made += kept(items, k, 0, 0, room, Long.MAX_VALUE, nd, keep, written, c, l, o, group,
                            touched);
                }
            }
            generated += made;
        }
        double bound;
        Label top = peek();
        if (top != null) {
            bound = Math.min(top.f - hostUsed, cutoff);
        } else {
            // Nothing left below the cut-off: no plan pays less than it.
            bound = cutoff;
        }
        return new Result(bound, !stopped, null, expanded, generated);
    }

    private Label peek() {
        while (!open.isEmpty() && open.peek().removed) {
            open.poll();
        }
        return open.peek();
    }

    /**
     * Every maximal subset of {@code items[i..k)} that fits {@code room} beside {@code chosen} offered as a kept set;
     * {@code minOut} is the least size of an item left out so far (a set is maximal when none of them fits).
     *
     * @return states offered
     */
    private long kept(long[] items, int k, int i, long chosen, long room, long minOut, Done nd, long keep,
                      long written, double cost, Label parent, int o, double[] group, int[] touched) {
        if (i == k) {
            if (minOut <= room) {
                return 0;
            }
            offer(nd, keep | chosen, written, cost, parent, o, group, touched);
            return 1;
        }
        int x = (int) items[i];
        long made = 0;
        if (size[x] <= room) {
            made += kept(items, k, i + 1, chosen | (1L << x), room - size[x], minOut, nd, keep, written, cost,
                    parent, o, group, touched);
        }
        made += kept(items, k, i + 1, chosen, room, Math.min(minOut, size[x]), nd, keep, written, cost, parent, o,
                group, touched);
        return made;
    }

    private void offer(Done nd, long chip, long written, double cost, Label parent, int o, double[] group,
                       int[] touched) {
        double f = cost + estimate(nd, chip, written, group, touched);
        if (f > limitF) {
            return;
        }
        if (insert(new Label(nd, chip, written, cost, f, parent, o, seq++))) {
            held++;
        }
    }

    /**
     * Adds a state unless a state with the same runs dominates it ({@link #covers}; only those with the same tensors
     * on chip, one more or one fewer are looked at: a partial check, so it prunes less than full dominance, never
     * more); removes the states it dominates among the same.
     *
     * @return whether the state was kept
     */
    private boolean insert(Label l) {
        Map<Long, List<Label>> byChip = l.done.byChip;
        if (dominated(byChip.get(l.chip), l)) {
            return false;
        }
        long free = ~l.chip & tensorMask;
        for (long r = free; r != 0; r &= r - 1) {
            if (dominated(byChip.get(l.chip | (r & -r)), l)) {
                return false;
            }
        }
        for (long r = l.chip; r != 0; r &= r - 1) {
            if (dominated(byChip.get(l.chip & ~(r & -r)), l)) {
                return false;
            }
        }
        prune(byChip.get(l.chip), l);
        for (long r = l.chip; r != 0; r &= r - 1) {
            prune(byChip.get(l.chip & ~(r & -r)), l);
        }
        for (long r = free; r != 0; r &= r - 1) {
            prune(byChip.get(l.chip | (r & -r)), l);
        }
        byChip.computeIfAbsent(l.chip, k -> new ArrayList<>(2)).add(l);
        open.add(l);
        return true;
    }

    /**
     * Whether state {@code a} dominates {@code b} (the same runs): a's cost plus what b holds that a lacks is at
     * most b's cost. What a lacks: each tensor on b's chip and not on a's, at most one load (its bytes), which a pays
     * just before b's next run that reads it (the tensor off chip in between only frees room); each spill b has
     * paid or would owe nothing for (written out by b, or held on b's chip and produced) that a has not paid, at
     * most once (a pays it at its first load). So a can follow every path from b, run for run with the same kept
     * sets less what it lacks, and pays at most b's cost on it: nothing below the optimum is lost. With nothing
     * lacking this is the plain rule (a superset on chip and written out, a cost no higher).
     */
    private boolean covers(Label a, Label b) {
        if (a.cost > b.cost) {
            return false;
        }
        long lost = b.chip & ~a.chip;
        long owed = (b.written | (lost & spillable)) & ~a.written;
        if (plain) {
            return lost == 0 && owed == 0;
        }
        // The difference of two costs the search keeps is exact whenever their sums are (exactSums).
        return bytes(lost) + spilled(owed) <= b.cost - a.cost;
    }

    private long spilled(long mask) {
        long b = 0;
        for (long r = mask; r != 0; r &= r - 1) {
            b += spill[Long.numberOfTrailingZeros(r)];
        }
        return b;
    }

    private boolean dominated(List<Label> list, Label l) {
        if (list != null) {
            for (Label o : list) {
                if (covers(o, l)) {
                    return true;
                }
            }
        }
        return false;
    }

    private void prune(List<Label> list, Label l) {
        if (list == null) {
            return;
        }
        int w = 0;
        for (int r = 0; r < list.size(); r++) {
            Label o = list.get(r);
            if (covers(l, o)) {
                o.removed = true;
            } else {
                list.set(w++, o);
            }
        }
        list.subList(w, list.size()).clear();
    }

    /**
     * The path to {@code last} as a plan without addresses (every offset 0): its runs, each tensor's segments
     * (created or recomputed at its producer's runs, loaded at the runs that loaded it), each segment ended at the
     * last run in it that reads it (rule 3 of memory-model.md; a segment with no read is its own run).
     */
    private Plan plan(Label last) {
        List<Label> path = new ArrayList<>();
        for (Label l = last; l.parent != null; l = l.parent) {
            path.add(l);
        }
        java.util.Collections.reverse(path);
        int[] start = new int[m];
        int[] lastTouch = new int[m];
        String[] origin = new String[m];
        Arrays.fill(start, -1);
        List<List<Segment>> segs = new ArrayList<>();
        for (int x = 0; x < m; x++) {
            segs.add(new ArrayList<>());
        }
        List<String> names = new ArrayList<>();
        boolean[] ran = new boolean[n];
        long chip = 0;
        for (int t = 0; t < path.size(); t++) {
            Label l = path.get(t);
            int o = l.op;
            names.add(g.operator(o).name());
            long base = in[o] | out[o];
            long resident = base | (l.chip & ~base);
            // Off chip at t, or made again at t: the segment held before ends.
            long ended = (chip & ~resident) | (chip & out[o]);
            for (long r = ended; r != 0; r &= r - 1) {
                close(Long.numberOfTrailingZeros(r), start, lastTouch, origin, segs);
            }
            for (long r = base & ~(chip & ~out[o]); r != 0; r &= r - 1) {
                int x = Long.numberOfTrailingZeros(r);
                start[x] = t;
                lastTouch[x] = t;
                origin[x] = (out[o] & (1L << x)) == 0 ? "loaded" : ran[o] ? "recomputed" : "created";
            }
            for (long r = in[o]; r != 0; r &= r - 1) {
                lastTouch[Long.numberOfTrailingZeros(r)] = t;
            }
            ran[o] = true;
            // Dropped after the run as dead: they end here too.
            for (long r = resident & ~l.chip; r != 0; r &= r - 1) {
                close(Long.numberOfTrailingZeros(r), start, lastTouch, origin, segs);
            }
            chip = l.chip;
        }
        for (long r = chip; r != 0; r &= r - 1) {
            close(Long.numberOfTrailingZeros(r), start, lastTouch, origin, segs);
        }
        Map<String, List<Segment>> segments = new LinkedHashMap<>();
        for (int x = 0; x < m; x++) {
            if (!segs.get(x).isEmpty()) {
                segments.put(g.tensor(x).name(), segs.get(x));
            }
        }
        return new Plan(g.name(), setting, budget, new Schedule(names), segments, null, null);
    }

    private static void close(int x, int[] start, int[] lastTouch, String[] origin, List<List<Segment>> segs) {
        if (start[x] < 0) {
            return;
        }
        Segment s = switch (origin[x]) {
            case "loaded" -> Segment.loaded(start[x], lastTouch[x], 0);
            case "recomputed" -> Segment.recomputed(start[x], lastTouch[x], 0);
            default -> Segment.created(start[x], lastTouch[x], 0);
        };
        segs.get(x).add(s);
        start[x] = -1;
    }
}
