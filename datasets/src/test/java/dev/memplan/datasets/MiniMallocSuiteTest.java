package dev.memplan.datasets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.model.Buffer;
import dev.memplan.model.BufferSet;
import dev.memplan.model.io.MiniMallocCsv;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
    void everyChallengingInstanceHasItsBufferCountAndIsWrittenBackByteForByte() throws IOException {
        Map<String, Integer> counts = Map.ofEntries(Map.entry("A", 154), Map.entry("B", 170), Map.entry("C", 203),
                Map.entry("D", 213), Map.entry("E", 215), Map.entry("F", 296), Map.entry("G", 308),
                Map.entry("H", 316), Map.entry("I", 374), Map.entry("J", 409), Map.entry("K", 454));
        assertEquals(counts.keySet(), Set.copyOf(MiniMallocSuite.challengingNames()));
        for (String name : MiniMallocSuite.challengingNames()) {
            BufferSet set = MiniMallocSuite.challenging(name);
            assertEquals(counts.get(name), set.size(), name);
            String resource = "/dev/memplan/datasets/minimalloc/challenging/" + name + ".1048576.csv";
            try (InputStream in = MiniMallocSuiteTest.class.getResourceAsStream(resource)) {
                assertEquals(new String(in.readAllBytes(), StandardCharsets.UTF_8), MiniMallocCsv.toCsv(set), name);
            }
        }
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
