package dev.memplan.datasets.zoo;

import dev.memplan.model.Graph;
import java.util.List;

/**
 * A built zoo network: its graph, its parameters counted as the reference implementation counts them (before
 * BatchNorm folding; {@link NetBuilder#referenceParameterCount()}) and the shape of each graph output.
 */
public record ZooNetwork(Graph graph, long referenceParameters, List<List<Long>> outputShapes) {

    public ZooNetwork {
        outputShapes = outputShapes.stream().map(List::copyOf).toList();
    }

    /** Finishes a builder whose outputs are {@code outputs}. */
    static ZooNetwork of(NetBuilder b, NetBuilder.Value... outputs) {
        for (NetBuilder.Value v : outputs) {
            b.output(v);
        }
        List<List<Long>> shapes = java.util.Arrays.stream(outputs)
                .map(v -> java.util.Arrays.stream(v.shape()).boxed().toList()).toList();
        return new ZooNetwork(b.build(), b.referenceParameterCount(), shapes);
    }
}
