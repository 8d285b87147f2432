package dev.memplan.baselines.allocation.telamalloc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.model.Buffer;
import dev.memplan.model.BufferSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The indexed skyline packing places every buffer where the plain loop (a scan of the skyline and of every
 * buffer per step) does: random sets with many ties in time, alignments, short and long lifetimes, and
 * fixed-offset buffers (obstacles) among them.
 */
class SkylineReferenceTest {

    @Test
    void sameOffsetsAsThePlainLoopOnRandomSets() {
        Random r = new Random(11);
        SkylineAllocator skyline = new SkylineAllocator();
        for (int round = 0; round < 500; round++) {
            BufferSet set = randomSet(r, 1 + r.nextInt(round < 400 ? 40 : 400), round % 3 == 0);
            long[] fast = skyline.pack(set).offsets();
            assertArrayEquals(SkylineAllocator.reference(set).offsets(), fast, "round " + round);
        }
    }

    @Test
    void sameOffsetsAsThePlainLoopAroundFixedOffsetBuffers() {
        Random r = new Random(12);
        SkylineAllocator skyline = new SkylineAllocator();
        int withObstacles = 0;
        for (int round = 0; round < 600; round++) {
            BufferSet set = withFixed(r, randomSet(r, 1 + r.nextInt(round < 450 ? 40 : 300), round % 3 == 0),
                    1 + r.nextInt(round % 2 == 0 ? 3 : 12));
            withObstacles += set.buffers().stream().anyMatch(b -> b.fixedOffset() != null) ? 1 : 0;
            long[] fast = skyline.pack(set).offsets();
            assertArrayEquals(SkylineAllocator.reference(set).offsets(), fast, "round " + round + ": " + set.buffers());
        }
        assertTrue(withObstacles > 500, "rounds with obstacles: " + withObstacles);
    }

    @Test
    void aRestartOrderGivesTheOffsetsOfThePlainLoopInThatOrder() {
        Random r = new Random(13);
        SkylineAllocator skyline = new SkylineAllocator();
        int differ = 0;
        for (int round = 0; round < 300; round++) {
            BufferSet set = randomSet(r, 1 + r.nextInt(round < 200 ? 40 : 300), round % 3 == 0);
            if (round % 2 == 0) {
                set = withFixed(r, set, 1 + r.nextInt(6));
            }
            SkylineAllocator.Variant v = new SkylineAllocator.Variant(new double[] {0, 0.01, 0.1, 0.5}[round % 4],
                    SkylineAllocator.Tiebreak.values()[(round / 4) % 2]);
            long[] fast = skyline.pack(set, Long.MAX_VALUE, v).offsets();
            assertArrayEquals(SkylineAllocator.reference(set, v).offsets(), fast, "round " + round + " " + v);
            differ += java.util.Arrays.equals(fast, skyline.pack(set).offsets()) ? 0 : 1;
        }
        assertTrue(differ > 50, "restart orders that place differently from section 3.1's: " + differ);
    }

    /** Gives up to {@code tries} of the buffers a fixed offset that overlaps no other fixed buffer live with it. */
    private static BufferSet withFixed(Random r, BufferSet set, int tries) {
        List<Buffer> list = new ArrayList<>(set.buffers());
        List<Buffer> fixed = new ArrayList<>();
        for (int t = 0; t < tries; t++) {
            int i = r.nextInt(list.size());
            Buffer b = list.get(i);
            if (b.fixedOffset() != null) {
                continue;
            }
            long offset = b.alignment() * (long) r.nextInt(r.nextBoolean() ? 4 : 60);
            Buffer f = new Buffer(b.id(), b.lower(), b.upper(), b.size(), b.alignment(), offset);
            boolean clash = fixed.stream().anyMatch(o -> o.lower() < f.upper() && f.lower() < o.upper()
                    && o.fixedOffset() < offset + f.size() && offset < o.fixedOffset() + o.size());
            if (!clash) {
                fixed.add(f);
                list.set(i, f);
            }
        }
        return new BufferSet(list);
    }

    private static BufferSet randomSet(Random r, int n, boolean aligned) {
        List<Buffer> list = new ArrayList<>();
        int horizon = 2 + r.nextInt(30);
        for (int i = 0; i < n; i++) {
            long lower = r.nextInt(horizon);
            long upper = lower + 1 + r.nextInt(r.nextBoolean() ? 3 : horizon);
            long size = 1 + r.nextInt(r.nextBoolean() ? 4 : 100);
            long alignment = aligned && r.nextInt(3) == 0 ? 1 + r.nextInt(16) : 1;
            list.add(new Buffer("b" + i, lower, upper, size, alignment, null));
        }
        return new BufferSet(list);
    }
}
