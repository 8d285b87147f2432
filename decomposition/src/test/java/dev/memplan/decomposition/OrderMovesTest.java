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

    @Test
    void aMovedOrderIsTopologicalLowerAndNeverAboveItsOptimum() {
        Assumptions.assumeTrue(Solvers.nativeAvailable(), "OR-Tools natives");
        int moved = 0;
        int better = 0;
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
                    long least = BruteForceAccess.minTraffic(graph, ALL, budget, Schedule.of(g, m.order()));
                    assertTrue(m.lp() <= least, at + ": LP " + m.lp() + " above the order's optimum " + least);
                    long before = BruteForceAccess.minTraffic(graph, ALL, budget, Schedule.of(g, start));
                    better += least < before ? 1 : 0;
                }
            }
        }
        assertTrue(moved >= 3, moved + " orders moved");
        assertTrue(better >= 1, "no moved order below its start's optimum (" + moved + " moved)");
    }
}
