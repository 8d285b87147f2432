package dev.memplan.formulations.cosma;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.memplan.datasets.RandomGraphs;
import dev.memplan.model.Graph;
import java.util.ArrayDeque;
import java.util.Deque;
import org.junit.jupiter.api.Test;

/** The free windows against a search from each operator: earliest = its ancestors, latest = n - 1 - descendants. */
class OperatorWindowsTest {
    @Test
    void theWindowsCountEveryAncestorAndDescendantOnce() {
        for (int seed = 1; seed <= 30; seed++) {
            Graph g = RandomGraphs.layered(seed, 12 + 3 * seed, 1 + seed % 4, 2 + seed % 5, 64, seed % 2 == 0);
            OperatorWindows w = OperatorWindows.free(g, true);
            int n = g.operatorCount();
            for (int o = 0; o < n; o++) {
                assertEquals(reached(g, o, false), w.earliest(o), "seed " + seed + ", operator " + o + "'s earliest");
                assertEquals(n - 1 - reached(g, o, true), w.latest(o),
                        "seed " + seed + ", operator " + o + "'s latest");
            }
        }
    }

    /** The operators reached from o through consumers (down) or producers (up), o not counted. */
    private static int reached(Graph g, int o, boolean down) {
        boolean[] seen = new boolean[g.operatorCount()];
        Deque<Integer> stack = new ArrayDeque<>();
        stack.push(o);
        int count = 0;
        while (!stack.isEmpty()) {
            int x = stack.pop();
            int[] tensors = down ? g.outputs(x) : g.inputs(x);
            for (int t : tensors) {
                int[] next = down ? g.consumers(t) : (g.producer(t) >= 0 ? new int[] {g.producer(t)} : new int[0]);
                for (int y : next) {
                    if (!seen[y]) {
                        seen[y] = true;
                        count++;
                        stack.push(y);
                    }
                }
            }
        }
        return count;
    }
}
