package dev.memplan.formulations.cosma;

import dev.memplan.model.Budget;
import dev.memplan.model.Graph;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;

/**
 * {@link RecomputeBound}'s cover of one operator plus a second moment after it: the first run of whichever operator
 * of a group A comes first, where the tensors made at or after the first operator's run that are live then are
 * charged on top of the first cover.
 *
 * <p><b>The argument.</b> Take any plan, an operator o whose cover ({@link RecomputeBound}) is v(o), and a group A of
 * operators. What v(o) charges are events of the tensors made before o's first run (live at o or a rerun's needs:
 * in a free schedule their producers are strict ancestors of o, or they are host tensors; in a given order, earlier
 * operators): their spills, their loads, and the reruns of their producers, each tensor its share of a rerun. Call a
 * tensor z <em>new</em> when its producer is o or surely runs first after o (a strict descendant; a later position):
 * it is no host tensor, and neither it nor its producer is among what v(o) charges, so what the plan pays for the new
 * tensors (their spills, loads and their producers' reruns, the shares of those) comes on top of v(o). Let a be the
 * operator of A whose first run comes first, at timestep t. A new tensor z is live at t when it is not a's own, its
 * producer surely runs first before a, and one of its readers surely runs first after t: after a itself, or after (or
 * being) another operator of A, which runs first after a. a's own bytes are resident at t and everything resident
 * fits in B, so the new tensors live at t that stay on chip take at most B - own(a): those off chip cover E = own(a)
 * + their bytes - B. Each such z is read after t, so a segment of z starts after t: a load after its spill (2
 * size(z); size(z) for a graph output, whose spill is compulsory) or a rerun of its producer (its share lambda c(p)
 * size(z) / out(p)): the price of {@link RecomputeBound}, and the least fractional cover of E by the new tensors live
 * at t at those prices, C(a), is at most what the plan pays for them. Not knowing which operator of A comes first, the
 * bound takes the least over A: every plan pays at least v(o) + min over a in A of C(a). Every plan, any order, any
 * reruns: the argument does not use the recompute count, and the prices are {@link RecomputeBound}'s (an operator
 * that may not pay is never rerun in the plans bounded there, as in its class comment).
 *
 * <p><b>Which moments.</b> The first operators are the {@link #FIRSTS} with the highest covers; the operators a
 * group may hold, the {@link #POOL} after o with the most own bytes (a moment whose own bytes fill the budget charges
 * every new live tensor). From each of the {@link #SEEDS} largest, a group grows greedily by the operator that raises
 * its least C most, up to {@link #MAX_GROUP} operators: a reader after another operator of the group makes a tensor
 * live at the first of them although no single operator sees it live (three branches' gradients, each read by its
 * own weight gradient). Any group gives a bound, so the choice is a heuristic only.
 *
 * <p>memplan's own bound. Time: at most FIRSTS x SEEDS x MAX_GROUP x POOL x MAX_GROUP covers, each a pass over the
 * new tensors and their readers; the run's wall end (or Ctrl-C) stops it between first operators, keeping what it has.
 */
final class LaterMoment {

    /** The first operators tried: those with the highest covers. */
    static final int FIRSTS = 4;
    /** The operators a group may hold: those after the first with the most own bytes. */
    static final int POOL = 12;
    /** The operators a group starts from: the first of the pool. */
    static final int SEEDS = 4;
    /** The most operators in a group. */
    static final int MAX_GROUP = 6;

    private LaterMoment() {
    }

    /**
     * The best bound found and where.
     *
     * @param value v(o) + the least C over the group, 0 when none is above v(o)
     * @param first the first operator o, -1 without a bound
     * @param group the group A
     */
    record Value(double value, int first, int[] group) {

        static final Value NONE = new Value(0, -1, new int[0]);
    }

    /**
     * The prices of {@link RecomputeBound}: each tensor's, the recompute weight lambda, and which operators may pay
     * ({@link Reruns#mayPay}; the others are never rerun in the plans bounded).
     */
    record Prices(double[] price, double lambda, boolean[] pays) {
    }

    /**
     * @param g the graph in its tensor setting
     * @param budget the budget B
     * @param pairs the live pairs, which say which operator surely runs first before which
     * @param ownBytes each operator's own bytes
     * @param prices each tensor's price ({@link RecomputeBound}), the weight and which operators may pay
     * @param covers each operator's cover v(o), 0 where it was not priced
     * @param run whose wall end (or Ctrl-C) stops the search between first operators
     */
    static Value of(Graph g, long budget, RecomputeBound.Live pairs, long[] ownBytes, Prices prices,
                    double[] covers, Budget run) {
        Integer[] firsts = IntStream.range(0, covers.length).filter(o -> covers[o] > 0).boxed().toArray(Integer[]::new);
        java.util.Arrays.sort(firsts, Comparator.comparingDouble((Integer o) -> -covers[o]).thenComparingInt(o -> o));
        Value best = Value.NONE;
        for (int i = 0; i < Math.min(FIRSTS, firsts.length) && !run.wallOver(); i++) {
            Moments m = new Moments(g, budget, pairs, ownBytes, prices, firsts[i]);
            Value v = m.best(covers[firsts[i]]);
            if (v.value() > best.value()) {
                best = v;
            }
        }
        return best;
    }

    /** The second moments after one first operator o. */
    private static final class Moments {
        private final Graph g;
        private final long budget;
        private final RecomputeBound.Live pairs;
        private final long[] ownBytes;
        private final double[] price;
        private final double lambda;
        private final boolean[] pays;
        private final int first;
        /** The new tensors that some operator reads: produced by o or after it. */
        private final int[] made;
        /** The operators after o with the most own bytes (the fewer index first among equals). */
        private final int[] pool;

        Moments(Graph g, long budget, RecomputeBound.Live pairs, long[] ownBytes, Prices prices, int first) {
            this.g = g;
            this.price = prices.price();
            this.lambda = prices.lambda();
            this.pays = prices.pays();
            this.budget = budget;
            this.pairs = pairs;
            this.ownBytes = ownBytes;
            this.first = first;
            this.made = IntStream.range(0, g.tensorCount()).filter(z -> g.consumers(z).length > 0 && g.producer(z) >= 0
                    && (g.producer(z) == first || pairs.before(first, g.producer(z)))).toArray();
            this.pool = IntStream.range(0, g.operatorCount()).filter(a -> pairs.before(first, a)).boxed()
                    .sorted(Comparator.comparingLong((Integer a) -> -ownBytes[a]).thenComparingInt(a -> a))
                    .limit(POOL).mapToInt(Integer::intValue).toArray();
        }

        /** v(o) plus the best group's least C, or none when no group charges anything. */
        Value best(double cover) {
            Value best = Value.NONE;
            for (int s = 0; s < Math.min(SEEDS, pool.length); s++) {
                List<Integer> group = new ArrayList<>(List.of(pool[s]));
                double least = least(group);
                while (group.size() < MAX_GROUP) {
                    int pick = -1;
                    double raised = least;
                    for (int b : pool) {
                        if (group.contains(b)) {
                            continue;
                        }
                        group.add(b);
                        double v = least(group);
                        group.remove(group.size() - 1);
                        if (v > raised) {
                            raised = v;
                            pick = b;
                        }
                    }
                    if (pick < 0) {
                        break;
                    }
                    group.add(pick);
                    least = raised;
                }
                double total = RecomputeBound.Down.add(cover, least);
                if (least > 0 && total > best.value()) {
                    best = new Value(total, first, group.stream().mapToInt(Integer::intValue).toArray());
                }
            }
            return best;
        }

        /** The least C(a) over the group's operators a. */
        private double least(List<Integer> group) {
            double least = Double.POSITIVE_INFINITY;
            for (int a : group) {
                least = Math.min(least, charged(a, group));
                if (least == 0) {
                    break;
                }
            }
            return least;
        }

        /** C(a) when a runs first of the group: the least fractional cover by the new tensors live then. */
        private double charged(int a, List<Integer> group) {
            java.util.Map<Integer, List<Integer>> byProducer = new java.util.TreeMap<>();
            long bytes = ownBytes[a];
            for (int z : made) {
                if (pairs.before(g.producer(z), a) && !reads(a, z) && readAfter(z, a, group)) {
                    byProducer.computeIfAbsent(g.producer(z), p -> new ArrayList<>()).add(z);
                    bytes += g.size(z);
                }
            }
            if (bytes <= budget) {
                return 0;
            }
            long excess = bytes - budget;
            List<double[]> items = new ArrayList<>();
            for (var e : byProducer.entrySet()) {
                items.addAll(items(e.getKey(), e.getValue(), excess));
            }
            return cheapest(items, excess);
        }

        /**
         * The cover items {covered bytes, price} of p's new outputs live at a moment: each alone, covering
         * min(size, E) at its price; or, when they are two or more, p may be rerun and they come back at one rate
         * per byte (all graph outputs or none), one item for them all, covering their bytes at the least of their
         * loads and one rerun of p.
         */
        private List<double[]> items(int p, List<Integer> zs, long excess) {
            long size = 0;
            long load = 0;
            boolean outputs = g.isGraphOutput(zs.get(0));
            boolean oneRate = true;
            for (int z : zs) {
                size += g.size(z);
                load += g.isGraphOutput(z) ? g.size(z) : 2 * g.size(z);
                oneRate &= g.isGraphOutput(z) == outputs;
            }
            if (zs.size() > 1 && pays[p] && oneRate) {
                return List.of(new double[] {size, Math.min(load, RecomputeBound.Down.mul(lambda, g.cost(p)))});
            }
            return zs.stream().map(z -> new double[] {Math.min(g.size(z), excess), price[z]}).toList();
        }

        /** The least fractional cover of {@code excess} by the items, the cheapest per covered byte first. */
        private static double cheapest(List<double[]> items, long excess) {
            List<double[]> sorted = new ArrayList<>(items);
            sorted.sort((x, y) -> new BigDecimal(x[1]).multiply(new BigDecimal(y[0]))
                    .compareTo(new BigDecimal(y[1]).multiply(new BigDecimal(x[0]))));
            double left = excess;
            double value = 0;
            for (double[] item : sorted) {
                if (item[0] <= left) {
                    value = RecomputeBound.Down.add(value, item[1]);
                    left -= item[0];
                } else {
                    value = RecomputeBound.Down.add(value, RecomputeBound.Down.div(RecomputeBound.Down.mul(item[1],
                            left), item[0]));
                    left = 0;
                }
                if (left == 0) {
                    break;
                }
            }
            return value;
        }

        /** Whether a reader of z surely runs first after a, a being the first of the group to run. */
        private boolean readAfter(int z, int a, List<Integer> group) {
            for (int r : g.consumers(z)) {
                if (r == a) {
                    continue;
                }
                if (pairs.before(a, r)) {
                    return true;
                }
                for (int b : group) {
                    if (b != a && (b == r || pairs.before(b, r))) {
                        return true;
                    }
                }
            }
            return false;
        }

        private boolean reads(int a, int z) {
            for (int y : g.inputs(a)) {
                if (y == z) {
                    return true;
                }
            }
            return false;
        }
    }
}
