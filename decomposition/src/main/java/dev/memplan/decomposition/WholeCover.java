package dev.memplan.decomposition;

import java.util.ArrayList;
import java.util.List;

/**
 * The least price of covering a number of bytes at one moment when some tensors leave the chip whole: {@link
 * PeakBound}'s priced cover with its fractional knapsack tightened where the plan's choice is 0 or 1.
 *
 * <p>The argument: at the moment, a tensor whose producer may not pay ({@code fixed}) is on chip or off; off, it pays
 * its one price (its return, and its spill once) and frees all its bytes, never a part of them. So the bytes the
 * fixed tensors off chip free are a sum of whole sizes, and the price a sum of whole prices. A tensor with a rerun
 * option ({@code continuous}) keeps the fractional treatment of {@link PeakBound}'s cover: its options may cover less
 * than its bytes (room for a rerun's inputs, shared among sharers), and any mix of them pays at least its least price
 * per byte over at most its bytes. Every plan's choice at the moment is thus a point of this mixed program (whole
 * fixed tensors, continuous amounts of the others) that covers the excess, and its least value is a lower bound on
 * what the plan pays after the moment. Its LP relaxation is the fractional cover, so it is never below it; where the
 * fixed sizes cannot meet the excess exactly (fcn_resnet50:train at M_R: live sizes of multiples of 100,352 bytes and
 * one of 16,464), the least whole cover overshoots and pays for it.
 *
 * <p>Solved by branch and bound over groups of equal (size, price), cheapest per byte first, each node bounded by the
 * fractional cover of what is left (whole bytes, parts rounded down, so never above the node's least value). At most
 * {@link #MOST_NODES} nodes: beyond, none (the caller keeps the fractional cover).
 */
final class WholeCover {
    /** Most branch-and-bound nodes of one cover. */
    static final int MOST_NODES = 4_096;

    /** Groups of fixed tensors: size, price, count; cheapest per byte first. */
    private final long[][] groups;
    /** Continuous options: price, bytes the price is for, most bytes; cheapest per byte first. */
    private final List<long[]> continuous;
    private long best = Long.MAX_VALUE;
    private int nodes;

    /** Per group index, the gcd of the sizes of that group and the ones after it (0 after the last). */
    private final long[] unit;

    private WholeCover(long[][] groups, List<long[]> continuous) {
        this.groups = groups;
        this.continuous = continuous;
        unit = new long[groups.length + 1];
        for (int i = groups.length - 1; i >= 0; i--) {
            unit[i] = gcd(unit[i + 1], groups[i][0]);
        }
    }

    /**
     * The least price of {@code excess} bytes, or -1 when the search passed {@link #MOST_NODES} nodes, nothing covers
     * them, or a product of a price and a size would pass a long.
     *
     * @param fixed per fixed tensor {size, price}
     * @param continuous per other tensor {price, bytes the price is for, most bytes}, cheapest per byte first
     */
    static long of(List<long[]> fixed, List<long[]> continuous, long excess) {
        try {
            return solve(fixed, continuous, excess);
        } catch (ArithmeticException e) {
            return -1; // a price times a size past a long: the caller keeps the fractional cover
        }
    }

    private static long solve(List<long[]> fixed, List<long[]> continuous, long excess) {
        List<long[]> grouped = new ArrayList<>();
        for (long[] f : fixed) {
            long[] same = grouped.stream().filter(x -> x[0] == f[0] && x[1] == f[1]).findFirst().orElse(null);
            if (same == null) {
                grouped.add(new long[] {f[0], f[1], 1});
            } else {
                same[2]++;
            }
        }
        grouped.sort((a, b) -> Math.multiplyExact(a[1], b[0]) != Math.multiplyExact(b[1], a[0])
                ? Long.compare(Math.multiplyExact(a[1], b[0]), Math.multiplyExact(b[1], a[0]))
                : Long.compare(a[0], b[0]));
        WholeCover c = new WholeCover(grouped.toArray(new long[0][]), continuous);
        c.search(0, excess, 0);
        return c.nodes > MOST_NODES || c.best == Long.MAX_VALUE ? -1 : c.best;
    }

    /** Branches on how many of group i leave, {@code need} bytes still to cover at {@code paid} so far. */
    private void search(int i, long need, long paid) {
        if (++nodes > MOST_NODES) {
            return;
        }
        if (need <= 0) {
            best = Math.min(best, paid);
            return;
        }
        // Without continuous options the bytes groups i.. free are a multiple of their sizes' gcd.
        long floor = fractional(i, continuous.isEmpty() && unit[i] > 0 ? (need + unit[i] - 1) / unit[i] * unit[i]
                : need);
        // Each continuous part is rounded down on its own, so a leaf below may come out up to one unit per continuous
        // option under this node's bound (the node's parts are cut differently): prune only past that slack.
        if (floor < 0 || paid + floor - continuous.size() >= best) {
            return;
        }
        if (i == groups.length) {
            best = Math.min(best, paid + floor);
            return;
        }
        long[] gr = groups[i];
        long most = Math.min(gr[2], (need + gr[0] - 1) / gr[0]);
        for (long k = most; k >= 0 && nodes <= MOST_NODES; k--) {
            search(i + 1, need - k * gr[0], paid + k * gr[1]);
        }
    }

    /**
     * The fractional cover of {@code need} bytes by groups i.. and the continuous options, cheapest per byte first,
     * each part rounded down; -1 when they hold fewer bytes. From group {@code groups.length} on: the continuous alone.
     */
    private long fractional(int i, long need) {
        long left = need;
        long cost = 0;
        int j = 0;
        while (left > 0 && (i < groups.length || j < continuous.size())) {
            boolean group = j == continuous.size() || i < groups.length
                    && Math.multiplyExact(groups[i][1], continuous.get(j)[1])
                    <= Math.multiplyExact(continuous.get(j)[0], groups[i][0]);
            long price = group ? groups[i][1] : continuous.get(j)[0];
            long per = group ? groups[i][0] : continuous.get(j)[1];
            long bytes = group ? groups[i][0] * groups[i][2] : continuous.get(j)[2];
            long a = Math.min(bytes, left);
            cost = Math.addExact(cost, Math.multiplyExact(price, a) / per);
            left -= a;
            if (group) {
                i++;
            } else {
                j++;
            }
        }
        return left > 0 ? -1 : cost;
    }

    private static long gcd(long a, long b) {
        return b == 0 ? a : gcd(b, a % b);
    }
}
