package dev.memplan.model;

/**
 * What the model knows of a training step's graph (built by the datasets module's {@code TrainingGraphs}): its
 * forward operators come first, in order, then one loss operator named {@link #LOSS}, then the backward pass (and
 * the weight updates). Kept here so that the recompute schemes, which checkpoint the forward pass, need the model
 * only. O(1) per call.
 */
public final class TrainingStep {
    /** The name of the loss operator and of its output. */
    public static final String LOSS = "train/loss";

    private TrainingStep() {
    }

    /**
     * The number of forward operators of a training step: operators 0 .. k-1 are the forward pass, operator k is the
     * loss; -1 when {@code graph} has no loss operator (it is not a training step).
     */
    public static int forwardCount(Graph graph) {
        return graph.operatorIndex(LOSS);
    }
}
