package dev.memplan.decomposition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.baselines.replacement.Schemes;
import dev.memplan.datasets.Examples;
import dev.memplan.datasets.TrainingGraphs;
import dev.memplan.formulations.RecomputeGraphs;
import dev.memplan.formulations.milp.Solvers;
import dev.memplan.model.Budget;
import dev.memplan.model.CheckReport;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Plan;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.PlanResult;
import dev.memplan.model.Schedule;
import dev.memplan.model.SolveStatus;
import dev.memplan.model.TensorSetting;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** {@link SpillOnlyCover}: where it applies, and a divide-and-conquer plan lowered by its levelled order's cover. */
class SpillOnlyCoverTest {
    private static final TensorSetting ACT = TensorSetting.ACTIVATIONS;

    @Test
    void onlyATrainingStepWithAFreeScheduleAndALimit() {
        Graph step = LevelledStartsTest.miniStep().withSetting(ACT);
        Limits work = Limits.DEFAULT.withBudget(Budget.ofWork(10, Duration.ofSeconds(60)));
        assertTrue(SpillOnlyCover.applies(step, null, work));
        assertFalse(SpillOnlyCover.applies(step, Schedule.defaultOrder(step), work));
        assertFalse(SpillOnlyCover.applies(step, null, Limits.DEFAULT));
        assertFalse(SpillOnlyCover.applies(RecomputeGraphs.tiny(3, 5).withSetting(ACT), null, work));
    }

    /**
     * The default order's Belady plan pays traffic at 13 bytes; its levelled order pays none, which meets the
     * bound 0: the outcome's plan, traffic, source and status become the cover's, checked.
     */
    @Test
    void aPlanAboveItsLevelledOrdersCoverIsReplaced() {
        Assumptions.assumeTrue(Solvers.nativeAvailable(), "OR-Tools natives");
        Graph full = LevelledStartsTest.miniStep();
        Graph g = full.withSetting(ACT);
        Plan scheme = Schemes.byName("default/belady/tflite").plan(full, ACT, 13, Limits.DEFAULT);
        CheckReport check = PlanChecker.check(g, scheme);
        long traffic = check.traffic().nonCompulsory();
        assertTrue(traffic > 0);
        DncResult d = new DncResult(scheme, check, SolveStatus.FEASIBLE, traffic, 0L, 1.0, 0, null, null, null, null,
                null, 0, 0, "windows", List.of());
        PlanResult r = new PlanResult("cosma/cpsat", SolveStatus.FEASIBLE, scheme, check, traffic, 0L, 1.0, 0, null,
                false, List.of());
        CosmaPipeline.Outcome o = new CosmaPipeline.Outcome(r, null, d, null, null, null, null);
        CosmaPipeline.Outcome lowered = SpillOnlyCover.lower(g, 13, Limits.DEFAULT, o, false);
        assertEquals(0L, lowered.result().objective());
        assertEquals(SolveStatus.OPTIMAL, lowered.result().status());
        assertEquals(0, lowered.dnc().traffic());
        assertEquals(OrderCover.LEVELLED, lowered.dnc().source());
        assertTrue(PlanChecker.check(g, lowered.result().plan()).valid());
        assertEquals(0, PlanChecker.check(g, lowered.dnc().plan()).traffic().nonCompulsory());
        // Without divide and conquer's result nothing changes.
        CosmaPipeline.Outcome whole = new CosmaPipeline.Outcome(r, null, null, null, null, null, null);
        assertSame(whole, SpillOnlyCover.lower(g, 13, Limits.DEFAULT, whole, true));
    }

    /**
     * With the moves, what the cover leaves goes to the lower plan's order moved operator by operator: the result is
     * checked, its traffic the checker's, never above the cover's alone, and its source the moved one's when it is
     * lower: on the training steps of small examples and generated graphs, from the default order's Belady plan as
     * divide and conquer's, at M_R and above.
     */
    @Test
    void theMovedOrderReplacesTheCoverOnlyWhereItPaysLess() {
        Assumptions.assumeTrue(Solvers.nativeAvailable(), "OR-Tools natives");
        int tried = 0;
        for (String name : List.of("fig1", "params", "gen:layered:10", "gen:cells:20")) {
            Graph forward = name.startsWith("gen:") ? dev.memplan.datasets.GeneratedGraphs.graph(name)
                    : Examples.graph(name);
            Graph full = TrainingGraphs.of(forward, TrainingGraphs.Step.BACKWARD);
            Graph g = full.withSetting(ACT);
            long mr = dev.memplan.model.Budgets.minimumRequired(g);
            for (long budget : new long[] {mr, mr + mr / 8, mr + mr / 4}) {
                Plan scheme = Schemes.byName("default/belady/tflite").plan(full, ACT, budget, Limits.DEFAULT);
                if (scheme == null) {
                    continue;
                }
                CheckReport check = PlanChecker.check(g, scheme);
                long traffic = check.traffic().nonCompulsory();
                DncResult d = new DncResult(scheme, check, SolveStatus.FEASIBLE, traffic, 0L, 1.0, 0, null, null,
                        null, null, null, 0, 0, "windows", List.of());
                PlanResult r = new PlanResult("cosma/cpsat", SolveStatus.FEASIBLE, scheme, check, traffic, 0L, 1.0, 0,
                        null, false, List.of());
                CosmaPipeline.Outcome o = new CosmaPipeline.Outcome(r, null, d, null, null, null, null);
                CosmaPipeline.Outcome covered = SpillOnlyCover.lower(g, budget, Limits.DEFAULT, o, false);
                CosmaPipeline.Outcome moved = SpillOnlyCover.lower(g, budget, Limits.DEFAULT, o, true);
                String at = name + " at " + budget;
                tried++;
                assertTrue(PlanChecker.check(g, moved.result().plan()).valid(), at);
                assertEquals(moved.result().objective(),
                        PlanChecker.check(g, moved.result().plan()).traffic().nonCompulsory(), at);
                assertTrue(moved.result().objective() <= covered.result().objective(), at);
                if (moved.result().objective() < covered.result().objective()) {
                    assertTrue(moved.dnc().source().endsWith(OrderCover.MOVED), at + ": " + moved.dnc().source());
                }
            }
        }
        assertTrue(tried >= 6, tried + " cases");
        // No strict case on graphs this small (45 tried: fig1, params, gen:layered:10..16 and gen:cells:20 training
        // steps at five budgets): the cover's levelled and minimum-peak orders are their optimum already; the lower
        // moved order is gen:cells:50:train's (BENCHMARKS.md, "Divide and conquer after the whole program below 300
        // operators"), too large for a unit test.
    }
}
