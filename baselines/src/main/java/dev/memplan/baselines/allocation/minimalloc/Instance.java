package dev.memplan.baselines.allocation.minimalloc;

import dev.memplan.model.SortedLongs;
import dev.memplan.model.Buffer;
import dev.memplan.model.BufferSet;
import dev.memplan.model.ByteRange;
import java.util.Arrays;

/**
 * A buffer set as primitive arrays, its {@link Sweep}, and the facts that hold at every capacity: whether two
 * fixed buffers collide, the largest live total, and a capacity above which every capacity is equivalent.
 * Built once and shared by every decision and every thread.
 */
final class Instance {
    /** Beyond this, sums of offsets and sizes could overflow a long. */
    static final long MAX_ROOM = 1L << 61;
    /**
     * The sizes and alignments sum to MAX_ROOM or more: {@link #room} and {@link #maxLive} are saturated, and only
     * capacities below MAX_ROOM can be decided (every section total that fits such a capacity is exact).
     */
    final boolean huge;

    final int n;
    final long[] size;
    final long[] alignment;
    /** Fixed offset of each buffer, or -1 for a free one. */
    final long[] fixed;
    final long[] lower;
    final long[] upper;
    final Sweep sweep;
    /** Largest total size live at one moment. */
    final long maxLive;
    /** Largest top of a fixed buffer, or 0. */
    final long maxFixedTop;
    /**
     * A capacity that is always enough when any is: the fixed buffers where they are and every free buffer
     * stacked above them, each padded to its alignment.
     */
    final long room;
    /** Why no capacity can work (a fixed offset is misaligned or negative, or two fixed buffers collide). */
    final String hopeless;

    Instance(BufferSet set) {
        n = set.size();
        size = new long[n];
        alignment = new long[n];
        fixed = new long[n];
        lower = new long[n];
        upper = new long[n];
        long roomSum = 0;
        long sizeSum = 0;
        long fixedTop = 0;
        String problem = null;
        for (int i = 0; i < n; i++) {
            Buffer b = set.get(i);
            size[i] = b.size();
            alignment[i] = b.alignment();
            lower[i] = b.lower();
            upper[i] = b.upper();
            fixed[i] = b.fixedOffset() == null ? -1 : b.fixedOffset();
            sizeSum = ByteRange.add(sizeSum, ByteRange.add(b.size(), b.alignment()));
            if (b.fixedOffset() != null) {
                long f = b.fixedOffset();
                if (f < 0 || f >= MAX_ROOM) {
                    problem = problem != null ? problem : "buffer '" + b.id() + "' is fixed at " + f
                            + ", outside [0, 2^61)";
                } else if (f % b.alignment() != 0) {
                    problem = problem != null ? problem : "buffer '" + b.id() + "' is fixed at " + f
                            + ", not a multiple of its alignment " + b.alignment();
                } else {
                    fixedTop = Math.max(fixedTop, f + b.size());
                }
            } else {
                roomSum = ByteRange.add(roomSum, ByteRange.add(b.size(), b.alignment() - 1));
            }
        }
        sweep = new Sweep(lower, upper);
        maxLive = sweep.maxLiveBytes(size);
        maxFixedTop = fixedTop;
        huge = sizeSum >= MAX_ROOM;
        room = Math.min(MAX_ROOM, ByteRange.add(fixedTop, roomSum));
        if (problem == null) {
            problem = fixedCollision(set);
        }
        hopeless = problem;
    }

    /** Two fixed buffers live at the same time whose address ranges meet, or null. */
    private String fixedCollision(BufferSet set) {
        for (int i = 0; i < n; i++) {
            if (fixed[i] < 0) {
                continue;
            }
            for (int e = sweep.overlapStart[i]; e < sweep.overlapStart[i + 1]; e++) {
                int j = sweep.overlaps[e];
                if (j > i && fixed[j] >= 0 && fixed[i] < fixed[j] + size[j] && fixed[j] < fixed[i] + size[i]) {
                    return "fixed buffers '" + set.get(i).id() + "' and '" + set.get(j).id()
                            + "' are live at the same time and share addresses";
                }
            }
        }
        return null;
    }

    /**
     * A quick packing for an upper bound: fixed buffers at their offsets, then the free ones, largest area
     * first, each at the lowest aligned offset clear of the placed buffers it overlaps. Needs
     * {@code hopeless == null}. Time O(n log n + p log p) for p overlapping pairs: seconds where thousands of
     * buffers are live at once, so it looks at the clock every 64 buffers and gives null once
     * {@link System#nanoTime()} passes {@code deadlineNanos} (Long.MAX_VALUE: never). Sets of fewer than
     * {@link dev.memplan.model.ClockGuard#EVERY} buffers, packed in milliseconds, are packed whatever the clock
     * says, so that a search with a tiny time limit still answers with a packing.
     */
    long[] greedy(long deadlineNanos) {
        long deadline = n < dev.memplan.model.ClockGuard.EVERY ? Long.MAX_VALUE : deadlineNanos;
        long[] offsets = new long[n];
        Arrays.fill(offsets, -1);
        Integer[] free = new Integer[n];
        int count = 0;
        for (int i = 0; i < n; i++) {
            if (fixed[i] >= 0) {
                offsets[i] = fixed[i];
            } else {
                free[count++] = i;
            }
        }
        Integer[] byArea = Arrays.copyOf(free, count);
        Arrays.sort(byArea, (a, b) -> {
            int c = Double.compare((double) size[b] * (upper[b] - lower[b]), (double) size[a] * (upper[a] - lower[a]));
            return c != 0 ? c : Long.compare(size[b], size[a]);
        });
        long[] starts = new long[n];
        long[] ends = new long[n];
        int placed = 0;
        for (int b : byArea) {
            if ((++placed & 63) == 0 && deadline != Long.MAX_VALUE && System.nanoTime() - deadline > 0) {
                return null;
            }
            int k = 0;
            for (int e = sweep.overlapStart[b]; e < sweep.overlapStart[b + 1]; e++) {
                int j = sweep.overlaps[e];
                if (offsets[j] >= 0) {
                    starts[k] = offsets[j];
                    ends[k] = offsets[j] + size[j];
                    k++;
                }
            }
            offsets[b] = lowestClear(starts, ends, k, size[b], alignment[b]);
        }
        return offsets;
    }

    /** Lowest multiple of {@code align} where {@code [o, o + z)} misses every {@code [starts[i], ends[i])}. */
    private static long lowestClear(long[] starts, long[] ends, int k, long z, long align) {
        long[][] busy = new long[k][];
        for (int i = 0; i < k; i++) {
            busy[i] = new long[] {starts[i], ends[i]};
        }
        Arrays.sort(busy, (x, y) -> Long.compare(x[0], y[0]));
        long o = 0;
        for (long[] range : busy) {
            if (range[0] >= o + z) {
                break;
            }
            if (range[1] > o) {
                o = (range[1] + align - 1) / align * align;
            }
        }
        return o;
    }

    /**
     * Bytes the search needs for {@code set} with {@code threads} racing threads, estimated before anything is
     * built: the overlap lists (twice, while they are built), the section memberships once shared and twice per
     * thread, and a few arrays per buffer. Time O(n log n), no structure of size p or m built.
     */
    static long estimateBytes(BufferSet set, int threads) {
        int n = set.size();
        long[] lower = new long[n];
        long[] upper = new long[n];
        for (int i = 0; i < n; i++) {
            lower[i] = set.get(i).lower();
            upper[i] = set.get(i).upper();
        }
        long[] ends = upper.clone();
        Arrays.sort(ends);
        long[] starts = lower.clone();
        Arrays.sort(starts);
        long memberships = 0;
        long pairs = 0;
        for (int i = 0; i < n; i++) {
            // Sections are the distinct ends t with lower < t <= upper; count ends (with repeats as an upper
            // bound) in that range, and buffers starting in [lower, upper) for the pairs (each pair about twice).
            memberships += SortedLongs.countAtMost(ends, upper[i]) - SortedLongs.countAtMost(ends, lower[i]);
            pairs += SortedLongs.countBelow(starts, upper[i]) - SortedLongs.countBelow(starts, lower[i]);
        }
        long perThread = 8 * memberships + 64L * n;
        return 4 * memberships + 16 * pairs + Math.max(1, threads) * perThread + 96L * n;
    }
}
