package dev.memplan.decomposition;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.model.Graph;
import java.util.List;
import org.junit.jupiter.api.Test;

class BreakNodesTest {

    /** a -> b -> c -> d -> e -> f, each output 10 bytes except b's (1 byte): the cheapest cut is after b. */
    private static Graph narrowAfterB() {
        return Graph.builder("narrow")
                .activation("x", 10).activation("ta", 10).activation("tb", 1).activation("tc", 10)
                .activation("td", 10).activation("te", 10).activation("tf", 10)
                .operator("a", List.of("x"), List.of("ta"))
                .operator("b", List.of("ta"), List.of("tb"))
                .operator("c", List.of("tb"), List.of("tc"))
                .operator("d", List.of("tc"), List.of("td"))
                .operator("e", List.of("td"), List.of("te"))
                .operator("f", List.of("te"), List.of("tf"))
                .output("tf").build();
    }

    @Test
    void automaticCutsWhereFewestBytesCross() {
        Partition p = BreakNodes.automatic(narrowAfterB(), 4);
        assertEquals(2, p.size());
        assertArrayEquals(new int[] {0, 1}, p.parts().get(0));
        assertArrayEquals(new int[] {2, 3, 4, 5}, p.parts().get(1));
        assertArrayEquals(new long[] {1}, p.cutBytes());
    }

    @Test
    void partsNeverExceedTheLimitAndCoverEveryOperatorOnce() {
        Graph g = narrowAfterB();
        for (int max = 1; max <= 7; max++) {
            Partition p = BreakNodes.automatic(g, max);
            int total = 0;
            for (int[] part : p.parts()) {
                assertTrue(part.length <= max);
                total += part.length;
            }
            assertEquals(g.operatorCount(), total);
        }
        assertEquals(1, BreakNodes.automatic(g, 6).size(), "one part when the graph fits");
    }

    @Test
    void aTensorReadTwoPartsLaterCountsAtEveryCutItCrosses() {
        Graph g = Graph.builder("skip")
                .activation("x", 1).activation("t0", 5).activation("t1", 1).activation("t2", 1).activation("t3", 1)
                .operator("o0", List.of("x"), List.of("t0"))
                .operator("o1", List.of("t0"), List.of("t1"))
                .operator("o2", List.of("t1"), List.of("t2"))
                .operator("o3", List.of("t2", "t0"), List.of("t3"))
                .output("t3").build();
        Partition p = BreakNodes.automatic(g, 1);
        assertArrayEquals(new long[] {5, 6, 6}, p.cutBytes());
    }

    @Test
    void givenBreakNodesTakeTheirAncestors() {
        Graph g = Graph.builder("fork")
                .activation("x", 1).activation("a", 1).activation("b", 1).activation("c", 1).activation("d", 1)
                .operator("pa", List.of("x"), List.of("a"))
                .operator("pb", List.of("x"), List.of("b"))
                .operator("pc", List.of("a"), List.of("c"))
                .operator("pd", List.of("b", "c"), List.of("d"))
                .output("d").build();
        Partition p = BreakNodes.given(g, List.of("pc"));
        assertEquals(2, p.size());
        assertArrayEquals(new int[] {0, 2}, p.parts().get(0), "pc and its ancestor pa");
        assertArrayEquals(new int[] {1, 3}, p.parts().get(1));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BreakNodes.given(g, List.of("nope")));
        assertTrue(e.getMessage().contains("'nope'"));
    }
}
