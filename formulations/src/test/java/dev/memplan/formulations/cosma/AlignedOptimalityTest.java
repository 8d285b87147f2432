package dev.memplan.formulations.cosma;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.formulations.BruteForceAccess;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.model.Budgets;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Plan;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.Schedule;
import dev.memplan.model.SolveStatus;
import dev.memplan.model.TensorSetting;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * memory-model.md rule 5 in every COSMA path: with alignment A > 1 and sizes that are not multiples of A, the
 * optimum of the joint program, of the decoupled steps and of the fixed-schedule program equals the brute force's
 * (which tries every aligned offset), every plan has aligned offsets, and a budget where no aligned plan exists
 * is a proven INFEASIBLE, never an exception.
 */
class AlignedOptimalityTest {
    private static final CosmaSolver.Options JOINT = CosmaSolver.Options.traffic(Backend.CPSAT);
    private static final CosmaSolver.Options DECOUPLED = JOINT.withDecoupled(true, null);

    /** The graph with another alignment. */
    static Graph aligned(Graph g, long alignment) {
        return new Graph(g.name(), alignment, g.tensors(), g.operators(), g.outputs());
    }

    private static void assertAligned(Plan plan, long alignment, String where) {
        plan.segments().values().forEach(list -> list.forEach(s ->
                assertEquals(0, s.offset() % alignment, where + ": offset " + s.offset())));
    }

    private static long solved(Graph g, long budget, Schedule fixed, CosmaSolver.Options options, String where) {
        CosmaResult r = CosmaSolver.solve(g, TensorSetting.ALL, budget, options.withSchedule(fixed), Limits.DEFAULT);
        assertEquals(SolveStatus.OPTIMAL, r.status(), where);
        assertNotNull(r.plan(), where);
        assertTrue(PlanChecker.check(g, r.plan()).valid(), where);
        assertAligned(r.plan(), g.alignment(), where);
        return r.objective();
    }

    @Test
    void equalsBruteForceWithAlignmentTwoAndThree() {
        Random random = new Random(41);
        int cases = 0;
        for (int round = 0; round < 8; round++) {
            long alignment = 2 + round % 2;
            Graph g = aligned(BruteForceAccess.randomTinyGraph(random, 4 + round % 2, round % 4 == 1), alignment);
            assertTrue(g.tensors().stream().anyMatch(t -> t.size() % alignment != 0), "sizes not all multiples");
            long from = Budgets.minimumFeasible(g);
            Schedule order = Schedule.defaultOrder(g);
            for (long budget : List.of(from, from + 1, from + alignment + 1)) {
                String where = "round " + round + ", alignment " + alignment + ", budget " + budget;
                long free = BruteForceAccess.minTraffic(g, TensorSetting.ALL, budget, null);
                long fixed = BruteForceAccess.minTraffic(g, TensorSetting.ALL, budget, order);
                assertEquals(free, solved(g, budget, null, JOINT, where + ", joint"), where + ", joint");
                assertEquals(free, solved(g, budget, null, DECOUPLED, where + ", decoupled"), where + ", decoupled");
                assertEquals(fixed, solved(g, budget, order, JOINT, where + ", fixed"), where + ", fixed");
                cases += 3;
            }
        }
        assertEquals(72, cases);
    }

    /** Every technique of the decoupled encoding off in turn, with parameters (the lift) and alignment 3. */
    @Test
    void eachTechniqueOffKeepsTheAlignedOptimum() {
        Random random = new Random(43);
        for (int round = 0; round < 3; round++) {
            Graph g = aligned(BruteForceAccess.randomTinyGraph(random, 4, true), 3);
            long budget = Budgets.minimumFeasible(g) + 2;
            long optimum = BruteForceAccess.minTraffic(g, TensorSetting.ALL, budget, null);
            for (Technique off : Technique.values()) {
                assertEquals(optimum, solved(g, budget, null, DECOUPLED.without(java.util.Set.of(off)),
                        "round " + round + " without " + off));
            }
        }
    }

    /**
     * The smallest input of issue 12: x(1) -> A -> y(1) at alignment 2. M_R = 2, but y cannot sit at offset 1,
     * so the least feasible budget is 3 (x at 0, y at 2). At 2: INFEASIBLE (proven), at 3: optimal, aligned.
     */
    @Test
    void belowTheLeastAlignedBudgetIsInfeasibleNotABug() {
        Graph g = Graph.builder("pair").alignment(2).activation("x", 1).activation("y", 1)
                .operator("A", List.of("x"), List.of("y")).output("y").build();
        assertEquals(2, Budgets.minimumRequired(g));
        assertEquals(3, Budgets.minimumFeasible(g));
        for (CosmaSolver.Options options : List.of(JOINT, DECOUPLED, JOINT.withSchedule(Schedule.defaultOrder(g)))) {
            CosmaResult r = CosmaSolver.solve(g, TensorSetting.ALL, 2, options, Limits.DEFAULT);
            assertEquals(SolveStatus.INFEASIBLE, r.status());
            assertNull(r.plan());
        }
        assertEquals(0, solved(g, 3, null, JOINT, "joint at 3"));
    }

    /** fig1 of the paper at alignments 3, 5, 16 and 64: aligned optima equal the brute force's, or INFEASIBLE. */
    @Test
    void figureOneAtSeveralAlignments() {
        Graph fig1 = dev.memplan.datasets.Examples.graph("fig1");
        for (long alignment : List.of(3L, 5L, 16L, 64L)) {
            Graph g = aligned(fig1, alignment);
            for (long budget : List.of(32L, 48L)) {
                String where = "alignment " + alignment + ", budget " + budget;
                CosmaResult r = CosmaSolver.solve(g, TensorSetting.ALL, budget, DECOUPLED, Limits.DEFAULT);
                if (budget < Budgets.minimumFeasible(g)) {
                    assertEquals(SolveStatus.INFEASIBLE, r.status(), where);
                    continue;
                }
                assertEquals(SolveStatus.OPTIMAL, r.status(), where);
                assertAligned(r.plan(), alignment, where);
                assertEquals(BruteForceAccess.minTraffic(g, TensorSetting.ALL, budget, null), r.objective(), where);
            }
        }
    }
}
