package dev.memplan.sweeps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.baselines.replacement.Scheme;
import dev.memplan.baselines.replacement.Schemes;
import dev.memplan.baselines.scheduling.MinimumPeakScheduler;
import dev.memplan.datasets.Examples;
import dev.memplan.datasets.TrainingGraphs;
import dev.memplan.decomposition.CosmaPipeline;
import dev.memplan.formulations.cosma.CosmaObjective;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.model.Budget;
import dev.memplan.model.Budgets;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.TensorSetting;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * compare's run ({@link Comparison}): a row per scheme in order, then COSMA started from them, never above any of
 * them; with a recompute weight and no COSMA the recompute baselines are rows; a scheme that refuses its input is a
 * user mistake.
 */
class ComparisonTest {
    private static final TensorSetting ACT = TensorSetting.ACTIVATIONS;

    private static Limits work(double units) {
        return Limits.DEFAULT.withBudget(Budget.ofWork(units, null));
    }

    private static CosmaPipeline.Settings cosma() {
        return CosmaPipeline.Settings.of(PlannerChoice.cosma(java.util.Map.of(), Set.of())
                .cosmaOptions(CosmaObjective.TRAFFIC, null, Backend.CPSAT, null), new MinimumPeakScheduler());
    }

    private static Comparison.Listeners quiet(List<String> report) {
        return new Comparison.Listeners(line -> { }, line -> { }, report::add);
    }

    @Test
    void cosmaStartsFromTheSchemesAndIsNeverAboveThem() {
        Graph g = Examples.graph("fig1");
        long mh = Budgets.halfway(Budgets.minimumRequired(g), 64);
        List<Scheme> schemes = Schemes.byNames(Schemes.PAPER, new MinimumPeakScheduler());
        Comparison.Result r = Comparison.run(g, ACT, mh, work(5), schemes, cosma(), null, quiet(new ArrayList<>()));
        assertEquals(schemes.size() + 1, r.rows().size());
        for (int i = 0; i < schemes.size(); i++) {
            assertEquals(schemes.get(i).name(), r.rows().get(i).name());
            assertEquals("HEURISTIC", r.rows().get(i).status());
        }
        assertNotNull(r.cosma());
        assertEquals(r.cosma(), r.rows().get(r.rows().size() - 1));
        long cosma = r.cosma().report().traffic().nonCompulsory();
        r.rows().forEach(row -> assertTrue(cosma <= row.report().traffic().nonCompulsory(), row.name()));

        List<String[]> table = Comparison.table(r, null);
        assertEquals("cosma reduction", table.get(0)[3]);
        assertEquals(r.rows().size() + 1, table.size());
        assertEquals("0.0%", table.get(table.size() - 1)[3], "COSMA against itself");
    }

    @Test
    void withAWeightAndNoCosmaTheRecomputeBaselinesAreRows() {
        Graph g = TrainingGraphs.of(Examples.graph("fig1"), TrainingGraphs.Step.BACKWARD);
        long mr = Budgets.minimumRequired(g.withSetting(ACT));
        List<Scheme> schemes = Schemes.byNames(Schemes.PAPER, new MinimumPeakScheduler());
        Comparison.Result r = Comparison.run(g, ACT, mr, work(5), schemes, null, 0.5, quiet(new ArrayList<>()));
        assertNull(r.cosma());
        List<String> names = r.rows().stream().map(Comparison.Row::name).toList();
        Schemes.recompute(g, 0.5).forEach(s -> assertTrue(names.contains(s.name())
                || r.notes().stream().anyMatch(n -> n.startsWith(s.name() + ": no plan")), s.name()));
        List<String[]> table = Comparison.table(r, 0.5);
        assertEquals("objective", table.get(0)[5]);
        assertEquals("-", table.get(1)[6], "no COSMA row, no reduction");
    }

    @Test
    void reductionsAndNumbersAreWrittenAsTheReportsWriteThem() {
        assertEquals("50.0%", Comparison.reduction(1.0, 2.0));
        assertEquals("0.0%", Comparison.reduction(0.0, 0.0));
        assertEquals("-", Comparison.reduction(1.0, 0.0));
        assertEquals("2", dev.memplan.model.Objective.number(2.0));
        assertEquals("0.5", dev.memplan.model.Objective.number(0.5));
        // compare's objective column on PP-OCRv3's training step at M_R, lambda 2^-8, printed 2.6302154875E7.
        assertEquals("26302154.875", dev.memplan.model.Objective.number(24_527_228 + 0.00390625 * 454_381_280));
    }

    @Test
    void aSchemeThatRefusesTheGraphIsAUserMistakeNamingIt() {
        Graph g = Examples.graph("fig1");
        Scheme refusing = Schemes.byNames(List.of("default/belady/tflite"), new MinimumPeakScheduler()).get(0);
        SweepException e = assertThrows(SweepException.class, () -> Comparison.run(g, ACT, 1, work(1),
                List.of(refusing), null, null, quiet(new ArrayList<>())));
        assertTrue(e.getMessage().startsWith("default/belady/tflite: "), e.getMessage());
    }
}
