package dev.memplan.formulations.cosma;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.formulations.BruteForceAccess;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.model.CheckReport;
import dev.memplan.model.Graph;
import dev.memplan.model.JustInTimePlanner;
import dev.memplan.model.Limits;
import dev.memplan.model.Plan;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.SolveStatus;
import dev.memplan.model.TensorSetting;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Plans with parameters lifted from plans of the activations. */
class ParameterLiftTest {

    @Test
    void theReserveIsTheMostParameterBytesOfOneOperatorAligned() {
        Graph g = ForcedTrafficTest.group();
        assertEquals(6, ParameterLift.reserved(g));
        assertEquals(7, ParameterLift.activationBudget(g, 13));
        Graph aligned = Graph.builder("aligned").alignment(4).activation("x", 3).parameter("w", 5).parameter("v", 1)
                .activation("y", 4).operator("f", List.of("x", "w", "v"), List.of("y")).output("y").build();
        assertEquals(8 + 4, ParameterLift.reserved(aligned));
        assertEquals(16, ParameterLift.activationBudget(aligned, 30), "aligned down");
    }

    @Test
    void aLiftedPlanIsValidAndPaysWhatTheActivationsPlanPays() {
        Graph g = ForcedTrafficTest.group();
        Graph activations = g.withSetting(TensorSetting.ACTIVATIONS);
        Plan act = new JustInTimePlanner(null).plan(activations, TensorSetting.ACTIVATIONS, 7, Limits.DEFAULT);
        Plan lifted = ParameterLift.lift(g, act, 13);
        CheckReport report = PlanChecker.check(g, lifted);
        assertTrue(report.valid(), report.toString());
        assertEquals(PlanChecker.check(activations, act).traffic().nonCompulsory(), report.traffic().nonCompulsory());
    }

    @Test
    void aParameterReadTwiceIsLoadedTwice() {
        Graph g = Graph.builder("shared").activation("x", 2).parameter("w", 3).activation("y", 2).activation("z", 2)
                .operator("f", List.of("x", "w"), List.of("y"))
                .operator("h", List.of("y", "w"), List.of("z")).output("z").build();
        Graph activations = g.withSetting(TensorSetting.ACTIVATIONS);
        Plan act = new JustInTimePlanner(null).plan(activations, TensorSetting.ACTIVATIONS, 4, Limits.DEFAULT);
        CheckReport report = PlanChecker.check(g, ParameterLift.lift(g, act, 7));
        assertTrue(report.valid(), report.toString());
        long activationTraffic = PlanChecker.check(activations, act).traffic().nonCompulsory();
        assertEquals(activationTraffic + 3, report.traffic().nonCompulsory(), "plus the second load of w");
    }

    @Test
    void theSolverReachesTheOptimumThroughALiftedPlan() {
        Graph g = ForcedTrafficTest.group();
        for (long budget : List.of(13L, 14L)) {
            CosmaResult r = CosmaSolver.solve(g, TensorSetting.ALL, budget,
                    CosmaSolver.Options.traffic(Backend.CPSAT).withDecoupled(true, null), Limits.DEFAULT);
            assertEquals(SolveStatus.OPTIMAL, r.status());
            assertEquals(BruteForceAccess.minTraffic(g, TensorSetting.ALL, budget, null), (long) r.objective());
            assertTrue(PlanChecker.check(g, r.plan()).valid());
        }
    }
}
