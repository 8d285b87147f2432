package dev.memplan.model;

import java.util.List;

/** A training step in miniature, shared by the tests of the levelled order (baselines and decomposition). */
public final class MiniTrainingStep {

    private MiniTrainingStep() {
    }

    /**
     * f2's output x2 (10 bytes) is saved for the input gradient ig, and the weight gradient wg (reads x1 and the
     * loss's gradient g) writes a 10-byte graph output. In the default order wg runs while x2 is live: 1 (x1) + 10
     * (x2) + 1 (g) + 10 (dw) = 22 bytes. After ig, x2 is dead: 13 at most.
     */
    public static Graph weightGradientOnThePeak() {
        return Graph.builder("mini:train")
                .activation("in", 1).activation("x1", 1).activation("x2", 10).activation(TrainingStep.LOSS, 1)
                .activation("g", 1).activation("dw", 10).activation("gx", 1).activation("dx", 1)
                .operator("f1", List.of("in"), List.of("x1"))
                .operator("f2", List.of("x1"), List.of("x2"))
                .operator(TrainingStep.LOSS, List.of("x2"), List.of(TrainingStep.LOSS, "g"))
                .operator("wg", List.of("x1", "g"), List.of("dw"))
                .operator("ig", List.of("x2", "g"), List.of("gx"))
                .operator("dg", List.of("gx"), List.of("dx"))
                .output(TrainingStep.LOSS).output("dw").output("dx")
                .build();
    }
}
