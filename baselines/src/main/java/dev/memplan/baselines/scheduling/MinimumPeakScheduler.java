package dev.memplan.baselines.scheduling;

import dev.memplan.formulations.cosma.MinimumPeak;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.model.Budgets;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Operator;
import dev.memplan.model.Tensor;
import dev.memplan.model.Schedule;
import dev.memplan.model.SolveStatus;
import dev.memplan.model.TensorSetting;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The minimum-peak-footprint order (the paper's MPMF schedule): the schedule whose no-spill peak footprint
 * ({@code Budgets.footprint}) is least.
 *
 * <p>Method: dynamic programming over the sets of finished operators (the down-sets of the DAG), as in
 * Serenity (Ahn et al., MLSys 2020): the tensors live after a down-set S do not depend on the order that
 * reached it, so best(S + o) = min over S of max(best(S), footprint of running o after S). The DP runs layer by
 * layer (|S| = 0, 1, ..., n) and keeps at most a beam width of states per layer, the ones with the lowest peak
 * and then the fewest live bytes. When no layer had to be cut, the result is the proven minimum (OPTIMAL).
 * Otherwise it is a beam search (a greedy with look-ahead) and, when the graph is small enough and the width is
 * not pinned, the minimum-peak program (COSMA eq. 13-15, {@link MinimumPeak}) gets the remaining time to improve
 * or prove it; the result is HEURISTIC unless proven, with the best lower bound known (at least M_R). Time:
 * O(n * beam * width * degree) for the DP.
 *
 * <p>Reproducibility: a beam search at a fixed width is a deterministic function of the graph. Without a time
 * limit the scheduler runs its top width (default {@link #DEFAULT_BEAM}, capped by {@link #memoryBeam}). With a
 * time limit it climbs a ladder of fixed widths (1, 4, 16, 64, 256, 1024, then the top), starting a rung only
 * when its predicted time fits and abandoning one that passes the deadline; the result is the widest rung that
 * completed, or the first whose peak is proven minimal (no layer cut, or unpinned at M_R), and the method names
 * it ("beam 256"), so that {@link #pinned} with that width gives the same order on any machine. A pinned
 * scheduler never runs the program (its time-limited answer depends on the machine).
 */
public final class MinimumPeakScheduler implements Scheduler {
    /** Above this many operators the program is not tried (its model grows with n squared). */
    static final int PROGRAM_OPERATOR_LIMIT = 120;
    /** Heap for the beam's trails (the orders that reached each kept state). */
    static final long TRAIL_BYTES = 256L << 20;
    /** States per layer of the pruned DP that proves a beam's peak minimal; past it the DP gives its bound. */
    static final int PROOF_STATE_CAP = 200_000;
    /**
     * States the pruned DP may expand in all: a count, not a clock, so that where it stops does not depend on the
     * machine (its times: BENCHMARKS.md, "M_P proven on the NAS networks").
     */
    static final long PROOF_EXPANSIONS = 5_000_000L;
    /** The ladder's rungs below the top width, narrowest first. */
    static final int[] LADDER = {1, 4, 16, 64, 256, 1024};
    /** A rung is started only when this many times the previous rung's time, scaled by the widths, fits. */
    private static final double RUNG_MARGIN = 1.25;

    private final Map<Key, ScheduleResult> memo = new HashMap<>();

    /** A graph's content (its records compare by value). */
    private record Key(String name, long alignment, List<Tensor> tensors, List<Operator> operators,
                       List<String> outputs) {
    }
    private final int beamWidth;
    private final Backend backend;
    private final boolean pinned;
    /** Whether a cut beam's peak goes to the pruned DP for a bound (not when only the order is wanted). */
    private final boolean proves;

    /** States kept per layer by default. */
    public static final int DEFAULT_BEAM = 4096;

    /** Beam width {@link #DEFAULT_BEAM} and CP-SAT for the program. */
    public MinimumPeakScheduler() {
        this(DEFAULT_BEAM, Backend.CPSAT);
    }

    /** Top width {@code beamWidth}; with a time limit the widest ladder rung that finishes. */
    public MinimumPeakScheduler(int beamWidth, Backend backend) {
        this(beamWidth, backend, false, true);
    }

    private MinimumPeakScheduler(int beamWidth, Backend backend, boolean pinned, boolean proves) {
        if (beamWidth < 1) {
            throw new IllegalArgumentException("beam width must be >= 1, got " + beamWidth);
        }
        this.beamWidth = beamWidth;
        this.backend = backend;
        this.pinned = pinned;
        this.proves = proves;
    }

    /**
     * A scheduler whose result is the beam search at exactly {@code width} (capped by {@link #memoryBeam}), without
     * the program: the same order on every machine. Under a time limit too short for that width it falls back to
     * the widest ladder rung that finished, and its method says so.
     */
    public static MinimumPeakScheduler pinned(int width, Backend backend) {
        return new MinimumPeakScheduler(width, backend, true, true);
    }

    /**
     * {@link #pinned}, for a caller that uses only the order: a cut beam's result keeps M_R as its bound instead of
     * running the pruned DP over down-sets for a better one (the same order, without the proof's work).
     */
    public static MinimumPeakScheduler pinnedOrder(int width, Backend backend) {
        return new MinimumPeakScheduler(width, backend, true, false);
    }

    /**
     * The scheduler of one planning case, as solve, compare, budgets and the benches pick it: pinned to {@code beam}
     * when given; else under a work limit pinned to the width the graph's size gives ({@link #sizedWidth}, no
     * program), the M_P a sweep defines, so that a command and a sweep share the case's M_P and minimum-peak order;
     * else the time-limited ladder from {@link #DEFAULT_BEAM} (its program on {@code backend}).
     */
    public static MinimumPeakScheduler forCase(Integer beam, boolean workLimited, int operators, Backend backend) {
        if (beam != null) {
            return pinned(beam, backend);
        }
        return workLimited ? pinned(sizedWidth(operators), backend) : new MinimumPeakScheduler(DEFAULT_BEAM, backend);
    }

    /** The back-end of the minimum-peak program. */
    public Backend backend() {
        return backend;
    }

    /** The pinned width, or 0 when the width follows the time limit. */
    public int pinnedWidth() {
        return pinned ? beamWidth : 0;
    }

    @Override
    public String name() {
        return "mpmf";
    }

    @Override
    public ScheduleResult schedule(Graph graph, Limits limits) {
        // Keyed by content: the same graph in a tensor setting may be a new object on every call. (Rendering it as
        // JSON for a key was far slower: BENCHMARKS.md, "Figures moved out of the Javadoc, continued".)
        Key key = new Key(graph.name(), graph.alignment(), graph.tensors(), graph.operators(), graph.outputs());
        return memo.computeIfAbsent(key, k -> compute(graph, limits));
    }

    private ScheduleResult compute(Graph graph, Limits limits) {
        long began = System.nanoTime();
        Limits lim = limits.child();
        java.time.Duration wallLeft = lim.budget().wallLeft();
        int top = Math.min(beamWidth, memoryBeam(graph.operatorCount()));
        Search found = null;
        int width = 0;
        String shortfall = "";
        if (lim.workMode() && !pinned) {
            // Under a work limit the width follows the graph's size alone (no ladder timed on the clock), so the
            // order is the same on every machine; only the command's wall deadline can cut it short.
            int w = Math.min(top, sizedWidth(graph.operatorCount()));
            Search s = new Search(graph, w);
            long guard = wallLeft == null ? Long.MAX_VALUE : began + Math.min(wallLeft.toNanos(), Long.MAX_VALUE / 4);
            if (s.run(guard)) {
                found = s;
                width = w;
            } else {
                lim.budget().markWallStop();
                shortfall = ", beam " + w + " passed the time limit";
            }
        } else if (!lim.budget().limited() || pinned && lim.workMode()) {
            found = new Search(graph, top);
            found.run(Long.MAX_VALUE);
            width = top;
        } else {
            long end;
            try {
                end = Math.addExact(began, wallLeft.toNanos());
            } catch (ArithmeticException centuries) {
                end = Long.MAX_VALUE; // --time-limit 1e12: no deadline
            }
            double lastNanos = 0;
            int lastWidth = 0;
            for (int w : rungs(top)) {
                long now = System.nanoTime();
                if (found != null && now + RUNG_MARGIN * lastNanos * w / lastWidth > end) {
                    shortfall = ", beam " + w + " predicted to pass the time limit";
                    break;
                }
                Search s = new Search(graph, w);
                // The greedy rung may finish up to a second past the limit (milliseconds on thousands of
                // operators); on a million operators it stops there and the default order stands in.
                if (!s.run(found == null ? saturatedAdd(end, RUNG1_GRACE_NANOS) : end)) {
                    shortfall = ", beam " + w + " passed the time limit";
                    break;
                }
                found = s;
                width = w;
                lastNanos = System.nanoTime() - now;
                lastWidth = w;
                // Exact: wider rungs keep the same states, so the same order. At M_R no wider rung finds less, but a
                // pinned width promises its own order (the mpmf schemes' traffic depends on it), so it climbs on.
                if (!s.truncated || (!pinned && s.peak == Budgets.minimumRequired(graph))) {
                    break;
                }
            }
        }
        if (found == null) {
            // Even the greedy rung passed the time limit (a million operators): the default order's footprint is
            // an upper bound, M_R the lower one.
            Schedule order = Schedule.defaultOrder(graph);
            long footprint = Budgets.footprint(graph, order);
            long lower = Budgets.minimumRequired(graph);
            return new ScheduleResult(order, footprint, lower, footprint == lower ? SolveStatus.OPTIMAL
                    : SolveStatus.HEURISTIC, "default order (beam 1 passed the time limit)", seconds(began));
        }
        Schedule schedule = Schedule.of(graph, found.order);
        long peak = Budgets.footprint(graph, schedule);
        if (peak != found.peak) {
            throw new IllegalStateException("bug: the scheduler's DP computed peak " + found.peak
                    + " but the schedule's footprint is " + peak);
        }
        long bound = Budgets.minimumRequired(graph);
        if (!found.truncated) {
            return new ScheduleResult(schedule, peak, peak, SolveStatus.OPTIMAL, "exact DP over down-sets",
                    seconds(began));
        }
        String method = "beam " + width + (width < beamWidth && width == top ? " (memory cap)" : "")
                + (width < top ? shortfall + (pinned ? "; pinned " + beamWidth : "") : "");
        if (peak > bound && proves) {
            // The beam's peak as the target of the exact DP with every state at or above it dropped: when a layer
            // empties, no order stays below it. Fixed caps, no clock under a work limit (the command's deadline
            // only), so the status is the same on every machine. It only raises the bound; the order stays.
            long deadline = lim.workMode() || wallLeft == null ? Long.MAX_VALUE
                    : began + Math.min(wallLeft.toNanos(), Long.MAX_VALUE / 4);
            long proven = found.lowerBound(peak, PROOF_STATE_CAP, PROOF_EXPANSIONS, deadline, lim);
            if (proven > bound) {
                bound = proven;
                method += proven == peak ? ", proven minimal (no order stays below it: pruned DP over down-sets)"
                        : ", pruned DP bound " + proven;
            }
        }
        // What is left in the budget's governing quantity (work under a work limit): the program needs 200 ms of it.
        long left = lim.budget().left();
        boolean programWanted = !pinned && graph.operatorCount() <= PROGRAM_OPERATOR_LIMIT && peak > bound
                && (left == dev.memplan.model.Budget.NONE || left / 1_000_000 > 200);
        if (programWanted && backend.needsNative() && !dev.memplan.formulations.milp.Solvers.nativeAvailable()) {
            // M_P is still an order and a bound without the program: say why it is not proven, rather than fail.
            method += ", the minimum-peak program skipped (OR-Tools' native libraries cannot be loaded: "
                    + dev.memplan.formulations.milp.Solvers.nativeFailure() + ")";
        } else if (programWanted) {
            MinimumPeak.Result r = MinimumPeak.solve(graph, TensorSetting.ALL, backend, lim);
            bound = Math.max(bound, r.bound());
            if (r.value() < peak) {
                schedule = r.schedule();
                peak = r.value();
                method = "minimum-peak program (" + r.backend() + ") after " + method;
            }
        }
        SolveStatus status = peak == bound ? SolveStatus.OPTIMAL : SolveStatus.HEURISTIC;
        return new ScheduleResult(schedule, peak, bound, status, method, seconds(began));
    }

    /**
     * A width fixed by the graph's size alone, for results that must not depend on the machine (sweeps): the widest
     * ladder rung, at most {@link #DEFAULT_BEAM}, with width * n^2 <= 4096 * 1000^2 (a layer costs about width *
     * frontier * n/64 words, so this keeps 2,000 operators near the cost of 1,000 at full width). 1,000 operators
     * or fewer get {@link #DEFAULT_BEAM}; 2,000 get 1,024; 20,000 get 4.
     */
    public static int sizedWidth(int operators) {
        double fits = DEFAULT_BEAM * Math.pow(1000.0 / Math.max(1, operators), 2);
        int width = 1;
        for (int w : rungs(DEFAULT_BEAM)) {
            if (w <= fits) {
                width = w;
            }
        }
        return width;
    }

    /** The ladder's widths up to {@code top}, narrowest first, ending with {@code top}. */
    public static int[] rungs(int top) {
        List<Integer> r = new ArrayList<>();
        for (int w : LADDER) {
            if (w < top) {
                r.add(w);
            }
        }
        r.add(top);
        return r.stream().mapToInt(Integer::intValue).toArray();
    }

    /**
     * The widest beam whose trails stay within {@link #TRAIL_BYTES}: a layer's states each keep a trail of up to n
     * steps (shared prefixes, but not necessarily), so beam * n trail nodes must fit.
     */
    static int memoryBeam(int n) {
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, TRAIL_BYTES / (32L * Math.max(1, n))));
    }

    /** How long past the time limit the greedy rung may run to completion. */
    static final long RUNG1_GRACE_NANOS = 1_000_000_000L;

    private static long saturatedAdd(long a, long b) {
        long r = a + b;
        return ((a ^ r) & (b ^ r)) < 0 ? Long.MAX_VALUE : r;
    }

    private static double seconds(long began) {
        return (System.nanoTime() - began) / 1e9;
    }

    /**
     * The layered DP; host tensors become live at their first use, as in the no-spill footprint. A state keeps the
     * operators ready to run (its frontier) and a trail of the order that reached it, so that expanding it costs
     * the frontier, not n, and old layers' sets are dropped. The width is fixed, so the result depends only on the
     * graph and the width; a deadline abandons the search, never changes it.
     *
     * <p>A layer's candidates (a state and an operator to run after it) are merged by their set of finished
     * operators in a {@link Layer}: hashed incrementally (a random 64-bit key per operator, XORed in), compared
     * word by word without building the set, so that only the states kept get a set of their own. Candidates keep
     * the order in which their set first appeared, and a later candidate replaces an earlier one of the same set
     * only when it is strictly better: the same states, in the same order, as a map insertion-ordered by set.
     */
    private static final class Search {
        private final Graph g;
        private final int n;
        private final int words;
        private final int[][] predecessors;
        private final int[][] successors;
        private final long[] keys;
        private final int beam;
        boolean truncated;
        long peak;
        int[] order;

        /** The order that reached a state, newest step first; prefixes are shared between states. */
        private record Trail(Trail parent, int last) {
        }

        /** A set of finished operators (its words and hash), the peak and live bytes reaching it. */
        private record State(long[] done, long hash, long peak, long live, Trail trail, int[] ready) {
        }

        Search(Graph g, int beam) {
            this.g = g;
            this.beam = beam;
            this.n = g.operatorCount();
            this.words = (n + 63) >>> 6;
            // Primitive arrays only: on a million operators, a BitSet and a boxed list per operator took seconds.
            predecessors = new int[n][];
            int[] seen = new int[n];
            java.util.Arrays.fill(seen, -1);
            int[] scratch = new int[16];
            int[] outDegree = new int[n];
            for (int o = 0; o < n; o++) {
                int k = 0;
                for (int t : g.inputs(o)) {
                    int q = g.producer(t);
                    if (q >= 0 && seen[q] != o) {
                        seen[q] = o;
                        if (k == scratch.length) {
                            scratch = java.util.Arrays.copyOf(scratch, 2 * k);
                        }
                        scratch[k++] = q;
                    }
                }
                int[] p = java.util.Arrays.copyOf(scratch, k);
                java.util.Arrays.sort(p);
                predecessors[o] = p;
                for (int q : p) {
                    outDegree[q]++;
                }
            }
            successors = new int[n][];
            for (int o = 0; o < n; o++) {
                successors[o] = new int[outDegree[o]];
                outDegree[o] = 0;
            }
            for (int o = 0; o < n; o++) {
                for (int q : predecessors[o]) {
                    successors[q][outDegree[q]++] = o;
                }
            }
            // Fixed keys: they only spread the hash table; equal sets are always compared word by word.
            java.util.SplittableRandom random = new java.util.SplittableRandom(0x6d656d706c616eL);
            keys = new long[n];
            for (int o = 0; o < n; o++) {
                keys[o] = random.nextLong();
            }
        }

        /**
         * Runs the search; false when {@code deadline} (a {@link System#nanoTime()} value) passed first, else the
         * order and its peak are set.
         */
        boolean run(long deadline) {
            List<State> layer = List.of(start());
            Layer next = new Layer();
            for (int k = 0; k < n; k++) {
                if (deadline != Long.MAX_VALUE && System.nanoTime() > deadline) {
                    return false;
                }
                next.clear(layer);
                for (int i = 0; i < layer.size(); i++) {
                    State s = layer.get(i);
                    for (int o : s.ready) {
                        long during = during(s.done, o);
                        next.offer(i, o, Math.max(s.peak, s.live + during), s.live + after(s.done, o));
                    }
                }
                int[] kept;
                if (next.size() > beam) {
                    truncated = true;
                    kept = java.util.Arrays.copyOf(next.ranked(), beam);
                } else {
                    kept = next.inOrder();
                }
                layer = next.states(kept, true);
            }
            State end = layer.get(0);
            peak = end.peak;
            order = new int[n];
            int i = n;
            for (Trail t = end.trail; t != null; t = t.parent) {
                order[--i] = t.last;
            }
            return true;
        }

        /**
         * A lower bound on the least peak of any order, at most {@code target}: the exact DP over down-sets, layer by
         * layer, with every state whose peak reaches {@code target} dropped (no order through it peaks below the
         * target). Every order passes through one down-set of each size, so the least peak of a complete layer is a
         * bound; when a whole layer is dropped, no order peaks below the target and the target is the bound. Stops
         * at {@code cap} states in a layer, at {@code deadline} or at the command's deadline, with the last complete
         * layer's bound; also after {@code expansions} states expanded in all.
         */
        long lowerBound(long target, int cap, long expansions, long deadline, Limits limits) {
            long expanded = 0;
            List<State> layer = List.of(start());
            Layer next = new Layer();
            long bound = 0;
            for (int k = 0; k < n; k++) {
                if (limits.budget().wallOver() || deadline != Long.MAX_VALUE && System.nanoTime() > deadline) {
                    return bound;
                }
                next.clear(layer);
                for (int i = 0; i < layer.size(); i++) {
                    State s = layer.get(i);
                    for (int o : s.ready) {
                        if (++expanded > expansions) {
                            return bound;
                        }
                        long stepPeak = Math.max(s.peak, s.live + during(s.done, o));
                        if (stepPeak >= target) {
                            continue;
                        }
                        next.offer(i, o, stepPeak, s.live + after(s.done, o));
                        if (next.size() > cap) {
                            return bound;
                        }
                    }
                }
                if (next.size() == 0) {
                    return target;
                }
                long least = Long.MAX_VALUE;
                for (int c = 0; c < next.size(); c++) {
                    least = Math.min(least, next.peak[c]);
                }
                bound = Math.max(bound, least);
                layer = next.states(next.inOrder(), false);
            }
            return bound;
        }

        /**
         * One layer's candidates: a parent state and the operator run after it, with the peak and live bytes it
         * reaches, merged by their set of finished operators (the parent's plus the operator) in the order the set
         * first appeared.
         */
        private final class Layer {
            private List<State> parents = List.of();
            private int count;
            private int[] parent = new int[16];
            private int[] op = new int[16];
            private long[] hash = new long[16];
            long[] peak = new long[16];
            private long[] live = new long[16];
            /** Open addressing: candidate index + 1, 0 for an empty slot. */
            private int[] slots = new int[64];

            void clear(List<State> layerBefore) {
                parents = layerBefore;
                count = 0;
                java.util.Arrays.fill(slots, 0);
            }

            int size() {
                return count;
            }

            void offer(int p, int o, long stepPeak, long stepLive) {
                long h = parents.get(p).hash ^ keys[o];
                int mask = slots.length - 1;
                for (int slot = spread(h) & mask; ; slot = (slot + 1) & mask) {
                    int c = slots[slot] - 1;
                    if (c < 0) {
                        slots[slot] = append(p, o, h, stepPeak, stepLive) + 1;
                        if (2 * count > slots.length) {
                            rehash();
                        }
                        return;
                    }
                    if (hash[c] == h && sameSet(parent[c], op[c], p, o)) {
                        // The earlier one stays unless the new one is strictly better (lower peak, then fewer live).
                        if (stepPeak < peak[c] || stepPeak == peak[c] && stepLive < live[c]) {
                            parent[c] = p;
                            op[c] = o;
                            peak[c] = stepPeak;
                            live[c] = stepLive;
                        }
                        return;
                    }
                }
            }

            private int append(int p, int o, long h, long stepPeak, long stepLive) {
                if (count == parent.length) {
                    int grown = 2 * count;
                    parent = java.util.Arrays.copyOf(parent, grown);
                    op = java.util.Arrays.copyOf(op, grown);
                    hash = java.util.Arrays.copyOf(hash, grown);
                    peak = java.util.Arrays.copyOf(peak, grown);
                    live = java.util.Arrays.copyOf(live, grown);
                }
                parent[count] = p;
                op[count] = o;
                hash[count] = h;
                peak[count] = stepPeak;
                live[count] = stepLive;
                return count++;
            }

            private void rehash() {
                slots = new int[2 * slots.length];
                int mask = slots.length - 1;
                for (int c = 0; c < count; c++) {
                    int slot = spread(hash[c]) & mask;
                    while (slots[slot] != 0) {
                        slot = (slot + 1) & mask;
                    }
                    slots[slot] = c + 1;
                }
            }

            private static int spread(long h) {
                h *= 0x9e3779b97f4a7c15L;
                return (int) (h >>> 32);
            }

            /** Whether parent p1's set plus o1 equals parent p2's set plus o2. */
            private boolean sameSet(int p1, int o1, int p2, int o2) {
                if (p1 == p2) {
                    return o1 == o2;
                }
                long[] a = parents.get(p1).done;
                long[] b = parents.get(p2).done;
                int w1 = o1 >>> 6;
                int w2 = o2 >>> 6;
                for (int w = 0; w < words; w++) {
                    long x = w == w1 ? a[w] | 1L << o1 : a[w];
                    long y = w == w2 ? b[w] | 1L << o2 : b[w];
                    if (x != y) {
                        return false;
                    }
                }
                return true;
            }

            /** The candidates in the order their sets first appeared. */
            int[] inOrder() {
                int[] all = new int[count];
                for (int c = 0; c < count; c++) {
                    all[c] = c;
                }
                return all;
            }

            /** The candidates by peak, then live bytes, then the order their sets first appeared (a stable sort). */
            int[] ranked() {
                Integer[] byRank = new Integer[count];
                for (int c = 0; c < count; c++) {
                    byRank[c] = c;
                }
                java.util.Arrays.sort(byRank, (x, y) -> peak[x] != peak[y] ? Long.compare(peak[x], peak[y])
                        : live[x] != live[y] ? Long.compare(live[x], live[y]) : Integer.compare(x, y));
                int[] r = new int[count];
                for (int c = 0; c < count; c++) {
                    r[c] = byRank[c];
                }
                return r;
            }

            /**
             * The states of these candidates, each with its own set and frontier; the trail only when asked. A
             * parent's set is reused in place by the last of its candidates kept (the layer before is dropped).
             */
            List<State> states(int[] chosen, boolean trails) {
                int[] children = new int[parents.size()];
                for (int c : chosen) {
                    children[parent[c]]++;
                }
                List<State> states = new ArrayList<>(chosen.length);
                for (int c : chosen) {
                    State p = parents.get(parent[c]);
                    int o = op[c];
                    long[] done = --children[parent[c]] == 0 ? p.done : p.done.clone();
                    done[o >>> 6] |= 1L << o;
                    states.add(new State(done, hash[c], peak[c], live[c], trails ? new Trail(p.trail, o) : null,
                            frontier(done, o, p.ready)));
                }
                return states;
            }
        }

        /** The empty down-set with the operators ready at once. */
        private State start() {
            long[] none = new long[words];
            int[] first = new int[n];
            int k = 0;
            for (int o = 0; o < n; o++) {
                if (predecessors[o].length == 0) {
                    first[k++] = o;
                }
            }
            return new State(none, 0L, 0, 0, null, java.util.Arrays.copyOf(first, k));
        }

        private static boolean has(long[] done, int o) {
            return (done[o >>> 6] & 1L << o) != 0;
        }

        /** The frontier after running {@code o} (in {@code done}): the parent's without o, plus o's successors now ready. */
        private int[] frontier(long[] done, int o, int[] parentReady) {
            int[] ready = new int[parentReady.length - 1 + successors[o].length];
            int k = 0;
            for (int r : parentReady) {
                if (r != o) {
                    ready[k++] = r;
                }
            }
            for (int c : successors[o]) {
                if (!has(done, c) && ready(done, c)) {
                    ready[k++] = c;
                }
            }
            return k == ready.length ? ready : java.util.Arrays.copyOf(ready, k);
        }

        private boolean ready(long[] done, int o) {
            for (int p : predecessors[o]) {
                if (!has(done, p)) {
                    return false;
                }
            }
            return true;
        }

        /** Whether each input of the operator last passed to {@link #during} was live before it ran. */
        private boolean[] inputLive = new boolean[8];

        /**
         * Running o after {@code done}: bytes resident beyond the live ones while o runs (its outputs and its inputs
         * not yet live). Inputs are distinct tensors. Remembers which inputs were live for {@link #after}.
         */
        private long during(long[] done, int o) {
            int[] inputs = g.inputs(o);
            if (inputs.length > inputLive.length) {
                inputLive = new boolean[Math.max(inputs.length, 2 * inputLive.length)];
            }
            long during = 0;
            for (int i = 0; i < inputs.length; i++) {
                boolean wasLive = live(done, inputs[i]);
                inputLive[i] = wasLive;
                if (!wasLive) {
                    during += g.size(inputs[i]);
                }
            }
            for (int t : g.outputs(o)) {
                during += g.size(t);
            }
            return during;
        }

        /** Running o after {@code done}: the change of the live bytes once o is done; right after {@link #during}(done, o). */
        private long after(long[] done, int o) {
            int[] inputs = g.inputs(o);
            long after = 0;
            for (int i = 0; i < inputs.length; i++) {
                int t = inputs[i];
                boolean wasLive = inputLive[i];
                boolean stillPending = false;
                for (int c : g.consumers(t)) {
                    if (c != o && !has(done, c)) {
                        stillPending = true;
                        break;
                    }
                }
                if (wasLive && !stillPending) {
                    after -= g.size(t);
                } else if (!wasLive && stillPending) {
                    after += g.size(t);
                }
            }
            for (int t : g.outputs(o)) {
                if (g.consumers(t).length > 0) {
                    after += g.size(t);
                }
            }
            return after;
        }

        /** Live between steps: started (produced, or a host tensor already read) and still to be read. */
        private boolean live(long[] done, int t) {
            int p = g.producer(t);
            boolean started = p >= 0 && has(done, p);
            boolean pending = false;
            for (int c : g.consumers(t)) {
                if (has(done, c)) {
                    started = true;
                } else {
                    pending = true;
                }
            }
            return started && pending;
        }
    }
}
