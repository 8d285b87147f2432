package dev.memplan.datasets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.model.Buffer;
import dev.memplan.model.BufferSet;
import java.util.List;
import org.junit.jupiter.api.Test;

class MiniMallocSuiteTest {

    @Test
    void everyChallengingInstanceLoadsWithItsCapacityAndFitsAtItsBusiestMoment() {
        assertEquals(11, MiniMallocSuite.challengingNames().size());
        int zeroSlack = 0;
        for (String name : MiniMallocSuite.challengingNames()) {
            BufferSet set = MiniMallocSuite.challenging(name);
            assertEquals(MiniMallocSuite.CHALLENGING_CAPACITY, set.capacity(), name);
            assertTrue(set.size() >= 154 && set.size() <= 454, name + " has " + set.size() + " buffers");
            long peak = peakLiveBytes(set);
            assertTrue(peak <= set.capacity(), name + ": live bytes " + peak + " exceed the capacity");
            if (peak == set.capacity()) {
                zeroSlack++;
            }
        }
        // The suite's README: in 8 of the 11 the busiest moment uses exactly the whole capacity.
        assertEquals(8, zeroSlack);
    }

    @Test
    void paperExampleIsTheFiveBufferInstanceAtCapacityTwelve() {
        BufferSet set = MiniMallocSuite.paperExample();
        assertEquals(12L, set.capacity());
        assertEquals(List.of("b1", "b2", "b3", "b4", "b5"), set.buffers().stream().map(Buffer::id).toList());
        assertEquals(12, peakLiveBytes(set));
    }

    @Test
    void unknownInstanceNamesTheOnesThatExist() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> MiniMallocSuite.challenging("Z"));
        assertTrue(e.getMessage().contains("A, B, C"), e.getMessage());
    }

    private static long peakLiveBytes(BufferSet set) {
        return RandomBuffers.peakLiveBytes(set.buffers());
    }
}
