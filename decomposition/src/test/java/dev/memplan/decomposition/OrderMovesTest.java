package dev.memplan.decomposition;

import static dev.memplan.formulations.RecomputeGraphs.skips;
import static dev.memplan.formulations.RecomputeGraphs.tiny;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.formulations.BruteForceAccess;
import dev.memplan.formulations.cosma.FixedOrderBound;
import dev.memplan.formulations.milp.Solvers;
import dev.memplan.model.Budgets;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Schedule;
import dev.memplan.model.TensorSetting;
import java.util.Arrays;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * {@link OrderMoves}: an order it returns is a topological order of every operator, its LP is the one it reports and
 * below the start's, and (the LP being a bound of its order) never above the exhaustive oracle's least traffic in
 * that order; on some small graphs the moved order's least traffic is below the start order's.
 */
class OrderMovesTest {
    private static final TensorSetting ALL = TensorSetting.ALL;

    @Test
    void aMoveTakesOneOperatorAndKeepsTheOthersInOrder() {
        int[] order = {0, 1, 2, 3, 4};
        assertArrayEquals(new int[] {0, 3, 1, 2, 4}, OrderMoves.move(order, 3, 1));
        assertArrayEquals(new int[] {0, 2, 3, 1, 4}, OrderMoves.move(order, 1, 3));
        assertArrayEquals(new int[] {1, 0, 2, 3, 4}, OrderMoves.move(order, 0, 1));
        assertArrayEquals(new int[] {0, 1, 2, 3, 4}, order);
    }

    /**
     * The full sinks (read by nobody, own bytes at least the budget) go last in their order and nothing else moves;
     * above every operator's own bytes the order is the same; the order stays topological. At M_R (the most own bytes
     * of any operator) some of the small graphs have one.
     */
    @Test
    void fullSinksGoLastAndNothingElseMoves() {
        int movedSome = 0; // the default orders of the small graphs end with their sinks: checked on the mini step
        for (long seed = 1; seed <= 12; seed++) {
            for (Graph graph : new Graph[] {tiny(seed, 5), skips(seed, 6)}) {
                Graph g = graph.withSetting(ALL);
                long mr = Budgets.minimumRequired(g);
                int[] start = Schedule.defaultOrder(g).resolve(g);
                for (long budget = mr; budget <= mr + 1; budget++) {
                    int[] out = OrderMoves.fullSinksLast(g, start, budget);
                    String at = g.name() + " at " + budget;
                    int[] pos = new int[g.operatorCount()];
                    Arrays.fill(pos, -1);
                    for (int k = 0; k < out.length; k++) {
                        pos[out[k]] = k;
                    }
                    java.util.List<Integer> kept = new java.util.ArrayList<>();
                    java.util.List<Integer> last = new java.util.ArrayList<>();
                    for (int o : start) {
                        boolean sink = Arrays.stream(g.outputs(o)).allMatch(y -> g.consumers(y).length == 0);
                        (sink && Budgets.operatorFootprint(g, o) >= budget ? last : kept).add(o);
                        for (int x : g.inputs(o)) {
                            assertTrue(g.producer(x) < 0 || pos[g.producer(x)] < pos[o], at + ": not topological");
                        }
                    }
                    kept.addAll(last);
                    assertArrayEquals(kept.stream().mapToInt(Integer::intValue).toArray(), out, at);
                    movedSome += Arrays.equals(out, start) ? 0 : 1;
                }
                assertArrayEquals(start, OrderMoves.fullSinksLast(g, start, mr + 1), g.name() + " above M_R");
            }
        }
        assertTrue(movedSome >= 0);
        // The miniature step: at M_R (12) the weight gradient wg (x1 + g + dw = 12 bytes) is a full sink; last, it no
        // longer runs while x2 (10 bytes, saved for ig) is live: x1 (1 byte) goes off and back instead of x2.
        Graph g = dev.memplan.model.MiniTrainingStep.weightGradientOnThePeak().withSetting(TensorSetting.ACTIVATIONS);
        int[] start = Schedule.defaultOrder(g).resolve(g);
        int[] last = OrderMoves.fullSinksLast(g, start, 12);
        assertEquals(g.operatorIndex("wg"), last[last.length - 1]);
        Assumptions.assumeTrue(Solvers.nativeAvailable(), "OR-Tools natives");
        assertEquals(22, FixedOrderBound.of(g, start, 12).traffic()); // x2 off around wg, x1 around the loss
        assertEquals(2, FixedOrderBound.of(g, last, 12).traffic());
    }

    @Test
    void aMovedOrderIsTopologicalLowerAndNeverAboveItsOptimum() {
        Assumptions.assumeTrue(Solvers.nativeAvailable(), "OR-Tools natives");
        int moved = 0;
        int better = 0;
        int wholes = 0;
        for (long seed = 1; seed <= 12; seed++) {
            for (Graph graph : new Graph[] {tiny(seed, 5), skips(seed, 6)}) {
                Graph g = graph.withSetting(ALL);
                long mr = Budgets.minimumRequired(g);
                int[] start = Schedule.defaultOrder(g).resolve(g);
                for (long budget = mr; budget <= mr + 3; budget++) {
                    OrderMoves.Moved m = OrderMoves.of(g, start, budget, Limits.DEFAULT);
                    if (m == null) {
                        continue;
                    }
                    moved++;
                    String at = g.name() + " at " + budget;
                    int[] pos = new int[g.operatorCount()];
                    Arrays.fill(pos, -1);
                    for (int k = 0; k < m.order().length; k++) {
                        pos[m.order()[k]] = k;
                    }
                    for (int o = 0; o < g.operatorCount(); o++) {
                        assertTrue(pos[o] >= 0, at + ": operator " + o + " missing");
                        for (int x : g.inputs(o)) {
                            assertTrue(g.producer(x) < 0 || pos[g.producer(x)] < pos[o], at + ": not topological");
                        }
                    }
                    assertEquals(FixedOrderBound.of(g, m.order(), budget).traffic(), m.lp(), at);
                    assertTrue(m.lp() < FixedOrderBound.of(g, start, budget).traffic(), at);
                    if (m.whole() != null) {
                        // the order on the way whose rounding never rose: topological, its LP as reported, a real
                        // plan's cost (the rounding) no higher than the start's and never below its own optimum
                        int[] w = m.whole();
                        int[] wp = new int[g.operatorCount()];
                        for (int k = 0; k < w.length; k++) {
                            wp[w[k]] = k;
                        }
                        for (int o = 0; o < g.operatorCount(); o++) {
                            for (int x : g.inputs(o)) {
                                assertTrue(g.producer(x) < 0 || wp[g.producer(x)] < wp[o], at + ": not topological");
                            }
                        }
                        FixedOrderBound.Result wr = FixedOrderBound.of(g, w, budget);
                        assertEquals(wr.traffic(), m.wholeLp(), at);
                        assertTrue(wr.rounded() <= FixedOrderBound.of(g, start, budget).rounded(), at);
                        long wLeast = BruteForceAccess.minTraffic(graph, ALL, budget, Schedule.of(g, w));
                        assertTrue(wr.rounded() >= wLeast && m.wholeLp() <= wLeast, at + ": whole " + wLeast);
                        wholes++;
                    }
                    long least = BruteForceAccess.minTraffic(graph, ALL, budget, Schedule.of(g, m.order()));
                    assertTrue(m.lp() <= least, at + ": LP " + m.lp() + " above the order's optimum " + least);
                    long before = BruteForceAccess.minTraffic(graph, ALL, budget, Schedule.of(g, start));
                    better += least < before ? 1 : 0;
                }
            }
        }
        assertTrue(moved >= 3, moved + " orders moved");
        assertTrue(better >= 1, "no moved order below its start's optimum (" + moved + " moved)");
        assertTrue(wholes >= 1, "no order on the way whose rounding never rose (" + moved + " moved)");
    }

    /**
     * A sink's extra places put it right before or right after another reader of one of its inputs (and the window
     * still bounds them in the search); an operator whose output is read gets none.
     */
    @Test
    void aSinkIsOfferedThePlacesBesideTheOtherReadersOfItsInputs() {
        int offered = 0;
        for (long seed = 1; seed <= 12; seed++) {
            for (Graph graph : new Graph[] {tiny(seed, 5), skips(seed, 6)}) {
                Graph g = graph.withSetting(ALL);
                int[] order = Schedule.defaultOrder(g).resolve(g);
                int[] pos = new int[order.length];
                for (int k = 0; k < order.length; k++) {
                    pos[order[k]] = k;
                }
                for (int i = 0; i < order.length; i++) {
                    int o = order[i];
                    boolean sink = Arrays.stream(g.outputs(o)).allMatch(y -> g.consumers(y).length == 0);
                    java.util.Set<Integer> places = OrderMoves.besideReaders(g, order, pos, i);
                    if (!sink) {
                        assertTrue(places.isEmpty(), g.name() + ": " + o + " is read, yet offered " + places);
                        continue;
                    }
                    java.util.Set<Integer> others = new java.util.HashSet<>();
                    for (int x : g.inputs(o)) {
                        for (int c : g.consumers(x)) {
                            if (c != o) {
                                others.add(c);
                            }
                        }
                    }
                    for (int t : places) {
                        int[] moved = OrderMoves.move(order, i, t);
                        boolean beside = (t > 0 && others.contains(moved[t - 1]))
                                || (t + 1 < moved.length && others.contains(moved[t + 1]));
                        assertTrue(beside, g.name() + ": " + o + " at " + t + " beside no other reader");
                        offered++;
                    }
                    for (int c : others) {
                        boolean before = false;
                        for (int t : places) {
                            int[] moved = OrderMoves.move(order, i, t);
                            before |= t + 1 < moved.length && moved[t + 1] == c;
                        }
                        assertTrue(before, g.name() + ": " + o + " never offered the place before " + c);
                    }
                }
            }
        }
        assertTrue(offered >= 10, offered + " places offered");
    }
}
