package dev.memplan.formulations.cosma;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.datasets.RandomGraphs;
import dev.memplan.datasets.TrainingGraphs;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.formulations.milp.Constraint;
import dev.memplan.formulations.milp.Model;
import dev.memplan.model.Budget;
import dev.memplan.model.Budgets;
import dev.memplan.model.Graph;
import dev.memplan.model.HeapRoom;
import dev.memplan.model.JustInTimePlanner;
import dev.memplan.model.Limits;
import dev.memplan.model.Plan;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.Schedule;
import dev.memplan.model.SolveStatus;
import dev.memplan.model.TensorSetting;
import org.junit.jupiter.api.Test;

/**
 * The recompute programs are sized before they are built ({@link ModelEstimate#ofRecompute}) and skipped when the
 * size does not fit the room {@link HeapRoom} gives them, as COSMA's programs are.
 */
class RecomputeEstimateTest {
    private static final TensorSetting ACT = TensorSetting.ACTIVATIONS;

    /** A training step of a small random layered graph. */
    private static Graph step(long seed, int operators) {
        return TrainingGraphs.of(RandomGraphs.layered(seed, operators, 2, 4, 64, false),
                TrainingGraphs.Step.BACKWARD).withSetting(ACT);
    }

    /**
     * The estimate counts the variables of the built program exactly, and its rows and nonzeros from above within a
     * small factor (it does not see the terms an expression merges, nor the rows that fold to a constant): free and
     * fixed schedules, with and without addresses, windows on and off, either reruns.
     */
    @Test
    void theEstimateCountsWhatIsBuilt() {
        for (long seed = 1; seed <= 3; seed++) {
            Graph g = step(seed, 8);
            long budget = Budgets.minimumRequired(g);
            for (Schedule schedule : new Schedule[] {null, Schedule.defaultOrder(g)}) {
                for (boolean prune : new boolean[] {true, false}) {
                    for (Reruns reruns : Reruns.values()) {
                        for (boolean addresses : new boolean[] {false, true}) {
                            RecomputeWindows w = RecomputeFormulation.windows(g, budget, 3, 0.125, schedule, reruns,
                                    prune);
                            ModelEstimate e = ModelEstimate.ofRecompute(w, addresses);
                            Model m = new RecomputeFormulation(g, ACT, budget, 3, 0.125, schedule, reruns, prune,
                                    addresses).model();
                            long nonzeros = m.constraints().stream()
                                    .mapToLong((Constraint c) -> c.expr().terms().size()).sum();
                            String what = "seed " + seed + (schedule == null ? " free" : " fixed") + " prune " + prune
                                    + " " + reruns + " addresses " + addresses + ": " + e + " vs " + m;
                            assertEquals(m.variableCount(), e.variables(), what);
                            assertTrue(e.constraints() >= m.constraintCount()
                                    && e.constraints() <= 1.25 * m.constraintCount(), what);
                            assertTrue(e.nonzeros() >= nonzeros && e.nonzeros() <= 1.5 * nonzeros, what);
                            assertTrue(e.bytes() >= ModelEstimate.RECOMPUTE_PEAK * (e.variables()
                                    * ModelEstimate.BYTES_PER_VARIABLE), what);
                        }
                    }
                }
            }
        }
    }

    /**
     * With the room capped at a kilobyte (below any program's estimate), every program of the request is too large:
     * each is skipped with a note naming its estimate and the room, nothing is built, and the starting plan comes
     * back, checked.
     */
    @Test
    void aProgramAboveTheRoomIsSkippedAndTheStartingPlanStands() {
        Graph g = step(4, 10);
        long budget = Budgets.minimumRequired(g);
        Plan start = new JustInTimePlanner().plan(g, ACT, budget, Limits.DEFAULT);
        RecomputeSolver.Request request = RecomputeSolver.Request.of(4, 0.125, Backend.CPSAT).withStart(start)
                .withReruns(Reruns.FORWARD);
        Limits work = Limits.DEFAULT.withBudget(Budget.ofWork(10, null));
        RecomputeSolver.Result r;
        try (HeapRoom.Hold cap = HeapRoom.roomAtMost(1024)) {
            r = RecomputeSolver.solve(g, ACT, budget, request, work);
        }
        String notes = r.notes().toString();
        assertFalse(r.built(), notes);
        assertTrue(r.startOnly(), notes);
        assertNotNull(r.plan());
        assertTrue(PlanChecker.check(g, r.plan()).valid());
        assertEquals(SolveStatus.FEASIBLE, r.status());
        // The starting plan's order, the program without addresses, the joint program: each skipped and why.
        assertEquals(4, r.notes().size(), notes);
        for (String note : r.notes()) {
            assertTrue(note.matches(".*skipped \\(about \\d+ vars / \\d+ cons / \\d+ nonzeros, \\d+ MB\\): needs"
                    + " about \\d+ MB, more than the 0 MB room this run gives a structure"), note);
        }
        // The same request with the whole room builds its programs.
        assertTrue(RecomputeSolver.solve(g, ACT, budget, request, work).built());
    }
}
