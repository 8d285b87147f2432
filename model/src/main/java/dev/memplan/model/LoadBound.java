package dev.memplan.model;

import java.util.Arrays;

/**
 * The max-load lower bound L on the height of every packing of a buffer set: the largest total size of the
 * buffers live at one moment, and at least the top of every fixed-offset buffer. A placement whose height
 * equals L is optimal. Time O(n log n) by a sweep over the distinct times, memory O(n) in primitive arrays.
 */
public final class LoadBound {

    private LoadBound() {
    }

    /** L for the buffers (0 when empty), saturating at Long.MAX_VALUE ({@link ByteRange}). */
    public static long of(BufferSet set) {
        int n = set.size();
        long[] times = new long[2 * n];
        for (int i = 0; i < n; i++) {
            times[2 * i] = set.get(i).lower();
            times[2 * i + 1] = set.get(i).upper();
        }
        Arrays.sort(times);
        int k = 0;
        for (int i = 0; i < times.length; i++) {
            if (k == 0 || times[i] != times[k - 1]) {
                times[k++] = times[i];
            }
        }
        long[] delta = new long[k + 1];
        long best = 0;
        for (int i = 0; i < n; i++) {
            Buffer b = set.get(i);
            delta[Arrays.binarySearch(times, 0, k, b.lower())] += b.size();
            delta[Arrays.binarySearch(times, 0, k, b.upper())] -= b.size();
            if (b.fixedOffset() != null) {
                best = Math.max(best, ByteRange.add(b.fixedOffset(), b.size()));
            }
        }
        long live = 0;
        for (int s = 0; s < k; s++) {
            live = ByteRange.add(live, delta[s]);
            best = Math.max(best, live);
        }
        return best;
    }
}
