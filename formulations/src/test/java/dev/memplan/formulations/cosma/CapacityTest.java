package dev.memplan.formulations.cosma;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.memplan.formulations.milp.Backend;
import dev.memplan.formulations.milp.SolverResult;
import dev.memplan.formulations.milp.Solvers;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Schedule;
import dev.memplan.model.SolveStatus;
import dev.memplan.model.TensorSetting;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The program without addresses with room that changes over time (divide and conquer's windows): the room at a
 * timestep binds like the budget does, and only there.
 */
class CapacityTest {

    /** p and q write x and y (10 bytes each), c reads both: at 30 bytes nothing need leave the chip. */
    private static Graph fork() {
        return Graph.builder("fork")
                .activation("x", 10).activation("y", 10).activation("z", 1)
                .operator("p", List.of(), List.of("x"))
                .operator("q", List.of(), List.of("y"))
                .operator("c", List.of("x", "y"), List.of("z"))
                .output("z")
                .build();
    }

    private static long optimum(Graph g, Schedule schedule, long[] capacity) {
        CosmaFormulation f = new CosmaFormulation(g, TensorSetting.ACTIVATIONS, 30, CosmaObjective.TRAFFIC, schedule,
                false, true, null, capacity);
        SolverResult r = Solvers.create(Backend.SCIP).solve(f.model(), Limits.DEFAULT);
        assertEquals(SolveStatus.OPTIMAL, r.status());
        return Math.round(r.objective());
    }

    @Test
    void roomBelowTheBudgetAtOneTimestepForcesARoundTripThere() {
        Graph g = fork();
        assertEquals(0, optimum(g, null, new long[] {30, 30, 30}));
        // Only 15 bytes at timestep 1: whichever of x and y is written first leaves (spill 10) and comes back (load 10).
        assertEquals(20, optimum(g, null, new long[] {30, 15, 30}));
        // 15 bytes at timestep 0 bind nothing: one 10-byte tensor is written there.
        assertEquals(0, optimum(g, null, new long[] {15, 30, 30}));
    }

    @Test
    void theRoomIsForTheTrafficProgramWithoutAddressesOnly() {
        Graph g = fork();
        assertThrows(IllegalArgumentException.class, () -> new CosmaFormulation(g, TensorSetting.ACTIVATIONS, 30,
                CosmaObjective.TRAFFIC, null, true, true, null, new long[] {30, 30, 30}));
        assertThrows(IllegalArgumentException.class, () -> new CosmaFormulation(g, TensorSetting.ACTIVATIONS, 30,
                CosmaObjective.TRAFFIC, null, false, true, null, new long[] {30, 30}));
        assertThrows(IllegalArgumentException.class, () -> new CosmaFormulation(g, TensorSetting.ACTIVATIONS, 30,
                CosmaObjective.TRAFFIC, null, false, true, null, new long[] {30, 31, 30}));
    }
}
