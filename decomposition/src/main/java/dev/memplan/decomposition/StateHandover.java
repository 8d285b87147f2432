package dev.memplan.decomposition;

import dev.memplan.model.Budget;
import dev.memplan.model.Graph;
import dev.memplan.model.Origin;
import dev.memplan.model.Plan;
import dev.memplan.model.Segment;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Hands the on-chip state over across cuts instead of spilling it: wherever a tensor leaves the chip and is
 * loaded again later (in the spill-at-cut form every tensor crossing a cut does), the two segments become one
 * when the address range of either stays free in between, so the tensor stays resident at that offset. Each
 * merge saves the load, and the spill when it was the tensor's last reload. The schedule and every other
 * segment stay as they are, so the plan stays valid (the merged segment overlaps nothing, holds every read the
 * two held, and ends at the later one's end, no later than the last use); traffic never rises.
 *
 * <p>Greedy, largest tensors first; a merged segment may merge again with the next one. Occupancy is kept per
 * timestep: a merge across g timesteps with k segments live at each costs O(g k) (a minute in all on the 13,423
 * operators of gen:layered:5000:train, whose default scheme spills across thousands of timesteps). It stops when
 * the run's wall clock is over, with the merges made so far (each leaves a valid plan): a time limit holds, and in
 * work mode only the wall guard stops it (no work is counted here, so a work-limited result never depends on it).
 */
final class StateHandover {

    private StateHandover() {
    }

    /**
     * The plan with every affordable reload turned into staying resident, or as many as {@code clock}'s wall time
     * allowed (null: no clock).
     */
    static Plan apply(Graph g, Plan plan, Budget clock) {
        int n = plan.schedule().length();
        List<List<long[]>> live = new ArrayList<>(n);
        for (int t = 0; t < n; t++) {
            live.add(new ArrayList<>());
        }
        Map<String, List<Segment>> segments = new LinkedHashMap<>();
        plan.segments().forEach((tensor, list) -> {
            int x = g.tensorIndex(tensor);
            segments.put(tensor, new ArrayList<>(list));
            for (Segment s : list) {
                occupy(live, s, g.size(x), x);
            }
        });
        List<String> bySize = new ArrayList<>(segments.keySet());
        bySize.sort(Comparator.comparingLong((String name) -> g.size(g.tensorIndex(name))).reversed());
        for (String tensor : bySize) {
            if (clock != null && clock.wallOver()) {
                break;
            }
            int x = g.tensorIndex(tensor);
            long size = g.size(x);
            List<Segment> list = segments.get(tensor);
            int i = 0;
            while (i + 1 < list.size()) {
                Segment first = list.get(i);
                Segment next = list.get(i + 1);
                Segment merged = null;
                if (next.origin() == Origin.LOADED) {
                    if (free(live, first.offset(), size, first.end() + 1, next.end(), x)) {
                        merged = new Segment(first.start(), next.end(), first.offset(), first.origin());
                    } else if (free(live, next.offset(), size, first.start(), next.start() - 1, x)) {
                        merged = new Segment(first.start(), next.end(), next.offset(), first.origin());
                    }
                }
                if (merged == null) {
                    i++;
                    if (clock != null && clock.wallOver()) {
                        break;
                    }
                    continue;
                }
                release(live, first, x);
                release(live, next, x);
                occupy(live, merged, size, x);
                list.set(i, merged);
                list.remove(i + 1);
            }
        }
        return plan.withSegments(segments);
    }

    private static void occupy(List<List<long[]>> live, Segment s, long size, int tensor) {
        for (int t = s.start(); t <= s.end(); t++) {
            live.get(t).add(new long[] {s.offset(), s.offset() + size, tensor});
        }
    }

    private static void release(List<List<long[]>> live, Segment s, int tensor) {
        for (int t = s.start(); t <= s.end(); t++) {
            live.get(t).removeIf(e -> e[2] == tensor && e[0] == s.offset());
        }
    }

    /** Whether [offset, offset + size) is used by no other tensor at any timestep in [from, to]. */
    private static boolean free(List<List<long[]>> live, long offset, long size, int from, int to, int tensor) {
        long end = offset + size;
        for (int t = from; t <= to; t++) {
            for (long[] e : live.get(t)) {
                if (e[2] != tensor && e[0] < end && offset < e[1]) {
                    return false;
                }
            }
        }
        return true;
    }
}
