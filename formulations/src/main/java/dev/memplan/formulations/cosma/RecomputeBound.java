package dev.memplan.formulations.cosma;

import dev.memplan.model.Budget;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.List;

/**
 * A lower bound on the objective with recomputation, non-compulsory traffic + lambda x recompute cost
 * (memory-model.md, "Recomputation"), over <em>every</em> plan at a budget B: any schedule (or the given order of
 * first runs), any number of recomputes of any operator, any spills. Unlike the joint program's bound
 * ({@link RecomputeSolver}), which holds only over the plans it allows (at most k recomputes of the operators
 * {@link Reruns} allows), it can certify an optimum of the whole problem.
 *
 * <p><b>The argument.</b> Take any plan and the first run of an operator o, at timestep t. The first runs of a plan
 * are a topological order (rule {@code schedule}). Call a tensor x <em>live at o</em> when x is not o's own (an
 * input or output of o), some operator touched x before t (its producer ran, or, a host tensor, a reader read it)
 * and a reader of x has its first run after t. Without an order (free schedule): the producer (a reader, for a
 * host tensor) is an ancestor of o and a reader a descendant; with a given order of first runs, the positions
 * decide. o's own tensors are resident at t and everything resident fits in B, so if o's own bytes plus the live
 * bytes at o exceed B by E, live tensors of at least E bytes in total are off chip at t. Each such x is read after
 * t, so a segment of x starts in (t, its reader]: either a load, which costs size(x) (for a host tensor it is not
 * the free first load: that one was at or before its first read, before t), plus one spill of size(x) when x is
 * produced and not a graph output (charged once per tensor, and at t only x's own); or a recompute of x's producer p
 * (host tensors have none), which costs lambda c(p) and makes all of p's outputs at once. So give each live tensor
 * the price
 * <pre>
 *   price(x) = min(load(x), lambda c(p) size(x) / out(p)),   load(x) = size(x) (host tensor, graph output), else 2 size(x)
 * </pre>
 * (out(p): the bytes of all of p's outputs; one recompute of p pays at least the shares of the outputs it brings
 * back, since their sizes sum to at most out(p)). Whatever the plan does after t, what it pays for the set C of
 * live tensors off chip at t is at least the sum of their prices, and C covers E bytes: sum of min(size, E) over C
 * is at least E (the knapsack-cover inequality: one tensor of at least E bytes covers E alone). Dropping what a
 * recompute needs (its inputs resident at its run) only lowers the price, so the least
 * <pre>
 *   sum price(x) y_x   subject to   sum min(size(x), E) y_x >= E,  0 <= y_x <= 1
 * </pre>
 * (a fractional knapsack: the live tensors by price per covered byte, cheapest first) is at most what every plan
 * pays after the first run of o. The bytes off chip are whole tensors' sizes, so E may be rounded up to a multiple of
 * their gcd first ({@link #onUnit}). A recompute also needs its producer's inputs on chip; one that no first run reads
 * after o must be kept through o (room) or brought back (a price: a load, or a recompute that needs its own
 * producer's inputs in turn), which {@link #withInputs} adds as further options of a Lagrangian of the same cover,
 * following those needs level by level ({@link Needs}). The bound is the largest of these over the
 * {@link #CANDIDATES} operators with the most bytes over the budget: each bounds the whole objective. With a free
 * schedule the live sets are those of every order (an ancestor runs before, a descendant after), so the bound holds
 * for every order. Alignment only adds padding, so it holds with alignment too.
 *
 * <p><b>Operators that may not pay.</b> When lambda c(p) is at least the loads and spills of p's outputs
 * ({@link Reruns#mayPay} false), some optimal plan never reruns p (the proof is there; it keeps the order of first
 * runs), so it is enough to bound the plans that rerun no such operator, among which is an optimum: p's outputs are
 * priced at their loads, and a rerun of p is no option, here and over time. Strictly the bound is then one on the
 * least objective (in the order given, if any), not on every plan's; that is all a bound is used for.
 *
 * <p><b>Over time.</b> One operator's cover pays for one moment. {@link RecomputeTimeBound} sums the covers of a chain
 * of operators (the order, or a path of the graph), a tensor paying again only after a read between two moments, a
 * rerun's inputs held or made again as here, as a linear program; given a share of the run ({@link Integral}), the
 * same program over integers on CP-SAT, whose proven bound closes the linear program's integrality gap. The bound is
 * the largest of these; each is valid on its own.
 *
 * <p><b>A later moment.</b> One operator's cover charges only events of tensors made before its first run. The tensors
 * made at or after it are charged apart at a second moment, the first run of whichever operator of a group comes
 * first ({@link LaterMoment}): their cover there adds to the first. Also valid on its own; the bound is the largest.
 *
 * <p><b>Exact arithmetic.</b> The prices and the sums are computed in doubles rounded towards zero where an operation
 * is inexact (an {@link Math#fma} residual says which), and the tensors are sorted by comparing cross products,
 * exactly when they are close ({@link BigDecimal}): every step keeps the value at most the real one, so the bound is
 * never above the least objective, and it is exact when every operation is (integer sizes and costs, lambda a power
 * of two).
 *
 * <p>memplan's own bound (the recompute literature cited in docs/recomputation.md proves none over all plans). Time:
 * O(n^2 / 64) words for the ancestor and descendant sets (free schedule; a given order needs none), three passes over
 * the live pairs, then O(L log L + K (L T + N)) per priced operator, L its live tensors, T the ways of providing a
 * recompute's needs (at most {@link #MAX_TREES}), N the needs (at most {@link #MAX_NEEDS}) and K the multipliers tried
 * (33 on a grid, 62 in the search, at most 256 breakpoints); memory O(n^2 / 32) bytes.
 * Numbers: BENCHMARKS.md, "A bound over every plan with recomputation".
 */
public final class RecomputeBound {

    /**
     * Most operators: beyond, the bound is 0 (the free schedule's ancestor and descendant sets take two bits per
     * pair of operators, 16 MiB at this size, and the live pairs grow with the graph's width).
     */
    public static final int MAX_OPERATORS = 1 << 13;

    /** Most operators whose covers are priced: those with the most bytes over the budget. */
    static final int CANDIDATES = 64;

    /**
     * The bound and where it comes from.
     *
     * @param value the lower bound on traffic + lambda x recompute cost over every plan
     * @param operator the operator at whose first run it is attained, -1 when the bound is 0
     * @param excess the bytes over the budget there (own and live bytes less B), 0 when the bound is 0
     * @param overTime the cover summed over time ({@link RecomputeTimeBound}) alone, its linear program's bound, 0
     *                 without one
     * @param integral the same program over integers, CP-SAT's proven bound, 0 when it did not run or proved nothing;
     *                 {@code value} is the largest of the four
     * @param integralNote how the integer program ended (or why it did not run), null when it was not asked for
     * @param laterMoment one operator's cover plus a later moment's ({@link LaterMoment}), 0 without one
     */
    public record Result(double value, int operator, long excess, double overTime, double integral,
                         String integralNote, double laterMoment) {

        /** No bound: 0. */
        public static final Result NONE = new Result(0, -1, 0, 0, 0, null, 0);

        /** Which bound gave {@link #value()}, in words. */
        public String source() {
            if (value == 0) {
                return "none";
            }
            if (overTime >= value) {
                return "the cover over time (linear program)";
            }
            if (integral >= value) {
                return "the cover over time as an integer program (" + integralNote + ")";
            }
            return laterMoment >= value ? "one operator's cover and a later moment's" : "one operator's cover";
        }
    }

    /**
     * The integer program of the cover over time ({@link RecomputeTimeBound}): its share of the run and the objective
     * it need not pass (the best plan's: once the linear program's bound meets it, the integer program is not run).
     *
     * @param limits its share, charged in work under a work limit
     * @param target the best plan's objective (infinity: none)
     */
    public record Integral(Limits limits, double target) {
    }

    private RecomputeBound() {
    }

    /**
     * @param g the graph in its tensor setting
     * @param budget the budget B
     * @param lambda the recompute weight, >= 0, bytes per cost unit
     * @param order the order of the first runs (every operator once, topological), or null for a free schedule
     */
    public static Result of(Graph g, long budget, double lambda, int[] order) {
        return of(g, budget, lambda, order, Budget.unlimited());
    }

    /**
     * The bound within a run's budget: the cover summed over time stops at the run's wall end (or Ctrl-C) with the
     * best it had proven by then, and says so on the run's budget ({@link Budget#markWallStop()}); so do the
     * operators' covers with a rerun's inputs (those seen by then count; on thousands of operators they take
     * seconds), while the plain covers of every operator always count. It is not charged in work units (it is
     * deterministic: the same graph gives the same number on every machine).
     *
     * @param run the run's budget, whose wall end and stop flag the cover over time polls
     */
    public static Result of(Graph g, long budget, double lambda, int[] order, Budget run) {
        return of(g, budget, lambda, order, run, null);
    }

    /**
     * The bound with the cover over time also solved as an integer program on CP-SAT (after its linear program, when
     * that does not meet {@code integral}'s target), within {@code integral}'s share, counted in work: its proven
     * bound counts where it is higher.
     *
     * @param integral the integer program's share and target, or null for none
     */
    public static Result of(Graph g, long budget, double lambda, int[] order, Budget run, Integral integral) {
        if (!(lambda >= 0) || Double.isInfinite(lambda)) {
            throw new IllegalArgumentException("the recompute weight must be finite and >= 0, not " + lambda);
        }
        Setup setup = setup(g, budget, order);
        if (setup == null) {
            return Result.NONE;
        }
        int n = g.operatorCount();
        Live pairs = setup.pairs();
        long[] bytes = setup.bytes();
        long[] ownBytes = setup.ownBytes();
        boolean[] priced = candidates(bytes, budget);
        int[][] live = new int[n][];
        int[] count = new int[n];
        pairs.forEach((o, x) -> count[o] += priced[o] ? 1 : 0);
        for (int o = 0; o < n; o++) {
            live[o] = new int[count[o]];
            count[o] = 0;
        }
        pairs.forEach((o, x) -> {
            if (priced[o]) {
                live[o][count[o]++] = x;
            }
        });
        boolean[] pays = Reruns.ANY.of(g, lambda);
        double[] price = prices(g, lambda, pays);
        // The plain covers, then the covers with a rerun's inputs (the slower; past the wall end, those seen by then).
        double[] v = new double[n];
        for (int o = 0; o < n; o++) {
            v[o] = priced[o] ? cover(g, live[o], price, onUnit(bytes[o] - budget, unit(g, live[o], 0))) : 0;
        }
        for (int o = 0; o < n && !run.wallOver(); o++) {
            v[o] = priced[o] ? Math.max(v[o], withInputs(g, o, live[o], price, bytes[o] - budget, lambda, pairs, pays))
                    : 0;
        }
        Result best = Result.NONE;
        for (int o = 0; o < n; o++) {
            if (v[o] > best.value()) {
                best = new Result(v[o], o, bytes[o] - budget, 0, 0, null, 0);
            }
        }
        double later = LaterMoment.of(g, budget, pairs, ownBytes, new LaterMoment.Prices(price, lambda, pays), v,
                run).value();
        RecomputeTimeBound.Value overTime = RecomputeTimeBound.of(g, budget, lambda, pairs, bytes, ownBytes, true, run,
                integral);
        double value = Math.max(Math.max(best.value(), later), Math.max(overTime.relaxed(), overTime.integral()));
        return value == 0 ? new Result(0, -1, 0, 0, 0, overTime.note(), 0) : new Result(onGrid(g, lambda, value),
                best.operator(), best.excess(), overTime.relaxed() == 0 ? 0 : onGrid(g, lambda, overTime.relaxed()),
                overTime.integral() == 0 ? 0 : onGrid(g, lambda, overTime.integral()), overTime.note(),
                later == 0 ? 0 : onGrid(g, lambda, later));
    }

    /**
     * A lower bound on the non-compulsory traffic of every plan that recomputes nothing (any order of the operators,
     * or the given one): the cover summed over time ({@link RecomputeTimeBound}) without the rerun option, its linear
     * program's bound. Every plan without recomputes is one of {@link #of}'s plans with no rerun, so it maps to a
     * point of that program with r and R at 0. 0 without one; its wall end (or Ctrl-C) on {@code run} stops it, as
     * in {@link #of(Graph, long, double, int[], Budget)}, and it is not charged in work.
     *
     * @param order the order of the operators, or null for a free schedule
     */
    public static long spillOnly(Graph g, long budget, int[] order, Budget run) {
        Setup setup = setup(g, budget, order);
        if (setup == null) {
            return 0;
        }
        double v = RecomputeTimeBound.of(g, budget, 0, setup.pairs(), setup.bytes(), setup.ownBytes(), false, run,
                null).relaxed();
        return v == 0 ? 0 : (long) Math.floor(onGrid(g, 0, v));
    }

    /** The live pairs and each operator's own and own plus live bytes. */
    private record Setup(Live pairs, long[] bytes, long[] ownBytes) {
    }

    /** The setup of a bound; null when there is none (too many operators, or an operator alone over the budget). */
    private static Setup setup(Graph g, long budget, int[] order) {
        int n = g.operatorCount();
        if (order != null && order.length != n) {
            throw new IllegalArgumentException("the order has " + order.length + " operators, the graph " + n);
        }
        if (n > MAX_OPERATORS) {
            return null;
        }
        long[] ownBytes = new long[n];
        for (int o = 0; o < n; o++) {
            for (int x : own(g, o)) {
                ownBytes[o] += g.size(x);
            }
            if (ownBytes[o] > budget) {
                return null; // below M_R no plan exists; there is nothing to bound
            }
        }
        Live pairs = order == null ? new Free(g) : new InOrder(g, order);
        long[] bytes = ownBytes.clone();
        pairs.forEach((o, x) -> bytes[o] += g.size(x));
        return new Setup(pairs, bytes, ownBytes);
    }

    /**
     * The least value at or above {@code v} that an objective can take: every plan's traffic is a sum of tensor sizes
     * (a multiple of their gcd) and its recompute cost a sum of operator costs (a multiple of theirs), so its objective
     * is a multiple of the gcd d of those two figures' units, size gcd and lambda x cost gcd (exact: lambda is a binary
     * fraction). Rounding the bound up to a multiple of d keeps it a bound, and it gives back what rounding down
     * took from a bound that is exactly an objective (87.99999999999999 is 88). As a double rounded down.
     */
    private static double onGrid(Graph g, double lambda, double v) {
        java.math.BigInteger sizes = java.math.BigInteger.ZERO;
        for (int x = 0; x < g.tensorCount(); x++) {
            sizes = sizes.gcd(java.math.BigInteger.valueOf(g.size(x)));
        }
        java.math.BigInteger costs = java.math.BigInteger.ZERO;
        for (int o = 0; o < g.operatorCount(); o++) {
            costs = costs.gcd(java.math.BigInteger.valueOf(g.cost(o)));
        }
        BigDecimal weighted = new BigDecimal(lambda).multiply(new BigDecimal(costs));
        // Both are finite decimals: scale them to integers by the same power of ten, take the gcd, scale back.
        int scale = Math.max(0, weighted.stripTrailingZeros().scale());
        BigDecimal factor = BigDecimal.TEN.pow(scale);
        java.math.BigInteger d = new BigDecimal(sizes).multiply(factor).toBigIntegerExact()
                .gcd(weighted.multiply(factor).toBigIntegerExact());
        if (d.signum() == 0) {
            return v;
        }
        BigDecimal grid = new BigDecimal(d).divide(factor);
        BigDecimal up = new BigDecimal(v).divide(grid, 0, java.math.RoundingMode.CEILING).multiply(grid);
        double out = up.doubleValue();
        return new BigDecimal(out).compareTo(up) > 0 ? Math.nextDown(out) : out;
    }

    /**
     * The operators whose covers are priced: the {@link #CANDIDATES} with the most bytes over the budget (the fewer
     * index first among equals). Each one's cover is a bound, so any subset gives one; this keeps time and memory
     * linear in the graph beyond the live pairs, and the result the same on every machine.
     */
    private static boolean[] candidates(long[] bytes, long budget) {
        int n = bytes.length;
        Integer[] over = java.util.stream.IntStream.range(0, n).filter(o -> bytes[o] > budget).boxed()
                .toArray(Integer[]::new);
        java.util.Arrays.sort(over, Comparator.comparingLong((Integer o) -> -bytes[o]).thenComparingInt(o -> o));
        boolean[] priced = new boolean[n];
        for (int i = 0; i < Math.min(CANDIDATES, over.length); i++) {
            priced[over[i]] = true;
        }
        return priced;
    }

    /**
     * Each tensor's price per the class comment, rounded down; host tensors cannot be recomputed, nor need the outputs
     * of an operator that may not pay ({@link Reruns#mayPay}) be: their price is the load's.
     */
    private static double[] prices(Graph g, double lambda, boolean[] pays) {
        int m = g.tensorCount();
        double[] price = new double[m];
        for (int x = 0; x < m; x++) {
            long size = g.size(x);
            int p = g.producer(x);
            if (p < 0) {
                price[x] = size;
                continue;
            }
            double load = g.isGraphOutput(x) ? size : 2.0 * size;
            price[x] = pays[p] ? Math.min(load, share(g, lambda, x)) : load;
        }
        return price;
    }

    /**
     * The bytes a plan must free at a moment, on the grid of the sizes that free them: the live tensors off chip at
     * o's first run and the dead tensors held there for a rerun's needs are whole tensors, and what the cover's row
     * counts, the live bytes off chip less the needs' room, is at least E (o's own bytes, the live tensors left on
     * chip and the needs held fit in B; other resident tensors only leave more off). Both sums are multiples of the
     * gcd of the sizes of the live tensors and the needs ({@code unit}), so the row holds with E rounded up to a
     * multiple of it: every cover above, and {@link LaterMoment}'s, is a bound with that E. On
     * deeplabv3_resnet50:train at M_R the loss's own bytes hold a 1-byte tensor and every live size is a multiple of
     * 1,024 bytes: E = 21,224,193 is 21,224,448 on the grid, 510 more at two per byte.
     *
     * Divide and conquer's priced live bytes ({@code PeakBound}) round their excess so too.
     *
     * @param unit the gcd of the sizes that may free the bytes, 0 for none (E unchanged)
     */
    public static long onUnit(long excess, long unit) {
        return unit <= 1 || excess <= 0 ? excess : Math.addExact(excess, Math.floorMod(-excess, unit));
    }

    /** The gcd of {@code unit} and the sizes of the tensors {@code xs}. */
    static long unit(Graph g, int[] xs, long unit) {
        for (int x : xs) {
            unit = gcd(unit, g.size(x));
        }
        return unit;
    }

    /** The gcd of a and b (0 with 0: the other). */
    public static long gcd(long a, long b) {
        return b == 0 ? a : gcd(b, a % b);
    }

    /**
     * The least fractional cover of {@code excess} bytes by the live tensors, each covering min(size, excess) at its
     * price: the cheapest per covered byte first (Dantzig's greedy, optimal for one row).
     */
    static double cover(Graph g, int[] live, double[] price, long excess) {
        List<Integer> items = new ArrayList<>(live.length);
        for (int x : live) {
            items.add(x);
        }
        items.sort(Comparator.comparing((Integer x) -> x, (x, y) -> ratio(price[x], Math.min(g.size(x), excess),
                price[y], Math.min(g.size(y), excess))).thenComparingInt(x -> x));
        long left = excess;
        double value = 0;
        for (int x : items) {
            long a = Math.min(g.size(x), excess);
            if (a <= left) {
                value = Down.add(value, price[x]);
                left -= a;
            } else {
                value = Down.add(value, Down.div(Down.mul(price[x], left), a));
                left = 0;
            }
            if (left == 0) {
                break;
            }
        }
        return value;
    }

    /**
     * Most ways to provide one recompute's needs that are enumerated ({@link Needs#trees}): the levels followed are cut
     * until they fit, the needs below counting as free.
     */
    private static final int MAX_TREES = 256;
    /**
     * Most levels of reruns followed below a live tensor's ({@link Needs}): its producer's dead inputs are level 1; a
     * tensor at this level may still be brought back by a rerun, but that rerun's own inputs count as free.
     */
    static final int MAX_DEPTH = 8;
    /** Most dead tensors followed per operator ({@link Needs}); the ones beyond count as free. */
    private static final int MAX_NEEDS = 1024;
    /** Evaluations of the Lagrangian per operator (golden-section search over its multiplier). */
    private static final int SEARCH_STEPS = 60;
    /** Evenly spaced multipliers tried before the search (with the rerun chains the Lagrangian need not be concave). */
    private static final int GRID_STEPS = 32;

    /**
     * The cover with what a recompute needs: the recompute of x's producer p after o's first run needs every input y
     * of p on chip. An input that is surely dead at o (no first run reads it after o; {@link Needs}) is then either on
     * chip at o, taking room beyond the live bytes, or brought back after o: a load, or a recompute of its own
     * producer, which needs that producer's dead inputs in turn, and so on. One such y may serve the recomputes of
     * every tensor whose producer reads it: x bears the share w of y's room or price along each path to y
     * ({@link Needs}: the shares into one y sum to at most one). So each live x has the options: a load, covering
     * min(size(x), E); a recompute with a way to provide its needs ({@link Needs#trees}: each need held, loaded or made
     * by a rerun), covering min(size(x) - the shares of the bytes held, E) at lambda c(p) size(x) / out(p) plus the
     * shares of the loads' and reruns' prices. Past the levels enumerated a rerun's needs count as free, which only
     * lowers a cost and raises a cover. A second bound on a recompute's term cost - pi cover holds for the same plan
     * point with no limit on the ways: {@link Needs#chain}, the base cost plus the shares of each need's least cost
     * where holding y costs pi size(y), against the cover size(x); the term taken is the larger of the two. Every
     * plan's choices cover E (knapsack cover, as in the class comment: a tensor whose recompute holds at least as much
     * as it frees is counted as not off chip, and the others still cover E) at no more than it pays, so for every
     * multiplier pi >= 0 the Lagrangian pi E + sum over x of min(0, the least option's term) is a lower bound. The
     * multiplier is searched (a grid, then golden sections, then the breakpoints near the best); any one gives a
     * valid bound. E is taken on the grid of the live tensors' and the needs' sizes ({@link #onUnit}).
     */
    private static double withInputs(Graph g, int o, int[] live, double[] price, long over, double lambda,
                                     Live pairs, boolean[] pays) {
        Needs needs = Needs.of(g, o, live, pairs, pays, price);
        if (needs.count() == 0) {
            return 0; // nothing beyond the plain cover
        }
        long unit = unit(g, live, 0);
        for (int k = 0; k < needs.count(); k++) {
            unit = gcd(unit, g.size(needs.tensor(k)));
        }
        long excess = onUnit(over, unit); // the bytes over the budget on their sizes' grid
        // Each live tensor's options as {cover, cost}: its load first, then a recompute per way of providing its needs.
        List<double[][]> options = new ArrayList<>(live.length);
        double[] base = new double[live.length];
        for (int i = 0; i < live.length; i++) {
            int x = live[i];
            long size = g.size(x);
            int p = g.producer(x);
            List<double[]> mine = new ArrayList<>();
            double load = p < 0 || g.isGraphOutput(x) ? size : 2.0 * size;
            mine.add(new double[] {Math.min(size, excess), load});
            base[i] = Double.POSITIVE_INFINITY;
            if (p >= 0 && pays[p]) {
                base[i] = share(g, lambda, x);
                for (double[] tree : needs.trees(i, base[i])) {
                    // The cover is at most this (the room held is at least its rounded-down share).
                    double cover = Math.min(Up.sub(size, tree[0]), excess);
                    if (cover > 0) {
                        mine.add(new double[] {cover, tree[1]});
                    }
                }
            }
            options.add(mine.toArray(new double[0][]));
        }
        Lagrangian f = new Lagrangian(g, live, options, base, needs, excess);
        double hi = 0;
        for (double[][] mine : options) {
            for (double[] v : mine) {
                hi = Math.max(hi, v[1] / v[0]);
            }
        }
        // A grid, then a golden-section search around its best point, for the largest value on [0, hi].
        double top = hi * (1 + 1e-9);
        double best = 0;
        int at = 0;
        for (int k = 0; k <= GRID_STEPS; k++) {
            double v = f.at(top * k / GRID_STEPS);
            if (v > best) {
                best = v;
                at = k;
            }
        }
        double r = (Math.sqrt(5) - 1) / 2;
        double a = top * Math.max(0, at - 1) / GRID_STEPS;
        double b = top * Math.min(GRID_STEPS, at + 1) / GRID_STEPS;
        double c = b - r * (b - a);
        double d = a + r * (b - a);
        double fc = f.at(c);
        double fd = f.at(d);
        best = Math.max(best, Math.max(fc, fd));
        for (int step = 0; step < SEARCH_STEPS; step++) {
            if (fc >= fd) {
                b = d;
                d = c;
                fd = fc;
                c = b - r * (b - a);
                fc = f.at(c);
                best = Math.max(best, fc);
            } else {
                a = c;
                c = d;
                fc = fd;
                d = a + r * (b - a);
                fd = f.at(d);
                best = Math.max(best, fd);
            }
        }
        // The largest value lies at a breakpoint: where an option's cost - pi cover crosses 0 or another option's. Those
        // inside the final bracket are tried too (a breakpoint such as 2 bytes per byte then gives the exact value).
        double width = 1e-9 * hi;
        java.util.TreeSet<Double> near = new java.util.TreeSet<>();
        for (double[][] mine : options) {
            for (int i = 0; i < mine.length && near.size() < MAX_BREAKPOINTS; i++) {
                addNear(near, mine[i][1] / mine[i][0], a - width, b + width);
                for (int j = i + 1; j < mine.length && mine.length <= PAIRED; j++) {
                    if (mine[i][0] != mine[j][0]) {
                        addNear(near, (mine[i][1] - mine[j][1]) / (mine[i][0] - mine[j][0]), a - width, b + width);
                    }
                }
            }
        }
        for (double pi : near) {
            best = Math.max(best, f.at(pi));
        }
        return best;
    }

    /** x's share of a rerun of its producer p, lambda c(p) size(x) / out(p), rounded down. */
    private static double share(Graph g, double lambda, int x) {
        int p = g.producer(x);
        long out = 0;
        for (int y : g.outputs(p)) {
            out += g.size(y);
        }
        return Down.div(Down.mul(Down.mul(lambda, g.cost(p)), g.size(x)), out);
    }

    /** Most breakpoints tried after the search. */
    private static final int MAX_BREAKPOINTS = 256;
    /** Most options of one tensor whose pairwise crossings are tried as breakpoints (each one's zero always is). */
    private static final int PAIRED = 32;

    private static void addNear(java.util.TreeSet<Double> near, double pi, double from, double to) {
        if (pi >= from && pi <= to && pi >= 0) {
            near.add(pi);
        }
    }

    /**
     * What the reruns of the live tensors' producers after o's first run need beyond the live bytes: the tensors dead
     * at o that some rerun reads, level by level ({@link RerunNeeds}, from the live tensors' producers together, each
     * tensor one need, {@link RerunNeeds.Identity#TENSOR}, levels up to {@link #MAX_DEPTH}, at most
     * {@link #MAX_NEEDS} needs).
     *
     * <p><b>Why the chain is a bound.</b> Take a plan and the reruns after t (o's first run) that bring back live
     * tensors. Each need y of such a rerun is on chip at the rerun: its segment then either spans t (y held at t: room
     * beyond o's own and live bytes, y being neither) or starts after t (a load, or a rerun of y's producer after t,
     * which needs that producer's inputs on chip at its own time, after t: the same two cases). Each need y has
     * parents, the live tensors and the needs whose producers read it; each parent q bears the share w(q, y) = size(q)
     * / the sizes of all of y's parents, so the shares into y sum to at most one. Call a parent active when it is
     * brought back by a rerun after t in the plan; by induction from the live tensors (weight 1) the products of the
     * shares along the active paths into y sum to at most one, so charging every live x the shares of its needs'
     * costs along its paths charges at most what the plan pays for each need once (its load or rerun share) and at
     * most the bytes it holds at t. The least of the three costs of y (pi size(y) for the room at the multiplier pi, its
     * load, its rerun share plus its own needs' shares) is at most the plan's, so {@link #chain} is a lower bound on
     * x's cost plus pi times the room its needs hold; and x's cover is at most size(x) less that room. Needs beyond the
     * limits count as free, every product and sum is rounded down: each only lowers the bound.
     */
    private static final class Needs {
        private final Graph g;
        private final int[] tensor;
        private final int[][] liveNeeds;
        private final double[][] liveShares;
        private final int[][] needs;
        private final double[][] shares;
        private final double[] load;
        private final double[] rerun;
        private final double[] held;

        private Needs(Graph g, int[] tensor, int[][] liveNeeds, double[][] liveShares, int[][] needs,
                      double[][] shares, double[] load, double[] rerun) {
            this.g = g;
            this.tensor = tensor;
            this.liveNeeds = liveNeeds;
            this.liveShares = liveShares;
            this.needs = needs;
            this.shares = shares;
            this.load = load;
            this.rerun = rerun;
            this.held = new double[tensor.length];
        }

        static Needs of(Graph g, int o, int[] live, Live pairs, boolean[] pays, double[] price) {
            int[] producers = java.util.Arrays.stream(live).map(g::producer).toArray();
            RerunNeeds walk = RerunNeeds.of(g, o, producers, pairs, pays, MAX_DEPTH, MAX_NEEDS,
                    RerunNeeds.Identity.TENSOR);
            int m = walk.count();
            int[] tensors = new int[m];
            int[][] liveNeeds = new int[live.length][];
            int[][] needs = new int[m][];
            for (int i = 0; i < live.length; i++) {
                liveNeeds[i] = walk.rootNeeds(i);
            }
            for (int j = 0; j < m; j++) {
                tensors[j] = walk.tensor(j);
                needs[j] = walk.needs(j);
            }
            double[] parents = new double[m];
            for (int i = 0; i < live.length; i++) {
                for (int y : liveNeeds[i]) {
                    parents[y] += g.size(live[i]);
                }
            }
            for (int j = 0; j < m; j++) {
                for (int y : needs[j]) {
                    parents[y] += g.size(tensors[j]);
                }
            }
            double[][] liveShares = new double[live.length][];
            for (int i = 0; i < live.length; i++) {
                liveShares[i] = shares(liveNeeds[i], g.size(live[i]), parents);
            }
            double[][] shares = new double[m][];
            double[] load = new double[m];
            double[] rerun = new double[m];
            for (int j = 0; j < m; j++) {
                int y = tensors[j];
                shares[j] = shares(needs[j], g.size(y), parents);
                int q = g.producer(y);
                load[j] = q < 0 || g.isGraphOutput(y) ? g.size(y) : 2.0 * g.size(y);
                // price[y] is the least of the load and the rerun share when q may pay, the load otherwise.
                rerun[j] = q < 0 || !pays[q] ? Double.POSITIVE_INFINITY : price[y];
            }
            return new Needs(g, tensors, liveNeeds, liveShares, needs, shares, load, rerun);
        }

        /** size(q) / the sizes of each need's parents, rounded down. */
        private static double[] shares(int[] of, long size, double[] parents) {
            double[] w = new double[of.length];
            for (int k = 0; k < of.length; k++) {
                w[k] = Down.div(size, parents[of[k]]);
            }
            return w;
        }

        int count() {
            return tensor.length;
        }

        int tensor(int need) {
            return tensor[need];
        }

        int[] liveNeeds(int i) {
            return liveNeeds[i];
        }

        double[] liveShares(int i) {
            return liveShares[i];
        }

        /**
         * The ways to provide the needs of a rerun of live tensor i, each as {room held at o, cost}: every need reached
         * either held (its share of its size as room), loaded (its share of the load) or made again by a rerun (its
         * share of that rerun's price, its own needs reached in turn, at the products of the shares). Needs are
         * followed to the deepest level at which there are at most {@link #MAX_TREES} ways; below it a rerun's needs
         * count as free, and when even the first level has too many, its needs past the first few count as free.
         */
        List<double[]> trees(int i, double base) {
            for (int levels = MAX_DEPTH; levels >= 1; levels--) {
                if (count(liveNeeds[i], 1, levels) <= MAX_TREES) {
                    List<double[]> out = new ArrayList<>();
                    List<Integer> pending = new ArrayList<>();
                    List<Double> weights = new ArrayList<>();
                    List<Integer> levelOf = new ArrayList<>();
                    for (int k = 0; k < liveNeeds[i].length; k++) {
                        pending.add(liveNeeds[i][k]);
                        weights.add(liveShares[i][k]);
                        levelOf.add(1);
                    }
                    enumerate(pending, weights, levelOf, 0, 0, base, levels, out);
                    return out;
                }
            }
            // The first level's needs alone are too many: the first few are held or loaded or rerun, no deeper.
            int few = 0;
            while (few < liveNeeds[i].length && Math.pow(3, few + 1) <= MAX_TREES) {
                few++;
            }
            List<double[]> out = new ArrayList<>();
            List<Integer> pending = new ArrayList<>();
            List<Double> weights = new ArrayList<>();
            List<Integer> levelOf = new ArrayList<>();
            for (int k = 0; k < few; k++) {
                pending.add(liveNeeds[i][k]);
                weights.add(liveShares[i][k]);
                levelOf.add(1);
            }
            enumerate(pending, weights, levelOf, 0, 0, base, 1, out);
            return out;
        }

        /** The number of ways for these needs at this level, followed to {@code levels}, capped above MAX_TREES. */
        private long count(int[] of, int level, int levels) {
            long ways = 1;
            for (int y : of) {
                long mine = 2;
                if (rerun[y] < Double.POSITIVE_INFINITY) {
                    mine += level >= levels ? 1 : count(needs[y], level + 1, levels);
                }
                ways = Math.min(ways * mine, MAX_TREES + 1L);
            }
            return ways;
        }

        private void enumerate(List<Integer> pending, List<Double> weights, List<Integer> levelOf, int at,
                               double room, double cost, int levels, List<double[]> out) {
            if (at == pending.size()) {
                out.add(new double[] {room, cost});
                return;
            }
            int y = pending.get(at);
            double w = weights.get(at);
            enumerate(pending, weights, levelOf, at + 1, Down.add(room, Down.mul(w, g.size(tensor[y]))), cost,
                    levels, out);
            enumerate(pending, weights, levelOf, at + 1, room, Down.add(cost, Down.mul(w, load[y])), levels, out);
            if (rerun[y] < Double.POSITIVE_INFINITY) {
                int added = 0;
                if (levelOf.get(at) < levels) {
                    for (int k = 0; k < needs[y].length; k++) {
                        pending.add(needs[y][k]);
                        weights.add(Down.mul(w, shares[y][k]));
                        levelOf.add(levelOf.get(at) + 1);
                        added++;
                    }
                }
                enumerate(pending, weights, levelOf, at + 1, room, Down.add(cost, Down.mul(w, rerun[y])), levels,
                        out);
                for (int k = 0; k < added; k++) {
                    pending.remove(pending.size() - 1);
                    weights.remove(weights.size() - 1);
                    levelOf.remove(levelOf.size() - 1);
                }
            }
        }

        /** Sets every need's least cost at multiplier pi (held: pi size; a load; a rerun with its needs' shares). */
        void price(double pi) {
            java.util.Arrays.fill(held, Double.NaN);
            for (int j = 0; j < held.length; j++) {
                least(j, pi);
            }
        }

        private double least(int j, double pi) {
            if (!Double.isNaN(held[j])) {
                return held[j];
            }
            double v = Math.min(Down.mul(pi, g.size(tensor[j])), load[j]);
            if (rerun[j] < v) {
                double r = rerun[j];
                for (int k = 0; k < needs[j].length && r < v; k++) {
                    r = Down.add(r, Down.mul(shares[j][k], least(needs[j][k], pi)));
                }
                v = Math.min(v, r);
            }
            held[j] = v;
            return v;
        }

        /**
         * The chain's bound on a rerun of live tensor i at the multiplier set by {@link #price}: its base cost plus
         * its needs' shares of their least costs, less pi size(x).
         */
        double chain(int i, double base, long size, double pi) {
            double v = base;
            for (int k = 0; k < liveNeeds[i].length; k++) {
                v = Down.add(v, Down.mul(liveShares[i][k], held[liveNeeds[i][k]]));
            }
            return Down.add(v, -Up.mul(pi, size));
        }
    }

    /** The Lagrangian of the cover with a rerun's inputs ({@link #withInputs}) at a multiplier. */
    private record Lagrangian(Graph g, int[] live, List<double[][]> options, double[] base, Needs needs,
                              long excess) {

        /**
         * pi E + sum over the live tensors of min(0, the load's cost - pi cover, a recompute's term: the larger of the
         * least one-level option's and the chain's), rounded down.
         */
        double at(double pi) {
            needs.price(pi);
            double value = Down.mul(pi, excess);
            for (int i = 0; i < live.length; i++) {
                double[][] mine = options.get(i);
                double least = Math.min(0, Down.add(mine[0][1], -Up.mul(pi, mine[0][0])));
                if (base[i] < Double.POSITIVE_INFINITY && mine.length > 1) {
                    double oneLevel = Double.POSITIVE_INFINITY;
                    for (int k = 1; k < mine.length; k++) {
                        oneLevel = Math.min(oneLevel, Down.add(mine[k][1], -Up.mul(pi, mine[k][0])));
                    }
                    least = Math.min(least, Math.max(oneLevel, needs.chain(i, base[i], g.size(live[i]), pi)));
                }
                value = Down.add(value, least);
            }
            return value;
        }
    }

    /** Compares c1 / a1 with c2 / a2 (a1, a2 > 0) exactly: c1 a2 against c2 a1, in BigDecimal when close. */
    private static int ratio(double c1, long a1, double c2, long a2) {
        double l = c1 * a2;
        double r = c2 * a1;
        if (Math.abs(l - r) > 1e-9 * Math.max(Math.abs(l), Math.abs(r))) {
            return Double.compare(l, r);
        }
        return new BigDecimal(c1).multiply(BigDecimal.valueOf(a2))
                .compareTo(new BigDecimal(c2).multiply(BigDecimal.valueOf(a1)));
    }

    /** The live pairs (operator o, tensor x live at o's first run), each once, in a fixed order. */
    interface Live {
        void forEach(Pair action);

        /**
         * Operators whose first runs come in this order in every plan the pairs cover, the ones with bytes over the
         * budget first in weight: the order itself, or (free schedule) a path of the graph with the most bytes over
         * the budget in total (each operator on it an ancestor of the next).
         */
        int[] chain(long[] bytes, long budget);

        /**
         * Whether a first run reading x surely comes strictly between the first runs of chain operators a and b (a
         * before b), x live at both.
         */
        boolean readBetween(int x, int a, int b);

        /**
         * Whether tensor y, an input of the producer of a tensor live at o, is surely read by no first run after o's:
         * every reader of y runs first before o.
         */
        boolean dead(int o, int y);

        /** Whether a's first run surely comes before b's: a strict ancestor of b, or earlier in the order. */
        boolean before(int a, int b);
    }

    interface Pair {
        void accept(int operator, int tensor);
    }

    /**
     * A free schedule: x is live at o when it is not o's own, its producer (a reader, for a host tensor) is a strict
     * ancestor of o and one of its readers a strict descendant.
     */
    private static final class Free implements Live {
        private final Graph g;
        private final BitSet[] desc;
        private final BitSet[] anc;

        Free(Graph g) {
            this.g = g;
            int n = g.operatorCount();
            int[] topo = topological(g);
            desc = new BitSet[n];
            for (int i = n - 1; i >= 0; i--) {
                int o = topo[i];
                BitSet d = new BitSet(n);
                for (int y : g.outputs(o)) {
                    for (int c : g.consumers(y)) {
                        d.set(c);
                        d.or(desc[c]);
                    }
                }
                desc[o] = d;
            }
            anc = new BitSet[n];
            for (int o : topo) {
                BitSet a = new BitSet(n);
                for (int x : g.inputs(o)) {
                    int p = g.producer(x);
                    if (p >= 0) {
                        a.set(p);
                        a.or(anc[p]);
                    }
                }
                anc[o] = a;
            }
        }

        @Override
        public void forEach(Pair action) {
            int n = g.operatorCount();
            for (int x = 0; x < g.tensorCount(); x++) {
                int[] readers = g.consumers(x);
                if (readers.length == 0) {
                    continue;
                }
                BitSet after = new BitSet(n);
                int p = g.producer(x);
                if (p >= 0) {
                    after.or(desc[p]);
                } else {
                    for (int r : readers) {
                        after.or(desc[r]);
                    }
                }
                BitSet before = new BitSet(n);
                for (int r : readers) {
                    before.or(anc[r]);
                }
                after.and(before);
                for (int r : readers) {
                    after.clear(r);
                }
                for (int o = after.nextSetBit(0); o >= 0; o = after.nextSetBit(o + 1)) {
                    action.accept(o, x);
                }
            }
        }

        @Override
        public boolean dead(int o, int y) {
            for (int r : g.consumers(y)) {
                if (!anc[o].get(r)) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public int[] chain(long[] bytes, long budget) {
            int n = g.operatorCount();
            long[] best = new long[n];
            int[] from = new int[n];
            int end = -1;
            for (int o : topological(g)) {
                from[o] = -1;
                for (int x : g.inputs(o)) {
                    int p = g.producer(x);
                    if (p >= 0 && (from[o] < 0 || best[p] > best[from[o]] || best[p] == best[from[o]] && p < from[o])) {
                        from[o] = p;
                    }
                }
                best[o] = Math.max(0, bytes[o] - budget) + (from[o] < 0 ? 0 : best[from[o]]);
                if (end < 0 || best[o] > best[end] || best[o] == best[end] && o < end) {
                    end = o;
                }
            }
            List<Integer> path = new ArrayList<>();
            for (int o = end; o >= 0; o = from[o]) {
                path.add(0, o);
            }
            return path.stream().mapToInt(Integer::intValue).toArray();
        }

        @Override
        public boolean before(int a, int b) {
            return anc[b].get(a);
        }

        @Override
        public boolean readBetween(int x, int a, int b) {
            for (int r : g.consumers(x)) {
                if (desc[a].get(r) && anc[b].get(r)) {
                    return true;
                }
            }
            return false;
        }
    }

    /** A given order of first runs: x is live at the operators strictly between its first touch and last read. */
    private record InOrder(Graph g, int[] order, int[] pos) implements Live {
        InOrder(Graph g, int[] order) {
            this(g, order, positions(order));
        }

        private static int[] positions(int[] order) {
            int[] pos = new int[order.length];
            for (int i = 0; i < order.length; i++) {
                pos[order[i]] = i;
            }
            return pos;
        }

        @Override
        public boolean dead(int o, int y) {
            for (int r : g.consumers(y)) {
                if (pos[r] >= pos[o]) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public int[] chain(long[] bytes, long budget) {
            return order;
        }

        @Override
        public boolean before(int a, int b) {
            return pos[a] < pos[b];
        }

        @Override
        public boolean readBetween(int x, int a, int b) {
            for (int r : g.consumers(x)) {
                if (pos[r] > pos[a] && pos[r] < pos[b]) {
                    return true;
                }
            }
            return false;
        }

        @Override
        public void forEach(Pair action) {
            for (int x = 0; x < g.tensorCount(); x++) {
                int[] readers = g.consumers(x);
                if (readers.length == 0) {
                    continue;
                }
                int first = Integer.MAX_VALUE;
                int last = -1;
                for (int r : readers) {
                    first = Math.min(first, pos[r]);
                    last = Math.max(last, pos[r]);
                }
                if (!g.isHost(x)) {
                    first = pos[g.producer(x)];
                }
                for (int i = first + 1; i < last; i++) {
                    if (!reads(g, order[i], x)) {
                        action.accept(order[i], x);
                    }
                }
            }
        }
    }

    private static boolean reads(Graph g, int o, int x) {
        for (int y : g.inputs(o)) {
            if (y == x) {
                return true;
            }
        }
        return false;
    }

    /** The operator's inputs and outputs, each once. */
    private static int[] own(Graph g, int o) {
        return java.util.stream.IntStream.concat(java.util.Arrays.stream(g.inputs(o)),
                java.util.Arrays.stream(g.outputs(o))).distinct().toArray();
    }

    /** A topological order (Kahn's, smallest index first: deterministic). */
    private static int[] topological(Graph g) {
        int n = g.operatorCount();
        int[] indegree = new int[n];
        for (int o = 0; o < n; o++) {
            for (int x : g.inputs(o)) {
                if (g.producer(x) >= 0) {
                    indegree[o]++;
                }
            }
        }
        java.util.PriorityQueue<Integer> ready = new java.util.PriorityQueue<>();
        for (int o = 0; o < n; o++) {
            if (indegree[o] == 0) {
                ready.add(o);
            }
        }
        int[] out = new int[n];
        int k = 0;
        while (!ready.isEmpty()) {
            int o = ready.poll();
            out[k++] = o;
            for (int y : g.outputs(o)) {
                for (int c : g.consumers(y)) {
                    if (--indegree[c] == 0) {
                        ready.add(c);
                    }
                }
            }
        }
        return out;
    }

    /** Arithmetic rounded up: each result at least the real one. */
    private static final class Up {
        private Up() {
        }

        static double mul(double a, double b) {
            return -Down.mul(-a, b);
        }

        static double sub(double a, double b) {
            return -Down.add(-a, b);
        }
    }

    /** Arithmetic rounded down (towards minus infinity, divisors positive): each result at most the real one. */
    static final class Down {
        private Down() {
        }

        static double mul(double a, double b) {
            double p = a * b;
            return Math.fma(a, b, -p) < 0 ? Math.nextDown(p) : p;
        }

        static double div(double a, double b) {
            double q = a / b;
            return Math.fma(q, b, -a) > 0 ? Math.nextDown(q) : q;
        }

        static double add(double a, double b) {
            double s = a + b;
            double bp = s - a;
            double err = (a - (s - bp)) + (b - bp);
            return err < 0 ? Math.nextDown(s) : s;
        }
    }
}
