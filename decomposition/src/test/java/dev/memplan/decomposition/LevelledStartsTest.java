package dev.memplan.decomposition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.baselines.allocation.minimalloc.MiniMallocAllocator;
import dev.memplan.baselines.replacement.Schemes;
import dev.memplan.baselines.scheduling.MinimumPeakScheduler;
import dev.memplan.formulations.cosma.CosmaSolver;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.model.Budgets;
import dev.memplan.datasets.Examples;
import dev.memplan.model.Budget;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.MiniTrainingStep;
import dev.memplan.model.Plan;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.PlanResult;
import dev.memplan.model.Shares;
import dev.memplan.model.TensorSetting;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LevelledStartsTest {

    private static final TensorSetting ACT = TensorSetting.ACTIVATIONS;

    /** The miniature training step of {@link MiniTrainingStep} (22 bytes in the default order, 13 levelled). */
    static Graph miniStep() {
        return MiniTrainingStep.weightGradientOnThePeak();
    }

    @Test
    void onATrainingStepTheLevelledPlansAreCheckedAndSpillNothingWhereTheDefaultOrdersMust() {
        Graph g = miniStep();
        List<String> lines = new ArrayList<>();
        List<Plan> plans = LevelledStarts.plans(g, ACT, 13, Limits.DEFAULT, lines::add);
        assertEquals(List.of("leximax/belady/tflite", "leximax/greedy/tflite", "leximax/belady/minimalloc"),
                plans.stream().map(p -> p.solver().name()).toList());
        for (Plan p : plans) {
            assertEquals(0, PlanChecker.requireValid(g, p, p.solver().name()).traffic().nonCompulsory());
        }
        // The default order's schemes (the minimum-peak order of so small a graph is levelled already).
        for (String name : List.of("default/belady/tflite", "default/greedy/tflite")) {
            PlanResult r = Schemes.byName(name).solve(g, ACT, 13, Limits.DEFAULT);
            assertTrue(r.plan().traffic().nonCompulsory() > 0, name + " spills x2 around the weight gradient");
        }
        assertEquals(1, lines.size(), "one progress line: " + lines);
    }

    @Test
    void aGraphThatIsNoTrainingStepGetsNoneAndSpendsNothing() {
        Graph g = Examples.graph("fig1");
        Limits limits = Limits.DEFAULT.withBudget(Budget.ofWork(10, null));
        assertEquals(List.of(), LevelledStarts.plans(g, ACT, 1 << 20, limits, line -> { }));
        assertEquals(0.0, limits.budget().workUsed());
    }

    @Test
    void underAWorkLimitThePlansAndTheWorkAreTheSameOnEveryRunAndThePackingsShareIsCharged() {
        Graph g = miniStep();
        List<String> first = null;
        for (int run = 0; run < 2; run++) {
            Limits limits = Limits.DEFAULT.withBudget(Budget.ofWork(10, null));
            List<String> seen = new ArrayList<>(LevelledStarts.plans(g, ACT, 13, limits, line -> { }).stream()
                    .map(p -> p.solver().name() + " " + p.traffic().nonCompulsory()).toList());
            assertTrue(limits.budget().workUsed() >= 10 * Shares.LEVELLED_PACKING - 1e-6,
                    "work " + limits.budget().workUsed());
            seen.add("work " + limits.budget().workUsedMicro());
            if (first != null) {
                assertEquals(first, seen);
            }
            first = seen;
        }
    }

    /**
     * Divide and conquer on a training step: the fixed-schedule start FS(default) does not run, its scheme (20 bytes)
     * being above the best start (a levelled plan, 0); FS(MPMF), whose scheme also pays 0 on so small a graph, does.
     * On a graph that is no training step both run, as before.
     */
    @Test
    void onATrainingStepDivideAndConquerRunsNoFixedScheduleStartOnAnOrderWhoseSchemeIsNotTheBestStart() {
        CosmaSolver.Options cosma = CosmaSolver.Options.traffic(Backend.CPSAT)
                .withDecoupled(true, new MiniMallocAllocator());
        Graph g = miniStep();
        MinimumPeakScheduler mpmf = MinimumPeakScheduler.forCase(null, true, g.operatorCount(), Backend.CPSAT);
        CosmaPipeline.Settings settings = CosmaPipeline.Settings.of(cosma, mpmf)
                .withDecompose(CosmaPipeline.Decompose.ALWAYS).withMaxPart(3);
        List<String> lines = new ArrayList<>();
        CosmaPipeline.Outcome o = new CosmaPipeline(settings, lines::add).run(g, ACT, 13, work(10), null);
        assertNotNull(o.dnc(), "divided");
        assertNull(o.fsDefault(), lines.toString());
        assertNotNull(o.fsMpmf(), lines.toString());
        assertEquals(0, o.result().objective());
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("dnc: a training step: no fixed-schedule start")),
                lines.toString());

        Graph fig1 = Examples.graph("fig1");
        long mr = Budgets.minimumRequired(fig1.withSetting(ACT));
        MinimumPeakScheduler fig1Mpmf = MinimumPeakScheduler.forCase(null, true, fig1.operatorCount(), Backend.CPSAT);
        CosmaPipeline.Outcome other = new CosmaPipeline(CosmaPipeline.Settings.of(cosma, fig1Mpmf)
                .withDecompose(CosmaPipeline.Decompose.ALWAYS).withMaxPart(3), null).run(fig1, ACT, mr, work(10), null);
        assertNotNull(other.fsDefault());
        assertNotNull(other.fsMpmf());
    }

    private static Limits work(double units) {
        return Limits.DEFAULT.withBudget(Budget.ofWork(units, null));
    }
}
