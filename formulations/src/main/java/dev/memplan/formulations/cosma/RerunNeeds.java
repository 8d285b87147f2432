package dev.memplan.formulations.cosma;

import dev.memplan.model.Graph;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What reruns after operator o's first run need beyond the live bytes, breadth first: a rerun of an operator p that
 * may pay ({@link Reruns#mayPay}; one that may not is never rerun in some optimal plan) needs p's inputs dead at o
 * (every first run reading them comes before o's; {@link RecomputeBound.Live#dead}), level 1; a need y of level below
 * the deepest whose producer q may pay, brought back by a rerun of q, needs q's dead inputs in turn, one level deeper.
 * An input live at o needs nothing: it is on chip at o, or it is off and its own price pays for a segment that starts
 * after o, one that may serve the rerun. An input of o itself is on chip at o within o's own bytes.
 *
 * <p>A need is a tensor reached from one of the roots (the operators whose reruns are asked about), with the need whose
 * producer's rerun first reached it, its parent (-1 at level 1). By {@link Identity}, a tensor reached twice is one
 * need (at its least level, with every need leading to it) or one need per path. Needs beyond the most asked for are
 * left out; each caller says why that is sound for it.
 */
final class RerunNeeds {

    /** When a tensor reached along two ways is one need. */
    enum Identity {
        /** Always: the needs form a graph, each tensor once, at its least level. */
        TENSOR,
        /** Never: the needs form a tree of paths, each its own need. */
        PATH
    }

    private final int[] tensor;
    private final int[] parent;
    private final int[][] rootNeeds;
    private final int[][] needs;

    private RerunNeeds(int[] tensor, int[] parent, int[][] rootNeeds, int[][] needs) {
        this.tensor = tensor;
        this.parent = parent;
        this.rootNeeds = rootNeeds;
        this.needs = needs;
    }

    /**
     * The needs of reruns of {@code roots} after o's first run.
     *
     * @param roots operators, -1 for none (needs nothing)
     * @param maxLevel the deepest level: a need at it may still be rerun, but that rerun's needs are left out
     * @param maxNeeds the most needs
     */
    static RerunNeeds of(Graph g, int o, int[] roots, RecomputeBound.Live pairs, boolean[] pays, int maxLevel,
                         int maxNeeds, Identity identity) {
        Walk walk = new Walk(g, o, pairs, maxNeeds, identity);
        int[][] rootNeeds = new int[roots.length][];
        for (int i = 0; i < roots.length; i++) {
            int p = roots[i];
            rootNeeds[i] = p < 0 || !pays[p] ? new int[0] : walk.deadInputs(p, 1, -1);
        }
        List<int[]> needs = new ArrayList<>();
        for (int j = 0; j < walk.tensors.size(); j++) { // breadth first: the list grows, each need at its least level
            int q = g.producer(walk.tensors.get(j));
            needs.add(q < 0 || !pays[q] || walk.level.get(j) >= maxLevel ? new int[0]
                    : walk.deadInputs(q, walk.level.get(j) + 1, j));
        }
        return new RerunNeeds(walk.tensors.stream().mapToInt(Integer::intValue).toArray(),
                walk.parent.stream().mapToInt(Integer::intValue).toArray(), rootNeeds, needs.toArray(new int[0][]));
    }

    /** The needs being found, in the order found. */
    private static final class Walk {
        private final Graph g;
        private final int o;
        private final RecomputeBound.Live pairs;
        private final int maxNeeds;
        private final Identity identity;
        private final Map<Integer, Integer> id = new HashMap<>();
        private final List<Integer> tensors = new ArrayList<>();
        private final List<Integer> level = new ArrayList<>();
        private final List<Integer> parent = new ArrayList<>();

        Walk(Graph g, int o, RecomputeBound.Live pairs, int maxNeeds, Identity identity) {
            this.g = g;
            this.o = o;
            this.pairs = pairs;
            this.maxNeeds = maxNeeds;
            this.identity = identity;
        }

        /** p's inputs dead at o, each once, as need indices (new ones at this level, up to the most needs). */
        int[] deadInputs(int p, int at, int from) {
            return Arrays.stream(g.inputs(p)).distinct().filter(y -> pairs.dead(o, y)).map(y -> {
                Integer known = identity == Identity.TENSOR ? id.get(y) : null;
                if (known != null) {
                    return known;
                }
                if (tensors.size() >= maxNeeds) {
                    return -1; // beyond the limit: left out
                }
                if (identity == Identity.TENSOR) {
                    id.put(y, tensors.size());
                }
                tensors.add(y);
                level.add(at);
                parent.add(from);
                return tensors.size() - 1;
            }).filter(j -> j >= 0).toArray();
        }
    }

    int count() {
        return tensor.length;
    }

    int tensor(int need) {
        return tensor[need];
    }

    /** The needs of root i's rerun, level 1. */
    int[] rootNeeds(int i) {
        return rootNeeds[i];
    }

    /** The needs of a rerun of this need's producer, one level deeper (none at the deepest level). */
    int[] needs(int need) {
        return needs[need];
    }

    /** Every need's path: its tensors from level 1 down to it, along parents; in the order found. */
    int[][] paths() {
        int[][] out = new int[tensor.length][];
        for (int j = 0; j < tensor.length; j++) {
            int[] up = parent[j] < 0 ? new int[0] : out[parent[j]];
            out[j] = Arrays.copyOf(up, up.length + 1);
            out[j][up.length] = tensor[j];
        }
        return out;
    }
}
