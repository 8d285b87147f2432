package dev.memplan.baselines.allocation.heuristics;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.memplan.model.Buffer;
import dev.memplan.model.BufferSet;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The time-indexed {@link GapPacking} places every buffer where the plain loop of the compiler heuristics would:
 * scan every placed buffer, keep those sharing a moment, sort them by offset and take the first or the best gap.
 * Random sets with alignments, fixed offsets and many ties, against that loop written out here.
 */
class GapPackingReferenceTest {

    @Test
    void sameOffsetsAsTheQuadraticLoopOnRandomSets() {
        Random r = new Random(7);
        for (int round = 0; round < 300; round++) {
            // Odd rounds: no buffer below 6 bytes, so the index merges the narrower holes alignment leaves.
            BufferSet set = randomSet(r, 1 + r.nextInt(60), round % 2 == 0 ? 1 : 6);
            for (GapPacking.Fit fit : GapPacking.Fit.values()) {
                Comparator<Integer> order = Comparator.comparingLong((Integer i) -> set.get(i).size()).reversed()
                        .thenComparing(Comparator.naturalOrder());
                long[] fast = GapPacking.pack(set, order, fit, "test").offsets();
                assertArrayEquals(reference(set, order, fit), fast, "round " + round + " " + fit);
            }
        }
    }

    private static BufferSet randomSet(Random r, int n, long smallest) {
        List<Buffer> list = new ArrayList<>();
        long fixedTop = 0;
        for (int i = 0; i < n; i++) {
            long lower = r.nextInt(20);
            long upper = lower + 1 + r.nextInt(r.nextBoolean() ? 3 : 20);
            long size = smallest + r.nextInt(r.nextBoolean() ? 8 : 100);
            long alignment = r.nextInt(4) == 0 ? 1 + r.nextInt(16) : 1;
            Long fixed = null;
            if (r.nextInt(10) == 0) {
                // Fixed buffers stacked above each other never collide.
                fixed = (fixedTop + alignment - 1) / alignment * alignment;
                fixedTop = fixed + size;
            }
            list.add(new Buffer("b" + i, lower, upper, size, alignment, fixed));
        }
        return new BufferSet(list);
    }

    /** The loop as the heuristics wrote it before the index: O(n^2 log n). */
    private static long[] reference(BufferSet set, Comparator<Integer> order, GapPacking.Fit fit) {
        int n = set.size();
        long[] offsets = new long[n];
        List<Integer> placed = new ArrayList<>();
        List<Integer> free = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (set.get(i).fixedOffset() != null) {
                offsets[i] = set.get(i).fixedOffset();
                placed.add(i);
            } else {
                free.add(i);
            }
        }
        free.sort(order);
        for (int i : free) {
            Buffer b = set.get(i);
            List<Integer> neighbours = new ArrayList<>();
            for (int j : placed) {
                Buffer o = set.get(j);
                if (o.lower() < b.upper() && b.lower() < o.upper()) {
                    neighbours.add(j);
                }
            }
            neighbours.sort(Comparator.comparingLong((Integer j) -> offsets[j]));
            long gapStart = 0;
            long best = -1;
            long bestLength = Long.MAX_VALUE;
            boolean done = false;
            for (int j : neighbours) {
                long gapEnd = offsets[j];
                long start = GapPacking.alignUp(gapStart, b.alignment());
                if (start + b.size() <= gapEnd) {
                    if (fit == GapPacking.Fit.FIRST) {
                        best = start;
                        done = true;
                        break;
                    }
                    if (gapEnd - gapStart < bestLength) {
                        best = start;
                        bestLength = gapEnd - gapStart;
                    }
                }
                gapStart = Math.max(gapStart, offsets[j] + set.get(j).size());
            }
            offsets[i] = done || best >= 0 ? best : GapPacking.alignUp(gapStart, b.alignment());
            placed.add(i);
        }
        return offsets;
    }
}
