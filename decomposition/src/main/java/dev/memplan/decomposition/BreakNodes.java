package dev.memplan.decomposition;

import dev.memplan.model.Graph;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import org.jgrapht.graph.DefaultEdge;
import org.jgrapht.graph.EdgeReversedGraph;
import org.jgrapht.traverse.BreadthFirstIterator;

/**
 * Where to cut a graph into parts (COSMA section IV-C, "break nodes"). The paper picks break nodes by hand and
 * leaves automating it as future work; {@link #automatic} picks them from the graph.
 */
public final class BreakNodes {

    private BreakNodes() {
    }

    /**
     * Cuts of the default order into parts of at most {@code maxPart} operators that minimise the bytes crossing
     * the cuts (then the number of cuts): a cut after position i spills, in the paper's scheme, every produced
     * tensor written at or before i and read after i. A minimum-cost segmentation by dynamic programming over
     * the cut positions: O(n * maxPart) time, O(n + edges) for the crossing bytes (a difference array over each
     * tensor's producer-to-last-reader span). Cuts through few live bytes are exactly where a NAS network's
     * cells meet (two cell outputs live) and where a chain narrows, which is what the paper's hand-picked break
     * nodes are.
     *
     * @throws IllegalArgumentException when maxPart < 1
     */
    public static Partition automatic(Graph g, int maxPart) {
        int[] order = new int[g.operatorCount()];
        for (int o = 0; o < order.length; o++) {
            order[o] = o;
        }
        return automatic(g, maxPart, order);
    }

    /**
     * The same over another topological order (e.g. a starting plan's), so that each part runs at consecutive
     * timesteps of that plan.
     *
     * @param order operator indices in a topological order
     */
    public static Partition automatic(Graph g, int maxPart, int[] order) {
        if (maxPart < 1) {
            throw new IllegalArgumentException("the part size must be >= 1, got " + maxPart);
        }
        int n = g.operatorCount();
        int[] position = new int[n];
        for (int t = 0; t < n; t++) {
            position[order[t]] = t;
        }
        long[] crossing = crossingBytes(g, position);
        // best[i]: least (bytes, cuts) to split the first i operators; a cut ends a part at i.
        long[] bestBytes = new long[n + 1];
        int[] bestCuts = new int[n + 1];
        int[] from = new int[n + 1];
        Arrays.fill(bestBytes, Long.MAX_VALUE);
        bestBytes[0] = 0;
        for (int i = 1; i <= n; i++) {
            long cost = i == n ? 0 : crossing[i];
            for (int j = Math.max(0, i - maxPart); j < i; j++) {
                if (bestBytes[j] == Long.MAX_VALUE) {
                    continue;
                }
                long bytes = bestBytes[j] + cost;
                int cuts = bestCuts[j] + (i == n ? 0 : 1);
                if (bytes < bestBytes[i] || (bytes == bestBytes[i] && cuts < bestCuts[i])) {
                    bestBytes[i] = bytes;
                    bestCuts[i] = cuts;
                    from[i] = j;
                }
            }
        }
        List<int[]> parts = new ArrayList<>();
        for (int i = n; i > 0; i = from[i]) {
            int j = from[i];
            int[] part = new int[i - j];
            for (int k = 0; k < part.length; k++) {
                part[k] = order[j + k];
            }
            parts.add(0, part);
        }
        return Partition.checked(g, parts);
    }

    /**
     * The bytes crossing a cut of an order before position i (index 1..n-1): produced tensors written before i
     * and read at or after i.
     */
    static long[] crossingBytes(Graph g, int[] position) {
        int n = g.operatorCount();
        long[] diff = new long[n + 1];
        for (int t = 0; t < g.tensorCount(); t++) {
            int p = g.producer(t);
            if (p < 0) {
                continue;
            }
            int first = position[p];
            int last = first;
            for (int c : g.consumers(t)) {
                last = Math.max(last, position[c]);
            }
            if (last > first) {
                diff[first + 1] += g.size(t);
                diff[last + 1] -= g.size(t);
            }
        }
        long[] crossing = new long[n + 1];
        long running = 0;
        for (int i = 0; i <= n; i++) {
            running += diff[i];
            crossing[i] = running;
        }
        return crossing;
    }

    /**
     * The paper's scheme with break nodes given by name: part k holds break node k and its ancestors not in an
     * earlier part (break nodes taken in default order); the operators left form the last part. An ancestor
     * search on the reversed operator DAG (JGraphT), O(n + edges) per break node.
     *
     * @throws IllegalArgumentException naming an operator the graph does not have
     */
    public static Partition given(Graph g, List<String> names) {
        List<Integer> nodes = new ArrayList<>();
        for (String name : names) {
            int o = g.operatorIndex(name);
            if (o < 0) {
                throw new IllegalArgumentException("break node '" + name + "' is not an operator of graph '"
                        + g.name() + "'");
            }
            if (!nodes.contains(o)) {
                nodes.add(o);
            }
        }
        nodes.sort(null);
        EdgeReversedGraph<Integer, DefaultEdge> reversed = new EdgeReversedGraph<>(g.dag());
        BitSet taken = new BitSet(g.operatorCount());
        List<int[]> parts = new ArrayList<>();
        for (int node : nodes) {
            if (taken.get(node)) {
                continue;
            }
            BitSet part = new BitSet(g.operatorCount());
            BreadthFirstIterator<Integer, DefaultEdge> it = new BreadthFirstIterator<>(reversed, node);
            while (it.hasNext()) {
                int o = it.next();
                if (!taken.get(o)) {
                    part.set(o);
                }
            }
            taken.or(part);
            parts.add(part.stream().toArray());
        }
        BitSet rest = new BitSet(g.operatorCount());
        rest.set(0, g.operatorCount());
        rest.andNot(taken);
        if (!rest.isEmpty()) {
            parts.add(rest.stream().toArray());
        }
        return Partition.checked(g, parts);
    }
}
