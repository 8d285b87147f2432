package dev.memplan.datasets;

import dev.memplan.model.Budgets;
import dev.memplan.model.Graph;
import dev.memplan.model.Tensor;
import dev.memplan.model.TensorKind;
import dev.memplan.model.TensorSetting;

/**
 * The sizes of a graph that the zoo's table and {@code memplan import} print: the bytes of its activations and of
 * its parameters, and M_R in each tensor setting (memory-model.md, "Budgets").
 */
public record GraphSizes(long activationBytes, long parameterBytes, long minimumActivations, long minimumAll) {
    /** The sizes of {@code g}, whatever its setting. */
    public static GraphSizes of(Graph g) {
        long activations = 0;
        long parameters = 0;
        for (Tensor t : g.tensors()) {
            if (t.kind() == TensorKind.PARAMETER) {
                parameters += t.size();
            } else {
                activations += t.size();
            }
        }
        return new GraphSizes(activations, parameters, Budgets.minimumRequired(g.withSetting(TensorSetting.ACTIVATIONS)),
                Budgets.minimumRequired(g.withSetting(TensorSetting.ALL)));
    }
}
