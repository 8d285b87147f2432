package dev.memplan.formulations.cosma;

import java.util.Arrays;

/**
 * Separation of knapsack-cover inequalities over one moment's items (Carr et al., SODA 2000; as used for caching by
 * Bar-Noy et al., STOC 2000): for a set S whose sizes exceed the room by D > 0, sum over S of min(size, D) x >= D,
 * x the fraction of an item that leaves. The sets tried are the prefixes of the items by least LP value first (then
 * largest, then by id), the first {@code prefixes} of them with D > 0. Time O(n log n + prefixes x n).
 */
final class KnapsackCover {

    private KnapsackCover() {
    }

    /**
     * The most violated prefix cover, violated by more than {@code minViolation} of its D.
     *
     * @param items the items' ids (the order among equals, and what is returned)
     * @param size each item's size (in the caller's unit)
     * @param value each item's LP value
     * @param room the room left for the items
     * @return the ids of the cover's set in prefix order, or null when no prefix is violated
     */
    static int[] mostViolated(int[] items, double[] size, double[] value, double room, int prefixes,
                              double minViolation) {
        Integer[] byValue = new Integer[items.length];
        for (int i = 0; i < items.length; i++) {
            byValue[i] = i;
        }
        Arrays.sort(byValue, (a, b) -> value[a] != value[b] ? Double.compare(value[a], value[b])
                : size[a] != size[b] ? Double.compare(size[b], size[a]) : Integer.compare(items[a], items[b]));
        double total = 0;
        int best = -1;
        double bestViolation = 0;
        int tried = 0;
        for (int k = 0; k < byValue.length && tried < prefixes; k++) {
            total += size[byValue[k]];
            double demand = total - room;
            if (demand <= 0) {
                continue;
            }
            tried++;
            double lhs = 0;
            for (int j = 0; j <= k; j++) {
                lhs += Math.min(size[byValue[j]], demand) * value[byValue[j]];
            }
            double violation = (demand - lhs) / demand;
            if (violation > minViolation && violation > bestViolation) {
                bestViolation = violation;
                best = k;
            }
        }
        if (best < 0) {
            return null;
        }
        int[] set = new int[best + 1];
        for (int j = 0; j <= best; j++) {
            set[j] = items[byValue[j]];
        }
        return set;
    }
}
