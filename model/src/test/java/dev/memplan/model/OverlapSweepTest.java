package dev.memplan.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The sweep must report exactly the overlapping pairs that the obvious all-pairs loop finds. */
class OverlapSweepTest {

    @Test
    void findsExactlyThePairsOfTheBruteForce() {
        Random random = new Random(7);
        for (int round = 0; round < 300; round++) {
            int n = 1 + random.nextInt(40);
            long[] lower = new long[n];
            long[] upper = new long[n];
            long[] offset = new long[n];
            long[] size = new long[n];
            for (int i = 0; i < n; i++) {
                lower[i] = random.nextInt(20);
                upper[i] = lower[i] + 1 + random.nextInt(6);
                size[i] = 1 + random.nextInt(8);
                offset[i] = random.nextInt(round % 3 == 0 ? 8 : 60);
            }
            Set<Long> expected = new HashSet<>();
            for (int a = 0; a < n; a++) {
                for (int b = a + 1; b < n; b++) {
                    boolean time = lower[a] < upper[b] && lower[b] < upper[a];
                    boolean space = offset[a] < offset[b] + size[b] && offset[b] < offset[a] + size[a];
                    if (time && space) {
                        expected.add(key(a, b));
                    }
                }
            }
            Set<Long> found = new HashSet<>();
            int[] reports = {0};
            OverlapSweep.findOverlaps(lower, upper, offset, size, (a, b) -> {
                found.add(key(a, b));
                reports[0]++;
            });
            assertEquals(expected, found, "round " + round);
            assertEquals(expected.size(), reports[0], "each pair once, round " + round);
        }
    }

    private static long key(int a, int b) {
        return ((long) Math.min(a, b) << 32) | Math.max(a, b);
    }
}
