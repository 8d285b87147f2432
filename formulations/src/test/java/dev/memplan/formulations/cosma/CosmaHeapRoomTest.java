package dev.memplan.formulations.cosma;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.datasets.RandomGraphs;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.model.Budget;
import dev.memplan.model.Budgets;
import dev.memplan.model.Graph;
import dev.memplan.model.HeapRoom;
import dev.memplan.model.Limits;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.TensorSetting;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * COSMA's spill-only programs hold their estimate of the room from build to the end of their solve, as the recompute
 * programs do ({@link HeapRoom#reserve}): under a work limit a case whose program would not fit beside what another
 * case of the JVM holds waits for it, and then gives the plan it gives alone.
 */
class CosmaHeapRoomTest {
    private static final TensorSetting ACT = TensorSetting.ACTIVATIONS;
    private static final long ROOM = 256L << 20;

    private static Limits work(double units) {
        return Limits.DEFAULT.withBudget(Budget.ofWork(units, null));
    }

    @Test
    void aSpillOnlyProgramWaitsWhileAnotherJobHoldsTheRoom() throws Exception {
        Graph g = RandomGraphs.layered(7, 14, 2, 4, 64, false).withSetting(ACT);
        long budget = Budgets.minimumRequired(g);
        CosmaSolver.Options options = CosmaSolver.Options.traffic(Backend.CPSAT);
        try (HeapRoom.Hold cap = HeapRoom.roomAtMost(ROOM)) {
            CosmaResult alone = CosmaSolver.solve(g, ACT, budget, options, work(5));
            assertNotNull(alone.plan());
            // Another job holds the whole room: the program's build waits for it.
            HeapRoom.Hold other = HeapRoom.reserve(ROOM, work(1));
            assertNotNull(other);
            CompletableFuture<CosmaResult> waiting = CompletableFuture.supplyAsync(
                    () -> CosmaSolver.solve(g, ACT, budget, options, work(5)));
            Thread.sleep(500);
            assertFalse(waiting.isDone(), "a program beside a full room waits");
            other.close();
            CosmaResult after = waiting.get(60, TimeUnit.SECONDS);
            assertTrue(PlanChecker.check(g, after.plan()).valid());
            assertEquals(alone.objective(), after.objective());
            assertEquals(alone.status(), after.status());
            assertEquals(alone.plan().schedule(), after.plan().schedule());
            assertEquals(alone.plan().segments(), after.plan().segments());
        }
    }
}
