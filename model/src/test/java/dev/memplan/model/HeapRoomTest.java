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
            // A stop request ends a wait (of another thread: the holder's own never waits): the structure is not built.
            Budget stopped = Budget.ofWork(1, null);
            stopped.cancel();
            assertNull(CompletableFuture.supplyAsync(() -> HeapRoom.reserve(10, Limits.DEFAULT.withBudget(stopped)))
                    .get(10, TimeUnit.SECONDS));
            alone.close();
        }
        assertFalse(HeapRoom.capped());
    }

    @Test
    void aThreadThatHoldsTheRoomIsNeverKeptWaitingForMore() throws Exception {
        try (HeapRoom.Hold cap = HeapRoom.roomAtMost(100)) {
            HeapRoom.Hold program = HeapRoom.reserve(60, work());
            // The holder's own search beside it goes on at once (waiting for its own hold would never end) and counts.
            HeapRoom.Hold nested = HeapRoom.reserve(50, work());
            assertNotNull(nested);
            // Another thread, holding nothing, waits while 110 bytes are held, and still once the nested one is closed.
            CompletableFuture<HeapRoom.Hold> other = CompletableFuture.supplyAsync(() -> HeapRoom.reserve(50, work()));
            Thread.sleep(300);
            assertFalse(other.isDone(), "50 bytes beside 110 in a room of 100 wait");
            nested.close();
            Thread.sleep(300);
            assertFalse(other.isDone(), "50 bytes beside 60 in a room of 100 wait");
            program.close();
            HeapRoom.Hold got = other.get(10, TimeUnit.SECONDS);
            assertNotNull(got);
            got.close();
        }
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
