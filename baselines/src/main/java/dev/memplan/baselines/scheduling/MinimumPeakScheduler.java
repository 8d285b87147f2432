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
 * layer (|S| = 0, 1, ..., n) and keeps at most {@link #beamWidth} states per layer, the ones with the lowest peak
 * and then the fewest live bytes. When no layer had to be cut, the result is the proven minimum (OPTIMAL).
 * Otherwise it is a beam search (a greedy with look-ahead) and, when the graph is small enough, the
 * minimum-peak program (COSMA eq. 13-15, {@link MinimumPeak}) gets the remaining time to improve or prove it; the
 * result is HEURISTIC unless proven, with the best lower bound known (at least M_R). Time: O(n * beam * width
 * * degree) for the DP.
 */
public final class MinimumPeakScheduler implements Scheduler {
    /** Above this many operators the program is not tried (its model grows with n squared). */
    static final int PROGRAM_OPERATOR_LIMIT = 120;
    /** Without a time limit, the most the beam search may take (it narrows its beam to finish within it). */
    static final Duration SEARCH_CAP = Duration.ofSeconds(60);
    /** Heap for the beam's trails (the orders that reached each kept state). */
    static final long TRAIL_BYTES = 256L << 20;

    private final Map<Key, ScheduleResult> memo = new HashMap<>();

    /** A graph's content (its records compare by value). */
    private record Key(String name, long alignment, List<Tensor> tensors, List<Operator> operators,
                       List<String> outputs) {
    }
    private final int beamWidth;
    private final Backend backend;

    /** States kept per layer by default. */
    public static final int DEFAULT_BEAM = 4096;

    /** Beam width {@link #DEFAULT_BEAM} and CP-SAT for the program. */
    public MinimumPeakScheduler() {
        this(DEFAULT_BEAM, Backend.CPSAT);
    }

    public MinimumPeakScheduler(int beamWidth, Backend backend) {
        if (beamWidth < 1) {
            throw new IllegalArgumentException("beam width must be >= 1, got " + beamWidth);
        }
        this.beamWidth = beamWidth;
        this.backend = backend;
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
        Duration cap = lim.timeLimit() == null ? SEARCH_CAP : lim.timeLimit();
        Search search = new Search(graph, Math.min(beamWidth, memoryBeam(graph.operatorCount())));
        long end;
        try {
            end = Math.addExact(began, cap.toNanos());
        } catch (ArithmeticException centuries) {
            end = Long.MAX_VALUE; // --time-limit 1e12: no deadline
        }
        int[] order = search.run(end);
        Schedule schedule = Schedule.of(graph, order);
        long peak = Budgets.footprint(graph, schedule);
        if (peak != search.peak) {
            throw new IllegalStateException("bug: the scheduler's DP computed peak " + search.peak
                    + " but the schedule's footprint is " + peak);
        }
        long bound = Budgets.minimumRequired(graph);
        if (!search.truncated) {
            return new ScheduleResult(schedule, peak, peak, SolveStatus.OPTIMAL, "exact DP over down-sets",
                    seconds(began));
        }
        String method = "beam search (width " + beamWidth + (search.narrowest < beamWidth
                ? ", narrowed to " + search.narrowest + " to finish within the time limit and memory" : "") + ")";
        Duration left = lim.timeLimit();
        if (graph.operatorCount() <= PROGRAM_OPERATOR_LIMIT && peak > bound && (left == null || left.toMillis() > 200)) {
            MinimumPeak.Result r = MinimumPeak.solve(graph, TensorSetting.ALL, backend, lim);
            bound = Math.max(bound, r.bound());
            if (r.value() < peak) {
                schedule = r.schedule();
                peak = r.value();
                method = "minimum-peak program (" + r.backend() + ")";
            }
        }
        SolveStatus status = peak == bound ? SolveStatus.OPTIMAL : SolveStatus.HEURISTIC;
        return new ScheduleResult(schedule, peak, bound, status, method, seconds(began));
    }

    /**
     * The widest beam whose trails stay within {@link #TRAIL_BYTES}: a layer's states each keep a trail of up to n
     * steps (shared prefixes, but not necessarily), so beam * n trail nodes must fit.
     */
    static int memoryBeam(int n) {
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, TRAIL_BYTES / (32L * Math.max(1, n))));
    }

    private static double seconds(long began) {
        return (System.nanoTime() - began) / 1e9;
    }

    /**
     * The layered DP; host tensors become live at their first use, as in the no-spill footprint. A state keeps the
     * operators ready to run (its frontier) and a trail of the order that reached it, so that expanding it costs
     * the frontier, not n, and old layers' sets are dropped. The beam narrows when the layers so far say the rest
     * would not finish by the deadline (at worst to one state: a greedy order, still complete).
     */
    private static final class Search {
        private final Graph g;
        private final int n;
        private final int[][] predecessors;
        private final int[][] successors;
        private int beam;
        boolean truncated;
        long peak;
        int narrowest;

        /** The order that reached a state, newest step first; prefixes are shared between states. */
        private record Trail(Trail parent, int last) {
        }

        private record State(BitSet done, long peak, long live, Trail trail, int[] ready) {
        }

        Search(Graph g, int beam) {
            this.g = g;
            this.beam = beam;
            this.narrowest = beam;
            this.n = g.operatorCount();
            predecessors = new int[n][];
            List<List<Integer>> next = new ArrayList<>();
            for (int o = 0; o < n; o++) {
                next.add(new ArrayList<>());
            }
            for (int o = 0; o < n; o++) {
                BitSet p = new BitSet();
                for (int t : g.inputs(o)) {
                    if (g.producer(t) >= 0) {
                        p.set(g.producer(t));
                    }
                }
                predecessors[o] = p.stream().toArray();
                for (int q : predecessors[o]) {
                    next.get(q).add(o);
                }
            }
            successors = new int[n][];
            for (int o = 0; o < n; o++) {
                successors[o] = next.get(o).stream().mapToInt(Integer::intValue).toArray();
            }
        }

        /** The order found; {@code deadline} a {@link System#nanoTime()} value by which it must be done. */
        int[] run(long deadline) {
            BitSet none = new BitSet(n);
            List<Integer> first = new ArrayList<>();
            for (int o = 0; o < n; o++) {
                if (ready(none, o)) {
                    first.add(o);
                }
            }
            List<State> layer = List.of(new State(none, 0, 0, null,
                    first.stream().mapToInt(Integer::intValue).toArray()));
            for (int k = 0; k < n; k++) {
                long layerBegan = System.nanoTime();
                Map<BitSet, State> next = new HashMap<>();
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
                narrow(deadline, System.nanoTime() - layerBegan, n - 1 - k, layer.size());
            }
            State end = layer.get(0);
            peak = end.peak;
            int[] order = new int[n];
            int i = n;
            for (Trail t = end.trail; t != null; t = t.parent) {
                order[--i] = t.last;
            }
            return order;
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

        /**
         * Narrows the beam when a layer of {@code width} states took {@code layerNanos} and the {@code layersLeft}
         * at that cost would pass the deadline: to the width that fits, at least one.
         */
        private void narrow(long deadline, long layerNanos, int layersLeft, int width) {
            if (layersLeft == 0 || width == 0) {
                return;
            }
            long left = deadline - System.nanoTime();
            double perState = Math.max(1.0, layerNanos / (double) width);
            double fits = left <= 0 ? 1 : left / (perState * layersLeft);
            if (fits < beam) {
                beam = (int) Math.max(1, Math.floor(fits));
                narrowest = Math.min(narrowest, beam);
            }
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
