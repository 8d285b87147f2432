package dev.memplan.model;

/** Sums over timesteps of intervals [start, end] (inclusive), by a difference array: O(n + intervals). */
public final class Timeline {

    private Timeline() {
    }

    /**
     * The maximum over timesteps 0..timesteps-1 of the total weight of the intervals that contain it (0 when
     * none). Intervals must lie within 0..timesteps-1; weights must be non-negative. A total beyond 2^63 - 1
     * (possible only when one plan repeats huge segments, see {@link ByteRange}) saturates at Long.MAX_VALUE.
     */
    public static long peak(int timesteps, int[] starts, int[] ends, long[] weights) {
        long[] delta = new long[timesteps + 1];
        try {
            for (int i = 0; i < starts.length; i++) {
                delta[starts[i]] = Math.addExact(delta[starts[i]], weights[i]);
                delta[ends[i] + 1] = Math.subtractExact(delta[ends[i] + 1], weights[i]);
            }
            long peak = 0;
            long now = 0;
            for (int t = 0; t < timesteps; t++) {
                now = Math.addExact(now, delta[t]);
                peak = Math.max(peak, now);
            }
            return peak;
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }
}
