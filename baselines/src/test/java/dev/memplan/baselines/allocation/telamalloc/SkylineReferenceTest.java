package dev.memplan.baselines.allocation.telamalloc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.memplan.model.Buffer;
import dev.memplan.model.BufferSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The indexed skyline packing places every buffer where the plain loop (a scan of the skyline and of every
 * buffer per step) does: random sets with many ties in time, alignments, short and long lifetimes.
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
