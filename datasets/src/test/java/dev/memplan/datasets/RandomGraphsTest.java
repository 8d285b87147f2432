package dev.memplan.datasets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.model.Graph;
import dev.memplan.model.TensorKind;
import dev.memplan.model.io.GraphJson;
import org.junit.jupiter.api.Test;

class RandomGraphsTest {

    @Test
    void sameSeedSameGraph() {
        String a = GraphJson.toJson(RandomGraphs.layered(3, 50, 3, 10, 100, true));
        String b = GraphJson.toJson(RandomGraphs.layered(3, 50, 3, 10, 100, true));
        assertEquals(a, b);
        assertNotEquals(a, GraphJson.toJson(RandomGraphs.layered(4, 50, 3, 10, 100, true)));
    }

    @Test
    void shapeFollowsTheParameters() {
        Graph g = RandomGraphs.layered(1, 40, 2, 5, 64, true);
        assertEquals(40, g.operatorCount());
        assertEquals(40, g.tensors().stream().filter(t -> t.kind() == TensorKind.PARAMETER).count());
        for (int o = 0; o < g.operatorCount(); o++) {
            assertTrue(g.inputs(o).length >= 2 && g.inputs(o).length <= 3);
            for (int t : g.inputs(o)) {
                int p = g.producer(t);
                assertTrue(p < 0 || o - p <= 5, "reads within the window");
            }
        }
        assertTrue(g.tensors().stream().allMatch(t -> t.size() >= 1 && t.size() <= 64));
    }
}
