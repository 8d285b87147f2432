package dev.memplan.formulations.cosma;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.formulations.BruteForceAccess;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.model.Budgets;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.Schedule;
import dev.memplan.model.SolveStatus;
import dev.memplan.model.TensorSetting;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Cross-checks that hold whatever the optimum is, and agreement between back-ends. */
class CosmaCrossCheckTest {

    private static long optimum(Graph g, TensorSetting s, long budget, Schedule fixed, Backend backend) {
        return CosmaOptimalityTest.solve(g, s, budget, fixed, backend, true).objective();
    }

    @Test
    void everyBackEndAgreesOnTheOptimum() {
        Random random = new Random(17);
        for (int round = 0; round < 4; round++) {
            Graph g = BruteForceAccess.randomTinyGraph(random, 4, round % 2 == 0);
            long mr = Budgets.minimumRequired(g);
            long expected = optimum(g, TensorSetting.ALL, mr, null, Backend.SCIP);
            for (Backend b : List.of(Backend.CPSAT, Backend.CBC, Backend.HIGHS)) {
                assertEquals(expected, optimum(g, TensorSetting.ALL, mr, null, b), b + ", round " + round);
            }
        }
    }

    /**
     * ojAlgo's pure-Java branch and bound is only for small models: on the smallest graphs it proves the same
     * optimum; on larger ones it must at least return a checked plan within its limit.
     */
    @Test
    void ojAlgoAgreesWhereItFinishes() {
        // At 9 bytes x (3) must leave while g runs and come back for h: 3 bytes; at 12 it stays.
        Graph chain = Graph.builder("chain3").activation("x", 3).activation("y", 5).activation("z", 4)
                .activation("u", 1).operator("f", List.of("x"), List.of("y")).operator("g", List.of("y"), List.of("z"))
                .operator("h", List.of("x", "z"), List.of("u")).output("u").build();
        assertEquals(3, optimum(chain, TensorSetting.ALL, 9, null, Backend.OJALGO));
        assertEquals(0, optimum(chain, TensorSetting.ALL, 12, null, Backend.OJALGO));
        Graph g = BruteForceAccess.randomTinyGraph(new Random(17), 4, true);
        Limits limit = Limits.ofWall(Duration.ofSeconds(5));
        CosmaResult r = CosmaSolver.solve(g, TensorSetting.ALL, Budgets.minimumRequired(g),
                CosmaSolver.Options.traffic(Backend.OJALGO), limit);
        assertNotNull(r.plan());
        assertTrue(PlanChecker.check(g, r.plan()).valid());
        if (r.status() == SolveStatus.OPTIMAL) {
            assertEquals(optimum(g, TensorSetting.ALL, Budgets.minimumRequired(g), null, Backend.SCIP), r.objective());
        }
    }

    @Test
    void fixedScheduleIsNeverBetterAndMoreBudgetNeverCostsMore() {
        Random random = new Random(23);
        for (int round = 0; round < 5; round++) {
            Graph g = BruteForceAccess.randomTinyGraph(random, 5, round % 2 == 1);
            long mr = Budgets.minimumRequired(g);
            long mp = BruteForceAccess.minPeak(g);
            long previous = Long.MAX_VALUE;
            for (long budget = mr; budget <= mp + 1; budget += Math.max(1, (mp - mr) / 4)) {
                long free = optimum(g, TensorSetting.ALL, budget, null, Backend.CPSAT);
                long fixed = optimum(g, TensorSetting.ALL, budget, Schedule.defaultOrder(g), Backend.CPSAT);
                assertTrue(fixed >= free, "fixed " + fixed + " < free " + free + " at " + budget);
                assertTrue(free <= previous, "traffic rose with the budget at " + budget);
                previous = free;
            }
            long everything = g.tensors().stream().mapToLong(t -> t.size()).sum();
            assertEquals(0, optimum(g, TensorSetting.ALL, everything, null, Backend.CPSAT), "keep everything");
        }
    }

    @Test
    void budgetBelowMRIsRefusedWithMR() {
        Graph g = BruteForceAccess.randomTinyGraph(new Random(1), 3, false);
        long mr = Budgets.minimumRequired(g);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CosmaSolver.solve(g,
                TensorSetting.ALL, mr - 1, CosmaSolver.Options.traffic(Backend.SCIP), Limits.DEFAULT));
        assertTrue(e.getMessage().contains("below M_R = " + mr), e.getMessage());
    }

    @Test
    void aTimeLimitStillReturnsACheckedPlanWithItsGap() {
        Graph g = dev.memplan.datasets.RandomGraphs.layered(9, 40, 3, 6, 64, false);
        long mr = Budgets.minimumRequired(g);
        Limits tight = Limits.ofWall(Duration.ofMillis(200));
        CosmaResult r = CosmaSolver.solve(g, TensorSetting.ALL, mr, CosmaSolver.Options.traffic(Backend.SCIP), tight);
        assertNotNull(r.plan(), "a plan despite the limit");
        assertNotEquals(SolveStatus.INFEASIBLE, r.status());
        assertTrue(r.status() == SolveStatus.OPTIMAL || r.status() == SolveStatus.FEASIBLE, r.status().name());
        assertTrue(PlanChecker.check(g, r.plan()).valid());
        if (r.status() == SolveStatus.FEASIBLE && r.bound() != null) {
            assertTrue(r.bound() <= r.objective());
            assertNotNull(r.gap());
        }
    }
}
