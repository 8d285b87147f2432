package dev.memplan.baselines.allocation.minimalloc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.datasets.MiniMallocSuite;
import dev.memplan.model.Allocation;
import dev.memplan.model.Buffer;
import dev.memplan.model.BufferChecker;
import dev.memplan.model.BufferSet;
import dev.memplan.model.Limits;
import dev.memplan.model.SolveStatus;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SweepTest {

    private static Sweep sweep(long[][] lifespans) {
        long[] lower = new long[lifespans.length];
        long[] upper = new long[lifespans.length];
        for (int i = 0; i < lifespans.length; i++) {
            lower[i] = lifespans[i][0];
            upper[i] = lifespans[i][1];
        }
        return new Sweep(lower, upper);
    }

    private static int[] members(Sweep s, int section) {
        int[] m = Arrays.copyOfRange(s.members, s.memberStart[section], s.memberStart[section + 1]);
        Arrays.sort(m);
        return m;
    }

    @Test
    void paperExampleHasThePapersThreeCrossSections() {
        Instance example = new Instance(MiniMallocSuite.paperExample());
        Sweep s = example.sweep;
        // Section 6.2: X[0,3) = {b1, b3, b5}, X[3,9) = {b2, b3, b5}, X[9,21) = {b4, b5} (buffers 0..4 here).
        assertEquals(3, s.sectionCount);
        assertArrayEquals(new int[] {0, 2, 4}, members(s, 0));
        assertArrayEquals(new int[] {1, 2, 4}, members(s, 1));
        assertArrayEquals(new int[] {3, 4}, members(s, 2));
        assertEquals(12, example.maxLive);
        // b5 spans all three sections; b3 the first two.
        assertEquals(0, s.sectionLo[4]);
        assertEquals(3, s.sectionHi[4]);
        assertEquals(2, s.sectionHi[2]);
        assertArrayEquals(new int[] {2, 1}, s.cuts);
        assertEquals(1, s.partitions.size());
    }

    @Test
    void groupsApartInTimeArePartitions() {
        // [0,2) [1,3) | [3,5) [4,6): half-open, so 3 touches but does not overlap.
        Sweep s = sweep(new long[][] {{0, 2}, {4, 6}, {1, 3}, {3, 5}});
        assertEquals(2, s.partitions.size());
        assertArrayEquals(new int[] {0, 2}, s.partitions.get(0).buffers());
        assertArrayEquals(new int[] {1, 3}, s.partitions.get(1).buffers());
        assertEquals(s.partitions.get(0).hi(), s.partitions.get(1).lo());
        assertEquals(0, s.cuts[s.partitions.get(0).hi() - 1]);
    }

    @Test
    void aBridgingBufferJoinsThemAndItsPlacementSplitsThemAgain() {
        // Buffer 4 crosses the gap: one partition, and every cut on the gap is its alone.
        Sweep s = sweep(new long[][] {{0, 2}, {4, 6}, {1, 3}, {3, 5}, {0, 6}});
        assertEquals(1, s.partitions.size());
        int gap = -1;
        for (int k = s.sectionLo[4]; k + 1 < s.sectionHi[4]; k++) {
            if (s.cuts[k] == 1) {
                gap = k;
            }
        }
        assertTrue(gap >= 0, "placing buffer 4 leaves a zero cut");
        for (int b : new int[] {0, 2}) {
            assertTrue(s.sectionHi[b] <= gap + 1);
        }
        for (int b : new int[] {1, 3}) {
            assertTrue(s.sectionLo[b] >= gap + 1);
        }
    }

    @Test
    void overlapsReachAndSectionsMatchBruteForce() {
        Random random = new Random(11);
        for (int k = 0; k < 200; k++) {
            int n = 1 + random.nextInt(12);
            long[][] spans = new long[n][];
            for (int i = 0; i < n; i++) {
                long lower = random.nextInt(15);
                spans[i] = new long[] {lower, lower + 1 + random.nextInt(6)};
            }
            Sweep s = sweep(spans);
            for (int i = 0; i < n; i++) {
                Set<Integer> expected = new HashSet<>();
                for (int j = 0; j < n; j++) {
                    if (j != i && spans[i][0] < spans[j][1] && spans[j][0] < spans[i][1]) {
                        expected.add(j);
                    }
                }
                Set<Integer> actual = new HashSet<>();
                for (int e = s.overlapStart[i]; e < s.overlapStart[i + 1]; e++) {
                    actual.add(s.overlaps[e]);
                    int j = s.overlaps[e];
                    assertTrue(s.reachLo[i] <= s.sectionLo[j] && s.sectionHi[j] <= s.reachHi[i]);
                }
                assertEquals(expected, actual);
            }
            // Every moment's live set lies inside some section; every section is a live set.
            for (long t = 0; t < 21; t++) {
                Set<Integer> live = new HashSet<>();
                for (int i = 0; i < n; i++) {
                    if (spans[i][0] <= t && t < spans[i][1]) {
                        live.add(i);
                    }
                }
                boolean covered = live.isEmpty();
                for (int sec = 0; sec < s.sectionCount && !covered; sec++) {
                    Set<Integer> m = new HashSet<>();
                    for (int b : members(s, sec)) {
                        m.add(b);
                    }
                    covered = m.containsAll(live);
                }
                assertTrue(covered, "moment " + t);
            }
            for (int sec = 0; sec < s.sectionCount; sec++) {
                int[] m = members(s, sec);
                for (int a : m) {
                    for (int b : m) {
                        assertTrue(a == b || (spans[a][0] < spans[b][1] && spans[b][0] < spans[a][1]));
                    }
                }
            }
        }
    }

    @Test
    void decompositionSolvesIndependentGroupsUnderALongBuffer() {
        // Three time-shifted copies of the fragmented instance (minimum 13 each) under one long buffer of size 1:
        // once the long buffer is placed, the copies are solved one by one. (The infeasibility proof still grows
        // exponentially with the number of copies: the search also tries the long buffer above copy buffers,
        // before which nothing splits.)
        List<Buffer> buffers = new ArrayList<>();
        buffers.add(new Buffer("long", 0, 60, 1));
        for (int copy = 0; copy < 3; copy++) {
            for (Buffer b : MiniMallocOracleTest.fragmented().buffers()) {
                buffers.add(new Buffer(b.id() + "-" + copy, b.lower() + 20L * copy, b.upper() + 20L * copy, b.size()));
            }
        }
        BufferSet set = new BufferSet(buffers);
        for (boolean on : new boolean[] {true, false}) {
            MiniMallocAllocator allocator =
                    new MiniMallocAllocator(on ? MiniMallocOptions.DEFAULT
                            : MiniMallocOptions.DEFAULT.without(MiniMallocOptions.Technique.DECOMPOSITION));
            assertEquals(SolveStatus.INFEASIBLE, allocator.allocate(set, 13, Limits.DEFAULT).status());
            Allocation a = allocator.allocate(set, 14, Limits.DEFAULT);
            assertEquals(SolveStatus.FEASIBLE, a.status());
            assertTrue(BufferChecker.check(a.placement(), 14).isEmpty());
        }
    }
}
