package dev.memplan.model;

/** Counting in a sorted array of longs (or ints) by binary search (duplicates allowed), for interval sweeps. */
public final class SortedLongs {
    private SortedLongs() {
    }

    /** The number of elements below {@code value}: the index of the first element >= value. */
    public static int countBelow(long[] sorted, long value) {
        int lo = 0;
        int hi = sorted.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (sorted[mid] < value) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** As {@link #countBelow(long[], long)}, for a sorted array of ints. */
    public static int countBelow(int[] sorted, int value) {
        int lo = 0;
        int hi = sorted.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (sorted[mid] < value) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** The number of elements at most {@code value}: the index of the first element > value. */
    public static int countAtMost(long[] sorted, long value) {
        int lo = 0;
        int hi = sorted.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (sorted[mid] <= value) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
