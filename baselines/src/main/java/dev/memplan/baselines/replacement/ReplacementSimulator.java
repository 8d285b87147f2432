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
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

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
 * <p>With a {@link Recomputation} other than {@link Recomputation#NONE}, tensors may also be <em>dropped</em>:
 * evicted without a host copy (a checkpointing scheme's activations after their last forward read, DTR's victims
 * when rerunning is cheaper than the spill, and any recomputed copy, which cannot be written to host memory). When
 * an operator reads a dropped tensor, the simulator first reruns its producer, recursively rerunning the producers
 * of that run's dropped inputs, each run placed like an operator (its outputs {@code recomputed}, its other
 * inputs loaded; an input made again for a run stays on chip until that run, and where that leaves no room for the
 * rest of a chain the whole simulation runs again with each such input ended after it is made and made again when
 * lost); the result's schedule then has those runs (memory-model.md, "Recomputation"). The clock of the
 * segments is the run's; the policies see the given schedule's timesteps. Without recomputation the runs are the
 * schedule and nothing differs.
 *
 * <p>Within a timestep, tensors are placed largest first. Time: O(n * r * (r + e)) for r residents and e
 * evictions per step.
 */
public final class ReplacementSimulator {
    private final ReplacementPolicy policy;
    private final AddressRule rule;
    private final Recomputation recompute;

    public ReplacementSimulator(ReplacementPolicy policy, AddressRule rule) {
        this(policy, rule, Recomputation.NONE);
    }

    public ReplacementSimulator(ReplacementPolicy policy, AddressRule rule, Recomputation recompute) {
        this.policy = policy;
        this.rule = rule;
        this.recompute = recompute;
    }

    /** The runs (the given schedule with the reruns inserted) and every tensor's segments, keyed by name. */
    public record Simulation(Schedule runs, Map<String, List<Segment>> segments) {
    }

    /** A tensor on chip: its open segment. */
    private static final class Slot {
        final int tensor;
        final long size;
        final long offset;
        final int start;
        final Origin origin;
        int lastTouched;

        Slot(int tensor, long size, long offset, int start, Origin origin, int touched) {
            this.tensor = tensor;
            this.size = size;
            this.offset = offset;
            this.start = start;
            this.origin = origin;
            this.lastTouched = touched;
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
        return run(g, schedule, budget).segments();
    }

    /**
     * The runs and segments for {@code schedule} (a permutation of the operators) at {@code budget}.
     *
     * @throws IllegalArgumentException when the budget is below {@link Budgets#minimumFeasible}
     * @throws PackingFailedException when recomputing, if a step needs more than {@link #RERUNS_PER_STEP} x n reruns
     *     to bring its inputs back (a recomputed copy that finds no room is moved through host memory in the last
     *     try, so room itself never fails)
     */
    public Simulation run(Graph g, Schedule schedule, long budget) {
        long needed = Budgets.minimumFeasible(g);
        if (budget < needed) {
            throw new IllegalArgumentException("budget " + budget + " is below " + needed
                    + ", what the busiest operator needs (M_R = " + Budgets.minimumRequired(g) + ")");
        }
        int[] ops = schedule.resolve(g);
        State st;
        try {
            st = simulate(g, ops, budget, true, false);
        } catch (PackingFailedException e) {
            if (recompute.kind() == Recomputation.Kind.NONE) {
                throw e;
            }
            // Holding a rerun's inputs for it can leave no room for the rest of its chain (deeplabv3_resnet50:train
            // at M_R, checkpoint-sqrt): then as before, each input ended after its rerun and made again if lost.
            try {
                st = simulate(g, ops, budget, false, false);
            } catch (PackingFailedException again) {
                // A recomputed copy the run needs may not fit beside the reruns that make its other inputs (an
                // operator reading two dropped tensors at M_R): then a recomputed copy moves through host memory
                // like any other (State#spillCopies), which always leaves room for one operator's tensors.
                st = simulate(g, ops, budget, true, true);
            }
        }
        Map<String, List<Segment>> named = new LinkedHashMap<>();
        for (int a = 0; a < g.tensorCount(); a++) {
            List<Segment> list = st.segments.get(a);
            if (list != null) {
                named.put(g.tensor(a).name(), list);
            }
        }
        int[] runs = st.runs.stream().mapToInt(Integer::intValue).toArray();
        return new Simulation(Schedule.of(g, runs), named);
    }

    /** The simulation of {@code ops}; {@code holdMade}, {@code spillCopies}: see {@link State}. */
    private State simulate(Graph g, int[] ops, long budget, boolean holdMade, boolean spillCopies) {
        State st = new State(g, ops, budget, holdMade, spillCopies);
        for (int t = 0; t < ops.length; t++) {
            st.step(t);
        }
        return st;
    }

    /** One simulation: the residents, the segments so far and the run clock. */
    private final class State {
        final Graph g;
        final int[] ops;
        final long budget;
        final Lifetimes life;
        final long[][] uses;
        final int[] drop;
        final Map<Integer, List<Segment>> segments = new LinkedHashMap<>();
        final List<Slot> resident = new ArrayList<>();
        /**
         * The same slots by offset, ties in the order they came on chip: what sorting {@code resident} stably by
         * offset gives, kept as slots come and go instead of sorted at every placement (that sort took half of
         * Belady's time on gen:layered:5000:train).
         */
        final List<Slot> byOffset = new ArrayList<>();
        /** Each tensor's slot while it is on chip, else null: a tensor is on chip at most once. */
        final Slot[] onChip;
        /**
         * Per tensor, how many of its reads ({@code uses}) are at or before the last step asked about: the steps
         * only move forward, so the next read is found by moving this on, not by a search at every view.
         */
        final int[] readsPast;
        final boolean[] hostCopy;
        /** The tensors of the step being placed, marked while {@link #event} reads them (a set's lookups were slow). */
        final boolean[] inUse;
        final List<Integer> runs = new ArrayList<>();
        /** The timestep of the next run. */
        int now;
        /**
         * After a restart, the inputs of the operator whose recomputed copies are stacked from the top of the
         * scratchpad down, so that the rest of its tensors find one gap below them.
         */
        Set<Integer> stackTop = Set.of();
        /** Reruns in the current step. */
        int reruns;
        /**
         * Whether an input made again for a rerun is held on chip until that rerun runs. Without, it is ended right
         * after it is made when nothing later reads it (its last read was in the forward pass), and made again.
         */
        final boolean holdMade;
        /**
         * Whether a recomputed copy that is evicted keeps a host copy, to be loaded again rather than made again.
         * The contract allows it: a produced tensor has a host copy once its created segment has ended (the spill,
         * charged once whenever it is loaded later), and every recomputed segment starts after that end. Without,
         * an evicted recomputed copy is lost and only a rerun brings it back.
         */
        final boolean spillCopies;

        State(Graph g, int[] ops, long budget, boolean holdMade, boolean spillCopies) {
            this.holdMade = holdMade;
            this.spillCopies = spillCopies;
            this.g = g;
            this.ops = ops;
            this.budget = budget;
            life = Lifetimes.of(g, Schedule.of(g, ops));
            uses = useTimes(g, ops);
            drop = recompute.dropTimes(g, ops);
            hostCopy = new boolean[g.tensorCount()];
            onChip = new Slot[g.tensorCount()];
            readsPast = new int[g.tensorCount()];
            inUse = new boolean[g.tensorCount()];
            for (int a = 0; a < g.tensorCount(); a++) {
                hostCopy[a] = g.isHost(a);
            }
        }

        void step(int t) {
            int o = ops[t];
            reruns = 0;
            for (int attempt = 0; ; attempt++) {
                try {
                    if (recompute.kind() != Recomputation.Kind.NONE) {
                        rematerialize(o, t);
                    }
                    Set<Integer> used = new HashSet<>();
                    List<Integer> toPlace = new ArrayList<>();
                    for (int a : g.inputs(o)) {
                        touch(a, t, used, toPlace);
                    }
                    for (int a : g.outputs(o)) {
                        touch(a, t, used, toPlace);
                    }
                    place(o, t, used, toPlace, false);
                    break;
                } catch (Restart r) {
                    stackTop = new HashSet<>();
                    for (int a : g.inputs(o)) {
                        stackTop.add(a);
                    }
                    if (attempt == RESTARTS) {
                        throw new PackingFailedException("operator '" + g.operator(o).name() + "' still finds no"
                                + " room after " + RESTARTS + " restarts with an empty scratchpad: " + r.why);
                    }
                }
            }
            stackTop = Set.of();
            runs.add(o);
            for (int i = resident.size() - 1; i >= 0; i--) {
                Slot s = resident.get(i);
                if (life.last(s.tensor) <= t || drop[s.tensor] == t) {
                    close(s, now);
                }
            }
            now++;
        }

        /** Not on chip and without a host copy: only a rerun of its producer brings it back. */
        boolean lost(int a) {
            return onChip[a] == null && !hostCopy[a];
        }

        /**
         * Brings o's lost inputs back: for each, reruns its producer, first bringing back that run's own lost
         * inputs the same way (DTR's recursive rematerialization). What is back stays locked on chip until the
         * run that reads it; what a nested run evicts is brought back again, a bounded number of times.
         */
        void rematerialize(int o, int t) {
            Set<Integer> locked = new HashSet<>();
            for (int a : g.inputs(o)) {
                locked.add(a);
            }
            inputsBack(o, t, locked);
        }

        private void inputsBack(int p, int t, Set<Integer> locked) {
            Set<Integer> inner = new HashSet<>(locked);
            boolean any = true;
            while (any) {
                any = false;
                for (int b : g.inputs(p)) {
                    if (lost(b)) {
                        if (++reruns > RERUNS_PER_STEP * (g.operatorCount() + 1)) {
                            throw new PackingFailedException("operator '" + g.operator(ops[t]).name() + "' needs"
                                    + " more than " + RERUNS_PER_STEP + " x n reruns to bring its inputs back");
                        }
                        if (holdMade) {
                            // b is protected from its own rerun on: made for this run, it stays until it runs.
                            inner.add(b);
                        }
                        inputsBack(g.producer(b), t, inner);
                        rerun(g.producer(b), t, inner);
                        any = true;
                    }
                    inner.add(b);
                }
            }
        }

        /** Runs operator p again before the read at {@code t}; its inputs are on chip or have a host copy. */
        void rerun(int p, int t, Set<Integer> protect) {
            for (int a : g.outputs(p)) {
                Slot s = onChip[a];
                if (s != null) {
                    close(s, now - 1);
                }
            }
            Set<Integer> used = new HashSet<>(protect);
            List<Integer> toPlace = new ArrayList<>();
            for (int b : g.inputs(p)) {
                touch(b, t, used, toPlace);
            }
            for (int a : g.outputs(p)) {
                touch(a, t, used, toPlace);
            }
            place(p, t, used, toPlace, true);
            runs.add(p);
            for (int i = resident.size() - 1; i >= 0; i--) {
                Slot s = resident.get(i);
                if (life.last(s.tensor) < t && !protect.contains(s.tensor)) {
                    close(s, now);
                }
            }
            now++;
        }

        private void touch(int a, int t, Set<Integer> used, List<Integer> toPlace) {
            if (!used.add(a) && toPlace.contains(a)) {
                return;
            }
            Slot s = onChip[a];
            if (s == null) {
                if (!toPlace.contains(a)) {
                    toPlace.add(a);
                }
            } else {
                s.lastTouched = t;
            }
        }

        /** Places the tensors run {@code o} needs, evicting, dropping or compacting as needed. */
        private void place(int o, int t, Set<Integer> used, List<Integer> toPlace, boolean again) {
            toPlace.sort(Comparator.comparingLong((Integer a) -> g.size(a)).reversed().thenComparing(a -> a));
            for (int a : toPlace) {
                Origin origin = g.producer(a) != o ? Origin.LOADED : again ? Origin.RECOMPUTED : Origin.CREATED;
                boolean high = again && stackTop.contains(a);
                Long offset = high ? placeHigh(g.size(a)) : ReplacementSimulator.this.place(byOffset, g.size(a),
                        g.alignment(), budget);
                // The residents as the policy sees them, made once per tensor placed: an eviction changes only
                // the victims' entries (a DTR drop makes them again).
                List<Resident> view = null;
                while (offset == null) {
                    Slot cheap = recompute.kind() == Recomputation.Kind.DTR ? cheapDrop(t, used) : null;
                    if (cheap != null) {
                        close(cheap, now - 1);
                        view = null;
                    } else {
                        view = view == null ? residents(t, used) : view;
                        List<Integer> victims = policy.victims(new ReplacementEvent(t, g.size(a), g.alignment(),
                                budget, view, rule != AddressRule.BYTES));
                        if (victims.isEmpty()) {
                            break;
                        }
                        for (int v : victims) {
                            Slot s = onChip[v];
                            if (s == null || used.contains(v)) {
                                throw new IllegalStateException("bug: policy " + policy.name() + " chose '"
                                        + g.tensor(v).name() + "', which is not evictable at " + t);
                            }
                            // The view lists the residents as byOffset does: s's entry is at s's index there.
                            view.remove(indexOf(s));
                            evict(s);
                        }
                    }
                    offset = high ? placeHigh(g.size(a)) : ReplacementSimulator.this.place(byOffset, g.size(a),
                            g.alignment(), budget);
                }
                if (offset == null) {
                    compact(o, t, again, used);
                    break;
                }
                admit(new Slot(a, g.size(a), offset, now, origin, t));
            }
        }

        private void admit(Slot s) {
            resident.add(s);
            onChip[s.tensor] = s;
            byOffset.add(position(s.offset, true), s);
        }

        private void discard(Slot s) {
            resident.remove(s);
            onChip[s.tensor] = null;
            byOffset.remove(indexOf(s));
        }

        /** The index of resident {@code s} in {@code byOffset}. */
        private int indexOf(Slot s) {
            int i = position(s.offset, false);
            while (byOffset.get(i) != s) {
                i++;
            }
            return i;
        }

        /** The first position in {@code byOffset} above {@code offset} ({@code after}), else not below it. */
        private int position(long offset, boolean after) {
            int lo = 0;
            int hi = byOffset.size();
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                long at = byOffset.get(mid).offset;
                if (at < offset || after && at == offset) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            return lo;
        }

        /** The highest aligned address where {@code size} bytes fit below the budget, or null. */
        private Long placeHigh(long size) {
            long cursor = 0;
            Long best = null;
            for (int i = 0; i <= byOffset.size(); i++) {
                long limit = i < byOffset.size() ? byOffset.get(i).offset : budget;
                long start = (limit - size) / g.alignment() * g.alignment();
                if (limit - size >= 0 && start >= cursor) {
                    best = start;
                }
                if (i < byOffset.size()) {
                    cursor = Math.max(cursor, byOffset.get(i).end());
                }
            }
            return best;
        }

        /**
         * Ends s before the current run; it keeps or gets a host copy unless it is a recomputed copy (which keeps one
         * too with {@link #spillCopies}).
         */
        private void evict(Slot s) {
            close(s, now - 1);
            if (s.origin != Origin.RECOMPUTED || spillCopies) {
                hostCopy[s.tensor] = true;
            }
        }

        /**
         * DTR's victim: the evictable droppable resident of least recompute cost / (size x staleness), if lambda x
         * its cost is below the bytes spilling it would move (a recomputed copy cannot be spilled, so it is always
         * dropped); else null. Droppable: produced, no host copy, not a graph output, and every input of its
         * producer is a host tensor or has a host copy, so that its rerun only loads (a rerun never waits for
         * another rerun, and one operator's tensors always fit in M_R). The recompute cost is then the producer's
         * cost alone: DTR's h_DTR-eq heuristic (equivalence classes of one tensor).
         */
        private Slot cheapDrop(int t, Set<Integer> used) {
            Slot best = null;
            double bestScore = Double.POSITIVE_INFINITY;
            for (Slot s : resident) {
                int a = s.tensor;
                if (used.contains(a) || hostCopy[a] || g.isHost(a) || g.isGraphOutput(a) || !loadsOnly(a)) {
                    continue;
                }
                double score = g.cost(g.producer(a)) / ((double) s.size * (t - s.lastTouched + 1));
                if (score < bestScore) {
                    best = s;
                    bestScore = score;
                }
            }
            if (best == null) {
                return null;
            }
            boolean spillable = best.origin != Origin.RECOMPUTED || spillCopies;
            return !spillable || recompute.lambda() * g.cost(g.producer(best.tensor)) < 2.0 * best.size ? best : null;
        }

        /** Whether every input of a's producer is a host tensor or has a host copy. */
        private boolean loadsOnly(int a) {
            for (int b : g.inputs(g.producer(a))) {
                if (!hostCopy[b]) {
                    return false;
                }
            }
            return true;
        }

        /**
         * Every tensor run o uses goes to [0, ...) in the just-in-time order; the others have been evicted (a
         * recomputed copy that a pending run reads is dropped: that run's caller brings it back). A recomputed copy
         * that o reads cannot move through host memory (unless {@link #spillCopies}): then everything on chip is
         * evicted and the step starts again ({@link Restart}), rerunning what it needs into the empty scratchpad.
         */
        private void compact(int o, int t, boolean again, Set<Integer> used) {
            boolean stuck = false;
            for (Slot s : resident) {
                stuck |= !spillCopies && s.start != now && s.origin == Origin.RECOMPUTED && !hostCopy[s.tensor]
                        && reads(o, s.tensor);
            }
            for (int i = resident.size() - 1; i >= 0; i--) {
                Slot s = resident.get(i);
                if (s.start == now) {
                    discard(s);
                } else {
                    evict(s);
                }
            }
            if (stuck) {
                throw new Restart("run " + now + " of '" + g.operator(o).name() + "' needs a recomputed copy, and"
                        + " its tensors do not fit where they are");
            }
            for (Map.Entry<Integer, Long> e : JustInTimePlanner.packedFromZero(g, o).entrySet()) {
                int a = e.getKey();
                Origin origin = g.producer(a) != o ? Origin.LOADED : again ? Origin.RECOMPUTED : Origin.CREATED;
                admit(new Slot(a, g.size(a), e.getValue(), now, origin, t));
            }
        }

        private boolean reads(int o, int a) {
            for (int b : g.inputs(o)) {
                if (b == a) {
                    return true;
                }
            }
            return false;
        }

        /** The residents in address order as a policy sees them at step {@code t} ({@code used}: not evictable). */
        private List<Resident> residents(int t, Set<Integer> used) {
            List<Resident> view = new ArrayList<>(byOffset.size());
            for (int a : used) {
                inUse[a] = true;
            }
            for (Slot s : byOffset) {
                boolean evictable = !inUse[s.tensor];
                boolean spill = !hostCopy[s.tensor] && !g.isGraphOutput(s.tensor)
                        && (s.origin != Origin.RECOMPUTED || spillCopies);
                view.add(new Resident(s.tensor, s.offset, s.size, evictable, nextUse(s.tensor, t),
                        s.lastTouched, spill));
            }
            for (int a : used) {
                inUse[a] = false;
            }
            return view;
        }

        /** The first read of tensor a after step t, or {@link Integer#MAX_VALUE}; t never falls between calls. */
        private int nextUse(int a, int t) {
            long[] times = uses[a];
            int i = readsPast[a];
            while (i < times.length && times[i] <= t) {
                i++;
            }
            readsPast[a] = i;
            return i < times.length ? (int) times[i] : Integer.MAX_VALUE;
        }

        private void close(Slot s, int end) {
            segments.computeIfAbsent(s.tensor, k -> new ArrayList<>())
                    .add(new Segment(s.start, end, s.offset, s.origin));
            discard(s);
        }
    }

    /** How often a step starts again with an empty scratchpad before the simulator gives up. */
    private static final int RESTARTS = 3;
    /** A step gives up after this many reruns per operator of the graph. */
    private static final int RERUNS_PER_STEP = 4;

    /** The step must start again: a recomputed copy it needs cannot be moved by compaction. */
    private static final class Restart extends RuntimeException {
        final String why;

        Restart(String why) {
            super(why, null, false, false);
            this.why = why;
        }
    }

    /** The address the rule picks among the free gaps, or null when none fits below the budget. */
    private Long place(List<Slot> byOffset, long size, long alignment, long budget) {
        if (rule == AddressRule.BYTES) {
            long used = Budgets.roundUp(size, alignment);
            for (Slot s : byOffset) {
                used += Budgets.roundUp(s.size, alignment);
            }
            return used <= budget ? 0L : null;
        }
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

    /** For each tensor, the sorted timesteps of the operators that read it. */
    private static long[][] useTimes(Graph g, int[] ops) {
        int[] count = new int[g.tensorCount()];
        for (int o : ops) {
            for (int a : g.inputs(o)) {
                count[a]++;
            }
        }
        long[][] uses = new long[g.tensorCount()][];
        for (int a = 0; a < uses.length; a++) {
            uses[a] = new long[count[a]];
            count[a] = 0;
        }
        for (int t = 0; t < ops.length; t++) {
            for (int a : g.inputs(ops[t])) {
                uses[a][count[a]++] = t;
            }
        }
        return uses;
    }
}
