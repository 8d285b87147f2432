package dev.memplan.baselines.scheduling;

import dev.memplan.formulations.cosma.MinimumPeak;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.model.Budgets;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Schedule;
import dev.memplan.model.SolveStatus;
import dev.memplan.model.TensorSetting;
import dev.memplan.model.io.GraphJson;
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

    private final Map<String, ScheduleResult> memo = new HashMap<>();
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
        // Keyed by content: the same graph in a tensor setting is a new object on every call.
        return memo.computeIfAbsent(GraphJson.toJson(graph), k -> compute(graph, limits));
    }

    private ScheduleResult compute(Graph graph, Limits limits) {
        long began = System.nanoTime();
        Search search = new Search(graph, beamWidth);
        int[] order = search.run();
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
        String method = "beam search (width " + beamWidth + ")";
        Duration left = limits.timeLimit() == null ? null
                : limits.timeLimit().minusNanos(System.nanoTime() - began);
        if (graph.operatorCount() <= PROGRAM_OPERATOR_LIMIT && peak > bound && (left == null || left.toMillis() > 200)) {
            MinimumPeak.Result r = MinimumPeak.solve(graph, TensorSetting.ALL, backend, limits.withTimeLimit(left));
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

    private static double seconds(long began) {
        return (System.nanoTime() - began) / 1e9;
    }

    /** The layered DP; host tensors become live at their first use, as in the no-spill footprint. */
    private static final class Search {
        private final Graph g;
        private final int beam;
        private final int n;
        private final int[][] predecessors;
        boolean truncated;
        long peak;

        private record State(BitSet done, long peak, long live, State parent, int last) {
        }

        Search(Graph g, int beam) {
            this.g = g;
            this.beam = beam;
            this.n = g.operatorCount();
            predecessors = new int[n][];
            for (int o = 0; o < n; o++) {
                BitSet p = new BitSet();
                for (int t : g.inputs(o)) {
                    if (g.producer(t) >= 0) {
                        p.set(g.producer(t));
                    }
                }
                predecessors[o] = p.stream().toArray();
            }
        }

        int[] run() {
            List<State> layer = List.of(new State(new BitSet(n), 0, 0, null, -1));
            for (int k = 0; k < n; k++) {
                Map<BitSet, State> next = new HashMap<>();
                for (State s : layer) {
                    for (int o = 0; o < n; o++) {
                        if (s.done.get(o) || !ready(s.done, o)) {
                            continue;
                        }
                        BitSet done = (BitSet) s.done.clone();
                        done.set(o);
                        long[] delta = delta(s.done, o);
                        State candidate = new State(done, Math.max(s.peak, s.live + delta[0]), s.live + delta[1], s, o);
                        next.merge(done, candidate, (a, b) -> better(a, b) ? a : b);
                    }
                }
                List<State> states = new ArrayList<>(next.values());
                if (states.size() > beam) {
                    truncated = true;
                    states.sort(Comparator.comparingLong(State::peak).thenComparingLong(State::live));
                    states = new ArrayList<>(states.subList(0, beam));
                }
                layer = states;
            }
            State end = layer.get(0);
            peak = end.peak;
            int[] order = new int[n];
            for (State s = end; s.parent != null; s = s.parent) {
                order[s.done.cardinality() - 1] = s.last;
            }
            return order;
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
