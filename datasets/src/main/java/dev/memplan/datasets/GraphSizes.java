package dev.memplan.datasets;

import dev.memplan.model.Budgets;
import dev.memplan.model.Graph;
import dev.memplan.model.Tensor;
import dev.memplan.model.TensorKind;
import dev.memplan.model.TensorSetting;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

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

    /**
     * An imported graph as (label, value) rows, as {@code memplan import} prints them: name and counts, the inputs
     * with their shapes, these sizes, and the operators by type.
     */
    public static List<String[]> describe(Graph g) {
        GraphSizes sizes = of(g);
        Map<String, Long> types = new TreeMap<>(g.operators().stream()
                .collect(Collectors.groupingBy(o -> String.valueOf(o.type()), Collectors.counting())));
        return List.of(new String[] {"graph", g.name() + " (" + g.operatorCount() + " operators, " + g.tensorCount()
                        + " tensors, " + g.outputs().size() + " outputs)"},
                new String[] {"inputs", g.tensors().stream().filter(x -> x.kind() == TensorKind.ACTIVATION)
                        .filter(x -> g.producer(g.tensorIndex(x.name())) < 0).map(x -> x.name() + x.shape())
                        .collect(Collectors.joining(", "))},
                new String[] {"activation bytes", Long.toString(sizes.activationBytes())},
                new String[] {"parameter bytes", Long.toString(sizes.parameterBytes())},
                new String[] {"M_R activations", Long.toString(sizes.minimumActivations())},
                new String[] {"M_R all", Long.toString(sizes.minimumAll())},
                new String[] {"operators", types.entrySet().stream().map(e -> e.getKey() + " " + e.getValue())
                        .collect(Collectors.joining(", "))});
    }
}
