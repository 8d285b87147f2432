package dev.memplan.decomposition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.formulations.BruteForceAccess;
import dev.memplan.formulations.cosma.CosmaSolver;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.model.Budget;
import dev.memplan.model.Budgets;
import dev.memplan.model.Graph;
import dev.memplan.model.JustInTimePlanner;
import dev.memplan.model.Limits;
import dev.memplan.model.Plan;
import dev.memplan.model.TensorSetting;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** bench dnc's columns, read from the pipeline's outcome with the solve report's formatting. */
class PipelineReportTest {
    @Test
    void theDncColumnsAreDivideAndConquersFiguresInTheirOrder() {
        TensorSetting act = TensorSetting.ACTIVATIONS;
        Graph g = BruteForceAccess.randomTinyGraph(new Random(5), 6, false).withSetting(act);
        long budget = Budgets.minimumRequired(g);
        Plan start = new JustInTimePlanner(null).plan(g, act, budget, Limits.DEFAULT);
        DncResult r = DivideAndConquer.solve(g, act, budget,
                DivideAndConquer.Options.of(CosmaSolver.Options.traffic(Backend.CPSAT)).withMaxPart(2),
                Limits.DEFAULT.withBudget(Budget.ofWork(2, null)), List.of(start), line -> { });
        // No fixed-schedule starts ran: their columns and the reduction against them are "-".
        CosmaPipeline.Outcome o = new CosmaPipeline.Outcome(null, null, r, null, null, null, null);
        List<PipelineReport.Row> rows = PipelineReport.dncColumns(o);
        assertEquals(PipelineReport.DNC_COLUMNS, rows.stream().map(PipelineReport.Row::label).toList());
        assertEquals(List.of(Integer.toString(r.partition().size()), PipelineReport.orDash(r.start()), "-", "-",
                PipelineReport.orDash(r.spillAtCut()), PipelineReport.orDash(r.handover()),
                PipelineReport.orDash(r.polished()), r.traffic() + " " + r.status(), "-",
                PipelineReport.orDash(r.bound()), PipelineReport.gap(r.gap())),
                rows.stream().map(PipelineReport.Row::value).toList());
    }

    @Test
    void aBoundOfZeroThatNoStepFoundSaysSo() {
        // gen:layered:5000:train at 5 s: the limit ran out before the bound step, whose note is "none"; the row read
        // "0 (over every plan ...: the live bytes over the budget ...)", as if the live bytes had given 0.
        dev.memplan.model.Objective plan = new dev.memplan.model.Objective(21_816_647, 0, 0.00390625);
        StepReport none = new StepReport(RecomputeOutcome.BOUND, StepReport.Status.DONE, null, 0L, 0, null, "none");
        StepReport skipped = new StepReport(RecomputeOutcome.BOUND, StepReport.Status.SKIPPED, null, null, 0, null,
                "the limit is spent");
        StepReport found = new StepReport(RecomputeOutcome.BOUND, StepReport.Status.DONE, null, 96L, 0, null,
                "96 from the live bytes");
        for (StepReport step : List.of(none, skipped)) {
            String text = PipelineReport.boundText(outcome(plan, 0, step));
            assertEquals("0 (no bound over every plan within the limits: no objective is below 0)", text);
        }
        assertTrue(PipelineReport.boundText(outcome(plan, 96, found)).startsWith("96 (over every plan, any"));
        // Found, and 0 (nothing over the budget anywhere): a bound the live bytes gave.
        assertTrue(PipelineReport.boundText(outcome(plan, 0, found)).startsWith("0 (over every plan"));
        assertEquals("-", PipelineReport.boundText(outcome(null, 0, none)));
    }

    private static RecomputeOutcome outcome(dev.memplan.model.Objective plan, double bound, StepReport step) {
        return new RecomputeOutcome(0.00390625, dev.memplan.model.SolveStatus.FEASIBLE, plan, bound, null,
                RecomputeOutcome.SPILL_ONLY, plan, List.of(), null, 0, List.of(step));
    }

    @Test
    void theReductionIsInPercentOfTheOtherPlansTraffic() {
        assertEquals("25.0%", PipelineReport.reduction(75, 100));
        assertEquals("-12.5%", PipelineReport.reduction(90, 80));
        assertEquals("0.0%", PipelineReport.reduction(0, 0));
        assertEquals("-", PipelineReport.reduction(5, 0));
    }

    @Test
    void aGapAboveZeroNeverPrintsAsZero() {
        // deeplabv3_resnet50:train M_R, lambda 1: 43,101,184 over 43,100,674 printed "0.00%" while FEASIBLE.
        double gap = (43_101_184.0 - 43_100_674) / 43_101_184;
        assertEquals("0.0012%", PipelineReport.gap(gap));
        assertEquals("0.0012%", PipelineReport.percent(gap, 1));
        assertEquals("0.00%", PipelineReport.gap(0.0));
        assertEquals("-", PipelineReport.gap(null));
        assertEquals("2.31%", PipelineReport.gap(0.0231));
        assertEquals("0.01%", PipelineReport.gap(0.00005));
        assertEquals("0.0049%", PipelineReport.gap(0.0000494));
        assertEquals("100.00%", PipelineReport.gap(1.0));
        assertEquals("99.9987%", PipelineReport.gap(0.999987));
        assertEquals("99.99%", PipelineReport.gap(0.99994));
        assertEquals("99.9%", PipelineReport.percent(0.99949, 1));
    }
}
