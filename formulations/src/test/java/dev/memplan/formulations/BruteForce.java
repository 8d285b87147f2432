package dev.memplan.formulations;

import dev.memplan.model.Budgets;
import dev.memplan.model.CheckReport;
import dev.memplan.model.Graph;
import dev.memplan.model.Origin;
import dev.memplan.model.Plan;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.Schedule;
import dev.memplan.model.Segment;
import dev.memplan.model.TensorSetting;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Random;
import java.util.function.Consumer;

/**
 * An independent, exhaustive oracle for the optimum of tiny instances (tests only): the minimum
 * non-compulsory traffic (memory-model.md, "Traffic") over every valid plan of a graph at a budget, and M_P.
 * It is written from memory-model.md alone and shares nothing with the formulations it judges; every plan it
 * returns is re-checked by {@link PlanChecker}.
 *
 * <h2>The search</h2>
 *
 * A depth-first search over timesteps. The state between timestep t-1 and t is
 * <ul>
 *   <li>the set of operators already run ({@code done}; with a fixed schedule it is a prefix of it),</li>
 *   <li>every resident tensor (on chip at t-1) with its offset (a resident tensor keeps its offset until its
 *       segment ends),</li>
 *   <li>which resident tensors were touched (read or written) at t-1 ({@code droppable}, see pruning P2),</li>
 *   <li>which tensors have been loaded at least once ({@code loadedBefore}: decides whether a load is the
 *       free compulsory first load of a host tensor and whether a produced tensor's spill is already
 *       charged).</li>
 * </ul>
 * Everything the future depends on is in the state (ready operators and remaining uses follow from
 * {@code done}; a produced tensor that has been created and is not resident has necessarily ended its created
 * segment, so it has a host copy; a host tensor always has one), so the minimum cost-to-go is memoised on it,
 * which also merges the schedules that reach the same set of operators. The memo is combined with
 * branch-and-bound: {@code solve(state, bound)} returns the exact cost-to-go when it is below {@code bound},
 * otherwise a value >= bound, and the memo remembers either an exact value (with the step that attains it, to
 * rebuild the plan) or a proven lower bound.
 *
 * <p>At timestep t, for each ready operator o (only the fixed schedule's operator when one is given):
 * <ol>
 *   <li>each resident tensor is dropped when no unrun operator reads it (rule 3: no segment past the last
 *       use; this also ends a never-read output right after its producer), kept when it was not touched at
 *       t-1 (P2), and otherwise both choices are tried; a resident input of o may instead be evicted at t-1
 *       and reloaded at t at another (or the same) offset, a move through host memory (rule 1);</li>
 *   <li>every input of o not kept resident is loaded at t, every output of o is created at t;</li>
 *   <li>every new segment gets every aligned offset in [0, B - size] that does not overlap a kept resident
 *       or another new segment (rules 4 and 5). Nothing else is pruned in the placement but MIRROR
 *       (below), which concerns only the first segment of the plan.</li>
 * </ol>
 * Cost of a step: for each load of x, size(x) unless x is a host tensor loaded for the first time (that load
 * is compulsory), plus size(x) once (the spill) at the first load of a produced tensor that is not a graph
 * output (a graph output's write is compulsory).
 *
 * <h2>Pruning (each keeps the optimum)</h2>
 *
 * Both pruning rules restrict the search to <i>normal</i> plans. Claim: for every valid plan p there is a
 * valid normal plan with the same schedule and traffic <= traffic(p). Take p and
 * <ul>
 *   <li>(P1, loads only where used) delete every loaded segment that contains no use of its tensor, and
 *       delay the start of every other loaded segment to the first use it contains;</li>
 *   <li>(P2, segments end at a use) shrink the end of every segment to the last timestep it contains that is
 *       a use of the tensor or, for a created segment, its creation.</li>
 * </ul>
 * Every segment only loses timesteps it contains that are no use of its tensor (and its creation is kept),
 * so rule 2 (every use inside a segment, creation inside the created segment) still holds; rule 1 (no two
 * segments of a tensor overlap in time), rule 3 (no segment past the last use) and rule 4 (disjoint
 * addresses within [0, B) at every timestep) only concern the segments' timesteps and get easier when those
 * shrink; offsets are unchanged, so rule 5 holds; origins are unchanged, a created segment still starts at
 * its producer's timestep; and the host-copy rule (a loaded segment of a produced tensor starts after its
 * created segment ends) gets easier, because loaded segments start no earlier and the created one ends no
 * later. The traffic is a function of the number of loaded segments per tensor only (loads, first host
 * loads, and a spill per produced non-output tensor with >= 1 loaded segment); P1 removes loaded segments
 * and the rest changes no count, so the traffic does not grow. Hence the minimum over normal plans equals
 * the minimum over all plans. In a normal plan:
 * <ul>
 *   <li>a loaded segment starts at a timestep where its tensor is read, so the search loads at t only inputs
 *       of o_t (P1);</li>
 *   <li>a segment ends at a timestep that reads or creates its tensor, so a tensor resident at t-1 that was
 *       not touched at t-1 is still resident at t, in the same segment (P2). A tensor touched at t-1 may end
 *       there or continue: both are tried.</li>
 * </ul>
 * Conversely every plan the search builds is valid (each rule is enforced while building, and PlanChecker
 * re-checks the optimum), so the search is exhaustive over normal plans and exact. The other cuts:
 * <ul>
 *   <li>BYTES: a choice whose resident bytes at t exceed B is skipped (no placement can exist).</li>
 *   <li>LB: {@link Search#relaxed} is the same search with offsets ignored (only the bytes resident at each
 *       timestep held to B). Dropping the offsets maps every continuation of the exact search to one of the
 *       relaxed search with the same traffic, so its optimum is a lower bound of the exact cost-to-go. A
 *       branch is cut when cost so far + that bound reaches the best total known (branch-and-bound), which
 *       cannot lose a strictly cheaper plan; the bound also orders the choices, cheapest first.</li>
 *   <li>MIRROR: with alignment 1, reflecting every offset (off -> B - off - size) maps a valid plan to a valid
 *       plan with the same segments and traffic; one of the two puts the first segment placed at timestep 0
 *       in the lower half, 2 * off <= B - size, so only those offsets are tried for it.</li>
 *   <li>Memoisation on the state (exact: the state holds everything the future depends on).</li>
 * </ul>
 * No other symmetry reduction of offsets is made: every other segment gets every aligned offset that fits.
 * In tests against a naive search without P1, P2, LB and MIRROR (any load at any timestep, any eviction)
 * the optima agreed on every tiny instance tried.
 *
 * <p>Limits: at most 30 operators and 63 tensors (bit masks); the state space grows fast, it is meant for
 * about 6 operators, 8-15 tensors and budgets up to a few dozen bytes.
 */
final class BruteForce {

    private static final long INF = Long.MAX_VALUE / 4;

    private BruteForce() {
    }

    /** An optimum and one plan that attains it (valid, checked by {@link PlanChecker}). */
    record Optimum(long traffic, Plan plan) {
    }

    /**
     * Minimum non-compulsory traffic over all valid plans of the graph (taken in {@code setting}; a graph
     * already in its setting is unchanged) at budget {@code budget}: over every topological schedule, or only
     * {@code fixedSchedule} when it is not null, every choice of segments and every choice of offsets.
     *
     * @return the optimum and an optimal plan, or null when no plan exists (B < M_R, or alignment makes the
     *     busiest operator not fit)
     * @throws AssertionError when the optimal plan found fails PlanChecker or its checked traffic differs
     */
    static Optimum minTraffic(Graph graph, TensorSetting setting, long budget, Schedule fixedSchedule) {
        Graph g = graph.withSetting(setting);
        if (budget < Budgets.minimumRequired(g)) {
            return null;
        }
        int[] order = fixedSchedule == null ? null : fixedSchedule.resolve(g);
        Search search = new Search(g, budget, order);
        long value = search.solve(search.root(), INF);
        if (value >= INF) {
            return null;
        }
        Plan plan = search.rebuild(setting);
        CheckReport report = PlanChecker.check(g, plan);
        if (!report.valid()) {
            throw new AssertionError("BruteForce built an invalid plan for " + g + " at budget " + budget + ": "
                    + report.violations() + "\nplan: " + plan);
        }
        if (report.traffic().nonCompulsory() != value) {
            throw new AssertionError("BruteForce's optimum " + value + " differs from the checked traffic "
                    + report.traffic() + " of its plan " + plan);
        }
        return new Optimum(value, plan);
    }

    /** The optimum alone, empty when no plan exists. */
    static OptionalLong optimum(Graph graph, TensorSetting setting, long budget, Schedule fixedSchedule) {
        Optimum o = minTraffic(graph, setting, budget, fixedSchedule);
        return o == null ? OptionalLong.empty() : OptionalLong.of(o.traffic());
    }

    /** M_P: the minimum over all topological schedules of {@link Budgets#footprint}; the graph is taken as is. */
    static long minPeak(Graph graph) {
        long[] best = {graph.operatorCount() == 0 ? 0 : Long.MAX_VALUE};
        forEachTopologicalOrder(graph, order ->
                best[0] = Math.min(best[0], Budgets.footprint(graph, Schedule.of(graph, order))));
        return best[0];
    }

    /** Calls {@code action} with every topological order of the graph's operators (the array is reused). */
    static void forEachTopologicalOrder(Graph graph, Consumer<int[]> action) {
        int n = graph.operatorCount();
        enumerate(graph, new int[n], 0, new boolean[n], action);
    }

    private static void enumerate(Graph g, int[] order, int t, boolean[] done, Consumer<int[]> action) {
        if (t == order.length) {
            action.accept(order);
            return;
        }
        for (int o = 0; o < order.length; o++) {
            if (!done[o] && ready(g, o, done)) {
                done[o] = true;
                order[t] = o;
                enumerate(g, order, t + 1, done, action);
                done[o] = false;
            }
        }
    }

    private static boolean ready(Graph g, int o, boolean[] done) {
        for (int x : g.inputs(o)) {
            int p = g.producer(x);
            if (p >= 0 && !done[p]) {
                return false;
            }
        }
        return true;
    }

    /** See {@link BruteForceTest#randomTinyGraph}; here too so that every test can reach it. */
    static Graph randomTinyGraph(Random r, int operators, boolean withParameters) {
        return BruteForceTest.randomTinyGraph(r, operators, withParameters);
    }

    /** A search state; see the class comment. */
    private static final class Key {
        final int done;
        final long droppable;
        final long loadedBefore;
        /** Offset of each tensor resident at the last timestep, -1 when not resident. */
        final long[] offset;
        private final int hash;

        Key(int done, long droppable, long loadedBefore, long[] offset) {
            this.done = done;
            this.droppable = droppable;
            this.loadedBefore = loadedBefore;
            this.offset = offset;
            int h = Integer.hashCode(done);
            h = 31 * h + Long.hashCode(droppable);
            h = 31 * h + Long.hashCode(loadedBefore);
            this.hash = 31 * h + Arrays.hashCode(offset);
        }

        @Override
        public boolean equals(Object other) {
            if (!(other instanceof Key)) {
                return false;
            }
            Key k = (Key) other;
            return hash == k.hash && done == k.done && droppable == k.droppable && loadedBefore == k.loadedBefore
                    && Arrays.equals(offset, k.offset);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    /** A state of the relaxed search (LB): the state without offsets. */
    private record RKey(int done, long resident, long droppable, long loadedBefore) {
    }

    /** One timestep of a plan: the operator, the segments that start (tensor, offset, loaded?) and the next state. */
    private record Step(int op, int[] started, long[] offsets, boolean[] loaded, Key next) {
    }

    /** Memo entry: an exact cost-to-go (with the step attaining it) or a proven lower bound. */
    private static final class Entry {
        long value;
        boolean exact;
        Step step;
    }

    private static final class Search {
        private final Graph g;
        private final long budget;
        private final long align;
        private final int[] order;
        private final int n;
        private final int nt;
        private final int fullDone;
        private final int[] readers;
        private final long[] touches;
        private final Map<Key, Entry> memo = new HashMap<>();
        private final Map<RKey, Long> relaxedMemo = new HashMap<>();

        Search(Graph g, long budget, int[] order) {
            this.g = g;
            this.budget = budget;
            this.align = g.alignment();
            this.order = order;
            this.n = g.operatorCount();
            this.nt = g.tensorCount();
            if (n > 30 || nt > 63) {
                throw new IllegalArgumentException("BruteForce handles at most 30 operators and 63 tensors, got " + g);
            }
            this.fullDone = (1 << n) - 1;
            readers = new int[nt];
            for (int x = 0; x < nt; x++) {
                for (int c : g.consumers(x)) {
                    readers[x] |= 1 << c;
                }
            }
            touches = new long[n];
            for (int o = 0; o < n; o++) {
                for (int x : g.inputs(o)) {
                    touches[o] |= 1L << x;
                }
                for (int x : g.outputs(o)) {
                    touches[o] |= 1L << x;
                }
            }
        }

        Key root() {
            long[] offset = new long[nt];
            Arrays.fill(offset, -1);
            return new Key(0, 0, 0, offset);
        }

        private boolean isReady(int o, int done) {
            if ((done >> o & 1) != 0) {
                return false;
            }
            for (int x : g.inputs(o)) {
                int p = g.producer(x);
                if (p >= 0 && (done >> p & 1) == 0) {
                    return false;
                }
            }
            return true;
        }

        /** Traffic of one load of x given whether x was loaded before (memory-model.md, "Traffic"). */
        private long loadCost(int x, boolean before) {
            long size = g.size(x);
            if (g.isHost(x)) {
                return before ? size : 0;
            }
            return before || g.isGraphOutput(x) ? size : 2 * size;
        }

        /** Exact min cost-to-go when it is < bound; otherwise some value >= bound. */
        long solve(Key s, long bound) {
            if (s.done == fullDone) {
                return 0;
            }
            Entry e = memo.get(s);
            if (e != null && (e.exact || e.value >= bound)) {
                return e.value;
            }
            long lower = relaxed(s.done, residentMask(s), s.droppable, s.loadedBefore);
            if (lower >= bound) {
                return lower; // LB (see the class comment): the cost-to-go is >= bound
            }
            long[] best = {INF};
            Step[] bestStep = {null};
            if (order != null) {
                expand(s, order[Integer.bitCount(s.done)], bound, best, bestStep);
            } else {
                for (int o = 0; o < n; o++) {
                    if (isReady(o, s.done)) {
                        expand(s, o, bound, best, bestStep);
                    }
                }
            }
            if (e == null) {
                e = new Entry();
                memo.put(s, e);
            }
            if (best[0] < bound) {
                e.value = best[0];
                e.exact = true;
                e.step = bestStep[0];
                return best[0];
            }
            e.value = Math.max(e.value, bound);
            return e.value;
        }

        private static long residentMask(Key s) {
            long mask = 0;
            for (int x = 0; x < s.offset.length; x++) {
                if (s.offset[x] >= 0) {
                    mask |= 1L << x;
                }
            }
            return mask;
        }

        /**
         * One way to run operator o at the next timestep, offsets aside: the residents kept from the previous
         * timestep, the segments that start (loaded inputs and created outputs), the traffic of the step, the
         * loadedBefore mask after it and the relaxed lower bound of the whole remaining cost from here.
         */
        private record Option(long kept, int[] place, boolean[] loaded, long cost, long newLoaded, long residents,
                              long estimate) {
        }

        /**
         * Every choice of which residents to keep into the timestep of o (see the class comment), in order of
         * increasing cost + relaxed cost-to-go when {@code withEstimate}; the ones whose bytes exceed B are left
         * out (no placement exists).
         */
        private List<Option> options(int done, long resident, long droppable, long loadedBefore, int o,
                                     boolean withEstimate) {
            int notDone = fullDone & ~done;
            long forcedKeep = 0;
            List<Integer> choices = new ArrayList<>();
            for (int x = 0; x < nt; x++) {
                if ((resident >> x & 1) == 0) {
                    continue;
                }
                boolean needed = (readers[x] & notDone) != 0;
                boolean touched = (droppable >> x & 1) != 0;
                if (!needed) {
                    if (!touched) {
                        throw new AssertionError("untouched resident tensor with no later use: " + g.tensor(x));
                    }
                    continue; // rule 3: dropped
                }
                if (!touched) {
                    forcedKeep |= 1L << x; // P2
                } else {
                    choices.add(x); // keep, or end the segment (a resident input of o is then reloaded at t)
                }
            }
            int k = choices.size();
            List<Option> options = new ArrayList<>();
            for (int bits = 0; bits < (1 << k); bits++) {
                long kept = forcedKeep;
                for (int i = 0; i < k; i++) {
                    if ((bits >> i & 1) != 0) {
                        kept |= 1L << choices.get(i);
                    }
                }
                long bytes = 0;
                for (int x = 0; x < nt; x++) {
                    if ((kept >> x & 1) != 0) {
                        bytes += g.size(x);
                    }
                }
                int[] in = g.inputs(o);
                int[] out = g.outputs(o);
                int count = out.length;
                for (int x : in) {
                    if ((kept >> x & 1) == 0) {
                        count++;
                    }
                }
                int[] place = new int[count];
                boolean[] loaded = new boolean[count];
                int j = 0;
                long cost = 0;
                long newLoaded = loadedBefore;
                long residents = kept;
                for (int x : in) {
                    if ((kept >> x & 1) == 0) {
                        place[j] = x;
                        loaded[j++] = true;
                        cost += loadCost(x, (loadedBefore >> x & 1) != 0);
                        newLoaded |= 1L << x;
                        residents |= 1L << x;
                        bytes += g.size(x);
                    }
                }
                for (int x : out) {
                    place[j++] = x;
                    residents |= 1L << x;
                    bytes += g.size(x);
                }
                if (bytes > budget) {
                    continue; // total bytes alone do not fit: no placement exists
                }
                long estimate = cost;
                if (withEstimate) {
                    long rest = relaxed(done | 1 << o, residents, touches[o], newLoaded);
                    estimate = rest >= INF ? INF : cost + rest;
                }
                options.add(new Option(kept, place, loaded, cost, newLoaded, residents, estimate));
            }
            options.sort(Comparator.comparingLong(Option::estimate)
                    .thenComparingLong(opt -> -Long.bitCount(opt.kept())));
            return options;
        }

        /**
         * LB: the minimum cost-to-go of the same search with offsets ignored, only the total bytes resident
         * at each timestep being held to B. Every continuation of the exact search is one of this relaxed
         * search with the same cost (drop the offsets), so this is a lower bound of the exact cost-to-go;
         * used only to cut branches that cannot beat the best known total. INF when even the bytes cannot fit.
         */
        long relaxed(int done, long resident, long droppable, long loadedBefore) {
            if (done == fullDone) {
                return 0;
            }
            RKey key = new RKey(done, resident, droppable, loadedBefore);
            Long known = relaxedMemo.get(key);
            if (known != null) {
                return known;
            }
            long best = INF;
            for (int o = 0; o < n; o++) {
                if (order != null ? o != order[Integer.bitCount(done)] : !isReady(o, done)) {
                    continue;
                }
                for (Option opt : options(done, resident, droppable, loadedBefore, o, false)) {
                    if (opt.cost() >= best) {
                        continue;
                    }
                    long rest = relaxed(done | 1 << o, opt.residents(), touches[o], opt.newLoaded());
                    if (rest < INF) {
                        best = Math.min(best, opt.cost() + rest);
                    }
                }
            }
            relaxedMemo.put(key, best);
            return best;
        }

        /** All choices of one timestep running operator o. */
        private void expand(Key s, int o, long bound, long[] best, Step[] bestStep) {
            for (Option opt : options(s.done, residentMask(s), s.droppable, s.loadedBefore, o, true)) {
                if (opt.estimate() >= Math.min(bound, best[0])) {
                    continue; // B&B with LB: cannot beat the best known total
                }
                long[] offset = new long[nt];
                Arrays.fill(offset, -1);
                for (int x = 0; x < nt; x++) {
                    if ((opt.kept() >> x & 1) != 0) {
                        offset[x] = s.offset[x];
                    }
                }
                placeAll(s, o, opt.place(), opt.loaded(), 0, offset, opt.cost(), opt.newLoaded(), bound, best,
                        bestStep);
            }
        }

        /** Tries every aligned, non-overlapping offset for place[i..]; recurses into the next timestep. */
        private void placeAll(Key s, int o, int[] place, boolean[] loaded, int i, long[] offset,
                              long cost, long newLoaded, long bound, long[] best, Step[] bestStep) {
            if (i == place.length) {
                long limit = Math.min(bound, best[0]);
                if (cost >= limit) {
                    return;
                }
                Key child = new Key(s.done | 1 << o, touches[o], newLoaded, offset.clone());
                long v = solve(child, limit - cost);
                if (v < limit - cost) {
                    best[0] = cost + v;
                    long[] offs = new long[place.length];
                    for (int j = 0; j < place.length; j++) {
                        offs[j] = child.offset[place[j]];
                    }
                    bestStep[0] = new Step(o, place.clone(), offs, loaded.clone(), child);
                }
                return;
            }
            int x = place[i];
            long size = g.size(x);
            // MIRROR: with alignment 1, reflecting every offset (off -> B - off - size) maps valid plans to
            // valid plans of the same traffic, so the very first segment of the plan may be kept in the lower
            // half: 2 * off <= B - size.
            long last = s.done == 0 && i == 0 && align == 1 ? (budget - size) / 2 : budget - size;
            for (long off = 0; off <= last; off += align) {
                boolean free = true;
                for (int y = 0; y < nt && free; y++) {
                    if (offset[y] >= 0 && offset[y] < off + size && off < offset[y] + g.size(y)) {
                        free = false;
                    }
                }
                if (!free) {
                    continue;
                }
                offset[x] = off;
                placeAll(s, o, place, loaded, i + 1, offset, cost, newLoaded, bound, best, bestStep);
                offset[x] = -1;
                if (cost >= Math.min(bound, best[0])) {
                    return;
                }
            }
        }

        /** The plan of the optimum found by {@link #solve} from the root. */
        Plan rebuild(TensorSetting setting) {
            int[] schedule = new int[n];
            List<List<Segment>> segments = new ArrayList<>();
            for (int x = 0; x < nt; x++) {
                segments.add(new ArrayList<>());
            }
            int[] openStart = new int[nt];
            long[] openOffset = new long[nt];
            Origin[] openOrigin = new Origin[nt];
            Arrays.fill(openStart, -1);
            Key key = root();
            for (int t = 0; t < n; t++) {
                Entry e = memo.get(key);
                if (e == null || !e.exact || e.step == null) {
                    throw new AssertionError("BruteForce: no optimal step recorded at timestep " + t);
                }
                Step step = e.step;
                schedule[t] = step.op();
                boolean[] starts = new boolean[nt];
                for (int x : step.started()) {
                    starts[x] = true;
                }
                for (int x = 0; x < nt; x++) {
                    if (openStart[x] >= 0 && (step.next().offset[x] < 0 || starts[x])) {
                        segments.get(x).add(new Segment(openStart[x], t - 1, openOffset[x], openOrigin[x]));
                        openStart[x] = -1;
                    }
                }
                for (int j = 0; j < step.started().length; j++) {
                    int x = step.started()[j];
                    openStart[x] = t;
                    openOffset[x] = step.offsets()[j];
                    openOrigin[x] = step.loaded()[j] ? Origin.LOADED : Origin.CREATED;
                }
                key = step.next();
            }
            for (int x = 0; x < nt; x++) {
                if (openStart[x] >= 0) {
                    segments.get(x).add(new Segment(openStart[x], n - 1, openOffset[x], openOrigin[x]));
                }
            }
            Map<String, List<Segment>> byName = new LinkedHashMap<>();
            for (int x = 0; x < nt; x++) {
                if (!segments.get(x).isEmpty()) {
                    byName.put(g.tensor(x).name(), segments.get(x));
                }
            }
            return new Plan(g.name(), setting, budget, Schedule.of(g, schedule), byName, null, null);
        }
    }
}
