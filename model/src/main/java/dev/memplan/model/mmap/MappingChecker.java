package dev.memplan.model.mmap;

import dev.memplan.model.OverlapSweep;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Checks a {@link Mapping} against every rule of the two-level memory mapping problem ({@link MappingRule}:
 * MMap-MuZero paper, Section 4.1-4.2 and Appendix A) and reports each broken rule with the buffers that break it.
 * Planners' claims are never trusted: every mapping that leaves a planner passes through here.
 *
 * <p>Time O(n log n + k) for n buffers and k conflicting pairs (the address rule is the model's one
 * {@link OverlapSweep}), plus the earlier buffers of a tensor for each NoCopy.
 */
public final class MappingChecker {

    private MappingChecker() {
    }

    public static MappingReport check(MmapInstance instance, Mapping mapping) {
        List<MappingViolation> out = new ArrayList<>();
        List<Decision> ds = mapping.decisions();
        if (ds.size() != instance.size()) {
            out.add(new MappingViolation(MappingRule.COUNT, List.of(), "the mapping has " + ds.size()
                    + " decisions for " + instance.size() + " buffers"));
            return new MappingReport(out, 0);
        }
        boolean[] sane = new boolean[ds.size()];
        for (int i = 0; i < ds.size(); i++) {
            if (ds.get(i).placed()) {
                sane[i] = interval(instance, i, ds.get(i), out);
                capacity(instance, i, ds.get(i), out);
                if (sane[i] && ds.get(i).action() == Action.COPY) {
                    supply(instance, i, ds.get(i), out);
                }
            }
        }
        for (int i = 0; i < ds.size(); i++) {
            if (ds.get(i).action() == Action.NOCOPY && sane[i]) {
                noCopySource(instance, ds, sane, i, out);
            }
        }
        copyOverlap(instance, ds, sane, out);
        aliases(instance, ds, out);
        overlap(instance, ds, sane, out);
        return new MappingReport(out, mapping.reward(instance));
    }

    private static boolean interval(MmapInstance in, int i, Decision d, List<MappingViolation> out) {
        MmapBuffer b = in.buffer(i);
        String problem = null;
        if (d.start() > d.end()) {
            problem = "its interval [" + d.start() + ", " + d.end() + "] is empty";
        } else if (d.start() < b.liveFirst() || d.end() > b.liveLast()) {
            problem = "its interval [" + d.start() + ", " + d.end() + "] leaves its live range [" + b.liveFirst()
                    + ", " + b.liveLast() + "]";
        } else if (!b.output() && d.end() != b.time()) {
            problem = "an input's interval must end at its time " + b.time() + ", not " + d.end();
        } else if (b.output() && d.start() != b.time()) {
            problem = "an output's interval must start at its time " + b.time() + ", not " + d.start();
        } else if (b.output() && d.action() == Action.NOCOPY && d.end() != b.liveLast()) {
            problem = "an output placed without a copy keeps its whole live range, to " + b.liveLast()
                    + ", not " + d.end();
        }
        if (problem != null) {
            out.add(new MappingViolation(MappingRule.INTERVAL, List.of(i), "buffer " + i + ": " + problem));
        }
        return problem == null;
    }

    private static void capacity(MmapInstance in, int i, Decision d, List<MappingViolation> out) {
        long size = in.buffer(i).size();
        if (d.offset() < 0 || d.offset() > in.capacity() - size) {
            out.add(new MappingViolation(MappingRule.CAPACITY, List.of(i), "buffer " + i + " at [" + d.offset()
                    + ", " + (d.offset() + size) + ") leaves the fast memory [0, " + in.capacity() + ")"));
        }
    }

    /** The steps a copy runs over: {@code [start, time-1]} for an input, {@code [time+1, end]} for an output. */
    private static int[] copySteps(MmapBuffer b, Decision d) {
        return b.output() ? new int[] {b.time() + 1, d.end()} : new int[] {d.start(), b.time() - 1};
    }

    private static void supply(MmapInstance in, int i, Decision d, List<MappingViolation> out) {
        MmapBuffer b = in.buffer(i);
        int[] steps = copySteps(b, d);
        long got = in.supplySum(steps[0], steps[1]);
        if (got < b.demand()) {
            out.add(new MappingViolation(MappingRule.SUPPLY, List.of(i), "buffer " + i + ": its copy over steps "
                    + steps[0] + ".." + steps[1] + " gets supply " + got + " < demand " + b.demand()));
        }
    }

    private static void noCopySource(MmapInstance in, List<Decision> ds, boolean[] sane, int i,
            List<MappingViolation> out) {
        MmapBuffer b = in.buffer(i);
        Decision d = ds.get(i);
        for (int j : in.earlierOfTensor(i)) {
            Decision e = ds.get(j);
            if (!e.placed() || !sane[j]) {
                continue;
            }
            boolean extends_ = b.output() ? e.start() <= b.time()
                    : e.start() <= d.start() - 1 && d.start() - 1 <= e.end();
            if (extends_) {
                return;
            }
        }
        String need = b.output() ? "an earlier allocation of tensor " + b.tensor() + " starting by time " + b.time()
                : "an earlier allocation of tensor " + b.tensor() + " live at time " + (d.start() - 1);
        out.add(new MappingViolation(MappingRule.NOCOPY_SOURCE, List.of(i), "buffer " + i
                + " is placed without a copy but there is no " + need));
    }

    private static void copyOverlap(MmapInstance in, List<Decision> ds, boolean[] sane, List<MappingViolation> out) {
        List<int[]> copies = new ArrayList<>();
        for (int i = 0; i < ds.size(); i++) {
            if (ds.get(i).action() == Action.COPY && sane[i]) {
                int[] s = copySteps(in.buffer(i), ds.get(i));
                if (s[0] <= s[1]) {
                    copies.add(new int[] {s[0], s[1], i});
                }
            }
        }
        copies.sort(Comparator.<int[]>comparingInt(c -> c[0]).thenComparingInt(c -> c[2]));
        int[] reach = null;
        for (int[] c : copies) {
            if (reach != null && c[0] <= reach[1]) {
                out.add(new MappingViolation(MappingRule.COPY_OVERLAP, List.of(reach[2], c[2]), "the copies of buffers "
                        + reach[2] + " (steps " + reach[0] + ".." + reach[1] + ") and " + c[2] + " (steps " + c[0]
                        + ".." + c[1] + ") share step " + c[0]));
            }
            if (reach == null || c[1] > reach[1]) {
                reach = c;
            }
        }
    }

    private static void aliases(MmapInstance in, List<Decision> ds, List<MappingViolation> out) {
        for (int i = 0; i < ds.size(); i++) {
            int[] group = in.aliasGroup(i);
            if (group.length < 2 || group[0] != i) {
                continue;
            }
            List<Integer> placed = new ArrayList<>();
            List<Integer> dropped = new ArrayList<>();
            for (int j : group) {
                (ds.get(j).placed() ? placed : dropped).add(j);
            }
            int alias = in.buffer(i).alias();
            if (!placed.isEmpty() && !dropped.isEmpty()) {
                out.add(new MappingViolation(MappingRule.ALIAS_SPLIT, Arrays.stream(group).boxed().toList(),
                        "alias group " + alias + " is split: buffers " + placed + " placed, " + dropped + " dropped"));
            }
            for (int j : placed) {
                if (ds.get(j).offset() != ds.get(placed.get(0)).offset()) {
                    out.add(new MappingViolation(MappingRule.ALIAS_OFFSET, List.of(placed.get(0), j), "alias group "
                            + alias + ": buffer " + placed.get(0) + " at offset " + ds.get(placed.get(0)).offset()
                            + " but buffer " + j + " at " + ds.get(j).offset()));
                }
            }
        }
    }

    private static void overlap(MmapInstance in, List<Decision> ds, boolean[] sane, List<MappingViolation> out) {
        int[] ids = java.util.stream.IntStream.range(0, ds.size()).filter(i -> ds.get(i).placed() && sane[i]).toArray();
        long[] lower = new long[ids.length];
        long[] upper = new long[ids.length];
        long[] offset = new long[ids.length];
        long[] size = new long[ids.length];
        for (int k = 0; k < ids.length; k++) {
            Decision d = ds.get(ids[k]);
            lower[k] = d.start();
            upper[k] = d.end() + 1L;
            offset[k] = d.offset();
            size[k] = in.buffer(ids[k]).size();
        }
        OverlapSweep.findOverlaps(lower, upper, offset, size, (a, b) -> {
            int x = Math.min(ids[a], ids[b]);
            int y = Math.max(ids[a], ids[b]);
            Decision dx = ds.get(x);
            Decision dy = ds.get(y);
            out.add(new MappingViolation(MappingRule.OVERLAP, List.of(x, y), "buffers " + x + " ([" + dx.offset() + ", "
                    + (dx.offset() + in.buffer(x).size()) + ") over times " + dx.start() + ".." + dx.end() + ") and "
                    + y + " ([" + dy.offset() + ", " + (dy.offset() + in.buffer(y).size()) + ") over times "
                    + dy.start() + ".." + dy.end() + ") share addresses at time " + Math.max(dx.start(), dy.start())));
        });
    }
}
