package dev.memplan.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Holds on the room under a work limit: cases side by side in one JVM wait for each other, never decide by it. */
class HeapRoomTest {
    private static Limits work() {
        return Limits.DEFAULT.withBudget(Budget.ofWork(1, null));
    }

    @Test
    void aHoldWaitsWhileOthersFillTheRoomAndGoesOnOnceTheyAreReleased() throws Exception {
        try (HeapRoom.Hold cap = HeapRoom.roomAtMost(100)) {
            assertEquals(100, HeapRoom.workRoom());
            assertTrue(HeapRoom.workRoomWords().contains("room this run gives"));
            HeapRoom.Hold first = HeapRoom.reserve(80, work());
            assertNotNull(first);
            CompletableFuture<HeapRoom.Hold> second = CompletableFuture.supplyAsync(() -> HeapRoom.reserve(50, work()));
            Thread.sleep(300);
            assertFalse(second.isDone(), "50 bytes beside 80 in a room of 100 wait");
            first.close();
            HeapRoom.Hold got = second.get(10, TimeUnit.SECONDS);
            assertNotNull(got);
            got.close();
            // Alone in the room a structure never waits, even one above the room (its estimate decided before).
            HeapRoom.Hold alone = HeapRoom.reserve(1_000, work());
            assertNotNull(alone);
            // A stop request ends a wait: the structure is not built.
            Budget stopped = Budget.ofWork(1, null);
            stopped.cancel();
            assertNull(HeapRoom.reserve(10, Limits.DEFAULT.withBudget(stopped)));
            alone.close();
        }
        assertFalse(HeapRoom.capped());
    }

    @Test
    void withoutAWorkLimitAHoldHoldsNothing() {
        try (HeapRoom.Hold cap = HeapRoom.roomAtMost(100)) {
            HeapRoom.Hold first = HeapRoom.reserve(80, work());
            HeapRoom.Hold wall = HeapRoom.reserve(80, Limits.DEFAULT);
            assertNotNull(wall);
            wall.close();
            first.close();
        }
    }
}
