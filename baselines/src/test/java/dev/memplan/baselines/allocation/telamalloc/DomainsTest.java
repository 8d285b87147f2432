package dev.memplan.baselines.allocation.telamalloc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.datasets.MiniMallocSuite;
import dev.memplan.model.BufferSet;
import dev.memplan.model.Placement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class DomainsTest {

    /** Buffers 0..n-1, all live at the same time. */
    private static int[][] clique(int n) {
        int[][] neighbours = new int[n][n - 1];
        for (int i = 0; i < n; i++) {
            int k = 0;
            for (int j = 0; j < n; j++) {
                if (j != i) {
                    neighbours[i][k++] = j;
                }
            }
        }
        return neighbours;
    }

    private static BitSet of(int... members) {
        BitSet b = new BitSet();
        for (int m : members) {
            b.set(m);
        }
        return b;
    }

    @Test
    void theLowestValidPositionJumpsOverPlacedBuffersThatBlockIt() {
        // x placed at [2,4); a size-2 buffer fits below it, a size-3 one must go above, because of x
        Domains d = new Domains(10, new long[] {2, 2, 3}, new long[] {1, 1, 1}, clique(3));
        assertTrue(d.propagate(new long[] {2, -1, -1}, new boolean[] {true, false, false}));
        Domains.Lower lower = d.lower();
        assertEquals(0, lower.bound()[1]);
        assertTrue(lower.why()[1].isEmpty());
        assertEquals(4, lower.bound()[2]);
        assertEquals(of(0), lower.why()[2]);
    }

    @Test
    void alignmentRoundsTheLowestPositionUp() {
        Domains d = new Domains(16, new long[] {2, 1}, new long[] {1, 4}, clique(2));
        assertTrue(d.propagate(new long[] {0, -1}, new boolean[] {true, false}));
        assertEquals(4, d.lower().bound()[1]);
    }

    @Test
    void fixedBuffersBlockButAreNeverAReason() {
        Domains d = new Domains(10, new long[] {2, 3}, new long[] {1, 1}, clique(2));
        assertTrue(d.propagate(new long[] {2, -1}, new boolean[] {false, false}));
        assertEquals(4, d.lower().bound()[1]);
        assertTrue(d.lower().why()[1].isEmpty());
    }

    @Test
    void aBufferWithNoPlaceLeftIsAConflictNamingTheBlockers() {
        // capacity 4, x at [1,3): a size-2 buffer has no place; y (not live with it) is not to blame
        int[][] neighbours = {{1}, {0}, {}};
        Domains d = new Domains(4, new long[] {2, 2, 1}, new long[] {1, 1, 1}, neighbours);
        assertFalse(d.propagate(new long[] {1, -1, 0}, new boolean[] {true, false, true}));
        assertEquals(of(0), d.conflict());
    }

    @Test
    void twoUnplacedBuffersThatFitNeitherWayRoundAreAConflict() {
        // capacity 10, x at [0,4): y (size 4) and z (size 3) need 7 above it, where 6 are left
        Domains d = new Domains(10, new long[] {4, 4, 3}, new long[] {1, 1, 1}, clique(3));
        assertFalse(d.propagate(new long[] {0, -1, -1}, new boolean[] {true, false, false}));
        assertEquals(of(0), d.conflict());
    }

    @Test
    void anOrderForcedBetweenUnplacedBuffersRaisesTheUpperOneWithItsReason() {
        // capacity 10; x at [4,10) is live with z only, so z (size 2) lies in [0,2]; y (size 3, live with z)
        // cannot lie below z, so z lies below y and y starts at 2 at the earliest, because of x
        int[][] neighbours = {{2}, {2}, {0, 1}};
        Domains d = new Domains(10, new long[] {6, 3, 2}, new long[] {1, 1, 1}, neighbours);
        assertTrue(d.propagate(new long[] {4, -1, -1}, new boolean[] {true, false, false}));
        assertEquals(2, d.lower().bound()[1]);
        assertEquals(of(0), d.lower().why()[1]);
        assertEquals(0, d.lower().bound()[2]);
    }

    @Test
    void lowestFromStartsAtTheGivenPosition() {
        Domains d = new Domains(20, new long[] {2, 2}, new long[] {1, 1}, clique(2));
        BitSet why = new BitSet();
        long[] offset = {5, -1};
        assertEquals(7, d.lowestFrom(1, 4, offset, new boolean[] {true, false}, why));
        assertEquals(of(0), why);
        assertEquals(2, d.lowestFrom(1, 2, offset, new boolean[] {true, false}, new BitSet()));
    }

    @Test
    void neverRejectsPartOfALegalPacking() {
        // soundness at scale: place the buffers of a legal packing (the skyline's of challenging J, 409 buffers,
        // at its own height) one by one in random order; every step must propagate, and every unplaced buffer's
        // offset in the packing must stay at or above its lower bound
        BufferSet set = MiniMallocSuite.challenging("J");
        Placement packing = new SkylineAllocator().pack(set);
        int n = set.size();
        TimeAxis axis = TimeAxis.of(set);
        long[] size = new long[n];
        long[] alignment = new long[n];
        int[][] neighbours = new int[n][];
        for (int i = 0; i < n; i++) {
            size[i] = set.get(i).size();
            alignment[i] = 1;
            List<Integer> live = new ArrayList<>();
            for (int j = 0; j < n; j++) {
                if (j != i && axis.overlap(i, j)) {
                    live.add(j);
                }
            }
            neighbours[i] = live.stream().mapToInt(Integer::intValue).toArray();
        }
        Domains d = new Domains(packing.height(), size, alignment, neighbours);
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            order.add(i);
        }
        Collections.shuffle(order, new Random(3));
        long[] offset = new long[n];
        Arrays.fill(offset, -1);
        boolean[] decided = new boolean[n];
        for (int step = 0; step < n; step++) {
            int i = order.get(step);
            offset[i] = packing.offset(i);
            decided[i] = true;
            assertTrue(d.propagate(offset, decided), "step " + step);
            long[] lower = d.lower().bound();
            for (int j = 0; j < n; j++) {
                if (offset[j] < 0) {
                    assertTrue(lower[j] <= packing.offset(j), "step " + step + ", buffer " + j);
                }
            }
        }
    }
}
