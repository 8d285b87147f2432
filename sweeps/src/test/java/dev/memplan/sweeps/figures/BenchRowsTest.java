package dev.memplan.sweeps.figures;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.memplan.baselines.replacement.Schemes;
import dev.memplan.sweeps.ResultRow;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The tables of bench compare and bench cosma: a line once its group is complete, the best start, the reduction. */
class BenchRowsTest {
    private static ResultRow row(String planner, Long traffic) {
        return new ResultRow(planner, "spec", "resnet50", "activations", "M_H", 2048L, planner, "cpsat", null, 1, 0,
                "FEASIBLE", 64L, traffic, traffic, 0L, 100L, 0.5, 1.25, 10L, 20L, 900L, 1000L, 1000L, 3000L, null,
                "vm", "0.1.0", Instant.EPOCH, null, 60.0, 12.5, true, "0123abcd", "OR-Tools", 0L, 0L, 0L, null,
                traffic == null ? null : (double) traffic);
    }

    @Test
    void aComparisonLineComesWhenEveryPlannerOfItsCaseIsIn() {
        ComparisonRows t = new ComparisonRows(List.of("resnet50"), List.of("activations"), List.of("M_H"),
                List.of("a/b/c", "d/e/f"), true);
        assertNull(t.add(row("a/b/c", 400L)));
        assertNull(t.add(row("d/e/f", 200L)));
        String[] line = t.add(row("cosma[encoding=joint]", 150L));
        assertArrayEquals(new String[] {"resnet50", "activations", "M_H", "2048", "400", "200", "200", "150",
            "FEASIBLE", "100", "1.25", "25.0%"}, line);
        assertEquals(1, t.lines().size());
        assertEquals(12, t.header().length);
        assertEquals("0.0%", ComparisonRows.reduction(0, 0));
        assertEquals("-", ComparisonRows.reduction(5, 0));
    }

    @Test
    void aCosmaLineComesOnceTheSchemesOfItsStartAreIn() {
        CosmaRows t = new CosmaRows("decoupled");
        assertEquals(List.of(), t.add(row("cosma[schedule=mpmf]", 90L)));
        List<String[]> lines = List.of();
        for (String scheme : Schemes.PAPER) {
            lines = t.add(row(scheme, scheme.startsWith("mpmf/") ? 120L : 100L));
        }
        assertEquals(1, lines.size());
        assertEquals("mpmf", lines.get(0)[4]);
        assertEquals("120", lines.get(0)[5]);
        assertEquals("90", lines.get(0)[7]);
        assertEquals(List.of(), t.add(row("a/b/c", 1L)), "a line is printed once");
    }
}
