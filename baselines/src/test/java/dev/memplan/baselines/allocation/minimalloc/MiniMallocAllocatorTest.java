package dev.memplan.baselines.allocation.minimalloc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.datasets.MiniMallocSuite;
import dev.memplan.model.Allocation;
import dev.memplan.model.BruteForcePacking;
import dev.memplan.model.Buffer;
import dev.memplan.model.BufferChecker;
import dev.memplan.model.BufferSet;
import dev.memplan.model.Limits;
import dev.memplan.model.SolveStatus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class MiniMallocAllocatorTest {
    private final MiniMallocAllocator allocator = new MiniMallocAllocator();

    private static Allocation packed(Allocation a, long capacity) {
        assertEquals(SolveStatus.FEASIBLE, a.status());
        assertTrue(BufferChecker.check(a.placement(), capacity).isEmpty());
        return a;
    }

    @Test
    void nameIsMinimalloc() {
        assertEquals("minimalloc", allocator.name());
    }

    @Test
    void paperExamplePacksAtTwelve() {
        BufferSet example = MiniMallocSuite.paperExample();
        Allocation a = packed(allocator.allocate(example, 12, Limits.DEFAULT), 12);
        assertTrue(a.placement().height() <= 12);
    }

    @Test
    void paperExampleIsInfeasibleAtEleven() {
        assertEquals(SolveStatus.INFEASIBLE,
                allocator.allocate(MiniMallocSuite.paperExample(), 11, Limits.DEFAULT).status());
    }

    @Test
    void paperExampleMinimumIsTwelve() {
        Allocation a = allocator.minimize(MiniMallocSuite.paperExample(), Limits.DEFAULT);
        assertEquals(SolveStatus.OPTIMAL, a.status());
        assertEquals(12, a.placement().height());
    }

    @Test
    void emptySetPacksAnywhere() {
        BufferSet empty = new BufferSet(List.of());
        assertEquals(SolveStatus.FEASIBLE, allocator.allocate(empty, 0, Limits.DEFAULT).status());
        assertEquals(SolveStatus.OPTIMAL, allocator.minimize(empty, Limits.DEFAULT).status());
    }

    @Test
    void bufferLargerThanCapacityIsInfeasible() {
        BufferSet one = new BufferSet(List.of(new Buffer("big", 0, 1, 9)));
        assertEquals(SolveStatus.INFEASIBLE, allocator.allocate(one, 8, Limits.DEFAULT).status());
        packed(allocator.allocate(one, 9, Limits.DEFAULT), 9);
    }

    @Test
    void fragmentedFreeSpaceIsInfeasible() {
        // A fixed buffer in the middle leaves two free bytes that are not adjacent; the largest live total
        // (3) fits the capacity, so only the search can tell.
        BufferSet set = new BufferSet(List.of(new Buffer("middle", 0, 2, 1, 1, 1L), new Buffer("pair", 1, 3, 2)));
        assertEquals(SolveStatus.INFEASIBLE, allocator.allocate(set, 3, Limits.DEFAULT).status());
        packed(allocator.allocate(set, 4, Limits.DEFAULT), 4);
    }

    @Test
    void alignmentIsRespected() {
        List<Buffer> buffers = new ArrayList<>();
        buffers.add(new Buffer("odd", 0, 4, 3));
        buffers.add(new Buffer("a4", 0, 4, 4, 4, null));
        buffers.add(new Buffer("a8", 2, 6, 8, 8, null));
        buffers.add(new Buffer("a3", 3, 8, 5, 3, null));
        BufferSet set = new BufferSet(buffers);
        Allocation a = allocator.minimize(set, Limits.DEFAULT);
        assertEquals(SolveStatus.OPTIMAL, a.status());
        assertEquals(BruteForcePacking.minimumCapacity(set), a.placement().height());
        for (int i = 0; i < set.size(); i++) {
            assertEquals(0, a.placement().offset(i) % set.get(i).alignment(), set.get(i).id());
        }
    }

    @Test
    void alignmentAloneCanMakePackingInfeasible() {
        // Without alignment "wide" fits at 1; aligned to 2 it must start at 2 and ends at 5 > 4.
        BufferSet aligned = new BufferSet(List.of(new Buffer("pin", 0, 1, 1, 1, 0L), new Buffer("wide", 0, 1, 3, 2, null)));
        assertEquals(SolveStatus.INFEASIBLE, allocator.allocate(aligned, 4, Limits.DEFAULT).status());
        BufferSet unaligned = new BufferSet(List.of(new Buffer("pin", 0, 1, 1, 1, 0L), new Buffer("wide", 0, 1, 3)));
        packed(allocator.allocate(unaligned, 4, Limits.DEFAULT), 4);
    }

    @Test
    void fixedOffsetsAreKept() {
        BufferSet set = new BufferSet(List.of(
                new Buffer("f", 0, 10, 4, 1, 6L),
                new Buffer("a", 0, 5, 6),
                new Buffer("b", 5, 10, 3),
                new Buffer("c", 5, 10, 3)));
        Allocation a = packed(allocator.allocate(set, 10, Limits.DEFAULT), 10);
        assertEquals(6, a.placement().offset(0));
    }

    @Test
    void fixedOffsetsTakenFromAPackingArePackedAgain() {
        Random random = new Random(5);
        for (int k = 0; k < 40; k++) {
            List<Buffer> free = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                long lower = random.nextInt(10);
                free.add(new Buffer("b" + i, lower, lower + 1 + random.nextInt(6), 1 + random.nextInt(5)));
            }
            Allocation first = allocator.minimize(new BufferSet(free), Limits.DEFAULT);
            List<Buffer> pinned = new ArrayList<>();
            for (int i = 0; i < free.size(); i++) {
                Buffer b = free.get(i);
                Long at = i % 3 == 0 ? first.placement().offset(i) : null;
                pinned.add(new Buffer(b.id(), b.lower(), b.upper(), b.size(), 1, at));
            }
            long height = first.placement().height();
            Allocation again = packed(allocator.allocate(new BufferSet(pinned), height, Limits.DEFAULT), height);
            for (int i = 0; i < free.size(); i += 3) {
                assertEquals(first.placement().offset(i), again.placement().offset(i));
            }
        }
    }

    @Test
    void collidingFixedOffsetsAreInfeasible() {
        BufferSet set = new BufferSet(List.of(new Buffer("x", 0, 4, 4, 1, 0L), new Buffer("y", 3, 6, 4, 1, 2L)));
        assertEquals(SolveStatus.INFEASIBLE, allocator.allocate(set, 100, Limits.DEFAULT).status());
        assertEquals(SolveStatus.INFEASIBLE, allocator.minimize(set, Limits.DEFAULT).status());
        // Apart in time the same addresses are fine.
        BufferSet apart = new BufferSet(List.of(new Buffer("x", 0, 3, 4, 1, 0L), new Buffer("y", 3, 6, 4, 1, 2L)));
        packed(allocator.allocate(apart, 6, Limits.DEFAULT), 6);
    }

    @Test
    void fixedOffsetAboveCapacityOrMisalignedIsInfeasible() {
        BufferSet high = new BufferSet(List.of(new Buffer("x", 0, 1, 4, 1, 8L)));
        assertEquals(SolveStatus.INFEASIBLE, allocator.allocate(high, 11, Limits.DEFAULT).status());
        packed(allocator.allocate(high, 12, Limits.DEFAULT), 12);
        BufferSet misaligned = new BufferSet(List.of(new Buffer("x", 0, 1, 4, 4, 2L)));
        assertEquals(SolveStatus.INFEASIBLE, allocator.allocate(misaligned, 100, Limits.DEFAULT).status());
    }

    @Test
    void fixedBufferPushedByAFreeOneIsInfeasible() {
        // "pinned" holds [2, 4): "free" (3 bytes) does not fit below it and above it ends at 7. The largest live
        // total is exactly 6, so only the search can tell.
        BufferSet set = new BufferSet(List.of(
                new Buffer("pinned", 0, 2, 2, 1, 2L),
                new Buffer("free", 0, 2, 3),
                new Buffer("late", 1, 2, 1)));
        assertEquals(SolveStatus.INFEASIBLE, allocator.allocate(set, 6, Limits.DEFAULT).status());
        packed(allocator.allocate(set, 7, Limits.DEFAULT), 7);
    }

    @Test
    void tinyTimeLimitNeverClaimsInfeasible() {
        BufferSet hard = MiniMallocSuite.challenging("A");
        for (Duration limit : List.of(Duration.ZERO, Duration.ofNanos(1), Duration.ofMillis(20))) {
            for (int threads : new int[] {1, 2}) {
                Allocation a = allocator.allocate(hard, MiniMallocSuite.CHALLENGING_CAPACITY,
                        new Limits(limit, threads, 0, 0));
                assertNotEquals(SolveStatus.INFEASIBLE, a.status());
                assertTrue(a.seconds() < 10, "stopped near the limit, took " + a.seconds());
                if (a.solved()) {
                    assertTrue(BufferChecker.check(a.placement(), MiniMallocSuite.CHALLENGING_CAPACITY).isEmpty());
                }
            }
        }
    }

    @Test
    void hugeTimeLimitMeansNone() {
        packed(allocator.allocate(MiniMallocSuite.paperExample(), 12,
                new Limits(Duration.ofSeconds(Long.MAX_VALUE), 1, 0, 0)), 12);
    }

    @Test
    void tinyTimeLimitInMinimizeStillReturnsAPacking() {
        Allocation a = allocator.minimize(MiniMallocSuite.challenging("B"), new Limits(Duration.ofMillis(1), 1, 0, 0));
        assertTrue(a.status() == SolveStatus.FEASIBLE || a.status() == SolveStatus.OPTIMAL);
        assertTrue(BufferChecker.check(a.placement(), a.placement().height()).isEmpty());
    }

    @Test
    void minimizeStopsWithinTheRelativeGap() {
        BufferSet set = MiniMallocSuite.challenging("D");
        long lowerBound = new Instance(set).maxLive;
        Allocation a = allocator.minimize(set, new Limits(Duration.ofSeconds(20), 1, 0.5, 0));
        assertTrue(a.status() == SolveStatus.FEASIBLE || a.status() == SolveStatus.OPTIMAL);
        long height = a.placement().height();
        assertTrue(height - lowerBound <= 0.5 * height, "height " + height + ", bound " + lowerBound);
        assertTrue(a.seconds() < 5, "a gap of one half is met by the first packings, took " + a.seconds());
    }

    @Test
    void interruptedCallerGetsUnknownAndKeepsItsFlag() {
        Thread.currentThread().interrupt();
        try {
            Allocation a = allocator.allocate(MiniMallocSuite.challenging("A"), MiniMallocSuite.CHALLENGING_CAPACITY,
                    new Limits(null, 2, 0, 0));
            assertEquals(SolveStatus.UNKNOWN, a.status());
            assertTrue(Thread.currentThread().isInterrupted());
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void packsAChallengingInstance() {
        for (int threads : new int[] {1, 2}) {
            packed(allocator.allocate(MiniMallocSuite.challenging("H"), MiniMallocSuite.CHALLENGING_CAPACITY,
                    new Limits(Duration.ofSeconds(20), threads, 0, 0)), MiniMallocSuite.CHALLENGING_CAPACITY);
        }
    }

    @Test
    void optionsRejectUnknownHeuristics() {
        assertThrows(IllegalArgumentException.class,
                () -> MiniMallocOptions.DEFAULT.withPreorderings(List.of("WAX")));
        assertThrows(IllegalArgumentException.class, () -> MiniMallocOptions.DEFAULT.withPreorderings(List.of()));
        MiniMallocOptions off = MiniMallocOptions.DEFAULT.without(MiniMallocOptions.Technique.DOMINANCE);
        assertTrue(MiniMallocOptions.DEFAULT.uses(MiniMallocOptions.Technique.DOMINANCE));
        assertTrue(!off.uses(MiniMallocOptions.Technique.DOMINANCE) && off.uses(MiniMallocOptions.Technique.CANONICAL)
                && off.uses(MiniMallocOptions.Technique.SECTION_INFERENCE));
        assertEquals(MiniMallocOptions.Technique.DYNAMIC_ORDERING, MiniMallocOptions.Technique.parse("Dynamic-Ordering"));
        assertThrows(IllegalArgumentException.class, () -> MiniMallocOptions.Technique.parse("pruning"));
    }
}
