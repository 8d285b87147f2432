package dev.memplan.formulations.cosma;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.formulations.BruteForceAccess;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.model.Allocation;
import dev.memplan.model.Allocator;
import dev.memplan.model.Budgets;
import dev.memplan.model.BufferSet;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.SolveStatus;
import dev.memplan.model.TensorSetting;
import dev.memplan.model.Budget;
import dev.memplan.model.CheckReport;
import dev.memplan.model.Plan;
import dev.memplan.model.io.GraphJson;
import dev.memplan.model.io.PlanJson;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The decoupled encoding (relaxation without addresses, then packing) reaches the joint program's optimum and the
 * brute-force search's.
 */
class DecoupledTest {
    private static final CosmaSolver.Options JOINT = CosmaSolver.Options.traffic(Backend.CPSAT);
    private static final CosmaSolver.Options DECOUPLED = JOINT.withDecoupled(true, null);

    @Test
    void sameOptimumAsTheJointProgramOnRandomTinyGraphs() {
        Random random = new Random(23);
        int decided = 0;
        for (int round = 0; round < 24; round++) {
            Graph g = BruteForceAccess.randomTinyGraph(random, 4 + round % 2, round % 3 == 0);
            long mr = Budgets.minimumFeasible(g);
            for (long b : List.of(mr, mr + 2, mr + 5)) {
                CosmaResult joint = CosmaSolver.solve(g, TensorSetting.ALL, b, JOINT, Limits.DEFAULT);
                CosmaResult dec = CosmaSolver.solve(g, TensorSetting.ALL, b, DECOUPLED, Limits.DEFAULT);
                assertEquals(SolveStatus.OPTIMAL, joint.status());
                assertEquals(SolveStatus.OPTIMAL, dec.status(), "round " + round + " at " + b);
                assertEquals(joint.objective(), dec.objective(), "round " + round + " at " + b);
                assertEquals(BruteForceAccess.minTraffic(g, TensorSetting.ALL, b, null), (long) dec.objective());
                assertTrue(PlanChecker.check(g, dec.plan()).valid());
                decided++;
            }
        }
        assertEquals(72, decided);
    }

    @Test
    void whenThePackerFailsTheJointProgramStillFindsTheOptimumAndTheRelaxationBoundHolds() {
        Allocator never = new Allocator() {
            @Override
            public String name() {
                return "never";
            }

            @Override
            public Allocation allocate(BufferSet buffers, long capacity, Limits limits) {
                return new Allocation(SolveStatus.UNKNOWN, null, 0);
            }
        };
        Random random = new Random(5);
        for (int round = 0; round < 8; round++) {
            Graph g = BruteForceAccess.randomTinyGraph(random, 4, false);
            long b = Budgets.minimumFeasible(g);
            CosmaResult joint = CosmaSolver.solve(g, TensorSetting.ALL, b, JOINT, Limits.DEFAULT);
            CosmaResult dec = CosmaSolver.solve(g, TensorSetting.ALL, b, JOINT.withDecoupled(true, never), Limits.DEFAULT);
            assertEquals(joint.objective(), dec.objective(), "round " + round);
            assertEquals(SolveStatus.OPTIMAL, dec.status());
            // The step's work leaves a trace: what the program without addresses found and that it did not pack.
            assertTrue(dec.notes().stream().anyMatch(n -> n.contains("the program without addresses (")
                    && n.endsWith(", its plan did not pack into the budget (never: UNKNOWN)")), dec.notes().toString());
        }
    }

    @Test
    void theStartsOrderSolvedAloneIsProvenOptimalWhenItMeetsTheForcedBound() {
        Graph g = ForcedTrafficTest.escapes();
        CosmaResult r = CosmaSolver.solve(g, TensorSetting.ALL, 5, DECOUPLED, Limits.DEFAULT);
        assertEquals(SolveStatus.OPTIMAL, r.status());
        assertEquals(6L, r.objective());
        assertTrue(r.backend().contains("starting plan's order"), r.backend());
        assertTrue(PlanChecker.check(g, r.plan()).valid());
    }

    /**
     * Each technique the solver reads, switched off, leaves the optimum alone and changes what runs: the model
     * built, the steps' labels or the bound differ from the run with every technique on in at least one round
     * (a switch that reaches nothing fails here).
     */
    @Test
    void switchingATechniqueOffNeverChangesTheOptimum() {
        Random random = new Random(31);
        java.util.Set<Technique> reached = java.util.EnumSet.noneOf(Technique.class);
        for (int round = 0; round < 9; round++) {
            Graph g = BruteForceAccess.randomTinyGraph(random, 4, round % 2 == 0);
            long mr = Budgets.minimumFeasible(g);
            // The least budget at which the activations fit below the parameters' reserve, so the lift runs.
            long lift = Math.max(mr, Budgets.minimumFeasible(g.withSetting(TensorSetting.ACTIVATIONS))
                    + ParameterLift.reserved(g));
            for (long b : List.of(mr, lift)) {
                long optimum = BruteForceAccess.minTraffic(g, TensorSetting.ALL, b, null);
                String allOn = whatRan(g, b, DECOUPLED).trace();
                for (Technique off : Technique.of(Technique.Stage.SOLVER)) {
                    Ran ran = whatRan(g, b, DECOUPLED.without(java.util.Set.of(off)));
                    CosmaResult r = ran.result();
                    assertEquals(SolveStatus.OPTIMAL, r.status(), off + " round " + round + " at " + b);
                    assertEquals(optimum, (long) r.objective(), off + " round " + round + " at " + b);
                    if (!ran.trace().equals(allOn)) {
                        reached.add(off);
                    }
                }
            }
        }
        java.util.Set<Technique> unreached = java.util.EnumSet.copyOf(Technique.of(Technique.Stage.SOLVER));
        unreached.removeAll(reached);
        assertTrue(unreached.isEmpty(), "switched off without effect on what runs: " + unreached);
        assertEquals(Technique.START_ORDER, Technique.parse("Start-Order"));
    }

    /**
     * The PRUNE case really switches pruning off: the joint program built without it has the variables the run with
     * it counts before pruning, and on some graphs pruning removes variables, so a
     * switch that did not reach the formulation (the run without it building the pruned program) fails here.
     */
    @Test
    void switchingPruneOffBuildsTheProgramWithoutPruning() {
        // Only the joint program, so that the model counted is the one PRUNE governs.
        java.util.Set<Technique> others = java.util.EnumSet.of(Technique.FORCED, Technique.START_ORDER, Technique.LIFT);
        CosmaSolver.Options pruned = JOINT.without(others);
        java.util.Set<Technique> noPrune = java.util.EnumSet.copyOf(others);
        noPrune.add(Technique.PRUNE);
        CosmaSolver.Options unpruned = JOINT.without(noPrune);
        Random random = new Random(37);
        int smaller = 0;
        for (int round = 0; round < 6; round++) {
            Graph g = BruteForceAccess.randomTinyGraph(random, 4 + round % 2, round % 2 == 0);
            long b = Budgets.minimumFeasible(g);
            CosmaResult on = CosmaSolver.solve(g, TensorSetting.ALL, b, pruned, Limits.DEFAULT);
            CosmaResult off = CosmaSolver.solve(g, TensorSetting.ALL, b, unpruned, Limits.DEFAULT);
            assertTrue(on.pruned() != null && on.unpruned() != null && off.pruned() != null, "round " + round);
            // The count before pruning includes the forced-traffic rows, which are off here: variables alone.
            assertEquals(on.unpruned().variables(), off.pruned().variables(), "round " + round);
            assertTrue(off.pruned().constraints() >= on.pruned().constraints(), "round " + round);
            assertEquals(on.objective(), off.objective(), "round " + round);
            assertTrue(on.pruned().variables() <= on.unpruned().variables(), "round " + round);
            if (on.pruned().variables() < on.unpruned().variables()) {
                smaller++;
            }
        }
        assertTrue(smaller > 0, "pruning removed no variable on any graph: the case proves nothing");
    }

    /** A solve and what it ran: the model it built, the steps named in its label, its bound, the work it counted. */
    private record Ran(CosmaResult result, String trace) {
    }

    private static Ran whatRan(Graph g, long budget, CosmaSolver.Options options) {
        Budget work = Budget.ofWork(1e6, null);
        CosmaResult r = CosmaSolver.solve(g, TensorSetting.ALL, budget, options, Limits.DEFAULT.withBudget(work));
        return new Ran(r, r.pruned() + " | " + r.backend() + " | " + r.bound() + " | " + work.workUsedMicro());
    }

    /**
     * A PNASNet part at M_R that CP-SAT, stopped after 0.8 deterministic seconds, answered with a solution that spills a
     * tensor it never loads again: its objective (464,128) is above its plan's checked traffic (363,776). That used to
     * be reported as a bug and the part kept its start (870,080); the plan is valid and cheaper, so it is kept.
     */
    @Test
    void aStoppedSolutionWhosePlanPaysLessThanItsObjectiveIsKept() throws IOException {
        Graph g = GraphJson.read(resource("pnasnet-part0.graph.json"), "pnasnet-part0.graph.json");
        Plan start = PlanJson.read(resource("pnasnet-part0.start.json"), "pnasnet-part0.start.json");
        Graph gs = g.withSetting(TensorSetting.ACTIVATIONS);
        CheckReport startReport = PlanChecker.requireValid(gs, start, "test");
        // 0.8 deterministic seconds of CP-SAT, whatever a work unit is calibrated to.
        double units = 0.8 / dev.memplan.formulations.milp.CpSatBackend.DETERMINISTIC_TIME_PER_UNIT;
        Limits limits = Limits.DEFAULT.withBudget(Budget.ofWork(units, null));
        CosmaResult r = CosmaSolver.solve(g, TensorSetting.ACTIVATIONS, start.budget(),
                DECOUPLED.withStart(start.withResult(startReport.traffic(), null)), limits);
        assertTrue(r.plan() != null, r.status().toString());
        long traffic = PlanChecker.requireValid(gs, r.plan(), "test").traffic().nonCompulsory();
        assertEquals(traffic, r.objective());
        assertTrue(traffic < startReport.traffic().nonCompulsory(), traffic + " not below the start");
        // Its label names the step that made it: it used to say "the starting plan" (and a caller that keeps only
        // improvements on the start, the solve on the start's order, threw it away).
        assertFalse(r.startingPlanOnly(), r.backend());
        assertTrue(r.backend().contains("decoupled"), r.backend());
    }

    /**
     * The rule itself: a stopped solution's plan may pay less than its claim; a plan that pays more, or a proven
     * optimum's plan that pays anything else, is a bug.
     */
    @Test
    void aPlanMayPayLessThanAStoppedSolutionClaimsButNeverMoreNorOffAProvenOptimum() {
        CosmaSolver.requireConsistent("objective", SolveStatus.FEASIBLE, 464_128, 363_776, "plan");
        CosmaSolver.requireConsistent("objective", SolveStatus.OPTIMAL, 363_776, 363_776, "plan");
        org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                () -> CosmaSolver.requireConsistent("objective", SolveStatus.FEASIBLE, 363_776, 464_128, "plan"));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                () -> CosmaSolver.requireConsistent("objective", SolveStatus.OPTIMAL, 464_128, 363_776, "plan"));
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = DecoupledTest.class.getResourceAsStream("/cosma/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
