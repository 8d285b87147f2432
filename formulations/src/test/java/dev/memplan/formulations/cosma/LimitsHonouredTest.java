package dev.memplan.formulations.cosma;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.datasets.Examples;
import dev.memplan.datasets.RandomGraphs;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.formulations.milp.BuildAbandonedException;
import dev.memplan.formulations.milp.BuildGuard;
import dev.memplan.formulations.milp.Constraint;
import dev.memplan.formulations.milp.Model;
import dev.memplan.model.Budget;
import dev.memplan.model.Graph;
import dev.memplan.model.JustInTimePlanner;
import dev.memplan.model.Limits;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.SolveStatus;
import dev.memplan.model.TensorSetting;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Time limits and memory as promises (issue 12): a passed deadline returns the best checked plan so far with a note;
 * a model that cannot fit in the heap is not built; a build abandons once its deadline passes; estimates count what
 * the formulation builds.
 */
class LimitsHonouredTest {
    private static final CosmaSolver.Options DECOUPLED =
            CosmaSolver.Options.traffic(Backend.CPSAT).withDecoupled(true, null);

    private static Limits expired() {
        return Limits.ofWall(Duration.ZERO);
    }

    @Test
    void aPassedDeadlineReturnsTheCheckedStartingPlanAndSaysWhatWasSkipped() {
        Graph g = Examples.graph("fig1");
        long budget = 48;
        CosmaResult r = CosmaSolver.solve(g, TensorSetting.ACTIVATIONS, budget, DECOUPLED, expired());
        assertNotNull(r.plan());
        assertTrue(PlanChecker.check(g, r.plan()).valid());
        assertTrue(r.startingPlanOnly());
        // The just-in-time plan spills at 48 bytes; nothing proved it optimal, so FEASIBLE, never INFEASIBLE.
        assertEquals(SolveStatus.FEASIBLE, r.status());
        long jit = PlanChecker.check(g, new JustInTimePlanner().plan(g, TensorSetting.ACTIVATIONS, budget,
                Limits.DEFAULT)).traffic().nonCompulsory();
        assertEquals(jit, (long) r.objective());
        assertTrue(r.notes().stream().anyMatch(n -> n.contains("joint program skipped")), r.notes().toString());
        assertTrue(r.notes().stream().anyMatch(n -> n.contains("no time left")), r.notes().toString());
    }

    @Test
    void theSameProblemWithTimeIsSolvedWithoutNotes() {
        Graph g = Examples.graph("fig1");
        CosmaResult r = CosmaSolver.solve(g, TensorSetting.ACTIVATIONS, 48, DECOUPLED,
                Limits.ofWall(Duration.ofSeconds(60)));
        assertEquals(SolveStatus.OPTIMAL, r.status());
        assertEquals(24L, r.objective());
        assertTrue(r.notes().isEmpty(), r.notes().toString());
    }

    @Test
    void aModelLargerThanTheHeapIsNotBuiltAndTheStartingPlanIsReturned() {
        // 20,000 operators: the formulation's per-tensor, per-timestep tables alone need 8 GB.
        Graph g = RandomGraphs.layered(1, 20_000, 2, 8, 4096, false);
        long budget = dev.memplan.model.Budgets.minimumFeasible(g);
        OperatorWindows windows = OperatorWindows.of(g, null, true);
        ModelEstimate estimate = ModelEstimate.of(g, windows, true, true);
        assertTrue(estimate.bytes() > Runtime.getRuntime().maxMemory(), estimate.toString());
        CosmaSolver.Options joint = CosmaSolver.Options.traffic(Backend.CPSAT).without(Set.of(Technique.FORCED));
        CosmaResult r = CosmaSolver.solve(g, TensorSetting.ACTIVATIONS, budget, joint, Limits.DEFAULT);
        assertNotNull(r.plan());
        assertTrue(r.startingPlanOnly());
        assertTrue(PlanChecker.check(g, r.plan()).valid());
        assertTrue(r.notes().stream().anyMatch(n -> n.contains("joint program skipped") && n.contains("heap")),
                r.notes().toString());
    }

    @Test
    void anEstimateSaysWhyNotAgainstHeapAndTime() {
        ModelEstimate e = new ModelEstimate(1_000, 2_000, 3_000_000, 500L << 20);
        assertTrue(e.whyNot(100L << 20, null).contains("heap"));
        assertTrue(e.whyNot(1L << 30, Duration.ofMillis(100)).contains("building it takes"));
        assertNull(e.whyNot(1L << 30, Duration.ofHours(1)));
        assertNull(e.whyNot(1L << 30, null));
        // Under a work limit only -Xmx counts (half of it), never the heap free at the moment.
        assertTrue(e.whyNotUnderWork(900L << 20, Double.POSITIVE_INFINITY).contains("more than half of the 900 MB heap"));
        assertNull(e.whyNotUnderWork(1L << 30, Double.POSITIVE_INFINITY));
        assertTrue(e.whyNotUnderWork(1L << 30, 0.1).contains("building it takes"));
    }

    @Test
    void estimatesCountAtLeastWhatIsBuiltAndNotWildlyMore() {
        for (long seed = 1; seed <= 4; seed++) {
            Graph g = RandomGraphs.layered(seed, 30, 2, 4, 64, seed % 2 == 0);
            long budget = dev.memplan.model.Budgets.minimumFeasible(g);
            for (boolean addresses : new boolean[] {false, true}) {
                OperatorWindows w = OperatorWindows.of(g, null, true);
                ModelEstimate e = ModelEstimate.of(g, w, true, addresses);
                Model m = new CosmaFormulation(g, TensorSetting.ALL, budget, CosmaObjective.TRAFFIC, null, addresses,
                        true).model();
                long nonzeros = m.constraints().stream().mapToLong((Constraint c) -> c.expr().terms().size()).sum();
                String what = "seed " + seed + " addresses " + addresses + ": " + e + " vs " + m;
                assertTrue(e.variables() >= m.variableCount() && e.variables() <= 2L * m.variableCount() + 100, what);
                assertTrue(e.constraints() >= m.constraintCount() && e.constraints() <= 3L * m.constraintCount() + 100,
                        what);
                assertTrue(e.nonzeros() >= nonzeros && e.nonzeros() <= 3 * nonzeros + 1000, what);
            }
        }
    }

    /**
     * The forced-traffic bound, computed before any solver's clock starts, polls the budget of the guard open on its
     * thread and gives up once that budget is stopped (a cancel here), instead of running past the step's share.
     */
    @Test
    void theForcedBoundGivesUpOnceItsBudgetIsStopped() {
        Graph g = RandomGraphs.layered(1, 400, 3, 4, 64, true).withSetting(TensorSetting.ACTIVATIONS);
        long budget = dev.memplan.model.Budgets.minimumRequired(g);
        Budget stopped = Budget.ofWall(Duration.ofHours(1));
        stopped.cancel();
        try (BuildGuard guard = BuildGuard.until(stopped)) {
            assertThrows(BuildAbandonedException.class,
                    () -> ForcedTraffic.of(g, OperatorWindows.of(g, null, true), budget));
        }
        assertTrue(ForcedTraffic.of(g, OperatorWindows.of(g, null, true), budget).bound() >= 0,
                "without a guard the bound is computed");
    }

    /** A cancelled budget stops COSMA's steps: the checked starting plan comes back, with what was skipped. */
    @Test
    void aCancelledBudgetReturnsTheStartingPlan() {
        Graph g = Examples.graph("fig1");
        Budget run = Budget.ofWall(Duration.ofHours(1));
        run.cancel();
        CosmaResult r = CosmaSolver.solve(g, TensorSetting.ACTIVATIONS, 48, DECOUPLED,
                Limits.DEFAULT.withBudget(run));
        assertTrue(r.startingPlanOnly());
        assertTrue(PlanChecker.check(g, r.plan()).valid());
        assertTrue(r.notes().stream().anyMatch(n -> n.contains("interrupted")), r.notes().toString());
    }

    @Test
    void aBuildStopsOnceItsDeadlinePasses() {
        Model m = new Model("big");
        try (BuildGuard guard = BuildGuard.until(Budget.ofWall(Duration.ZERO))) {
            assertThrows(BuildAbandonedException.class, () -> {
                for (int i = 0; i < 100_000; i++) {
                    m.binary("x" + i);
                }
            });
        }
        // Outside the guard, models build as before.
        Model free = new Model("free");
        for (int i = 0; i < 10_000; i++) {
            free.binary("x" + i);
        }
        assertEquals(10_000, free.variableCount());
    }

    @Test
    void aStepNeverGetsMoreThanTheRunHasLeft() {
        Limits l = Limits.ofWall(Duration.ofSeconds(2));
        assertTrue(l.budget().wallLeft().compareTo(Duration.ofSeconds(2)) <= 0);
        assertTrue(l.upTo(Duration.ofHours(2).toNanos()).budget().wallLeft().compareTo(Duration.ofSeconds(2)) <= 0);
        assertEquals(Duration.ZERO, expired().budget().wallLeft());
        assertTrue(expired().stopped());
        assertNull(Limits.DEFAULT.budget().wallLeft());
        assertTrue(!Limits.DEFAULT.stopped());
    }
}
