package dev.memplan.baselines.allocation.telamalloc;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Contention-based grouping (TelaMalloc, Maas et al., ASPLOS 2023, section 5.3 and Figure 9).
 *
 * <p>{@link #components} cuts time where no buffer is live on both sides: the parts share no moment, so they
 * are packed independently. {@link #group} splits one part into phases of high contention separated by
 * troughs: starting at a threshold of 100% of the capacity and lowering it by a fixed step, each maximal time
 * range whose contention is at least the threshold collects the not yet grouped buffers live in it into a new
 * phase. Phases come out in decreasing order of contention; buffers that no threshold reached form the last
 * phase. Time O(k (s + n)) for k thresholds, s slots and n buffers.
 */
final class Phases {

    private Phases() {
    }

    /** The independent parts: buffer indices per part, parts in time order, indices ascending. */
    static List<int[]> components(TimeAxis axis) {
        int n = axis.first.length;
        // crossing[s] > 0 when some buffer is live in both slot s - 1 and slot s
        int[] crossing = new int[axis.slots + 1];
        for (int i = 0; i < n; i++) {
            crossing[axis.first[i] + 1]++;
            crossing[axis.end[i]]--;
        }
        int[] part = new int[axis.slots];
        int parts = 0;
        int live = 0;
        for (int s = 0; s < axis.slots; s++) {
            live += crossing[s];
            if (s > 0 && live == 0) {
                parts++;
            }
            part[s] = parts;
        }
        List<List<Integer>> members = new ArrayList<>();
        for (int p = 0; p <= parts; p++) {
            members.add(new ArrayList<>());
        }
        for (int i = 0; i < n; i++) {
            members.get(part[axis.first[i]]).add(i);
        }
        List<int[]> result = new ArrayList<>();
        for (List<Integer> m : members) {
            if (!m.isEmpty()) {
                result.add(m.stream().mapToInt(Integer::intValue).toArray());
            }
        }
        return result;
    }

    /**
     * The phases of one part: the buffers of {@code members} with {@code grouped[i] == false} (fixed buffers
     * are marked grouped by the caller, as they are never chosen), as lists of buffer indices.
     */
    static List<int[]> group(TimeAxis axis, int[] members, boolean[] grouped, long capacity, double step) {
        int from = Integer.MAX_VALUE;
        int to = Integer.MIN_VALUE;
        for (int i : members) {
            from = Math.min(from, axis.first[i]);
            to = Math.max(to, axis.end[i]);
        }
        List<int[]> phases = new ArrayList<>();
        for (int k = 0; 1.0 - k * step > 1e-9; k++) {
            // rounded so that a slot exactly at, say, 70% of the capacity is not lost to floating-point error
            long threshold = Math.round((1.0 - k * step) * capacity);
            for (int[] range : rangesAtLeast(axis, from, to, threshold)) {
                List<Integer> phase = new ArrayList<>();
                for (int i : members) {
                    if (!grouped[i] && axis.first[i] < range[1] && range[0] < axis.end[i]) {
                        phase.add(i);
                        grouped[i] = true;
                    }
                }
                if (!phase.isEmpty()) {
                    phases.add(phase.stream().mapToInt(Integer::intValue).toArray());
                }
            }
        }
        List<Integer> rest = new ArrayList<>();
        for (int i : members) {
            if (!grouped[i]) {
                rest.add(i);
                grouped[i] = true;
            }
        }
        if (!rest.isEmpty()) {
            phases.add(rest.stream().mapToInt(Integer::intValue).toArray());
        }
        return phases;
    }

    /** Maximal slot ranges {start, end} within [from, to) with contention >= threshold, most contended first. */
    private static List<int[]> rangesAtLeast(TimeAxis axis, int from, int to, long threshold) {
        List<int[]> ranges = new ArrayList<>();
        List<Long> peaks = new ArrayList<>();
        int s = from;
        while (s < to) {
            if (axis.contention[s] < threshold) {
                s++;
                continue;
            }
            int start = s;
            long peak = 0;
            while (s < to && axis.contention[s] >= threshold) {
                peak = Math.max(peak, axis.contention[s]);
                s++;
            }
            ranges.add(new int[] {start, s});
            peaks.add(peak);
        }
        List<Integer> order = new ArrayList<>();
        for (int r = 0; r < ranges.size(); r++) {
            order.add(r);
        }
        order.sort(Comparator.comparingLong((Integer r) -> peaks.get(r)).reversed().thenComparing(r -> r));
        List<int[]> sorted = new ArrayList<>();
        for (int r : order) {
            sorted.add(ranges.get(r));
        }
        return sorted;
    }
}
