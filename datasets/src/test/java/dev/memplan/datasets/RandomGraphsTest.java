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

    @Test
    void layersHaveTheAskedWidthDepthAndFanIn() {
        Graph g = RandomGraphs.layers(5, 4, 6, 3, 100, false);
        assertEquals(24, g.operatorCount());
        assertEquals(GraphJson.toJson(g), GraphJson.toJson(RandomGraphs.layers(5, 4, 6, 3, 100, false)));
        for (int o = 0; o < g.operatorCount(); o++) {
            int layer = o / 4;
            int[] in = g.inputs(o);
            assertTrue(in.length >= 1 && in.length <= 3, "fan-in within 1..3");
            int first = g.producer(in[0]);
            assertEquals(layer - 1, first < 0 ? -1 : first / 4, "first input from the layer before");
            for (int t : in) {
                int p = g.producer(t);
                assertTrue(p < 0 || p / 4 < layer, "reads only earlier layers");
            }
        }
        for (int t = 0; t < g.tensorCount(); t++) {
            assertTrue(g.consumers(t).length > 0 || g.isGraphOutput(t), "no dead tensor: " + g.tensor(t).name());
        }
    }

    @Test
    void cellStacksAreIrregularAndReproducible() {
        Graph g = RandomGraphs.cells(11, 6, 4, 3, 8, true);
        assertEquals(GraphJson.toJson(g), GraphJson.toJson(RandomGraphs.cells(11, 6, 4, 3, 8, true)));
        assertNotEquals(GraphJson.toJson(g), GraphJson.toJson(RandomGraphs.cells(12, 6, 4, 3, 8, true)));
        // 2 stem ops + per cell: 4 nodes x (2 edges + 1 add) + 1 concat.
        assertEquals(2 + 6 * 13, g.operatorCount());
        boolean skipsACell = false;
        for (int o = 0; o < g.operatorCount(); o++) {
            String name = g.operator(o).name();
            for (int t : g.inputs(o)) {
                String from = g.tensor(t).name();
                // An edge of cell c that reads cell c-2's output skips a cell: the irregular wiring of NAS cells.
                if (name.matches("c\\d+\\.n\\d+\\.e\\d") && from.matches("c\\d+")) {
                    int c = Integer.parseInt(name.substring(1, name.indexOf('.')));
                    skipsACell |= Integer.parseInt(from.substring(1)) == c - 2;
                }
            }
        }
        assertTrue(skipsACell);
        assertEquals(1, g.outputs().size());
    }
}
