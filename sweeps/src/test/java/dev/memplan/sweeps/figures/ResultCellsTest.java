package dev.memplan.sweeps.figures;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ResultCellsTest {
    private static FinishedCase row(String graph, String setting, String budget, String planner, String solver,
            double limit, int repeat, FinishedCase.Status status, Long traffic, Double gap, double seconds) {
        return new FinishedCase(graph, setting, budget, 100L, planner, solver, limit, repeat, status, traffic, null, gap,
                seconds, null);
    }

    @Test
    void budgetsRunFromTightToLooseAndBytesLast() {
        List<FinishedCase> rows = new ArrayList<>();
        for (String b : List.of("4096", "M_P", "0.75", "M_H", "M_R", "0.25")) {
            rows.add(row("g", "activations", b, "cosma", "", 10, 0, FinishedCase.Status.OPTIMAL, 1L, null, 1));
        }
        assertEquals(List.of("M_R", "0.25", "M_H", "0.75", "M_P", "4096"),
                new ResultCells(rows, null, null, null).budgets());
    }

    @Test
    void panelsAndSeriesFollowTheFiltersOrderElseNames() {
        List<FinishedCase> rows = new ArrayList<>();
        for (String g : List.of("vgg16", "resnet50")) {
            for (String s : List.of("all", "activations")) {
                for (String p : List.of("greedy", "cosma", "belady")) {
                    rows.add(row(g, s, "M_R", p, "", 10, 0, FinishedCase.Status.OPTIMAL, 1L, null, 1));
                }
            }
        }
        ResultCells byName = new ResultCells(rows, null, null, null);
        assertEquals(List.of(new ResultCells.Panel("resnet50", "activations"), new ResultCells.Panel("resnet50", "all"),
                new ResultCells.Panel("vgg16", "activations"), new ResultCells.Panel("vgg16", "all")), byName.panels());
        assertEquals(List.of("belady", "greedy", "cosma"), byName.series(), "by name, cosma last as in the paper");
        ResultCells chosen = new ResultCells(rows, List.of("all"), List.of("vgg16", "resnet50"), List.of("greedy", "cosma"));
        assertEquals(List.of(new ResultCells.Panel("vgg16", "all"), new ResultCells.Panel("resnet50", "all")),
                chosen.panels());
        assertEquals(List.of("greedy", "cosma"), chosen.series());
        assertNull(chosen.cell(new ResultCells.Panel("vgg16", "activations"), "M_R", "cosma"));
    }

    @Test
    void filtersNamingWhatIsNotThereAreRefused() {
        List<FinishedCase> rows = List.of(row("vgg16", "activations", "M_R", "cosma", "", 10, 0, FinishedCase.Status.OPTIMAL,
                1L, null, 1));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new ResultCells(rows, null, List.of("resnet"), null));
        assertEquals("no results for graph 'resnet'; the results hold: vgg16", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new ResultCells(rows, List.of("all"), null, null));
        assertThrows(IllegalArgumentException.class, () -> new ResultCells(rows, null, null, List.of("tflite")));
    }

    @Test
    void solversAndTimeLimitsOfOnePlannerAreSeparateSeries() {
        List<FinishedCase> rows = List.of(
                row("g", "activations", "M_R", "cosma", "cpsat", 120, 0, FinishedCase.Status.OPTIMAL, 5L, null, 3),
                row("g", "activations", "M_R", "cosma", "scip", 120, 0, FinishedCase.Status.FEASIBLE, 7L, 0.5, 120),
                row("g", "activations", "M_R", "cosma", "scip", 0.5, 0, FinishedCase.Status.UNKNOWN, null, null, 0.5),
                row("g", "activations", "M_R", "belady", "", 120, 0, FinishedCase.Status.HEURISTIC, 9L, null, 0.1));
        ResultCells cells = new ResultCells(rows, null, null, null);
        assertEquals(List.of("belady", "cosma cpsat 120s", "cosma scip 0.5s", "cosma scip 120s"), cells.series());
        ResultCells.Panel p = cells.panels().get(0);
        assertEquals("F 50.0%", cells.cell(p, "M_R", "cosma scip 120s").mark());
        assertEquals("U", cells.cell(p, "M_R", "cosma scip 0.5s").mark());
        assertEquals("", cells.cell(p, "M_R", "cosma cpsat 120s").mark());
        assertEquals("H", cells.cell(p, "M_R", "belady").mark());
    }

    @Test
    void repeatsCollapseToTheWorstTrafficTheWeakestStatusAndTheMedianTime() {
        List<FinishedCase> rows = List.of(
                row("g", "activations", "M_R", "cosma", "cpsat", 120, 0, FinishedCase.Status.OPTIMAL, 5L, 0.0, 3),
                row("g", "activations", "M_R", "cosma", "cpsat", 120, 1, FinishedCase.Status.FEASIBLE, 8L, 0.2, 120),
                row("g", "activations", "M_R", "cosma", "cpsat", 120, 2, FinishedCase.Status.OPTIMAL, 5L, 0.0, 4));
        ResultCells cells = new ResultCells(rows, null, null, null);
        ResultCells.Cell c = cells.cell(cells.panels().get(0), "M_R", "cosma");
        assertEquals(new ResultCells.Cell(FinishedCase.Status.FEASIBLE, 8L, 0.2, 4.0, 3, null), c);
        assertTrue(c.mark().startsWith("F"));
    }

    /** A planner run at several recompute weights is a series per weight, never repeats collapsed into one cell. */
    @Test
    void recomputeWeightsAreSeriesOfTheirOwn() {
        FinishedCase.Status h = FinishedCase.Status.HEURISTIC;
        List<FinishedCase> rows = List.of(
                new FinishedCase("g", "activations", "M_R", 100L, "cosma", "cpsat", 10.0, 0, h, 50L, null, null, 1.0,
                        null, 0L, null),
                new FinishedCase("g", "activations", "M_R", 100L, "cosma", "cpsat", 10.0, 0, h, 40L, null, null, 1.0,
                        null, 7L, 0.5),
                new FinishedCase("g", "activations", "M_R", 100L, "cosma", "cpsat", 10.0, 0, h, 45L, null, null, 1.0,
                        null, 2L, 2.0),
                new FinishedCase("g", "activations", "M_R", 100L, "cosma", "cpsat", 10.0, 0, h, 48L, null, null, 1.0,
                        null, 1L, 16.0),
                new FinishedCase("g", "activations", "M_R", 100L, "default/belady/tflite", "", 10.0, 0, h, 90L, null,
                        null, 1.0, null, 0L, null));
        ResultCells cells = new ResultCells(rows, null, null, null);
        assertEquals(List.of("default/belady/tflite", "cosma (spill only)", "cosma lambda=0.5", "cosma lambda=2",
                "cosma lambda=16"),
                cells.series());
        ResultCells.Panel g = cells.panels().get(0);
        assertEquals(40L, cells.cell(g, "M_R", "cosma lambda=0.5").traffic());
        assertEquals(1, cells.cell(g, "M_R", "cosma lambda=0.5").repeats());
        assertEquals(50L, cells.cell(g, "M_R", "cosma (spill only)").traffic());
    }
}
