package dev.memplan.baselines.replacement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.baselines.scheduling.MinimumPeakScheduler;
import dev.memplan.datasets.Examples;
import dev.memplan.datasets.RandomGraphs;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.formulations.cosma.CosmaObjective;
import dev.memplan.formulations.cosma.CosmaResult;
import dev.memplan.formulations.cosma.CosmaSolver;
import dev.memplan.model.Budgets;
import dev.memplan.model.CheckReport;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Plan;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.SolveStatus;
import dev.memplan.model.TensorSetting;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class SchemesTest {

    static List<Long> budgets(Graph g) {
        long mr = Budgets.minimumFeasible(g);
        long mp = Math.max(mr, new MinimumPeakScheduler().schedule(g, Limits.DEFAULT).peak());
        return List.of(mr, Budgets.halfway(mr, mp), mp);
    }

    @Test
    void everySchemeGivesACheckedPlanOnEveryExampleAtEveryBudget() {
        for (String name : Examples.names()) {
            for (TensorSetting s : TensorSetting.values()) {
                Graph g = Examples.graph(name).withSetting(s);
                for (long b : budgets(g)) {
                    for (String scheme : Schemes.all()) {
                        Plan p = planOrNull(scheme, g, s, b);
                        if (p == null) {
                            continue;
                        }
                        CheckReport r = PlanChecker.check(g, p);
                        assertTrue(r.valid(), name + " " + scheme + " at " + b + ": " + r.violations());
                        assertEquals(r.traffic(), p.traffic());
                        assertEquals(SolveStatus.HEURISTIC, p.solver().status());
                    }
                }
            }
        }
    }

    @Test
    void everySchemeSurvivesRandomGraphsAtTheTightestBudgets() {
        for (long seed = 0; seed < 15; seed++) {
            Graph g = RandomGraphs.layered(seed, 25, 3, 6, 100, seed % 2 == 0);
            long mr = Budgets.minimumFeasible(g);
            for (long b : List.of(mr, mr + 7, mr + 60)) {
                for (String scheme : Schemes.all()) {
                    Plan p = planOrNull(scheme, g, TensorSetting.ALL, b);
                    assertTrue(p == null || PlanChecker.check(g, p).valid(), "seed " + seed + " " + scheme);
                }
            }
        }
    }

    @Test
    void cosmaIsNeverWorseThanAnySchemeWhenItProvesOptimality() {
        Limits limits = Limits.ofWall(Duration.ofSeconds(20));
        for (String name : Examples.names()) {
            for (TensorSetting s : TensorSetting.values()) {
                Graph g = Examples.graph(name).withSetting(s);
                for (long b : budgets(g)) {
                    CosmaResult c = CosmaSolver.solve(g, s, b, new CosmaSolver.Options(CosmaObjective.TRAFFIC, null, Backend.CPSAT, true, null), limits);
                    if (c.status() != SolveStatus.OPTIMAL) {
                        continue;
                    }
                    for (String scheme : Schemes.PAPER) {
                        Plan p = Schemes.byName(scheme).plan(g, s, b, Limits.DEFAULT);
                        assertTrue(c.plan().traffic().nonCompulsory() <= p.traffic().nonCompulsory(),
                                name + " " + scheme + " at " + b);
                    }
                }
            }
        }
    }

    /**
     * The scheme's plan; null only when a bytes-then-MiniMalloc scheme finds no packing, which is allowed
     * (replacement decided on bytes may not be packable); every online-allocator scheme must deliver.
     */
    static Plan planOrNull(String scheme, Graph g, TensorSetting s, long budget) {
        try {
            return Schemes.byName(scheme).plan(g, s, budget, Limits.ofWall(Duration.ofSeconds(5)));
        } catch (PackingFailedException e) {
            assertTrue(scheme.endsWith("/minimalloc"), scheme + ": " + e.getMessage());
            return null;
        }
    }

    @Test
    void bytesOnlyReplacementIsPackedByMiniMallocIntoCheckedPlans() {
        // Replacement on bytes alone evicts only for want of bytes; MiniMalloc then has to find the addresses.
        int packed = 0;
        for (long seed = 0; seed < 10; seed++) {
            Graph g = RandomGraphs.layered(seed, 20, 3, 5, 100, false);
            long b = Budgets.minimumFeasible(g) + 40;
            Plan bytes = planOrNull("default/belady/minimalloc", g, TensorSetting.ALL, b);
            if (bytes != null) {
                packed++;
                assertTrue(PlanChecker.check(g, bytes).valid());
            }
        }
        assertTrue(packed > 0, "MiniMalloc packed none of the bytes-only plans");
    }

    @Test
    void schemesOfOneRunComputeTheMinimumPeakOrderOnce() {
        Graph g = Examples.graph("params");
        List<Scheme> schemes = Schemes.byNames(List.of("mpmf/belady/tflite", "mpmf/greedy/tflite"));
        for (Scheme s : schemes) {
            s.plan(g, TensorSetting.ACTIVATIONS, Budgets.minimumFeasible(g.withSetting(TensorSetting.ACTIVATIONS)),
                    Limits.DEFAULT);
        }
        // Each plan call builds a new graph object for the setting; the order is still computed once.
        assertTrue(schemes.get(0).lastSchedule() == schemes.get(1).lastSchedule());
    }

    @Test
    void namesAreParsedAndUnknownOnesExplained() {
        assertEquals("mpmf/greedy/tflite", Schemes.byName("mpmf/greedy/tflite").name());
        assertEquals(18, Schemes.all().size());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Schemes.byName("lifo/x"));
        assertTrue(e.getMessage().contains("SCHEDULER/POLICY/ALLOCATOR"), e.getMessage());
    }

    /**
     * memory-model.md rule 5 in every scheme: with alignment 2, 3 and 8 and sizes that are not multiples of it,
     * every scheme (tflite, firstfit, MiniMalloc after bytes-only replacement) and the just-in-time plan give
     * checked plans with aligned offsets from the least aligned budget up, and COSMA, when it proves its
     * optimum, pays no more than any of them.
     */
    @Test
    void everySchemeAndCosmaHonourAlignment() {
        CosmaSolver.Options cosma = new CosmaSolver.Options(CosmaObjective.TRAFFIC, null, Backend.CPSAT, true, null,
                true, new dev.memplan.baselines.allocation.minimalloc.MiniMallocAllocator());
        Limits limits = Limits.ofWall(Duration.ofSeconds(20));
        for (long seed = 0; seed < 6; seed++) {
            Graph raw = RandomGraphs.layered(seed, 7, 2, 3, 13, seed % 2 == 0);
            long alignment = List.of(2L, 3L, 8L).get((int) (seed % 3));
            Graph g = new Graph(raw.name(), alignment, raw.tensors(), raw.operators(), raw.outputs());
            long from = Budgets.minimumFeasible(g);
            for (long b : List.of(from, from + 5, from + 19)) {
                String where = "seed " + seed + ", alignment " + alignment + ", budget " + b;
                CosmaResult c = CosmaSolver.solve(g, TensorSetting.ALL, b, cosma, limits);
                List<Plan> plans = new java.util.ArrayList<>();
                plans.add(new dev.memplan.model.JustInTimePlanner().plan(g, TensorSetting.ALL, b, Limits.DEFAULT));
                for (String scheme : Schemes.all()) {
                    Plan p = planOrNull(scheme, g, TensorSetting.ALL, b);
                    if (p != null) {
                        plans.add(p);
                    }
                }
                for (Plan p : plans) {
                    CheckReport r = PlanChecker.check(g, p);
                    assertTrue(r.valid(), where + " " + p.solver().name() + ": " + r.violations());
                    if (c.status() == SolveStatus.OPTIMAL) {
                        assertTrue(c.objective() <= r.traffic().nonCompulsory(), where + " " + p.solver().name());
                    }
                }
                assertTrue(c.plan() != null && PlanChecker.check(g, c.plan()).valid(), where);
            }
        }
    }

    @Test
    void trafficNeverExceedsTheJustInTimePlansOnTheExamples() {
        // Loading everything just in time is the worst a sane scheme does: each use loads, each output spills.
        for (String name : Examples.names()) {
            Graph g = Examples.graph(name);
            long mr = Budgets.minimumFeasible(g);
            Plan jit = new dev.memplan.model.JustInTimePlanner().plan(g, TensorSetting.ALL, mr, Limits.DEFAULT);
            for (String scheme : Schemes.PAPER) {
                Plan p = Schemes.byName(scheme).plan(g, TensorSetting.ALL, mr, Limits.DEFAULT);
                assertTrue(p.traffic().nonCompulsory() <= jit.traffic().nonCompulsory(), name + " " + scheme);
            }
        }
    }
}
