package dev.memplan.datasets;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.memplan.model.Budgets;
import dev.memplan.model.Graph;
import dev.memplan.model.TensorSetting;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** A graph's sizes, and the rows import prints of them. */
class GraphSizesTest {
    @Test
    void theRowsOfAGraphNameItsInputsSizesAndOperatorTypes() {
        Graph g = Examples.graph("fig1");
        List<String[]> rows = GraphSizes.describe(g);
        assertEquals(List.of("graph", "inputs", "activation bytes", "parameter bytes", "M_R activations", "M_R all",
                "operators"), rows.stream().map(r -> r[0]).toList());
        Map<String, String> value = rows.stream().collect(Collectors.toMap(r -> r[0], r -> r[1]));
        assertEquals(g.name() + " (" + g.operatorCount() + " operators, " + g.tensorCount() + " tensors, "
                + g.outputs().size() + " outputs)", value.get("graph"));
        assertEquals(Long.toString(Budgets.minimumRequired(g.withSetting(TensorSetting.ALL))), value.get("M_R all"));
        GraphSizes sizes = GraphSizes.of(g);
        assertEquals(Long.toString(sizes.activationBytes()), value.get("activation bytes"));
        long operators = java.util.Arrays.stream(value.get("operators").split(", "))
                .mapToLong(t -> Long.parseLong(t.substring(t.lastIndexOf(' ') + 1))).sum();
        assertEquals(g.operatorCount(), operators);
    }
}
