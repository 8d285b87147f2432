package dev.memplan.baselines.allocation;

import dev.memplan.baselines.allocation.telamalloc.SkylineAllocator;
import dev.memplan.baselines.allocation.telamalloc.SkylineAllocator.Tiebreak;
import dev.memplan.baselines.allocation.telamalloc.SkylineAllocator.Variant;
import dev.memplan.model.BufferSet;
import dev.memplan.model.Placement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The skyline heuristic restarted in other priority orders ({@link Variant}), the lowest packing kept: what the
 * portfolio does with time that MiniMalloc cannot use (it steps aside where its search would not fit in the heap,
 * and on tens of thousands of buffers rarely improves a packing within seconds). The orders are a fixed list,
 * each packing is deterministic and checked; under a time limit, how many of them run (and so the best) depends
 * on the clock. A restart starts only when the longest run so far fits in the time left, so that none is cut
 * midway (a skyline run of a million buffers takes tens of seconds, most of it before its first look at the clock).
 */
final class SkylineRestarts {
    /** The contention bands (fractions of the peak contention), spread first, then filled in. */
    private static final double[] BANDS = {0.004, 0.025, 0.01, 0.06, 0.002, 0.015, 0.04, 0.006, 0.1, 0.003, 0.0125,
            0.03, 0.0075, 0.05, 0.001, 0.02};

    /** Every band with both tie-breaks, in the order they run. */
    static final List<Variant> ORDERS = orders();

    private final BufferSet buffers;
    private final long bound;
    private final List<Variant> orders;
    private int next;
    /** The longest run so far (a skyline run's time before the first restart). */
    private long longest;
    private Variant bestOrder;
    private long bestHeight = Long.MAX_VALUE;
    private long startHeight = -1;
    private long spent;
    private boolean cut;

    /**
     * @param bound      the max-load lower bound: the restarts stop when a packing meets it
     * @param skylineNanos how long the skyline in section 3.1's order took on {@code buffers}
     */
    SkylineRestarts(BufferSet buffers, long bound, long skylineNanos) {
        this(buffers, bound, skylineNanos, ORDERS);
    }

    /** As the main constructor, with other orders (tests: fewer). */
    SkylineRestarts(BufferSet buffers, long bound, long skylineNanos, List<Variant> orders) {
        this.buffers = buffers;
        this.bound = bound;
        this.longest = skylineNanos;
        this.orders = List.copyOf(orders);
    }

    private static List<Variant> orders() {
        List<Variant> orders = new ArrayList<>();
        for (double band : BANDS) {
            orders.add(new Variant(band, Tiebreak.LIFETIME));
            orders.add(new Variant(band, Tiebreak.WEIGHT));
        }
        return List.copyOf(orders);
    }

    /**
     * Runs the next orders until they are all done, a packing meets the bound, or the next would not end by
     * {@code deadlineNanos} ({@link System#nanoTime()} terms); the lowest packing below {@code best}, or null.
     */
    Placement improve(Placement best, long deadlineNanos) {
        Placement found = null;
        long height = best.height();
        if (startHeight < 0) {
            startHeight = height;
        }
        cut = false;
        long began = System.nanoTime();
        try {
            return run(found, height, deadlineNanos);
        } finally {
            spent += System.nanoTime() - began;
        }
    }

    private Placement run(Placement found, long height, long deadlineNanos) {
        while (next < orders.size() && height > bound) {
            long now = System.nanoTime();
            if (deadlineNanos - now < longest) {
                cut = true;
                return found;
            }
            Variant order = orders.get(next);
            Placement p = new SkylineAllocator().pack(buffers, deadlineNanos, order);
            longest = Math.max(longest, System.nanoTime() - now);
            if (p == null) {
                cut = true;
                return found;
            }
            next++;
            if (p.height() < height) {
                found = p;
                height = p.height();
                bestOrder = order;
                bestHeight = height;
            }
        }
        return found;
    }

    /** One line for the log: how many orders ran, whether the clock stopped the rest, the best order's height. */
    String summary() {
        String ran = next == orders.size() ? "all " + next + " orders ran"
                : next + " of " + orders.size() + " orders ran" + (cutByClock() ? ", the time limit stopped the rest"
                        : ", the rest not needed (a packing meets L)");
        String result = bestOrder == null ? "none below " + startHeight
                : String.format(Locale.ROOT, "height %d (contention band %s of the peak, then %s)", bestHeight,
                        bestOrder.band(), bestOrder.tiebreak().name().toLowerCase(Locale.ROOT));
        return String.format(Locale.ROOT, "skyline restarts: %s; %s, %.2f s", ran, result, spent / 1e9);
    }

    /** Whether the clock stopped the restarts before every order ran (at the last call of {@link #improve}). */
    boolean cutByClock() {
        return cut && next < orders.size();
    }
}
