package dev.memplan.model;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.TreeMap;

/**
 * The one non-overlap rule of the memory model, shared by the {@link PlanChecker} and the
 * {@link BufferChecker} (and the two-level mapping checker, {@code mmap.MappingChecker}): items live over half-open time ranges [lower, upper) and occupy address ranges
 * [offset, offset + size); report every pair that shares both a moment and an address.
 *
 * <p>A sweep over time keeps the live items whose addresses are pairwise disjoint in a tree ordered by
 * offset, so a new item meets at most its predecessor and the items starting inside its own range; an item
 * that overlaps something goes to a side list compared pairwise. Time O(n log n + k) for n items with no
 * conflicts, plus O(c) per item while c conflicting items are live; every overlapping pair is reported once.
 */
public final class OverlapSweep {

    /** Receives an overlapping pair (item indices, first before second in sweep order). */
    public interface PairSink {
        void overlap(int first, int second);
    }

    private OverlapSweep() {
    }

    public static void findOverlaps(long[] lower, long[] upper, long[] offset, long[] size, PairSink sink) {
        int n = lower.length;
        Integer[] byLower = new Integer[n];
        for (int i = 0; i < n; i++) {
            byLower[i] = i;
        }
        Arrays.sort(byLower, (a, b) -> lower[a] != lower[b] ? Long.compare(lower[a], lower[b]) : Integer.compare(a, b));
        PriorityQueue<Integer> live = new PriorityQueue<>((a, b) -> Long.compare(upper[a], upper[b]));
        TreeMap<Long, Integer> disjoint = new TreeMap<>();
        List<Integer> conflicted = new ArrayList<>();
        boolean[] inTree = new boolean[n];
        for (int x : byLower) {
            while (!live.isEmpty() && upper[live.peek()] <= lower[x]) {
                int gone = live.poll();
                if (inTree[gone]) {
                    disjoint.remove(offset[gone]);
                } else {
                    conflicted.remove(Integer.valueOf(gone));
                }
            }
            long lo = offset[x];
            long hi = ByteRange.add(offset[x], size[x]);
            boolean hitsTree = false;
            Long from = disjoint.floorKey(lo);
            Iterator<Map.Entry<Long, Integer>> it =
                    (from == null ? disjoint : disjoint.tailMap(from, true)).entrySet().iterator();
            while (it.hasNext()) {
                Map.Entry<Long, Integer> e = it.next();
                if (e.getKey() >= hi) {
                    break;
                }
                int y = e.getValue();
                if (ByteRange.add(e.getKey(), size[y]) > lo) {
                    sink.overlap(y, x);
                    hitsTree = true;
                }
            }
            for (int y : conflicted) {
                if (offset[y] < hi && lo < ByteRange.add(offset[y], size[y])) {
                    sink.overlap(y, x);
                }
            }
            if (hitsTree) {
                conflicted.add(x);
            } else {
                disjoint.put(lo, x);
                inTree[x] = true;
            }
            live.add(x);
        }
    }
}
