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
import java.util.BitSet;
import java.util.Comparator;
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
     * States the pruned DP may expand in all (a few seconds at most; the NAS networks' proofs take under 0.6 s):
     * a count, not a clock, so that where it stops does not depend on the machine.
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

    /** States kept per layer by default. */
    public static final int DEFAULT_BEAM = 4096;

    /** Beam width {@link #DEFAULT_BEAM} and CP-SAT for the program. */
    public MinimumPeakScheduler() {
        this(DEFAULT_BEAM, Backend.CPSAT);
    }

    /** Top width {@code beamWidth}; with a time limit the widest ladder rung that finishes. */
    public MinimumPeakScheduler(int beamWidth, Backend backend) {
        this(beamWidth, backend, false);
    }

    private MinimumPeakScheduler(int beamWidth, Backend backend, boolean pinned) {
        if (beamWidth < 1) {
            throw new IllegalArgumentException("beam width must be >= 1, got " + beamWidth);
        }
        this.beamWidth = beamWidth;
        this.backend = backend;
        this.pinned = pinned;
    }

    /**
     * A scheduler whose result is the beam search at exactly {@code width} (capped by {@link #memoryBeam}), without
     * the program: the same order on every machine. Under a time limit too short for that width it falls back to
     * the widest ladder rung that finished, and its method says so.
     */
    public static MinimumPeakScheduler pinned(int width, Backend backend) {
        return new MinimumPeakScheduler(width, backend, true);
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
        // JSON for a key took seconds on 20,000 operators.)
        Key key = new Key(graph.name(), graph.alignment(), graph.tensors(), graph.operators(), graph.outputs());
        return memo.computeIfAbsent(key, k -> compute(graph, limits));
    }

    private ScheduleResult compute(Graph graph, Limits limits) {
        long began = System.nanoTime();
        Limits lim = limits.startingNow();
        int top = Math.min(beamWidth, memoryBeam(graph.operatorCount()));
        Search found = null;
        int width = 0;
        String shortfall = "";
        if (lim.workMode() && !pinned) {
            // Under a work limit the width follows the graph's size alone (no ladder timed on the clock), so the
            // order is the same on every machine; only the command's wall deadline can cut it short.
            int w = Math.min(top, sizedWidth(graph.operatorCount()));
            Search s = new Search(graph, w);
            java.time.Duration wall = lim.wallLeft();
            long guard = wall == null ? Long.MAX_VALUE : began + Math.min(wall.toNanos(), Long.MAX_VALUE / 4);
            if (s.run(guard)) {
                found = s;
                width = w;
            } else {
                lim.work().markWallStop();
                shortfall = ", beam " + w + " passed the time limit";
            }
        } else if (lim.timeLimit() == null || pinned && lim.workMode()) {
            found = new Search(graph, top);
            found.run(Long.MAX_VALUE);
            width = top;
        } else {
            long end;
            try {
                end = Math.addExact(began, lim.timeLimit().toNanos());
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
        if (peak > bound) {
            // The beam's peak as the target of the exact DP with every state at or above it dropped: when a layer
            // empties, no order stays below it. Fixed caps, no clock under a work limit (the command's deadline
            // only), so the status is the same on every machine. It only raises the bound; the order stays.
            long deadline = lim.workMode() || lim.timeLimit() == null ? Long.MAX_VALUE
                    : began + lim.timeLimit().toNanos();
            long proven = found.lowerBound(peak, PROOF_STATE_CAP, PROOF_EXPANSIONS, deadline, lim);
            if (proven > bound) {
                bound = proven;
                method += proven == peak ? ", proven minimal (no order stays below it: pruned DP over down-sets)"
                        : ", pruned DP bound " + proven;
            }
        }
        Duration left = lim.timeLimit();
        if (!pinned && graph.operatorCount() <= PROGRAM_OPERATOR_LIMIT && peak > bound
                && (left == null || left.toMillis() > 200)) {
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
     */
    private static final class Search {
        private final Graph g;
        private final int n;
        private final int[][] predecessors;
        private final int[][] successors;
        private final int beam;
        boolean truncated;
        long peak;
        int[] order;

        /** The order that reached a state, newest step first; prefixes are shared between states. */
        private record Trail(Trail parent, int last) {
        }

        private record State(BitSet done, long peak, long live, Trail trail, int[] ready) {
        }

        Search(Graph g, int beam) {
            this.g = g;
            this.beam = beam;
            this.n = g.operatorCount();
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
        }

        /**
         * Runs the search; false when {@code deadline} (a {@link System#nanoTime()} value) passed first, else the
         * order and its peak are set.
         */
        boolean run(long deadline) {
            List<State> layer = List.of(start());
            for (int k = 0; k < n; k++) {
                if (deadline != Long.MAX_VALUE && System.nanoTime() > deadline) {
                    return false;
                }
                // Insertion order, not hash order: BitSet is not Comparable, so a HashMap bin that grows into a tree
                // orders its keys by identity hash, and the beam's ties (and so the order found) changed with the
                // JVM's identity hashes (another build, another classpath, -XX:hashCode).
                Map<BitSet, State> next = new java.util.LinkedHashMap<>();
                for (State s : layer) {
                    for (int o : s.ready) {
                        BitSet done = (BitSet) s.done.clone();
                        done.set(o);
                        long[] delta = delta(s.done, o);
                        State candidate = new State(done, Math.max(s.peak, s.live + delta[0]), s.live + delta[1],
                                new Trail(s.trail, o), s.ready);
                        next.merge(done, candidate, (a, b) -> better(a, b) ? a : b);
                    }
                }
                List<State> states = new ArrayList<>(next.values());
                if (states.size() > beam) {
                    truncated = true;
                    states.sort(Comparator.comparingLong(State::peak).thenComparingLong(State::live));
                    states = new ArrayList<>(states.subList(0, beam));
                }
                List<State> kept = new ArrayList<>(states.size());
                for (State s : states) {
                    // A candidate carries its parent's frontier until it is kept; only kept states get their own.
                    kept.add(new State(s.done, s.peak, s.live, s.trail, frontier(s.done, s.trail.last(), s.ready)));
                }
                layer = kept;
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
            long bound = 0;
            for (int k = 0; k < n; k++) {
                if (limits.deadline().expired() || deadline != Long.MAX_VALUE && System.nanoTime() > deadline) {
                    return bound;
                }
                Map<BitSet, State> next = new java.util.LinkedHashMap<>();
                for (State s : layer) {
                    for (int o : s.ready) {
                        if (++expanded > expansions) {
                            return bound;
                        }
                        long[] delta = delta(s.done, o);
                        long stepPeak = Math.max(s.peak, s.live + delta[0]);
                        if (stepPeak >= target) {
                            continue;
                        }
                        BitSet done = (BitSet) s.done.clone();
                        done.set(o);
                        State candidate = new State(done, stepPeak, s.live + delta[1], new Trail(null, o), s.ready);
                        next.merge(done, candidate, (a, b) -> better(a, b) ? a : b);
                        if (next.size() > cap) {
                            return bound;
                        }
                    }
                }
                if (next.isEmpty()) {
                    return target;
                }
                long least = Long.MAX_VALUE;
                List<State> kept = new ArrayList<>(next.size());
                for (State s : next.values()) {
                    least = Math.min(least, s.peak);
                    kept.add(new State(s.done, s.peak, s.live, null, frontier(s.done, s.trail.last(), s.ready)));
                }
                bound = Math.max(bound, least);
                layer = kept;
            }
            return bound;
        }

        /** The empty down-set with the operators ready at once. */
        private State start() {
            BitSet none = new BitSet(n);
            List<Integer> first = new ArrayList<>();
            for (int o = 0; o < n; o++) {
                if (ready(none, o)) {
                    first.add(o);
                }
            }
            return new State(none, 0, 0, null, first.stream().mapToInt(Integer::intValue).toArray());
        }

        /** The frontier after running {@code o}: the parent's without o, plus o's successors now ready. */
        private int[] frontier(BitSet done, int o, int[] parentReady) {
            List<Integer> ready = new ArrayList<>(parentReady.length + successors[o].length);
            for (int r : parentReady) {
                if (r != o) {
                    ready.add(r);
                }
            }
            for (int c : successors[o]) {
                if (!done.get(c) && ready(done, c)) {
                    ready.add(c);
                }
            }
            return ready.stream().mapToInt(Integer::intValue).toArray();
        }

        private static boolean better(State a, State b) {
            return a.peak < b.peak || (a.peak == b.peak && a.live <= b.live);
        }

        private boolean ready(BitSet done, int o) {
            for (int p : predecessors[o]) {
                if (!done.get(p)) {
                    return false;
                }
            }
            return true;
        }

        /**
         * Running o after {@code done}: {0: bytes resident beyond the live ones while o runs (its outputs and its
         * inputs not yet live), 1: change of the live bytes once o is done}. Inputs are distinct tensors.
         */
        private long[] delta(BitSet done, int o) {
            long during = 0;
            long after = 0;
            for (int t : g.inputs(o)) {
                boolean wasLive = live(done, t);
                if (!wasLive) {
                    during += g.size(t);
                }
                boolean stillPending = false;
                for (int c : g.consumers(t)) {
                    if (c != o && !done.get(c)) {
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
                during += g.size(t);
                if (g.consumers(t).length > 0) {
                    after += g.size(t);
                }
            }
            return new long[] {during, after};
        }

        /** Live between steps: started (produced, or a host tensor already read) and still to be read. */
        private boolean live(BitSet done, int t) {
            int p = g.producer(t);
            boolean started = p >= 0 ? done.get(p) : false;
            boolean pending = false;
            for (int c : g.consumers(t)) {
                if (done.get(c)) {
                    started = true;
                } else {
                    pending = true;
                }
            }
            return started && pending;
        }
    }
}
