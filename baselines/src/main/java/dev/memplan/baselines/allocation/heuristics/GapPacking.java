package dev.memplan.baselines.allocation.heuristics;

import dev.memplan.model.Allocation;
import dev.memplan.model.Buffer;
import dev.memplan.model.BufferChecker;
import dev.memplan.model.BufferSet;
import dev.memplan.model.Placement;
import dev.memplan.model.SolveStatus;
import dev.memplan.model.ByteRange;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;

/**
 * The loop the compiler heuristics share: buffers with a fixed offset go first, at their address; every other
 * buffer, in the heuristic's order, goes into one of the free gaps left by the placed buffers it shares a
 * moment with (the gap below the lowest included, the unbounded space above the highest last), at its
 * alignment. The heuristics differ only in the order and in which gap they take ({@link Fit}).
 *
 * <p>Time O(n log n + p log p) for n buffers and p pairs of buffers that share a moment: the placed buffers are
 * indexed by time, so each buffer looks only at the ones it overlaps, and their address ranges are sorted as
 * primitive arrays. Memory O(n log n) ints, no object per pair.
 */
final class GapPacking {

    /** Which free gap a buffer takes. */
    enum Fit {
        /** The lowest gap it fits in (tflite-micro's greedy planner). */
        FIRST,
        /**
         * The smallest bounded gap it fits in, the lowest of equals; above everything only when no bounded gap
         * fits (TFLite's arena planner, XLA's best-fit heap).
         */
        BEST
    }

    /** Buffers placed between two looks at the clock. */
    static final int POLL_EVERY = 64;

    private GapPacking() {
    }

    /**
     * The packing with unbounded capacity.
     *
     * @param order the order in which buffers without a fixed offset are placed (over buffer indices)
     * @throws IllegalArgumentException when the fixed offsets alone are illegal (negative, misaligned or
     *                                  colliding): then no packing exists at any capacity
     */
    static Placement pack(BufferSet set, Comparator<Integer> order, Fit fit, String maker) {
        return pack(set, order, fit, maker, Long.MAX_VALUE);
    }

    /**
     * As {@link #pack(BufferSet, Comparator, Fit, String)}, or null once {@link System#nanoTime()} passes
     * {@code deadlineNanos} (Long.MAX_VALUE: none), polled every {@link #POLL_EVERY} buffers placed.
     */
    static Placement pack(BufferSet set, Comparator<Integer> order, Fit fit, String maker, long deadlineNanos) {
        try {
            return packBy(set, order, fit, maker, deadlineNanos);
        } catch (PastDeadline e) {
            return null;
        }
    }

    /** Thrown out of the order's sort (seconds on a million buffers) once the deadline has passed. */
    private static final class PastDeadline extends RuntimeException {
        PastDeadline() {
            super(null, null, false, false);
        }
    }

    private static void checkDeadline(long deadlineNanos) {
        if (deadlineNanos != Long.MAX_VALUE && System.nanoTime() - deadlineNanos > 0) {
            throw new PastDeadline();
        }
    }

    private static Placement packBy(BufferSet set, Comparator<Integer> order, Fit fit, String maker,
                                    long deadlineNanos) {
        checkDeadline(deadlineNanos);
        String conflict = fixedOffsetConflict(set);
        if (conflict != null) {
            throw new IllegalArgumentException(conflict);
        }
        int n = set.size();
        long[] offsets = new long[n];
        long[] size = new long[n];
        long[] alignment = new long[n];
        for (int i = 0; i < n; i++) {
            size[i] = set.get(i).size();
            alignment[i] = set.get(i).alignment();
        }
        long smallest = Long.MAX_VALUE;
        for (int i = 0; i < n; i++) {
            if (set.get(i).fixedOffset() == null) {
                smallest = Math.min(smallest, size[i]);
            }
        }
        Placed placed = new Placed(set, offsets, size, smallest == Long.MAX_VALUE ? 1 : smallest);
        List<Integer> free = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            Long fixed = set.get(i).fixedOffset();
            if (fixed != null) {
                offsets[i] = fixed;
                placed.add(i);
            } else {
                free.add(i);
            }
        }
        checkDeadline(deadlineNanos);
        if (deadlineNanos == Long.MAX_VALUE) {
            free.sort(order);
        } else {
            // The sort compares boxed indices n log n times: a look at the clock every 2^16 comparisons.
            int[] compared = {0};
            free.sort((a, b) -> {
                if ((++compared[0] & 0xFFFF) == 0) {
                    checkDeadline(deadlineNanos);
                }
                return order.compare(a, b);
            });
        }
        long[][] ranges = {new long[64], new long[64]};
        int done = 0;
        for (int i : free) {
            if (++done % POLL_EVERY == 0) {
                checkDeadline(deadlineNanos);
            }
            int k = placed.neighbours(i, ranges);
            offsets[i] = choose(ranges[0], ranges[1], k, size[i], alignment[i], fit);
            placed.add(i);
        }
        Placement placement = new Placement(set, offsets);
        BufferChecker.requireValid(placement, Long.MAX_VALUE, maker);
        return placement;
    }

    /**
     * The offset a buffer of {@code size} and {@code alignment} gets among placed neighbours occupying
     * {@code [starts[x], ends[x])} (unsorted, x < k): the free gaps are the complement of their union, found by
     * sorting the starts and the ends separately and counting how many ranges cover each point.
     */
    private static long choose(long[] starts, long[] ends, int k, long size, long alignment, Fit fit) {
        Arrays.sort(starts, 0, k);
        Arrays.sort(ends, 0, k);
        long gapStart = 0;
        long best = -1;
        long bestLength = Long.MAX_VALUE;
        int covering = 0;
        int a = 0;
        int e = 0;
        while (a < k) {
            if (starts[a] <= ends[e]) {
                if (covering == 0 && starts[a] > gapStart) {
                    long at = alignUp(gapStart, alignment);
                    if (ByteRange.add(at, size) <= starts[a]) {
                        if (fit == Fit.FIRST) {
                            return at;
                        }
                        // Strictly smaller: among equal gaps the lowest wins.
                        if (starts[a] - gapStart < bestLength) {
                            best = at;
                            bestLength = starts[a] - gapStart;
                        }
                    }
                }
                covering++;
                a++;
            } else {
                covering--;
                if (covering == 0) {
                    gapStart = ends[e];
                }
                e++;
            }
        }
        if (k > 0) {
            gapStart = Math.max(gapStart, ends[k - 1]);
        }
        return best >= 0 ? best : alignUp(gapStart, alignment);
    }

    /**
     * The buffers placed so far, indexed by time so that the address ranges in use at some moment of a new
     * buffer's lifetime are found without looking at the buffers one by one. A segment tree over the distinct
     * times splits each lifetime into O(log n) canonical nodes; two lifetimes meet exactly when a canonical node
     * of one is an ancestor of (or equal to) a canonical node of the other. So every node keeps two unions of
     * address ranges (sorted, coalesced: many buffers stacked together become one range): {@code cover}, of
     * the buffers with a canonical node there, and {@code below}, of the buffers with a canonical node strictly
     * inside its subtree. A query reads {@code cover} on the paths from its canonical nodes to the root and
     * {@code below} at its canonical nodes. Space and time per buffer O(log n) plus the ranges read or moved.
     */
    private static final class Placed {
        private final long[] times;
        private final int[] slotLo;
        private final int[] slotHi;
        private final int leaves;
        private final Union[] cover;
        private final Union[] below;
        private final long[] offsets;
        private final long[] size;
        /** Scratch: the nodes of one update or query, and a mark per node for the paths already walked. */
        private final int[] nodes;
        private final int[] mark;
        private int stamp;
        /** Holes narrower than this (the smallest free buffer) hold no buffer: their sides are merged. */
        private final long slack;

        Placed(BufferSet set, long[] offsets, long[] size, long slack) {
            this.slack = slack;
            this.offsets = offsets;
            this.size = size;
            int n = set.size();
            long[] all = new long[2 * n];
            for (int i = 0; i < n; i++) {
                all[2 * i] = set.get(i).lower();
                all[2 * i + 1] = set.get(i).upper();
            }
            Arrays.sort(all);
            int t = 0;
            for (int i = 0; i < all.length; i++) {
                if (t == 0 || all[i] != all[t - 1]) {
                    all[t++] = all[i];
                }
            }
            times = Arrays.copyOf(all, t);
            slotLo = new int[n];
            slotHi = new int[n];
            for (int i = 0; i < n; i++) {
                slotLo[i] = Arrays.binarySearch(times, set.get(i).lower());
                slotHi[i] = Arrays.binarySearch(times, set.get(i).upper());
            }
            int l = 1;
            while (l < Math.max(1, t)) {
                l <<= 1;
            }
            leaves = l;
            cover = new Union[2 * leaves];
            below = new Union[2 * leaves];
            nodes = new int[128];
            mark = new int[2 * leaves];
        }

        /** The canonical nodes of slots [a, b) (iterative, bottom-up), into {@link #nodes}; returns how many. */
        private int canonical(int a, int b) {
            int k = 0;
            for (int lo = a + leaves, hi = b + leaves; lo < hi; lo >>>= 1, hi >>>= 1) {
                if ((lo & 1) == 1) {
                    nodes[k++] = lo++;
                }
                if ((hi & 1) == 1) {
                    nodes[k++] = --hi;
                }
            }
            return k;
        }

        /** Records buffer i at {@code offsets[i]}. */
        void add(int i) {
            long start = offsets[i];
            long end = ByteRange.add(offsets[i], size[i]);
            int k = canonical(slotLo[i], slotHi[i]);
            stamp++;
            for (int x = 0; x < k; x++) {
                int v = nodes[x];
                union(cover, v).add(start, end, slack);
                for (int w = v >>> 1; w >= 1 && mark[w] != stamp; w >>>= 1) {
                    mark[w] = stamp;
                    union(below, w).add(start, end, slack);
                }
            }
        }

        private static Union union(Union[] unions, int v) {
            Union u = unions[v];
            return u != null ? u : (unions[v] = new Union());
        }

        /**
         * Writes address ranges whose union is the space used, at some moment of buffer i's lifetime, by the
         * placed buffers, into {@code buffer[0]} (starts) and {@code buffer[1]} (ends), grown as needed; returns
         * how many.
         */
        int neighbours(int i, long[][] buffer) {
            int k = canonical(slotLo[i], slotHi[i]);
            int total = 0;
            stamp++;
            for (int x = 0; x < k; x++) {
                int v = nodes[x];
                total += count(below[v]);
                for (int w = v; w >= 1 && mark[w] != stamp; w >>>= 1) {
                    mark[w] = stamp;
                    total += count(cover[w]);
                }
            }
            if (buffer[0].length < total) {
                buffer[0] = new long[Math.max(total, 2 * buffer[0].length)];
                buffer[1] = new long[buffer[0].length];
            }
            int r = 0;
            stamp++;
            for (int x = 0; x < k; x++) {
                int v = nodes[x];
                r = copy(below[v], buffer, r);
                for (int w = v; w >= 1 && mark[w] != stamp; w >>>= 1) {
                    mark[w] = stamp;
                    r = copy(cover[w], buffer, r);
                }
            }
            return r;
        }

        private static int count(Union u) {
            return u == null ? 0 : u.count;
        }

        private static int copy(Union u, long[][] buffer, int at) {
            if (u == null || u.count == 0) {
                return at;
            }
            System.arraycopy(u.from, 0, buffer[0], at, u.count);
            System.arraycopy(u.to, 0, buffer[1], at, u.count);
            return at + u.count;
        }
    }

    /**
     * A union of address ranges: sorted, disjoint, ranges that meet, touch or leave a hole narrower than the
     * slack merged (the hole is filled: no buffer fits in it, so every gap a buffer can take is kept as it is).
     */
    private static final class Union {
        long[] from = new long[2];
        long[] to = new long[2];
        int count;

        void add(long start, long end, long slack) {
            int c = count;
            // First range that ends less than slack below start; then past the last that starts less than
            // slack above end.
            int first = 0;
            int hi = c;
            while (first < hi) {
                int mid = (first + hi) >>> 1;
                if (start - to[mid] >= slack) {
                    first = mid + 1;
                } else {
                    hi = mid;
                }
            }
            int last = first;
            while (last < c && from[last] - end < slack) {
                last++;
            }
            if (first < last) {
                start = Math.min(start, from[first]);
                end = Math.max(end, to[last - 1]);
            }
            int removed = last - first;
            int newCount = c - removed + 1;
            if (newCount > from.length) {
                from = Arrays.copyOf(from, Math.max(newCount, 2 * from.length));
                to = Arrays.copyOf(to, from.length);
            }
            if (removed != 1) {
                System.arraycopy(from, last, from, first + 1, c - last);
                System.arraycopy(to, last, to, first + 1, c - last);
            }
            from[first] = start;
            to[first] = end;
            count = newCount;
        }
    }

    static long alignUp(long offset, long alignment) {
        long rest = offset % alignment;
        return rest == 0 ? offset : offset + alignment - rest;
    }

    /**
     * Why the fixed offsets alone admit no packing (a negative or misaligned fixed offset, two fixed buffers
     * sharing a moment and an address), or null when they are legal.
     */
    static String fixedOffsetConflict(BufferSet set) {
        List<Integer> fixed = new ArrayList<>();
        for (int i = 0; i < set.size(); i++) {
            Buffer b = set.get(i);
            if (b.fixedOffset() == null) {
                continue;
            }
            if (b.fixedOffset() < 0 || b.fixedOffset() % b.alignment() != 0) {
                return "buffer '" + b.id() + "': fixed offset " + b.fixedOffset() + " is negative or not a multiple"
                        + " of its alignment " + b.alignment();
            }
            for (int j : fixed) {
                Buffer other = set.get(j);
                boolean sameTime = other.lower() < b.upper() && b.lower() < other.upper();
                boolean sameAddress = other.fixedOffset() < b.fixedOffset() + b.size()
                        && b.fixedOffset() < other.fixedOffset() + other.size();
                if (sameTime && sameAddress) {
                    return "buffers '" + other.id() + "' and '" + b.id() + "' have fixed offsets that collide";
                }
            }
            fixed.add(i);
        }
        return null;
    }

    /**
     * What a heuristic's {@code allocate} returns: HEURISTIC with the packing when it fits below
     * {@code capacity}, UNKNOWN otherwise (a heuristic that fails proves nothing, so never INFEASIBLE).
     *
     * @param packer the heuristic's {@code pack}
     * @param startNanos when the call began, for the wall time
     */
    static Allocation allocate(BufferSet set, long capacity, Function<BufferSet, Placement> packer,
                               String maker, long startNanos) {
        String conflict = fixedOffsetConflict(set);
        if (conflict != null) {
            return new Allocation(SolveStatus.UNKNOWN, null, seconds(startNanos), conflict);
        }
        Placement placement = packer.apply(set);
        if (placement == null) {
            return new Allocation(SolveStatus.UNKNOWN, null, seconds(startNanos), "stopped at the time limit");
        }
        if (placement.height() > capacity) {
            return Allocation.exceedsCapacity(placement.height(), capacity, seconds(startNanos));
        }
        BufferChecker.requireValid(placement, capacity, maker);
        return new Allocation(SolveStatus.HEURISTIC, placement, seconds(startNanos));
    }

    /** The wall end of {@code limits} in {@link System#nanoTime()} terms (Long.MAX_VALUE: none). */
    static long deadline(dev.memplan.model.Limits limits) {
        java.time.Duration left = limits.budget().wallLeft();
        if (left == null) {
            return Long.MAX_VALUE;
        }
        long now = System.nanoTime();
        return left.toNanos() >= Long.MAX_VALUE - now ? Long.MAX_VALUE : now + left.toNanos();
    }

    private static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }
}
