package dev.memplan.datasets;

import dev.memplan.model.Graph;
import java.util.ArrayList;
import java.util.List;

/** Every topological order of a small graph, by backtracking: a brute-force oracle for tests. */
final class TopologicalOrders {

    private TopologicalOrders() {
    }

    static List<List<String>> all(Graph graph) {
        List<List<String>> out = new ArrayList<>();
        extend(graph, new boolean[graph.operatorCount()], new ArrayList<>(), out);
        return out;
    }

    private static void extend(Graph g, boolean[] done, List<String> prefix, List<List<String>> out) {
        if (prefix.size() == g.operatorCount()) {
            out.add(List.copyOf(prefix));
            return;
        }
        for (int o = 0; o < g.operatorCount(); o++) {
            if (!done[o] && ready(g, o, done)) {
                done[o] = true;
                prefix.add(g.operator(o).name());
                extend(g, done, prefix, out);
                prefix.remove(prefix.size() - 1);
                done[o] = false;
            }
        }
    }

    private static boolean ready(Graph g, int o, boolean[] done) {
        for (int t : g.inputs(o)) {
            if (g.producer(t) >= 0 && !done[g.producer(t)]) {
                return false;
            }
        }
        return true;
    }
}
