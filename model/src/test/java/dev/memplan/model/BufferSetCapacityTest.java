package dev.memplan.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The capacity a packing is asked for: the user's, else the source's, checked before any allocator runs. */
class BufferSetCapacityTest {
    private static final Buffer FREE = new Buffer("a", 0, 2, 8, 1, null);
    private static final Buffer FIXED = new Buffer("b", 1, 3, 8, 1, 4L);

    private static String problem(BufferSet set, Long given) {
        return assertThrows(IllegalArgumentException.class, () -> set.packingCapacity(given, "--capacity", "x.csv"))
                .getMessage();
    }

    @Test
    void theGivenCapacityWinsOverTheSourcesAndNeitherIsNull() {
        BufferSet stated = new BufferSet(List.of(FREE), 16L);
        assertEquals(16L, stated.packingCapacity(null, "--capacity", "x.csv"));
        assertEquals(32L, stated.packingCapacity(32L, "--capacity", "x.csv"));
        assertNull(new BufferSet(List.of(FREE)).packingCapacity(null, "--capacity", "x.csv"));
    }

    @Test
    void aCapacityIsPositiveAndNamesWhereItCameFrom() {
        assertEquals("--capacity must be positive, got 0", problem(new BufferSet(List.of(FREE), 16L), 0L));
        assertEquals("x.csv: the capacity in the file name (X.<capacity>.csv) must be positive, got -1; give --capacity"
                + " or rename the file", problem(new BufferSet(List.of(FREE), -1L), null));
        assertEquals(ByteRange.problem(ByteRange.MAX + 1, "--capacity"),
                problem(new BufferSet(List.of(FREE)), ByteRange.MAX + 1));
    }

    @Test
    void aBufferFixedBeyondTheCapacityIsRefusedAndOneInsideIsKept() {
        BufferSet set = new BufferSet(List.of(FREE, FIXED));
        assertEquals(12L, set.packingCapacity(12L, "--capacity", "x.csv"));
        assertEquals("x.csv: buffer 'b' is fixed at [4, 12), beyond the capacity 11: no packing keeps it",
                problem(set, 11L));
    }
}
