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

    /** Total size of the distinct tensors an operator reads and writes. */
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
        long[] delta = new long[graph.operatorCount() + 1];
        for (int t = 0; t < graph.tensorCount(); t++) {
            if (lifetimes.first(t) >= 0) {
                delta[lifetimes.first(t)] += graph.size(t);
                delta[lifetimes.last(t) + 1] -= graph.size(t);
            }
        }
        long peak = 0;
        long now = 0;
        for (int t = 0; t < graph.operatorCount(); t++) {
            now += delta[t];
            peak = Math.max(peak, now);
        }
        return peak;
    }

    /** M_H = floor((M_R + M_P) / 2). */
    public static long halfway(long minimumRequired, long minimumPeak) {
        return Math.floorDiv(minimumRequired + minimumPeak, 2);
    }
}
