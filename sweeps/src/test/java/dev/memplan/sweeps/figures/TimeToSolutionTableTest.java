package dev.memplan.sweeps.figures;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class TimeToSolutionTableTest {
    private static ResultCells cells() {
        List<FinishedCase> rows = List.of(
                new FinishedCase("pnasnet_5", "activations", "M_R", 10L, "cosma", "cpsat", 120.0, 0, FinishedCase.Status.OPTIMAL,
                        0L, 0L, 0.0, 12.24, null),
                new FinishedCase("pnasnet_5", "activations", "M_P", 20L, "cosma", "cpsat", 120.0, 0, FinishedCase.Status.FEASIBLE,
                        40L, 30L, 0.25, 120.0, null),
                new FinishedCase("darts", "activations", "M_R", 10L, "cosma", "cpsat", 120.0, 0, FinishedCase.Status.UNKNOWN,
                        null, null, null, 120.0, null),
                new FinishedCase("darts", "activations", "M_P", 10L, "cosma", "cpsat", 120.0, 0, FinishedCase.Status.ERROR,
                        null, null, null, null, "solver\n died"),
                new FinishedCase("darts", "activations", "M_R", 10L, "default/belady/tflite", "", 120.0, 0,
                        FinishedCase.Status.HEURISTIC, 9L, null, null, 0.042, null));
        return new ResultCells(rows, null, null, null);
    }

    @Test
    void markdownHasARowPerNetworkAndAColumnPerPlannerAndBudget() {
        String expected = """
                | network | setting | default/belady/tflite M_R | default/belady/tflite M_P | cosma M_R | cosma M_P |
                | --- | --- | ---: | ---: | ---: | ---: |
                | darts | activations | 0.04 H | - | 120.0 U | E |
                | pnasnet_5 | activations | - | - | 12.2 | 120.0 F 25.0% |

                """ + TimeToSolutionTable.LEGEND + "\n- E darts activations M_P cosma: solver died\n";
        assertEquals(expected, TimeToSolutionTable.render(cells(), TimeToSolutionTable.Format.MARKDOWN));
    }

    @Test
    void latexGroupsBudgetsUnderEachPlannerAndEscapesNames() {
        String tex = TimeToSolutionTable.render(cells(), TimeToSolutionTable.Format.LATEX);
        assertTrue(tex.contains("\\begin{tabular}{ll|rr|rr}"), tex);
        assertTrue(tex.contains("Network & Setting & \\multicolumn{2}{c}{default/belady/tflite} & \\multicolumn{2}{c}{cosma} \\\\"), tex);
        assertTrue(tex.contains("\\cmidrule(lr){3-4}\\cmidrule(lr){5-6}"), tex);
        assertTrue(tex.contains(" &  & $M_R$ & $M_P$ & $M_R$ & $M_P$ \\\\"), tex);
        assertTrue(tex.contains("pnasnet\\_5 & activations & - & - & 12.2 & 120.0 F 25.0\\% \\\\"), tex);
        assertTrue(tex.endsWith("\\bottomrule\n\\end{tabular}\n"), tex);
        assertTrue(tex.contains("\n% E darts activations M_P cosma: solver died\n"), tex);
        assertEquals(2, tex.lines().filter(l -> l.endsWith("\\\\") && l.contains("activations")).count());
    }

    /** The formats by name, as --format takes them; the error lists them from the enum. */
    @Test
    void formatsAreParsedByNameAndAnUnknownOneListsThem() {
        assertEquals(TimeToSolutionTable.Format.MARKDOWN, TimeToSolutionTable.Format.parse("MD"));
        assertEquals(TimeToSolutionTable.Format.LATEX, TimeToSolutionTable.Format.parse("tex"));
        assertEquals("unknown --format 'pdf': use markdown or latex", org.junit.jupiter.api.Assertions.assertThrows(
                IllegalArgumentException.class, () -> TimeToSolutionTable.Format.parse("pdf")).getMessage());
    }
}
