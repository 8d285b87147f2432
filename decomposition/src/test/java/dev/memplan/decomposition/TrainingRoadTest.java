package dev.memplan.decomposition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.baselines.allocation.minimalloc.MiniMallocAllocator;
import dev.memplan.baselines.scheduling.MinimumPeakScheduler;
import dev.memplan.datasets.TrainingGraphs;
import dev.memplan.datasets.zoo.Zoo;
import dev.memplan.formulations.cosma.CosmaSolver;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.model.Budget;
import dev.memplan.model.Budgets;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Plan;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.TensorSetting;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The road of a graph of at most {@link DivideAndConquer#AUTO_THRESHOLD} operators whose whole free program is
 * estimated too large (the zoo's training graphs): divided at once under {@code --decompose auto}, as under
 * {@code always}; and the restarts' fixed-schedule programs, whose plans such a run keeps.
 */
class TrainingRoadTest {
    private static final TensorSetting ACT = TensorSetting.ACTIVATIONS;
    /** As solve and the sweeps run COSMA: decoupled, MiniMalloc packing. */
    private static final CosmaSolver.Options COSMA = CosmaSolver.Options.traffic(Backend.CPSAT)
            .withDecoupled(true, new MiniMallocAllocator());

    private static Graph r2plus1d18Train() {
        return TrainingGraphs.of(Zoo.graph("r2plus1d18"), TrainingGraphs.Step.BACKWARD);
    }

    private static Limits work(double units) {
        return Limits.DEFAULT.withBudget(Budget.ofWork(units, null));
    }

    /**
     * r2plus1d18:train (140 operators, below the threshold, its program without addresses estimated above a million
     * nonzeros) goes to divide and conquer at once under auto, without the whole graph's program: the same answer,
     * traffic and bound, as divide and conquer asked for, under the same work limit. resnet50 (72 operators, a
     * small program) is still solved whole and proven.
     */
    @Test
    void aSmallGraphWhoseWholeProgramIsTooLargeIsDividedAtOnce() {
        Graph g = r2plus1d18Train();
        Graph act = g.withSetting(ACT);
        assertTrue(act.operatorCount() <= DivideAndConquer.AUTO_THRESHOLD, act.operatorCount() + " operators");
        String why = DivideAndConquer.wholeFirstDoesNotPayOff(act, Limits.DEFAULT);
        assertTrue(why != null && why.contains("nonzeros or more"), why);
        long mr = Budgets.minimumRequired(act);
        CosmaPipeline.Settings settings = CosmaPipeline.Settings.of(COSMA, null);

        List<String> lines = new ArrayList<>();
        CosmaPipeline.Outcome auto = new CosmaPipeline(settings, lines::add).run(g, ACT, mr, work(3), null);
        assertNotNull(auto.dnc(), "divided");
        assertNull(auto.whole(), "the whole graph's program did not run");
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("decompose auto: divide and conquer at once")), lines
                .toString());
        assertTrue(PlanChecker.check(act, auto.result().plan()).valid());
        assertTrue(auto.result().objective() <= auto.bestStart().traffic().nonCompulsory());

        CosmaPipeline.Outcome always = new CosmaPipeline(settings.withDecompose(CosmaPipeline.Decompose.ALWAYS), null)
                .run(g, ACT, mr, work(3), null);
        assertEquals(always.result().objective(), auto.result().objective());
        assertEquals(always.result().bound(), auto.result().bound());

        Graph resnet50 = Zoo.graph("resnet50");
        long resnetMr = Budgets.minimumRequired(resnet50.withSetting(ACT));
        CosmaPipeline.Outcome whole = new CosmaPipeline(settings, null).run(resnet50, ACT, resnetMr, work(30), null);
        assertNotNull(whole.whole(), "solved whole");
        assertNull(whole.dnc(), "not divided");
        assertEquals(dev.memplan.model.SolveStatus.OPTIMAL, whole.result().status());
    }

    /**
     * The restarts on r2plus1d18:train at M_R: the fixed-schedule program of the orders whose schemes paid least
     * keeps a plan ({@code FS(mpmf@W)}) strictly below both schemes' plans on that order; the forced-traffic rows,
     * which within its unit cost CP-SAT that plan, are left out of it. Divide and conquer from these restarts is
     * never worse than the best of them.
     */
    @Test
    void theRestartsFixedSchedulePlanBeatsTheSchemesOnItsOrderAndIsKept() {
        Graph g = r2plus1d18Train();
        Graph act = g.withSetting(ACT);
        long mr = Budgets.minimumRequired(act);
        MinimumPeakScheduler mpmf = MinimumPeakScheduler.forCase(null, true, act.operatorCount(), Backend.CPSAT);
        List<Plan> plans = new Restarts(mpmf, COSMA, line -> { }).plans(g, ACT, mr, work(60));
        Map<String, Plan> byName = plans.stream().collect(Collectors.toMap(p -> p.solver().name(), Function.identity()));
        List<String> fixed = byName.keySet().stream().filter(n -> n.startsWith("FS(mpmf@")).toList();
        assertTrue(!fixed.isEmpty(), byName.keySet().toString());
        for (String name : fixed) {
            String order = name.substring("FS(".length(), name.length() - 1);
            long fs = PlanChecker.requireValid(act, byName.get(name), name).traffic().nonCompulsory();
            for (String policy : List.of("belady", "greedy")) {
                Plan scheme = byName.get(order + "/" + policy + "/tflite");
                assertNotNull(scheme, order + "/" + policy);
                assertTrue(fs < scheme.traffic().nonCompulsory(), name + " " + fs + " vs " + scheme.traffic());
            }
        }
        long bestRestart = CosmaPipeline.best(plans).traffic().nonCompulsory();
        assertTrue(CosmaPipeline.best(plans).solver().name().startsWith("FS(mpmf@"), "the best restart is a program's");
        DncResult r = DivideAndConquer.solve(g, ACT, mr, DivideAndConquer.Options.of(COSMA), work(2),
                List.of(), plans, line -> { });
        assertTrue(PlanChecker.check(act, r.plan()).valid());
        assertTrue(r.traffic() <= bestRestart, r.traffic() + " vs " + bestRestart);
    }
}
