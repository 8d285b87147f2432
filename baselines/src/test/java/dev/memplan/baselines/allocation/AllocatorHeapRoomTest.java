package dev.memplan.baselines.allocation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.baselines.allocation.minimalloc.MiniMallocAllocator;
import dev.memplan.baselines.allocation.telamalloc.TelaMallocAllocator;
import dev.memplan.baselines.allocation.telamalloc.TelaMallocOptions;
import dev.memplan.datasets.RandomBuffers;
import dev.memplan.model.Allocation;
import dev.memplan.model.Budget;
import dev.memplan.model.BufferSet;
import dev.memplan.model.HeapRoom;
import dev.memplan.model.Limits;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * MiniMalloc's and TelaMalloc's searches hold their estimate of the room under a work limit ({@link HeapRoom#reserve}),
 * as COSMA's programs do: beside another job's hold that fills the room a search waits, then gives what it gives
 * alone; the search of a thread that holds the room already (a program's packing) goes on at once.
 */
class AllocatorHeapRoomTest {
    private static final BufferSet SET = RandomBuffers.generate(7, 60, 100, 20, 64, 1, 0.1);
    private static final long ROOM = 64L << 20;

    /** A work limit, with a wall guard so that a search that waited for its own thread's hold would end, not hang. */
    private static Limits work() {
        return Limits.DEFAULT.withBudget(Budget.ofWork(5, Duration.ofSeconds(60)));
    }

    private static void waitsForTheRoomOfOtherJobsOnly(Supplier<Allocation> search) throws Exception {
        try (HeapRoom.Hold cap = HeapRoom.roomAtMost(ROOM)) {
            Allocation alone = search.get();
            assertTrue(alone.solved(), alone.toString());
            HeapRoom.Hold other = HeapRoom.reserve(ROOM, work());
            assertNotNull(other);
            CompletableFuture<Allocation> waiting = CompletableFuture.supplyAsync(search);
            Thread.sleep(500);
            assertFalse(waiting.isDone(), "a search beside a full room waits");
            // This thread holds the room: its own search does not wait for it.
            Allocation nested = search.get();
            assertEquals(alone.status(), nested.status(), nested.toString());
            assertEquals(alone.placement(), nested.placement());
            other.close();
            Allocation after = waiting.get(60, TimeUnit.SECONDS);
            assertEquals(alone.status(), after.status(), after.toString());
            assertEquals(alone.placement(), after.placement());
        }
    }

    @Test
    void miniMallocsDecisionWaitsForTheRoom() throws Exception {
        waitsForTheRoomOfOtherJobsOnly(() -> new MiniMallocAllocator().allocate(SET, SET.capacity(), work()));
    }

    @Test
    void miniMallocsSmallestCapacityWaitsForTheRoom() throws Exception {
        waitsForTheRoomOfOtherJobsOnly(() -> new MiniMallocAllocator().minimize(SET, work()));
    }

    @Test
    void telaMallocsSearchWaitsForTheRoom() throws Exception {
        // Without the skyline first, which needs no room and may pack the set before any search.
        TelaMallocAllocator tela = new TelaMallocAllocator(TelaMallocOptions.DEFAULT.withHeuristicFirst(false));
        waitsForTheRoomOfOtherJobsOnly(() -> tela.allocate(SET, SET.capacity(), work()));
    }
}
