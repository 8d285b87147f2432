package dev.memplan.baselines.allocation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.model.Allocation;
import dev.memplan.model.Buffer;
import dev.memplan.model.BufferChecker;
import dev.memplan.model.BufferSet;
import dev.memplan.model.ByteRange;
import dev.memplan.model.Limits;
import dev.memplan.model.SolveStatus;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 12, items 2 and 3: buffers far beyond the capacity never "fit" by wrapping around (tflite used to report
 * height 8 for a 2^63-1-byte buffer in capacity 12), and no allocator throws on them; at the top of the supported
 * range (2^53) every allocator still packs exactly.
 */
class HugeBuffersTest {
    /** A fresh budget per call: a budget\'s clock starts when it is made. */
    private static Limits limits() {
        return Limits.ofWall(Duration.ofSeconds(5));
    }

    @Test
    void aBufferOfTwoToTheSixtyThreeMinusOneBytesDoesNotFitInTwelve() {
        BufferSet set = new BufferSet(List.of(new Buffer("small", 0, 2, 4), new Buffer("huge", 1, 3, Long.MAX_VALUE)));
        for (String name : Allocators.NAMES) {
            Allocation a = Allocators.byName(name).allocate(set, 12, limits());
            assertFalse(a.solved(), name + " claims " + a.status());
        }
    }

    @Test
    void miniMallocSaysInfeasibleWhenTheSizesSumBeyondTwoToTheSixtyOne() {
        BufferSet set = new BufferSet(List.of(new Buffer("a", 0, 1, 1L << 60), new Buffer("b", 0, 1, 1L << 60),
                new Buffer("c", 0, 1, 1L << 60)));
        assertEquals(SolveStatus.INFEASIBLE, Allocators.byName("minimalloc").allocate(set, 12, limits()).status());
    }

    @Test
    void theTopOfTheSupportedRangePacksExactly() {
        long half = ByteRange.MAX / 2;
        BufferSet set = new BufferSet(List.of(new Buffer("a", 0, 2, half), new Buffer("b", 1, 3, half - 1),
                new Buffer("c", 2, 4, 1)));
        for (String name : Allocators.NAMES) {
            Allocation a = Allocators.byName(name).allocate(set, ByteRange.MAX, limits());
            assertTrue(a.solved(), name + ": " + a.status());
            assertTrue(BufferChecker.check(a.placement(), ByteRange.MAX).isEmpty(), name);
        }
    }
}
