package dev.memplan.datasets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.model.Graph;
import org.junit.jupiter.api.Test;

class GeneratedGraphsTest {

    @Test
    void layeredHasExactlyTheOperatorsAskedForAndIsSeeded() {
        Graph a = GeneratedGraphs.graph("gen:layered:200:7");
        assertEquals(200, a.operators().size());
        assertEquals(a.tensors(), GeneratedGraphs.graph("gen:layered:200:7").tensors());
        assertEquals(a.tensors(), RandomGraphs.layered(7, 200, 3, 4, 4096, true).tensors());
    }

    @Test
    void cellsHaveAboutTheOperatorsAskedFor() {
        int n = GeneratedGraphs.graph("gen:cells:1000").operators().size();
        assertTrue(n > 900 && n <= 1000, "operators: " + n);
        assertTrue(GeneratedGraphs.isWellFormedName("gen:cells:1000"));
        assertTrue(GeneratedGraphs.isWellFormedName("gen:layered:5:-3"));
    }

    @Test
    void malformedNamesAreRejectedWithTheExpectedForm() {
        for (String bad : new String[] {"gen:", "gen:layered", "gen:tree:10", "gen:layered:0", "gen:layered:2000000",
            "gen:layered:10:x", "gen:layered:99999999999"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> GeneratedGraphs.graph(bad));
            assertTrue(e.getMessage().contains(bad), e.getMessage());
        }
        for (String malformed : new String[] {"gen:", "gen:layered", "gen:tree:10", "gen:layered:10:x",
            "gen:layered:99999999999"}) {
            assertFalse(GeneratedGraphs.isWellFormedName(malformed), malformed);
        }
    }
}
