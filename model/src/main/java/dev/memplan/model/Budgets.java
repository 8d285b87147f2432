package dev.memplan.model;

/**
 * The budgets of memory-model.md that need no solver: M_R, and the peak footprint of a given schedule when
 * nothing is spilled. M_P (a minimum over schedules) and M_H come from the formulations module.
 */
public final class Budgets {

    private Budgets() {
    }

    /**
     * M_R: max over operators of the total size of the distinct tensors they read and write. No plan exists
     * below it. The graph must already be in its tensor setting.
     */
    public static long minimumRequired(Graph graph) {
        long best = 0;
        for (int o = 0; o < graph.operatorCount(); o++) {
            best = Math.max(best, operatorFootprint(graph, o));
        }
        return best;
    }

    /**
     * The smallest budget at which every operator's tensors can be placed at addresses that are multiples of
     * the alignment: their sizes rounded up to the alignment, except the one placed on top, which needs only
     * its size (the one that wastes most goes there). Equals M_R when the alignment is 1; for B at or above it
     * the just-in-time plan exists. memory-model.md defines M_R without alignment, so M_R can be below it.
     */
    public static long minimumFeasible(Graph graph) {
        long best = 0;
        long a = graph.alignment();
        for (int o = 0; o < graph.operatorCount(); o++) {
            long rounded = 0;
            long mostWaste = 0;
            for (int[] group : new int[][] {graph.inputs(o), graph.outputs(o)}) {
                for (int t : group) {
                    long r = roundUp(graph.size(t), a);
                    // Padding can take the total past 2^53 (never past 2^63 unless saturated): no budget is that big.
                    rounded = ByteRange.add(rounded, r);
                    mostWaste = Math.max(mostWaste, r - graph.size(t));
                }
            }
            best = Math.max(best, rounded - mostWaste);
        }
        return best;
    }

    /** The smallest multiple of {@code alignment} that is >= {@code value}. */
    public static long roundUp(long value, long alignment) {
        return Math.floorDiv(value + alignment - 1, alignment) * alignment;
    }

    /**
     * Total size of the distinct tensors an operator reads and writes. At most the sum of the graph's sizes, which
     * {@link Graph} keeps within {@link ByteRange#MAX}: no overflow.
     */
    public static long operatorFootprint(Graph graph, int operator) {
        long sum = 0;
        for (int t : graph.inputs(operator)) {
            sum += graph.size(t);
        }
        for (int t : graph.outputs(operator)) {
            sum += graph.size(t);
        }
        return sum;
    }

    /**
     * The peak footprint of a schedule when nothing is ever spilled or loaded twice: every used host tensor
     * is resident from its first use to its last, every produced tensor from its creation to its last use.
     */
    public static long footprint(Graph graph, Schedule schedule) {
        Lifetimes lifetimes = Lifetimes.of(graph, schedule);
        int[] used = java.util.stream.IntStream.range(0, graph.tensorCount()).filter(t -> lifetimes.first(t) >= 0)
                .toArray();
        int[] starts = new int[used.length];
        int[] ends = new int[used.length];
        long[] sizes = new long[used.length];
        for (int i = 0; i < used.length; i++) {
            starts[i] = lifetimes.first(used[i]);
            ends[i] = lifetimes.last(used[i]);
            sizes[i] = graph.size(used[i]);
        }
        return Timeline.peak(graph.operatorCount(), starts, ends, sizes);
    }

    /** M_H = floor((M_R + M_P) / 2), without overflow for any two non-negative values. */
    public static long halfway(long minimumRequired, long minimumPeak) {
        return minimumRequired / 2 + minimumPeak / 2 + (minimumRequired % 2 + minimumPeak % 2) / 2;
    }
}
