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
 * at t at those prices, C(a), is at most what the plan pays for them. Two or more outputs of one producer p, G, whose
 * loads cost rho per byte alike (all graph outputs, or none), may instead form one item of S = their bytes at P =
 * min(rho S, lambda c(p)): a plan with c of those bytes off at t either reruns p after t (lambda c(p) >= P >= P c / S)
 * or loads each (rho c >= P c / S), and p's reruns are charged nowhere else; with y_G = c / S the item covers S y_G,
 * and the cover row sum over single tensors of min(size, E) y + sum over items of S y_G >= E holds at every plan's
 * point (a single tensor of E bytes or more off covers E alone; otherwise the bytes off are at least E). The bytes
 * off are whole sizes of the new tensors live at t, so E is first rounded up to a multiple of their gcd
 * ({@link RecomputeBound#onUnit}). Not knowing
 * which operator of A comes first, the bound takes the least over A: every plan pays at least v(o) + min over a in A
 * of C(a). Every plan, any order, any
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
 * new tensors made surely before its operator; the run's wall end (or Ctrl-C) stops it between groups, keeping what
 * it has. Not charged in work: it is deterministic, as {@link RecomputeBound}'s covers are.
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
            Value v = m.best(covers[firsts[i]], run);
            if (v.value() > best.value()) {
                best = v;
            }
        }
        return best;
    }

    /** The second moments after one first operator o; a group is a mask over the pool. */
    private static final class Moments {
        private final Graph g;
        private final long budget;
        private final long[] ownBytes;
        private final double[] price;
        private final double lambda;
        private final boolean[] pays;
        private final int first;
        /** The operators after o with the most own bytes (the fewer index first among equals). */
        private final int[] pool;
        /** Per pool operator a: the new tensors made surely before a and not a's own, by producer. */
        private final int[][] candidates;
        /** Per pool operator and candidate: whether a reader surely runs first after a. */
        private final boolean[][] readAfter;
        /** Per pool operator and candidate: the pool operators (a mask) that are a reader or run before one. */
        private final int[][] witnesses;

        Moments(Graph g, long budget, RecomputeBound.Live pairs, long[] ownBytes, Prices prices, int first) {
            this.g = g;
            this.budget = budget;
            this.ownBytes = ownBytes;
            this.price = prices.price();
            this.lambda = prices.lambda();
            this.pays = prices.pays();
            this.first = first;
            int[] made = IntStream.range(0, g.tensorCount()).filter(z -> g.consumers(z).length > 0
                    && g.producer(z) >= 0 && (g.producer(z) == first || pairs.before(first, g.producer(z)))).boxed()
                    .sorted(Comparator.comparingInt((Integer z) -> g.producer(z)).thenComparingInt(z -> z))
                    .mapToInt(Integer::intValue).toArray();
            this.pool = IntStream.range(0, g.operatorCount()).filter(a -> pairs.before(first, a)).boxed()
                    .sorted(Comparator.comparingLong((Integer a) -> -ownBytes[a]).thenComparingInt(a -> a))
                    .limit(POOL).mapToInt(Integer::intValue).toArray();
            candidates = new int[pool.length][];
            readAfter = new boolean[pool.length][];
            witnesses = new int[pool.length][];
            for (int i = 0; i < pool.length; i++) {
                int a = pool[i];
                candidates[i] = java.util.Arrays.stream(made).filter(z -> pairs.before(g.producer(z), a)
                        && !reads(g, a, z)).toArray();
                readAfter[i] = new boolean[candidates[i].length];
                witnesses[i] = new int[candidates[i].length];
                for (int k = 0; k < candidates[i].length; k++) {
                    for (int r : g.consumers(candidates[i][k])) {
                        readAfter[i][k] |= pairs.before(a, r);
                        for (int j = 0; j < pool.length; j++) {
                            witnesses[i][k] |= j != i && (pool[j] == r || pairs.before(pool[j], r)) ? 1 << j : 0;
                        }
                    }
                }
            }
        }

        /** v(o) plus the best group's least C, or none when no group charges anything. */
        Value best(double cover, Budget run) {
            Value best = Value.NONE;
            for (int s = 0; s < Math.min(SEEDS, pool.length) && !run.wallOver(); s++) {
                int group = 1 << s;
                double least = least(group);
                while (Integer.bitCount(group) < MAX_GROUP) {
                    int pick = -1;
                    double raised = least;
                    for (int j = 0; j < pool.length; j++) {
                        double v = (group & 1 << j) != 0 ? 0 : least(group | 1 << j);
                        if (v > raised) {
                            raised = v;
                            pick = j;
                        }
                    }
                    if (pick < 0) {
                        break;
                    }
                    group |= 1 << pick;
                    least = raised;
                }
                double total = RecomputeBound.Down.add(cover, least);
                int chosen = group;
                if (least > 0 && total > best.value()) {
                    best = new Value(total, first, IntStream.range(0, pool.length).filter(j -> (chosen & 1 << j) != 0)
                            .map(j -> pool[j]).toArray());
                }
            }
            return best;
        }

        /** The least C(a) over the group's operators a. */
        private double least(int group) {
            double least = Double.POSITIVE_INFINITY;
            for (int i = 0; i < pool.length && least > 0; i++) {
                if ((group & 1 << i) != 0) {
                    least = Math.min(least, charged(i, group));
                }
            }
            return least;
        }

        /**
         * C(a), a the i-th of the pool, when a runs first of the group: the least fractional cover by the new tensors
         * live then (a reader after a, or after or being another operator of the group).
         */
        private double charged(int i, int group) {
            int[] cs = candidates[i];
            boolean[] live = new boolean[cs.length];
            long bytes = ownBytes[pool[i]];
            for (int k = 0; k < cs.length; k++) {
                live[k] = readAfter[i][k] || (witnesses[i][k] & group) != 0;
                bytes += live[k] ? g.size(cs[k]) : 0;
            }
            if (bytes <= budget) {
                return 0;
            }
            long unit = 0;
            for (int k = 0; k < cs.length; k++) {
                unit = live[k] ? RecomputeBound.gcd(unit, g.size(cs[k])) : unit;
            }
            long excess = RecomputeBound.onUnit(bytes - budget, unit);
            List<double[]> items = new ArrayList<>();
            List<Integer> same = new ArrayList<>();
            for (int k = 0; k <= cs.length; k++) {
                if (k == cs.length || !same.isEmpty() && g.producer(cs[k]) != g.producer(same.get(0))) {
                    if (!same.isEmpty()) {
                        items.addAll(items(g.producer(same.get(0)), same, excess));
                    }
                    same = new ArrayList<>();
                }
                if (k < cs.length && live[k]) {
                    same.add(cs[k]);
                }
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

        private static boolean reads(Graph g, int a, int z) {
            for (int y : g.inputs(a)) {
                if (y == z) {
                    return true;
                }
            }
            return false;
        }
    }
}
