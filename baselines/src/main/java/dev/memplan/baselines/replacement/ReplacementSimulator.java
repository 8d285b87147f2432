package dev.memplan.baselines.replacement;

import dev.memplan.model.Budgets;
import dev.memplan.model.Graph;
import dev.memplan.model.JustInTimePlanner;
import dev.memplan.model.Lifetimes;
import dev.memplan.model.Origin;
import dev.memplan.model.Schedule;
import dev.memplan.model.Segment;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs a fixed schedule through a scratchpad of {@code budget} bytes, the way a compiler's runtime planner
 * does, and records every tensor's segments (memory-model.md, "Residency: segments").
 *
 * <p>Before operator o_t runs, its inputs that are not resident are loaded and its outputs are created; each
 * needs a free gap in the current address map, chosen by the {@link AddressRule}. When no gap fits, the
 * {@link ReplacementPolicy} names victims among the residents o_t does not use; a victim's segment ends at t-1
 * (a produced tensor without a host copy is spilled then) and it is loaded again when next used. Fragmentation
 * is real: when enough bytes are free but no gap fits, more is evicted. When the policy has nothing left and
 * still no gap fits (the tensors o_t uses are scattered), the simulator compacts: every tensor o_t uses is
 * placed again from address 0 (the ones resident since before t move through host memory: they end at t-1 and
 * are loaded at t), in the order of the just-in-time plan, which fits in any budget of at least
 * {@link Budgets#minimumFeasible} (M_R without alignment). So at every such budget the simulator returns
 * segments, never "failed". After o_t, tensors at their last use leave.
 *
 * <p>Within a timestep, tensors are placed largest first. Time: O(n * r * (r + e)) for r residents and e
 * evictions per step.
 */
public final class ReplacementSimulator {
    private final ReplacementPolicy policy;
    private final AddressRule rule;

    public ReplacementSimulator(ReplacementPolicy policy, AddressRule rule) {
        this.policy = policy;
        this.rule = rule;
    }

    /** A tensor on chip: its open segment. */
    private static final class Slot {
        final int tensor;
        final long size;
        long offset;
        final int start;
        final Origin origin;
        int lastTouched;

        Slot(int tensor, long size, long offset, int start, Origin origin) {
            this.tensor = tensor;
            this.size = size;
            this.offset = offset;
            this.start = start;
            this.origin = origin;
            this.lastTouched = start;
        }

        long end() {
            return offset + size;
        }
    }

    /**
     * The segments of every tensor for {@code schedule} at {@code budget}, keyed by tensor name in graph order.
     *
     * @throws IllegalArgumentException when the budget is below {@link Budgets#minimumFeasible}
     */
    public Map<String, List<Segment>> simulate(Graph g, Schedule schedule, long budget) {
        long needed = Budgets.minimumFeasible(g);
        if (budget < needed) {
            throw new IllegalArgumentException("budget " + budget + " is below " + needed
                    + ", what the busiest operator needs (M_R = " + Budgets.minimumRequired(g) + ")");
        }
        int[] ops = schedule.resolve(g);
        Lifetimes life = Lifetimes.of(g, schedule);
        int[][] uses = useTimes(g, ops);
        Map<Integer, List<Segment>> segments = new LinkedHashMap<>();
        List<Slot> resident = new ArrayList<>();
        boolean[] hostCopy = new boolean[g.tensorCount()];
        for (int a = 0; a < g.tensorCount(); a++) {
            hostCopy[a] = g.isHost(a);
        }
        for (int t = 0; t < ops.length; t++) {
            int o = ops[t];
            List<Integer> used = new ArrayList<>();
            for (int a : g.inputs(o)) {
                used.add(a);
            }
            for (int a : g.outputs(o)) {
                used.add(a);
            }
            List<Integer> toPlace = new ArrayList<>();
            for (int a : used) {
                Slot s = find(resident, a);
                if (s == null) {
                    toPlace.add(a);
                } else {
                    s.lastTouched = t;
                }
            }
            toPlace.sort(Comparator.comparingLong((Integer a) -> g.size(a)).reversed().thenComparing(a -> a));
            for (int a : toPlace) {
                Origin origin = g.producer(a) == o ? Origin.CREATED : Origin.LOADED;
                Long offset = place(resident, g.size(a), g.alignment(), budget);
                while (offset == null) {
                    List<Integer> victims = policy.victims(event(g, t, a, budget, resident, used, uses, hostCopy));
                    if (victims.isEmpty()) {
                        break;
                    }
                    for (int v : victims) {
                        Slot s = find(resident, v);
                        if (s == null || used.contains(v)) {
                            throw new IllegalStateException("bug: policy " + policy.name() + " chose '"
                                    + g.tensor(v).name() + "', which is not evictable at " + t);
                        }
                        close(segments, resident, s, t - 1);
                        hostCopy[v] = true;
                    }
                    offset = place(resident, g.size(a), g.alignment(), budget);
                }
                if (offset == null) {
                    compact(g, t, o, resident, segments, hostCopy);
                    break;
                }
                resident.add(new Slot(a, g.size(a), offset, t, origin));
            }
            for (int i = resident.size() - 1; i >= 0; i--) {
                Slot s = resident.get(i);
                if (life.last(s.tensor) <= t) {
                    close(segments, resident, s, t);
                }
            }
        }
        Map<String, List<Segment>> named = new LinkedHashMap<>();
        for (int a = 0; a < g.tensorCount(); a++) {
            List<Segment> list = segments.get(a);
            if (list != null) {
                named.put(g.tensor(a).name(), list);
            }
        }
        return named;
    }

    /** Every tensor o_t uses goes to [0, ...) in the just-in-time order; the others have been evicted. */
    private void compact(Graph g, int t, int o, List<Slot> resident,
                         Map<Integer, List<Segment>> segments, boolean[] hostCopy) {
        for (int i = resident.size() - 1; i >= 0; i--) {
            Slot s = resident.get(i);
            if (s.start == t) {
                resident.remove(i);
            } else {
                close(segments, resident, s, t - 1);
                hostCopy[s.tensor] = true;
            }
        }
        for (Map.Entry<Integer, Long> e : JustInTimePlanner.packedFromZero(g, o).entrySet()) {
            int a = e.getKey();
            Origin origin = g.producer(a) == o ? Origin.CREATED : Origin.LOADED;
            resident.add(new Slot(a, g.size(a), e.getValue(), t, origin));
        }
    }

    private ReplacementEvent event(Graph g, int t, int tensor, long budget, List<Slot> resident, List<Integer> used,
                                   int[][] uses, boolean[] hostCopy) {
        List<Resident> view = new ArrayList<>();
        for (Slot s : resident) {
            boolean evictable = !used.contains(s.tensor);
            boolean spill = !hostCopy[s.tensor] && !g.isGraphOutput(s.tensor);
            view.add(new Resident(s.tensor, s.offset, s.size, evictable, nextUse(uses[s.tensor], t), s.lastTouched, spill));
        }
        view.sort(Comparator.comparingLong(Resident::offset));
        return new ReplacementEvent(t, g.size(tensor), g.alignment(), budget, view, rule != AddressRule.BYTES);
    }

    private static void close(Map<Integer, List<Segment>> segments, List<Slot> resident, Slot s, int end) {
        segments.computeIfAbsent(s.tensor, k -> new ArrayList<>()).add(new Segment(s.start, end, s.offset, s.origin));
        resident.remove(s);
    }

    /** The address the rule picks among the free gaps, or null when none fits below the budget. */
    private Long place(List<Slot> resident, long size, long alignment, long budget) {
        if (rule == AddressRule.BYTES) {
            long used = Budgets.roundUp(size, alignment);
            for (Slot s : resident) {
                used += Budgets.roundUp(s.size, alignment);
            }
            return used <= budget ? 0L : null;
        }
        List<Slot> byOffset = new ArrayList<>(resident);
        byOffset.sort(Comparator.comparingLong(s -> s.offset));
        long cursor = 0;
        Long best = null;
        long bestGap = Long.MAX_VALUE;
        for (int i = 0; i <= byOffset.size(); i++) {
            long limit = i < byOffset.size() ? byOffset.get(i).offset : budget;
            long start = Budgets.roundUp(cursor, alignment);
            if (start + size <= limit) {
                if (rule == AddressRule.FIRST_FIT) {
                    return start;
                }
                long gap = limit - start;
                if (gap < bestGap) {
                    bestGap = gap;
                    best = start;
                }
            }
            if (i < byOffset.size()) {
                cursor = Math.max(cursor, byOffset.get(i).end());
            }
        }
        return best;
    }

    private static Slot find(List<Slot> resident, int tensor) {
        for (Slot s : resident) {
            if (s.tensor == tensor) {
                return s;
            }
        }
        return null;
    }

    /** For each tensor, the sorted timesteps of the operators that read it. */
    private static int[][] useTimes(Graph g, int[] ops) {
        List<List<Integer>> lists = new ArrayList<>();
        for (int a = 0; a < g.tensorCount(); a++) {
            lists.add(new ArrayList<>());
        }
        for (int t = 0; t < ops.length; t++) {
            for (int a : g.inputs(ops[t])) {
                lists.get(a).add(t);
            }
        }
        int[][] uses = new int[g.tensorCount()][];
        for (int a = 0; a < uses.length; a++) {
            uses[a] = lists.get(a).stream().mapToInt(Integer::intValue).toArray();
        }
        return uses;
    }

    private static int nextUse(int[] times, int t) {
        for (int x : times) {
            if (x > t) {
                return x;
            }
        }
        return Integer.MAX_VALUE;
    }
}
