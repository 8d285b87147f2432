package dev.memplan.formulations.cosma;

import dev.memplan.model.Graph;
import dev.memplan.model.TrainingStep;
import java.math.BigDecimal;

/**
 * Which operators the recompute program ({@link RecomputeFormulation}) may run more than once. A restriction of the
 * program: its optimum and bound are then those of the plans that rerun only these operators. Within either set the
 * program reruns only the operators that {@link #mayPay} at its lambda, which keeps both: by the dominance argument
 * there, a plan of at most k reruns of the set becomes one no dearer with at most k reruns of the set's operators that
 * may pay (the reruns are only removed, the first runs and their order stay, so a fixed schedule's plan stays one).
 * So the program's optimum over its plans is the optimum over every plan of at most k reruns of the set, and its bound
 * bounds all of those too (with {@link #FORWARD}: every plan with at most k reruns of forward operators).
 */
public enum Reruns {
    /** Every operator (the program of the brute-force proof). */
    ANY,
    /**
     * A training step's forward operators ({@link TrainingStep#forwardCount}), the ones activation checkpointing
     * reruns; every operator when the graph is not a training step.
     */
    FORWARD;

    /**
     * For each operator of the graph, whether it may run again at recompute weight lambda: it is in the set and
     * {@link #mayPay}. O(n + m).
     */
    public boolean[] of(Graph graph, double lambda) {
        int n = graph.operatorCount();
        int forward = this == FORWARD ? TrainingStep.forwardCount(graph) : -1;
        int limit = forward < 0 ? n : forward;
        boolean[] may = new boolean[n];
        for (int o = 0; o < limit; o++) {
            may[o] = mayPay(graph, lambda, o);
        }
        return may;
    }

    /**
     * Whether a rerun of the operator can lower the objective at recompute weight lambda (memory-model.md,
     * "Recomputation"): false when lambda c(p) >= the sum over p's outputs of size plus spill charge (the size
     * again, except for a graph output, whose write is compulsory). Then some optimal plan never reruns p.
     *
     * <p>Why: take any plan with k >= 1 reruns of p. Replace each rerun by loads of the outputs it made that are
     * read later, each at the timestep after the rerun's and at the same offset, and drop the rerun's timestep; cut
     * every segment back to its last read that is left. Each output of p was created at p's first run in a segment
     * that ended before the rerun (no segment runs through a recompute), so it may be written out there (one spill,
     * charged once) and loaded again. At every timestep left the same tensors or fewer are resident (the rerun's
     * inputs no longer need to be), at the same offsets; every read is still inside a segment. The plan gains at
     * most k x the outputs' bytes in loads plus their spills once, at most k (bytes + spill charges) <= k lambda
     * c(p), and saves the k reruns' k lambda c(p). Done for every such operator, the reruns left are all of
     * operators for which this is true. The comparison is exact (lambda in {@link BigDecimal}).
     */
    public static boolean mayPay(Graph g, double lambda, int operator) {
        long bytes = 0;
        for (int x : g.outputs(operator)) {
            bytes = Math.addExact(bytes, g.isGraphOutput(x) ? g.size(x) : Math.multiplyExact(2, g.size(x)));
        }
        BigDecimal rerun = new BigDecimal(lambda).multiply(BigDecimal.valueOf(g.cost(operator)));
        return rerun.compareTo(BigDecimal.valueOf(bytes)) < 0;
    }
}
