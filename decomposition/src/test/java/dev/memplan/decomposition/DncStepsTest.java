package dev.memplan.decomposition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
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
import dev.memplan.model.PlanChecker;
import dev.memplan.model.TensorSetting;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Divide and conquer as an ordered list of steps, read from its step reports rather than its progress lines. */
class DncStepsTest {
    private static final CosmaSolver.Options COSMA = CosmaSolver.Options.traffic(Backend.CPSAT).withDecoupled(true, null);
    private static final TensorSetting ACT = TensorSetting.ACTIVATIONS;
    private static final List<String> STEPS = List.of("parts", "stitch", "stitched order", "stem", "windows", "reruns",
            "bound");

    private static Plan jit(Graph g, long budget) {
        return new JustInTimePlanner(null).plan(g, ACT, budget, Limits.DEFAULT);
    }

    @Test
    void everyStepReportsInOrderAndTheBestTrafficNeverRises() {
        Random random = new Random(5);
        for (int i = 0; i < 4; i++) {
            Graph g = BruteForceAccess.randomTinyGraph(random, 6, false).withSetting(ACT);
            long budget = Budgets.minimumRequired(g);
            Plan start = jit(g, budget);
            long startTraffic = PlanChecker.requireValid(g, start, "test").traffic().nonCompulsory();
            Limits limits = Limits.DEFAULT.withBudget(Budget.ofWork(2, null));
            DncResult r = DivideAndConquer.solve(g, ACT, budget, DivideAndConquer.Options.of(COSMA).withMaxPart(2),
                    limits, List.of(start), line -> { });
            assertEquals(STEPS, r.steps().stream().map(StepReport::name).toList());
            long previous = startTraffic;
            for (StepReport s : r.steps()) {
                assertNotNull(s.traffic(), s.name() + " reports the best traffic");
                assertTrue(s.traffic() <= previous, s.name() + " raised the best traffic: " + s);
                previous = s.traffic();
                assertNotNull(s.work(), "under a work limit every step says what work it used");
                assertTrue(s.work() >= 0);
            }
            assertEquals(r.traffic(), r.steps().get(r.steps().size() - 1).traffic());
            if (r.steps().get(0).status() != StepReport.Status.SKIPPED) {
                assertEquals(StepReport.Status.DONE, r.steps().get(0).status(), "a tiny graph's parts fit in 2 units");
                assertEquals(r.spillAtCut() >= r.traffic(), true);
            }
            double work = r.steps().stream().mapToDouble(StepReport::work).sum();
            assertTrue(work <= 2.0 + 1e-9, "the steps together stay within the run's work: " + work);
        }
    }

    @Test
    void aSpentBudgetStopsThePartsAndSkipsTheStepsAfterThem() {
        Graph g = BruteForceAccess.randomTinyGraph(new Random(21), 6, false).withSetting(ACT);
        long budget = Budgets.minimumRequired(g);
        Plan start = jit(g, budget);
        DncResult r = DivideAndConquer.solve(g, ACT, budget, DivideAndConquer.Options.of(COSMA).withMaxPart(2),
                Limits.DEFAULT.withBudget(Budget.ofWall(Duration.ZERO)), List.of(start), line -> { });
        List<StepReport.Status> statuses = r.steps().stream().map(StepReport::status).toList();
        boolean metBound = statuses.get(0) == StepReport.Status.SKIPPED;
        assertEquals(metBound ? StepReport.Status.SKIPPED : StepReport.Status.OUT_OF_BUDGET, statuses.get(0));
        for (int k = 1; k < STEPS.size(); k++) {
            assertEquals(StepReport.Status.SKIPPED, statuses.get(k), STEPS.get(k));
        }
        assertEquals(PlanChecker.requireValid(g, start, "test").traffic().nonCompulsory(), r.traffic());
    }

    @Test
    void aCancelledRunStopsLikeASpentOne() {
        Graph g = BruteForceAccess.randomTinyGraph(new Random(21), 6, false).withSetting(ACT);
        long budget = Budgets.minimumRequired(g);
        Budget run = Budget.ofWork(100, null);
        run.cancel();
        DncResult r = DivideAndConquer.solve(g, ACT, budget, DivideAndConquer.Options.of(COSMA).withMaxPart(2),
                Limits.DEFAULT.withBudget(run), List.of(jit(g, budget)), line -> { });
        assertTrue(r.steps().stream().skip(1).allMatch(s -> s.status() == StepReport.Status.SKIPPED), r.steps()
                .toString());
        assertEquals(0.0, run.workUsed(), "a cancelled run charges no work");
    }
}
