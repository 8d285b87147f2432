package dev.memplan.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class GraphTest {

    private static Graph.Builder chain() {
        return Graph.builder("chain").activation("x", 10).parameter("w", 5).activation("y", 20).activation("z", 30)
                .operator("a", List.of("x", "w"), List.of("y"))
                .operator("b", List.of("y"), List.of("z"))
                .output("z");
    }

    private static InvalidGraphException rejects(Graph.Builder builder) {
        return assertThrows(InvalidGraphException.class, builder::build);
    }

    @Test
    void validGraphIsIndexed() {
        Graph g = chain().build();
        assertEquals(2, g.operatorCount());
        assertEquals(4, g.tensorCount());
        int y = g.tensorIndex("y");
        assertEquals(0, g.producer(y));
        assertArrayEquals(new int[] {1}, g.consumers(y));
        assertTrue(g.isHost(g.tensorIndex("x")));
        assertTrue(g.isHost(g.tensorIndex("w")));
        assertTrue(g.isGraphOutput(g.tensorIndex("z")));
        assertFalse(g.isGraphOutput(y));
        assertEquals(2, g.dag().vertexSet().size());
        assertEquals(1, g.dag().edgeSet().size());
        assertEquals(-1, g.tensorIndex("nope"));
    }

    @Test
    void activationsSettingDropsParameters() {
        Graph g = chain().build();
        Graph a = g.withSetting(TensorSetting.ACTIVATIONS);
        assertEquals(3, a.tensorCount());
        assertEquals(-1, a.tensorIndex("w"));
        assertEquals(List.of("x"), a.operator(0).inputs());
        assertSame(g, g.withSetting(TensorSetting.ALL));
        assertSame(a, a.withSetting(TensorSetting.ACTIVATIONS));
    }

    @Test
    void repeatedInputIsOneTensor() {
        Graph g = Graph.builder("sq").activation("x", 4).activation("y", 4)
                .operator("mul", List.of("x", "x"), List.of("y")).build();
        assertArrayEquals(new int[] {0}, g.inputs(0));
        assertEquals(8, Budgets.minimumRequired(g));
    }

    @Test
    void rejectsDuplicateTensorName() {
        InvalidGraphException e = rejects(chain().activation("y", 3));
        assertEquals("tensors[4].name", e.where());
        assertTrue(e.getMessage().contains("duplicate tensor name 'y'"), e.getMessage());
    }

    @Test
    void rejectsDuplicateOperatorName() {
        InvalidGraphException e = rejects(chain().activation("q", 1).operator("a", List.of("z"), List.of("q")));
        assertEquals("operators[2].name", e.where());
        assertTrue(e.getMessage().contains("duplicate operator name 'a'"), e.getMessage());
    }

    @Test
    void rejectsNonPositiveSize() {
        assertTrue(rejects(chain().activation("q", 0)).getMessage().contains("'q' has size 0"));
        InvalidGraphException e = rejects(chain().activation("q", -4));
        assertEquals("tensors[4].size", e.where());
        assertTrue(e.getMessage().contains("size -4"), e.getMessage());
    }

    @Test
    void rejectsUnknownTensor() {
        InvalidGraphException e = rejects(chain().activation("q", 1).operator("c", List.of("z", "ghost"), List.of("q")));
        assertEquals("operators[2].inputs[1]", e.where());
        assertTrue(e.getMessage().contains("unknown tensor 'ghost'"), e.getMessage());
        e = rejects(chain().operator("c", List.of("z"), List.of("ghost")));
        assertEquals("operators[2].outputs[0]", e.where());
    }

    @Test
    void rejectsTwoProducers() {
        InvalidGraphException e = rejects(chain().operator("c", List.of("x"), List.of("y")));
        assertEquals("operators[2].outputs[0]", e.where());
        assertTrue(e.getMessage().contains("'y' has two producers: 'a' and 'c'"), e.getMessage());
    }

    @Test
    void rejectsOperatorWithNoOutput() {
        InvalidGraphException e = rejects(chain().operator("sink", List.of("z"), List.of()));
        assertTrue(e.getMessage().contains("operator 'sink' has no output"), e.getMessage());
    }

    @Test
    void rejectsProducedParameter() {
        InvalidGraphException e = rejects(chain().parameter("p", 3).operator("c", List.of("z"), List.of("p")));
        assertTrue(e.getMessage().contains("writes parameter tensor 'p'"), e.getMessage());
    }

    @Test
    void rejectsCycle() {
        Graph.Builder b = Graph.builder("loop").activation("p", 1).activation("q", 1).activation("r", 1)
                .operator("f", List.of("r"), List.of("p"))
                .operator("g", List.of("p"), List.of("q"))
                .operator("h", List.of("q"), List.of("r"));
        InvalidGraphException e = rejects(b);
        assertTrue(e.getMessage().contains("cycle through the operators 'f', 'g', 'h'"), e.getMessage());
    }

    @Test
    void rejectsSelfLoop() {
        InvalidGraphException e = rejects(Graph.builder("self").activation("p", 1)
                .operator("f", List.of("p"), List.of("p")));
        assertTrue(e.getMessage().contains("cycle: operator 'f' reads its own output 'p'"), e.getMessage());
    }

    @Test
    void rejectsDefaultOrderThatIsNotTopological() {
        Graph.Builder b = Graph.builder("backwards").activation("x", 1).activation("y", 1).activation("z", 1)
                .operator("second", List.of("y"), List.of("z"))
                .operator("first", List.of("x"), List.of("y"));
        InvalidGraphException e = rejects(b);
        assertEquals("operators[0]", e.where());
        assertTrue(e.getMessage().contains("not topological: 'second' reads 'y'"), e.getMessage());
    }

    @Test
    void rejectsBadGraphOutputs() {
        assertTrue(rejects(chain().output("ghost")).getMessage().contains("graph output 'ghost' is not a tensor"));
        assertTrue(rejects(chain().output("x")).getMessage().contains("produced by no operator"));
        assertTrue(rejects(chain().output("z")).getMessage().contains("listed twice"));
    }

    @Test
    void rejectsBadAlignment() {
        assertEquals("alignment", rejects(chain().alignment(0)).where());
    }
}
