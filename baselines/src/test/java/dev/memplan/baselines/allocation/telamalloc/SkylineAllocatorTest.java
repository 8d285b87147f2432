package dev.memplan.baselines.allocation.telamalloc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
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
import dev.memplan.model.Placement;
import dev.memplan.model.SolveStatus;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SkylineAllocatorTest {
    private final SkylineAllocator skyline = new SkylineAllocator();

    private static Buffer buffer(String id, long lower, long upper, long size) {
        return new Buffer(id, lower, upper, size);
    }

    @Test
    void packsThePaperExampleIntoTwelve() {
        BufferSet set = MiniMallocSuite.paperExample();
        Allocation a = skyline.allocate(set, 12, Limits.DEFAULT);
        assertEquals(SolveStatus.HEURISTIC, a.status());
        assertTrue(BufferChecker.check(a.placement(), 12).isEmpty());
        assertEquals(12, skyline.pack(set).height());
    }

    @Test
    void anEmptySetFitsAnywhere() {
        assertEquals(SolveStatus.HEURISTIC, skyline.allocate(new BufferSet(List.of()), 0, Limits.DEFAULT).status());
    }

    @Test
    void highestContentionGoesFirstAndTiesGoToSizeTimesLifetimeSquared() {
        // slot [0,1) holds a+b = 3, slot [1,2) holds b+c = 4: b and c tie on contention 4, and b wins on
        // size * lifetime^2 (1 * 4 > 3 * 1), so b lies at the bottom across both slots; then c, then a on top of b
        BufferSet set = new BufferSet(List.of(buffer("a", 0, 1, 2), buffer("b", 0, 2, 1), buffer("c", 1, 2, 3)));
        assertArrayEquals(new long[] {1, 0, 1}, skyline.pack(set).offsets());
    }

    @Test
    void aBufferOnlyGoesIntoAGapThatHoldsItsWholeLifetime() {
        // after x (highest contention) fills slot [0,2) to 3, the row at 0 is only the gap [2,4); y spans [1,3)
        // and does not fit into it, so z goes first and y lands on the next row, on top of x and z
        BufferSet set = new BufferSet(List.of(buffer("x", 0, 2, 3), buffer("y", 1, 3, 1), buffer("z", 2, 4, 2)));
        Placement p = skyline.pack(set);
        assertArrayEquals(new long[] {0, 3, 0}, p.offsets());
        assertEquals(4, p.height());
    }

    @Test
    void givesUpWithUnknownWhenItsPackingIsTooHighEvenIfAPackingExists() {
        // a legal packing into 6 exists (b0 at 0, b1 at 2, b2 at 3), but all three tie on contention, the tie
        // goes to the largest alignment, b2 takes the bottom and b0 ends up at [5, 7)
        BufferSet set = new BufferSet(List.of(new Buffer("b0", 2, 8, 2, 1, null),
                new Buffer("b1", 6, 7, 1, 2, null), new Buffer("b2", 2, 7, 3, 3, null)));
        assertTrue(BruteForcePacking.feasible(set, 6));
        Allocation a = skyline.allocate(set, 6, Limits.DEFAULT);
        assertEquals(SolveStatus.UNKNOWN, a.status());
        assertTrue(skyline.pack(set).height() > 6);
    }

    @Test
    void neverClaimsInfeasibleEvenWhenThePeakExceedsTheCapacity() {
        BufferSet set = new BufferSet(List.of(buffer("a", 0, 2, 3), buffer("b", 1, 3, 3)));
        assertEquals(SolveStatus.UNKNOWN, skyline.allocate(set, 5, Limits.DEFAULT).status());
        assertEquals(6, skyline.pack(set).height());
    }

    @Test
    void respectsAlignmentAndFixedOffsets() {
        // f is fixed at [2,4) over the whole horizon; a and b tie on contention, a wins on alignment and goes to
        // 0; b would cross f at 1, so it goes on top of f
        BufferSet set = new BufferSet(List.of(new Buffer("f", 0, 4, 2, 1, 2L), new Buffer("a", 0, 2, 1, 4, null),
                new Buffer("b", 1, 3, 2, 1, null)));
        Allocation a = skyline.allocate(set, 8, Limits.DEFAULT);
        assertEquals(SolveStatus.HEURISTIC, a.status());
        Placement p = a.placement();
        assertEquals(2, p.offset(0));
        assertEquals(0, p.offset(1));
        assertEquals(4, p.offset(2));
        assertTrue(BufferChecker.check(p, 8).isEmpty());
    }

    @Test
    void jumpsOverAnObstacleItCannotSlideUnder() {
        // f fixed at [1,2); the size-2 buffer cannot fit in [0,1), so it goes on top of f
        BufferSet set = new BufferSet(List.of(new Buffer("f", 0, 2, 1, 1, 1L), buffer("a", 0, 2, 2)));
        assertArrayEquals(new long[] {1, 2}, skyline.pack(set).offsets());
    }

    @Test
    void fixedBuffersThatCollideHaveNoPacking() {
        BufferSet set = new BufferSet(List.of(new Buffer("f", 0, 2, 2, 1, 0L), new Buffer("g", 1, 3, 2, 1, 1L)));
        assertEquals(SolveStatus.UNKNOWN, skyline.allocate(set, 10, Limits.DEFAULT).status());
        assertThrows(IllegalArgumentException.class, () -> skyline.pack(set));
    }

    @Test
    void onRandomSetsAReturnedPlacementIsLegalAndWithinCapacity() {
        Random random = new Random(11);
        int solved = 0;
        for (int k = 0; k < 1500; k++) {
            BufferSet set = RandomBuffers.next(random, 7, 2, k % 2 == 0);
            long capacity = set.capacity();
            Allocation a = skyline.allocate(set, capacity, Limits.DEFAULT);
            assertNotEquals(SolveStatus.INFEASIBLE, a.status(), set::toString);
            boolean fixedCollide = TimeAxis.of(set).fixedConflict(set, Long.MAX_VALUE) != null;
            if (fixedCollide) {
                assertEquals(SolveStatus.UNKNOWN, a.status());
                continue;
            }
            Placement packed = skyline.pack(set);
            assertTrue(packed.height() >= TimeAxis.of(set).peak());
            assertEquals(packed.height() <= capacity, a.solved(), set::toString);
            if (a.solved()) {
                solved++;
                assertEquals(SolveStatus.HEURISTIC, a.status());
                assertTrue(a.placement().height() <= capacity);
                assertTrue(BufferChecker.check(a.placement(), capacity).isEmpty(), set::toString);
            }
        }
        assertTrue(solved > 500, "solved only " + solved);
    }
}
