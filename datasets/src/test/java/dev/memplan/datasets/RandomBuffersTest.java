package dev.memplan.datasets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.model.Buffer;
import dev.memplan.model.BufferSet;
import dev.memplan.model.io.MiniMallocCsv;
import java.util.List;
import org.junit.jupiter.api.Test;

class RandomBuffersTest {

    @Test
    void sameSeedSameSetAndTheBoundsHold() {
        BufferSet a = RandomBuffers.generate(7, 200, 1000, 50, 4096, 64, 0.0);
        assertEquals(MiniMallocCsv.toCsv(a), MiniMallocCsv.toCsv(RandomBuffers.generate(7, 200, 1000, 50, 4096, 64, 0.0)));
        assertNotEquals(MiniMallocCsv.toCsv(a), MiniMallocCsv.toCsv(RandomBuffers.generate(8, 200, 1000, 50, 4096, 64, 0.0)));
        assertEquals(200, a.size());
        for (Buffer b : a.buffers()) {
            assertTrue(b.lower() >= 0 && b.lower() < 1000 && b.upper() - b.lower() <= 50, b.toString());
            assertTrue(b.size() % 64 == 0 && b.size() <= 4096, b.toString());
        }
        assertEquals(RandomBuffers.peakLiveBytes(a.buffers()), a.capacity());
    }

    @Test
    void slackRaisesTheCapacityAboveThePeak() {
        BufferSet s = RandomBuffers.generate(7, 200, 1000, 50, 4096, 1, 0.25);
        long peak = RandomBuffers.peakLiveBytes(s.buffers());
        assertEquals((long) Math.ceil(peak * 1.25), s.capacity());
    }

    @Test
    void touchingRangesDoNotCountAsLiveTogether() {
        assertEquals(5, RandomBuffers.peakLiveBytes(List.of(new Buffer("a", 0, 2, 5), new Buffer("b", 2, 4, 5))));
        assertEquals(10, RandomBuffers.peakLiveBytes(List.of(new Buffer("a", 0, 3, 5), new Buffer("b", 2, 4, 5))));
    }
}
