package dev.memplan.baselines.scheduling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.datasets.Examples;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.model.Budgets;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Schedule;
import dev.memplan.model.SolveStatus;
import dev.memplan.model.TensorSetting;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The budgets table: one row per setting, in order, each from the graph in that setting. */
class SettingBudgetsTest {
    @Test
    void eachSettingGetsItsOwnMrMpMhAndDefaultFootprint() {
        Graph g = Examples.graph("fig1");
        List<TensorSetting> heard = new ArrayList<>();
        List<TensorSetting> settings = List.of(TensorSetting.values());
        List<SettingBudgets> rows = SettingBudgets.of(g, settings, gs -> MinimumPeakScheduler.pinned(16, Backend.CPSAT),
                Limits.DEFAULT, heard::add);
        assertEquals(settings, heard, "every setting is announced before its M_P");
        assertEquals(settings.size(), rows.size());
        for (SettingBudgets b : rows) {
            Graph gs = g.withSetting(b.setting());
            assertEquals(Budgets.minimumRequired(gs), b.mr());
            assertEquals(Budgets.halfway(b.mr(), b.mp().peak()), b.mh());
            assertEquals(Budgets.footprint(gs, Schedule.defaultOrder(gs)), b.defaultFootprint());
            assertTrue(b.mr() <= b.mp().peak() && b.mp().peak() <= b.defaultFootprint(), "M_R <= M_P <= default order");
            assertTrue(b.mpStatus().startsWith(b.mp().status() == SolveStatus.OPTIMAL ? "optimal (" : b.mp().method()),
                    b.mpStatus());
        }
    }

    @Test
    void recomputationLeavesTheBudgetsAndNamesTheForwardPassOfATrainingStep() {
        List<String> lines = SettingBudgets.recomputation(Examples.graph("fig1"), "0.5");
        assertTrue(lines.get(0).startsWith("with recomputation (lambda 0.5 bytes per cost unit): M_R is the same"));
        assertTrue(lines.get(1).startsWith("not a training step (no "), lines.get(1));
        Graph train = dev.memplan.datasets.TrainingGraphs.of(Examples.graph("fig1"),
                dev.memplan.datasets.TrainingGraphs.Step.BACKWARD);
        int forward = dev.memplan.model.TrainingStep.forwardCount(train);
        assertEquals("training step: operators 0 .. " + (forward - 1) + " are the forward pass (" + forward + " of "
                + train.operatorCount() + "), the ones checkpointing and the joint program rerun",
                SettingBudgets.recomputation(train, "1").get(1));
    }
}
