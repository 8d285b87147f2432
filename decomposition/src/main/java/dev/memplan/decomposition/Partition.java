package dev.memplan.decomposition;

import dev.memplan.model.Graph;
import java.util.Arrays;
import java.util.List;

/**
 * The graph's operators split into parts that run one after the other: every part is closed under the
 * predecessors that are not in an earlier part, so any topological order of each part, concatenated in part
 * order, is a topological order of the graph. {@code cutBytes[k]} are the bytes of produced tensors that cross
 * the cut after part k (written before it, read after it): what the paper's spill-at-cut scheme spills there.
 *
 * @param parts operator indices of each part, in a topological order (the default one, or a starting plan's)
 */
public record Partition(List<int[]> parts, long[] cutBytes) {

    public Partition {
        parts = List.copyOf(parts);
        cutBytes = cutBytes.clone();
    }

    public int size() {
        return parts.size();
    }

    /** The largest part's operator count. */
    public int largestPart() {
        return parts.stream().mapToInt(p -> p.length).max().orElse(0);
    }

    /** The sum of the bytes crossing every cut. */
    public long totalCutBytes() {
        return Arrays.stream(cutBytes).sum();
    }

    /**
     * Checks the invariant: every operator in exactly one part, every producer of an operator's input in the same
     * or an earlier part.
     *
     * @throws IllegalArgumentException naming the first operator that breaks it
     */
    static Partition checked(Graph g, List<int[]> parts) {
        int[] partOf = new int[g.operatorCount()];
        Arrays.fill(partOf, -1);
        for (int k = 0; k < parts.size(); k++) {
            for (int o : parts.get(k)) {
                if (partOf[o] >= 0) {
                    throw new IllegalArgumentException("operator '" + g.operator(o).name() + "' is in two parts");
                }
                partOf[o] = k;
            }
        }
        for (int o = 0; o < g.operatorCount(); o++) {
            if (partOf[o] < 0) {
                throw new IllegalArgumentException("operator '" + g.operator(o).name() + "' is in no part");
            }
            for (int t : g.inputs(o)) {
                int p = g.producer(t);
                if (p >= 0 && partOf[p] > partOf[o]) {
                    throw new IllegalArgumentException("operator '" + g.operator(o).name() + "' reads '"
                            + g.tensor(t).name() + "' from a later part");
                }
            }
        }
        long[] cut = new long[Math.max(0, parts.size() - 1)];
        for (int t = 0; t < g.tensorCount(); t++) {
            int p = g.producer(t);
            if (p < 0) {
                continue;
            }
            int last = partOf[p];
            for (int c : g.consumers(t)) {
                last = Math.max(last, partOf[c]);
            }
            for (int k = partOf[p]; k < last; k++) {
                cut[k] += g.size(t);
            }
        }
        return new Partition(parts, cut);
    }
}
