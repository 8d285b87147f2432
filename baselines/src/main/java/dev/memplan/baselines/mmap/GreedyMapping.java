package dev.memplan.baselines.mmap;

import dev.memplan.model.Limits;
import dev.memplan.model.SolveStatus;
import dev.memplan.model.mmap.Decision;
import dev.memplan.model.mmap.MappingPlanner;
import dev.memplan.model.mmap.MappingResult;
import dev.memplan.model.mmap.MmapInstance;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A greedy policy in the style of XLA's memory-space assignment (the baseline of the MMap-MuZero paper): alias
 * groups are taken in decreasing benefit per byte (the whole group's benefit over its bytes; in buckets, see
 * {@link #BUCKETS_PER_OCTAVE}), then in time order, and each buffer of a
 * group gets its fast-memory allocation as the game would give it (Appendix A): a copy that starts as late as
 * the free copy steps allow, at the lowest free offset. An input whose tensor already sits in fast memory keeps
 * it there (NoCopy) unless the gap until its use is long: it is evicted and prefetched again when keeping it would
 * hold memory more than {@link #KEEP_FACTOR} times as long as a fresh copy. A group that does not fit whole is
 * dropped. Buffers are decided in benefit order, not time order, so a NoCopy needs its source decided first.
 *
 * <p>Time O(n log n) for the order plus one first fit per buffer (the allocations live in its interval).
 */
public final class GreedyMapping implements MappingPlanner {

    public static final String NAME = "greedy";

    /** Keep a tensor in fast memory (NoCopy) while that holds it at most this many times as long as a new copy. */
    static final int KEEP_FACTOR = 2;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public MappingResult plan(MmapInstance in, Limits limits) {
        long start = System.nanoTime();
        FastMemory memory = new FastMemory(in);
        for (int key : groupsByBenefitPerByte(in)) {
            int[] group = in.aliasGroup(key);
            int placed = 0;
            for (int i : group) {
                Decision d = choose(memory, i);
                if (d == null) {
                    break;
                }
                memory.decide(i, d);
                placed++;
            }
            if (placed < group.length) {
                for (int k = 0; k < placed; k++) {
                    memory.undo();
                }
                for (int i : group) {
                    memory.decide(i, Decision.DROP);
                }
            }
        }
        Decision[] ds = new Decision[in.size()];
        for (int i = 0; i < ds.length; i++) {
            ds[i] = memory.decision(i);
        }
        return MappingResult.checked(NAME, in, new dev.memplan.model.mmap.Mapping(List.of(ds)), SolveStatus.HEURISTIC,
                -1, start, "");
    }

    private static Decision choose(FastMemory memory, int i) {
        Decision keep = memory.noCopyOption(i);
        Decision copy = memory.copyOption(i);
        if (keep != null && (copy == null || length(keep) <= KEEP_FACTOR * length(copy))) {
            return keep;
        }
        return copy != null ? copy : keep;
    }

    private static int length(Decision d) {
        return d.end() - d.start() + 1;
    }

    /**
     * Benefit per byte is compared in steps of an eighth of an octave (9%): values that differ by less, e.g. by
     * a cost model's rounding, count as equal and keep their time order, as XLA's assignment does for equal
     * priorities.
     */
    static final int BUCKETS_PER_OCTAVE = 8;

    /** The first buffer of every alias group, by decreasing benefit per byte (in buckets), then by time. */
    static List<Integer> groupsByBenefitPerByte(MmapInstance in) {
        List<Integer> keys = new ArrayList<>();
        List<Double> density = new ArrayList<>();
        for (int i = 0; i < in.size(); i++) {
            int[] group = in.aliasGroup(i);
            if (group[0] == i) {
                long benefit = 0;
                long bytes = 0;
                for (int j : group) {
                    benefit += in.buffer(j).benefit();
                    bytes += in.buffer(j).size();
                }
                keys.add(i);
                density.add(Math.floor(Math.log(benefit / (double) bytes + 1e-12) / Math.log(2) * BUCKETS_PER_OCTAVE));
            }
        }
        Integer[] order = new Integer[keys.size()];
        for (int k = 0; k < order.length; k++) {
            order[k] = k;
        }
        java.util.Arrays.sort(order, Comparator.<Integer>comparingDouble(k -> -density.get(k))
                .thenComparingInt(keys::get));
        List<Integer> sorted = new ArrayList<>(order.length);
        for (int k : order) {
            sorted.add(keys.get(k));
        }
        return sorted;
    }
}
