package dev.memplan.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** MiniMalloc's 5-buffer example (paper Fig. 1, capacity 12) and the smallest placement that breaks each rule. */
class BufferCheckerTest {
    private static final BufferSet EXAMPLE = new BufferSet(List.of(
            new Buffer("b1", 0, 3, 4), new Buffer("b2", 3, 9, 4), new Buffer("b3", 0, 9, 4),
            new Buffer("b4", 9, 21, 4), new Buffer("b5", 0, 21, 4)), 12L);

    private static List<Violation> check(long... offsets) {
        return BufferChecker.check(new Placement(EXAMPLE, offsets), 12);
    }

    @Test
    void legalPacking() {
        assertEquals(List.of(), check(0, 0, 4, 0, 8));
        assertEquals(12, new Placement(EXAMPLE, new long[] {0, 0, 4, 0, 8}).height());
    }

    @Test
    void overlapOfBuffersLiveTogether() {
        List<Violation> v = check(0, 0, 4, 0, 6);
        assertTrue(v.stream().allMatch(x -> x.rule() == Rule.ADDRESS_OVERLAP), v.toString());
        // b5 at [6,10) meets b3 at [4,8) during [0,9); b4 at [0,4) does not reach it.
        assertEquals(1, v.size(), v.toString());
        assertEquals(List.of("b3", "b5"), v.get(0).subjects());
        assertEquals(0, v.get(0).timestep());
    }

    @Test
    void buffersNotLiveTogetherMayShareAddresses() {
        // b1 [0,3) and b2 [3,9) are back to back in time: the half-open ranges do not meet.
        assertEquals(List.of(), check(0, 0, 4, 4, 8));
    }

    @Test
    void capacity() {
        List<Violation> v = check(0, 0, 4, 0, 9);
        assertTrue(v.stream().anyMatch(x -> x.rule() == Rule.BUDGET && x.subjects().equals(List.of("b5"))), v.toString());
        assertTrue(check(-4, 0, 4, 0, 8).stream().anyMatch(x -> x.rule() == Rule.BUDGET));
    }

    @Test
    void alignmentAndFixedOffsets() {
        BufferSet set = new BufferSet(List.of(new Buffer("a", 0, 2, 4, 4, null), new Buffer("f", 0, 2, 4, 1, 5L)));
        assertEquals(List.of(), BufferChecker.check(new Placement(set, new long[] {0, 5}), 16));
        List<Violation> v = BufferChecker.check(new Placement(set, new long[] {6, 4}), 16);
        assertEquals(List.of(Rule.ALIGNMENT, Rule.FIXED_OFFSET, Rule.ADDRESS_OVERLAP),
                v.stream().map(Violation::rule).toList());
    }

    @Test
    void requireValidBlamesTheAllocator() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> BufferChecker.requireValid(new Placement(EXAMPLE, new long[] {0, 0, 0, 0, 0}), 12, "toy"));
        assertTrue(e.getMessage().startsWith("bug: toy produced an illegal placement"), e.getMessage());
    }

    @Test
    void bufferSetRejectsNonsense() {
        assertThrows(IllegalArgumentException.class, () -> new BufferSet(List.of(new Buffer("a", 0, 1, 1), new Buffer("a", 0, 1, 1))));
        assertThrows(IllegalArgumentException.class, () -> new BufferSet(List.of(new Buffer("a", 2, 2, 1))));
        assertThrows(IllegalArgumentException.class, () -> new BufferSet(List.of(new Buffer("a", 0, 1, 0))));
    }
}
