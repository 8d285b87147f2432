package dev.memplan.baselines.allocation.telamalloc;

import dev.memplan.model.Buffer;
import dev.memplan.model.BufferSet;
import java.util.Arrays;

/**
 * The buffers of a set on compressed time: the distinct {@code lower}/{@code upper} values cut time into
 * elementary slots, inside which the set of live buffers does not change. Buffer i is live in slots
 * {@code [first[i], end[i])}. Also the contention of each slot (TelaMalloc, section 3.1: the total size of the
 * buffers live in it), which is what the skyline order and the phase grouping rank by. Building costs
 * O(n log n + n s) for n buffers and s slots.
 */
final class TimeAxis {
    final int slots;
    final int[] first;
    final int[] end;
    final long[] contention;

    private TimeAxis(int slots, int[] first, int[] end, long[] contention) {
        this.slots = slots;
        this.first = first;
        this.end = end;
        this.contention = contention;
    }

    static TimeAxis of(BufferSet set) {
        int n = set.size();
        long[] times = new long[2 * n];
        for (int i = 0; i < n; i++) {
            times[2 * i] = set.get(i).lower();
            times[2 * i + 1] = set.get(i).upper();
        }
        long[] distinct = Arrays.stream(times).sorted().distinct().toArray();
        int slots = Math.max(0, distinct.length - 1);
        int[] first = new int[n];
        int[] end = new int[n];
        long[] delta = new long[slots + 1];
        for (int i = 0; i < n; i++) {
            Buffer b = set.get(i);
            first[i] = Arrays.binarySearch(distinct, b.lower());
            end[i] = Arrays.binarySearch(distinct, b.upper());
            delta[first[i]] += b.size();
            delta[end[i]] -= b.size();
        }
        long[] contention = new long[slots];
        long live = 0;
        for (int s = 0; s < slots; s++) {
            live += delta[s];
            contention[s] = live;
        }
        return new TimeAxis(slots, first, end, contention);
    }

    boolean overlap(int a, int b) {
        return first[a] < end[b] && first[b] < end[a];
    }

    /** Contention of buffer i: the highest contention of a slot in which it is live (section 3.1). */
    long contentionOf(int i) {
        long c = 0;
        for (int s = first[i]; s < end[i]; s++) {
            c = Math.max(c, contention[s]);
        }
        return c;
    }

    /** The highest slot contention: a lower bound on the height of every packing. */
    long peak() {
        long p = 0;
        for (long c : contention) {
            p = Math.max(p, c);
        }
        return p;
    }

    /** Smallest multiple of {@code alignment} that is >= value. */
    static long alignUp(long value, long alignment) {
        return -Math.floorDiv(-value, alignment) * alignment;
    }

    /** Largest multiple of {@code alignment} that is <= value. */
    static long alignDown(long value, long alignment) {
        return Math.floorDiv(value, alignment) * alignment;
    }

    /**
     * Why the fixed-offset buffers alone already break a rule of the memory model (negative or misaligned
     * offset, above {@code capacity}, two live at once sharing an address), or null when they do not. Such a
     * set has no legal placement at all.
     */
    String fixedConflict(BufferSet set, long capacity) {
        int n = set.size();
        for (int i = 0; i < n; i++) {
            Buffer a = set.get(i);
            Long f = a.fixedOffset();
            if (f == null) {
                continue;
            }
            if (f < 0 || f % a.alignment() != 0) {
                return "buffer '" + a.id() + "' is fixed at " + f + ", not a non-negative multiple of its alignment "
                        + a.alignment();
            }
            if (f > capacity - a.size()) {
                return "buffer '" + a.id() + "' is fixed at " + f + " and ends above the capacity " + capacity;
            }
            for (int j = i + 1; j < n; j++) {
                Buffer b = set.get(j);
                Long g = b.fixedOffset();
                if (g != null && overlap(i, j) && f < g + b.size() && g < f + a.size()) {
                    return "fixed buffers '" + a.id() + "' and '" + b.id() + "' are live at once and share addresses";
                }
            }
        }
        return null;
    }
}
