package dev.memplan.baselines.scheduling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.datasets.Examples;
import dev.memplan.datasets.RandomGraphs;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.model.Budgets;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Schedule;
import dev.memplan.model.SolveStatus;
import dev.memplan.model.TensorSetting;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class MinimumPeakSchedulerTest {

    @Test
    void aCasePinsTheGivenBeamElseUnderAWorkLimitTheSizedWidthElseFollowsTheTimeLimit() {
        assertEquals(8, MinimumPeakScheduler.forCase(8, true, 2000, Backend.CPSAT).pinnedWidth(), "the beam given wins");
        assertEquals(8, MinimumPeakScheduler.forCase(8, false, 10, Backend.CPSAT).pinnedWidth());
        assertEquals(MinimumPeakScheduler.sizedWidth(2000),
                MinimumPeakScheduler.forCase(null, true, 2000, Backend.CPSAT).pinnedWidth(), "a sweep's M_P width");
        assertEquals(1024, MinimumPeakScheduler.forCase(null, true, 2000, Backend.SCIP).pinnedWidth());
        MinimumPeakScheduler ladder = MinimumPeakScheduler.forCase(null, false, 2000, Backend.SCIP);
        assertEquals(0, ladder.pinnedWidth(), "without a work limit the width follows the time limit");
        assertEquals(Backend.SCIP, ladder.backend());
    }

    /** The least no-spill footprint over every topological order, by enumeration. */
    static long bruteForce(Graph g) {
        long[] best = {Long.MAX_VALUE};
        enumerate(g, new ArrayList<>(), new boolean[g.operatorCount()], best);
        return best[0];
    }

    /**
     * The same least footprint by a memo over the sets of finished operators (a second oracle, for graphs where
     * enumerating every order takes seconds): a tensor is resident while its operator runs when it is touched
     * (written or read) by an operator that ran at or before that step and by one that runs at or after it, as
     * {@link dev.memplan.model.Lifetimes} defines it. Checked equal to the enumeration on the small graphs.
     */
    static long leastPeakOverSubsets(Graph g) {
        int n = g.operatorCount();
        long[] memo = new long[1 << n];
        java.util.Arrays.fill(memo, -1);
        return leastPeakFrom(g, 0, memo);
    }

    private static long leastPeakFrom(Graph g, int done, long[] memo) {
        int n = g.operatorCount();
        if (done == (1 << n) - 1) {
            return 0;
        }
        if (memo[done] >= 0) {
            return memo[done];
        }
        long best = Long.MAX_VALUE;
        for (int o = 0; o < n; o++) {
            if ((done >> o & 1) != 0) {
                continue;
            }
            boolean ready = true;
            for (int t : g.inputs(o)) {
                ready &= g.producer(t) < 0 || (done >> g.producer(t) & 1) != 0;
            }
            if (!ready) {
                continue;
            }
            int upTo = done | 1 << o;
            long live = 0;
            for (int t = 0; t < g.tensorCount(); t++) {
                boolean before = false;
                boolean after = false;
                int p = g.producer(t);
                if (p >= 0) {
                    before |= (upTo >> p & 1) != 0;
                    after |= (done >> p & 1) == 0;
                }
                for (int c : g.consumers(t)) {
                    before |= (upTo >> c & 1) != 0;
                    after |= (done >> c & 1) == 0;
                }
                live += before && after ? g.size(t) : 0;
            }
            best = Math.min(best, Math.max(live, leastPeakFrom(g, upTo, memo)));
        }
        memo[done] = best;
        return best;
    }

    private static void enumerate(Graph g, List<Integer> prefix, boolean[] done, long[] best) {
        if (prefix.size() == g.operatorCount()) {
            best[0] = Math.min(best[0], Budgets.footprint(g, Schedule.of(g, prefix.stream().mapToInt(i -> i).toArray())));
            return;
        }
        for (int o = 0; o < g.operatorCount(); o++) {
            if (done[o]) {
                continue;
            }
            boolean ready = true;
            for (int t : g.inputs(o)) {
                ready &= g.producer(t) < 0 || done[g.producer(t)];
            }
            if (ready) {
                done[o] = true;
                prefix.add(o);
                enumerate(g, prefix, done, best);
                prefix.remove(prefix.size() - 1);
                done[o] = false;
            }
        }
    }

    @Test
    void exactDynamicProgramMatchesEnumerationOnRandomGraphs() {
        for (long seed = 0; seed < 40; seed++) {
            Graph g = RandomGraphs.layers(seed, 3, 3, 3, 50, seed % 2 == 0);
            ScheduleResult r = new MinimumPeakScheduler().schedule(g, Limits.DEFAULT);
            assertEquals(SolveStatus.OPTIMAL, r.status(), "seed " + seed);
            long enumerated = bruteForce(g);
            assertEquals(enumerated, leastPeakOverSubsets(g), "the two oracles, seed " + seed);
            assertEquals(enumerated, r.peak(), "seed " + seed);
            assertEquals(Budgets.footprint(g, r.schedule()), r.peak());
            assertEquals(r.peak(), r.bound());
        }
    }

    @Test
    void aCutBeamIsAHeuristicWithAValidBound() {
        for (long seed = 0; seed < 10; seed++) {
            Graph g = RandomGraphs.layers(seed, 4, 3, 3, 50, false);
            long exact = leastPeakOverSubsets(g);
            ScheduleResult r = new MinimumPeakScheduler(1, Backend.CPSAT).schedule(g, Limits.DEFAULT);
            assertTrue(r.peak() >= exact && r.bound() <= exact, "seed " + seed + ": " + r);
            assertEquals(Budgets.footprint(g, r.schedule()), r.peak());
            assertEquals(r.peak() == r.bound() ? SolveStatus.OPTIMAL : SolveStatus.HEURISTIC, r.status());
        }
    }

    /**
     * The pruned DP after a cut beam: on graphs small enough for it to finish, its bound is the exact least peak
     * (enumeration), and the beam's order is OPTIMAL exactly when its peak is that; the order is never changed.
     */
    @Test
    void thePrunedDpBoundsTheLeastPeakExactlyAndProvesOnlyMinimalPeaks() {
        int proven = 0;
        int beaten = 0;
        for (long seed = 0; seed < 5; seed++) {
            Graph g = RandomGraphs.layers(seed, 4, 3, 3, 50, seed % 2 == 0);
            long exact = leastPeakOverSubsets(g);
            ScheduleResult r = MinimumPeakScheduler.pinned(1, Backend.CPSAT).schedule(g, Limits.DEFAULT);
            assertEquals(exact, r.bound(), "seed " + seed + ": " + r);
            assertEquals(r.peak() == exact ? SolveStatus.OPTIMAL : SolveStatus.HEURISTIC, r.status(), "seed " + seed);
            assertEquals(Budgets.footprint(g, r.schedule()), r.peak());
            proven += r.status() == SolveStatus.OPTIMAL && r.method().contains("proven minimal") ? 1 : 0;
            beaten += r.peak() > exact ? 1 : 0;
        }
        assertTrue(proven > 0 && beaten > 0, "both kinds of case: proven " + proven + ", beam above the least " + beaten);
    }

    /** The NAS networks' minimum-peak orders (beam 4096) are proven minimal: M_P is exact, not a heuristic. */
    @Test
    void theNasNetworksMinimumPeakIsProven() {
        for (String name : List.of("nasnet", "amoebanet")) {
            Graph g = dev.memplan.datasets.zoo.Zoo.graph(name).withSetting(TensorSetting.ACTIVATIONS);
            ScheduleResult r = MinimumPeakScheduler.pinned(MinimumPeakScheduler.DEFAULT_BEAM, Backend.CPSAT)
                    .schedule(g, Limits.DEFAULT);
            assertEquals(SolveStatus.OPTIMAL, r.status(), name + ": " + r);
            assertEquals(r.peak(), r.bound());
        }
    }

    @Test
    void neverWorseThanTheDefaultOrderOnTheExamples() {
        for (String name : Examples.names()) {
            for (TensorSetting s : TensorSetting.values()) {
                Graph g = Examples.graph(name).withSetting(s);
                ScheduleResult r = new MinimumPeakScheduler().schedule(g, Limits.DEFAULT);
                assertTrue(r.peak() <= Budgets.footprint(g, Schedule.defaultOrder(g)), name);
                assertEquals(SolveStatus.OPTIMAL, r.status(), name);
            }
        }
    }

    /**
     * With no time left the ladder keeps its first rung, one state per layer: a greedy order, still complete and
     * topological, its peak the footprint of that order, and it says so. On 2,000 operators this also shows the
     * search is light: frontiers instead of every operator per state, trails instead of kept sets.
     */
    @Test
    void aPassedDeadlineKeepsTheGreedyRung() {
        Graph g = RandomGraphs.layers(3, 20, 100, 2, 4096, false);
        Limits none = Limits.ofWall(java.time.Duration.ZERO);
        ScheduleResult r = new MinimumPeakScheduler().schedule(g, none);
        r.schedule().validate(g);
        assertEquals(g.operatorCount(), r.schedule().operators().size());
        assertEquals(Budgets.footprint(g, r.schedule()), r.peak());
        assertTrue(r.method().startsWith("beam 1,"), r.method());
        assertTrue(r.bound() <= r.peak());
        ScheduleResult again = MinimumPeakScheduler.pinned(1, Backend.CPSAT).schedule(g, Limits.DEFAULT);
        assertEquals(r.schedule().operators(), again.schedule().operators(), "the rung named reproduces the order");
    }

    /** A pinned width is a function of the graph: two schedulers, with and without a time limit, agree. */
    @Test
    void aPinnedWidthGivesTheSameOrderEveryTime() {
        Graph g = RandomGraphs.layers(5, 12, 8, 3, 4096, false);
        ScheduleResult a = MinimumPeakScheduler.pinned(16, Backend.CPSAT).schedule(g, Limits.DEFAULT);
        ScheduleResult b = MinimumPeakScheduler.pinned(16, Backend.CPSAT)
                .schedule(g, Limits.ofWall(java.time.Duration.ofSeconds(60)));
        assertEquals(a.peak(), b.peak());
        assertEquals(a.schedule().operators(), b.schedule().operators());
        assertEquals("beam 16", a.method(), "the label names the rung");
        assertEquals(a.method(), b.method());
        assertEquals(SolveStatus.HEURISTIC, a.status());
    }

    /**
     * Where the exact DP finishes, a time-limited ladder stops at the first rung that cut no layer (or reached M_R)
     * and so gives the unlimited search's value, proven.
     */
    @Test
    void aCompletedRungMatchesTheUnlimitedSearchWhereTheDpIsExact() {
        for (long seed = 0; seed < 10; seed++) {
            Graph g = RandomGraphs.layers(seed, 3, 3, 3, 50, seed % 2 == 0);
            ScheduleResult unlimited = new MinimumPeakScheduler().schedule(g, Limits.DEFAULT);
            ScheduleResult limited = new MinimumPeakScheduler()
                    .schedule(g, Limits.ofWall(java.time.Duration.ofSeconds(60)));
            assertEquals(unlimited.peak(), limited.peak(), "seed " + seed);
            assertEquals(SolveStatus.OPTIMAL, limited.status(), "seed " + seed);
            assertEquals(bruteForce(g), limited.peak(), "seed " + seed);
        }
    }

    /**
     * A beam's order is part of every mpmf number memplan has published: pinned widths on a generated graph give
     * the orders, peaks and proof-DP bounds they gave before the layers' sets moved from a map of BitSets to an
     * open-addressing table (session 14); {@link MinimumPeakScheduler#pinnedOrder} gives the same order without
     * the proof, so its bound stays M_R.
     */
    @Test
    void pinnedOrdersAreTheOnesPublishedAndPinnedOrderSkipsOnlyTheProof() {
        Graph g = dev.memplan.datasets.GeneratedGraphs.graph("gen:cells:400:3").withSetting(TensorSetting.ACTIVATIONS);
        long[][] expected = {{1, 163_840, 114_688, 0x8cd2e4d2L}, {16, 147_456, 114_688, 0xaa3884b4L}};
        for (long[] e : expected) {
            int width = (int) e[0];
            ScheduleResult pinned = MinimumPeakScheduler.pinned(width, Backend.CPSAT).schedule(g, Limits.DEFAULT);
            assertEquals(e[1], pinned.peak(), "width " + width);
            assertEquals(e[2], pinned.bound(), "width " + width);
            assertEquals((int) e[3], pinned.schedule().operators().hashCode(), "width " + width);
            ScheduleResult order = MinimumPeakScheduler.pinnedOrder(width, Backend.CPSAT).schedule(g, Limits.DEFAULT);
            assertEquals(pinned.schedule(), order.schedule(), "width " + width);
            assertEquals(pinned.peak(), order.peak(), "width " + width);
            assertEquals(Budgets.minimumRequired(g), order.bound(), "width " + width);
            assertTrue(order.bound() < pinned.bound(), "width " + width);
        }
    }
}
