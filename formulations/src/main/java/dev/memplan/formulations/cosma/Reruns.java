package dev.memplan.formulations.cosma;

import dev.memplan.model.Graph;
import dev.memplan.model.TrainingStep;

/**
 * Which operators the recompute program ({@link RecomputeFormulation}) may run more than once. A restriction of the
 * program: its optimum and bound are then those of the plans that rerun only these operators.
 */
public enum Reruns {
    /** Every operator (the program of the brute-force proof). */
    ANY,
    /**
     * A training step's forward operators ({@link TrainingStep#forwardCount}), the ones activation checkpointing
     * reruns; every operator when the graph is not a training step.
     */
    FORWARD;

    /** For each operator of the graph, whether it may run again. O(n). */
    public boolean[] of(Graph graph) {
        int n = graph.operatorCount();
        int forward = this == FORWARD ? TrainingStep.forwardCount(graph) : -1;
        int limit = forward < 0 ? n : forward;
        boolean[] may = new boolean[n];
        for (int o = 0; o < limit; o++) {
            may[o] = true;
        }
        return may;
    }
}
