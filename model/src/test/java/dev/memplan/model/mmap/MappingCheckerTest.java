package dev.memplan.model.mmap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** One test per rule of the mapping problem, each with the smallest instance and mapping that break it. */
class MappingCheckerTest {

    static MmapBuffer input(int tensor, int time, int first, long size, long demand, long benefit) {
        return new MmapBuffer(tensor, -1, size, false, time, first, time, demand, benefit);
    }

    static MmapBuffer output(int tensor, int time, int last, long size, long demand, long benefit) {
        return new MmapBuffer(tensor, -1, size, true, time, time, last, demand, benefit);
    }

    static MmapBuffer aliased(MmapBuffer b, int alias) {
        return new MmapBuffer(b.tensor(), alias, b.size(), b.output(), b.time(), b.liveFirst(), b.liveLast(),
                b.demand(), b.benefit());
    }

    static MmapInstance instance(long capacity, long[] supply, MmapBuffer... buffers) {
        return new MmapInstance("t", capacity, supply, List.of(buffers));
    }

    static Decision copy(int start, int end, long offset) {
        return new Decision(Action.COPY, start, end, offset);
    }

    static Decision noCopy(int start, int end, long offset) {
        return new Decision(Action.NOCOPY, start, end, offset);
    }

    private static MappingReport check(MmapInstance in, Decision... ds) {
        return MappingChecker.check(in, new Mapping(List.of(ds)));
    }

    private static void assertOnly(MappingRule rule, MappingReport r) {
        assertFalse(r.valid(), "should break " + rule);
        assertTrue(r.violations().stream().allMatch(v -> v.rule() == rule), () -> "only " + rule + ": " + r);
    }

    @Test
    void validMappingHasItsReward() {
        // An output copied back over step 1, then read at time 2 without a copy from its allocation.
        MmapInstance in = instance(4, new long[] {1, 1, 1}, output(0, 0, 2, 2, 1, 5), input(0, 2, 1, 2, 1, 7));
        MappingReport r = check(in, copy(0, 1, 0), noCopy(2, 2, 2));
        assertTrue(r.valid(), r.toString());
        assertEquals(12, r.reward());
    }

    @Test
    void countMismatch() {
        MmapInstance in = instance(4, new long[] {1}, input(0, 0, 0, 1, 0, 1));
        assertOnly(MappingRule.COUNT, MappingChecker.check(in, new Mapping(List.of())));
    }

    @Test
    void capacityExceeded() {
        MmapInstance in = instance(2, new long[] {1}, input(0, 0, 0, 3, 0, 1));
        assertOnly(MappingRule.CAPACITY, check(in, copy(0, 0, 0)));
        MmapInstance fits = instance(3, new long[] {1}, input(0, 0, 0, 3, 0, 1));
        assertOnly(MappingRule.CAPACITY, check(fits, copy(0, 0, 1)));
        assertOnly(MappingRule.CAPACITY, check(fits, copy(0, 0, -1)));
        assertTrue(check(fits, copy(0, 0, 0)).valid());
    }

    @Test
    void overlappingOffsets() {
        MmapInstance in = instance(4, new long[] {1}, input(0, 0, 0, 2, 0, 1), input(1, 0, 0, 2, 0, 1));
        assertOnly(MappingRule.OVERLAP, check(in, copy(0, 0, 0), copy(0, 0, 1)));
        assertTrue(check(in, copy(0, 0, 0), copy(0, 0, 2)).valid());
    }

    @Test
    void supplyExceeded() {
        // Demand 3 over the steps [0, 2) with supply 1 + 1.
        MmapInstance in = instance(4, new long[] {1, 1, 1}, input(0, 2, 0, 1, 3, 1));
        assertOnly(MappingRule.SUPPLY, check(in, copy(0, 2, 0)));
        MmapInstance out = instance(4, new long[] {1, 1, 1}, output(0, 0, 2, 1, 3, 1));
        assertOnly(MappingRule.SUPPLY, check(out, copy(0, 2, 0)));
        MmapInstance enough = instance(4, new long[] {1, 2, 1}, input(0, 2, 0, 1, 3, 1));
        assertTrue(check(enough, copy(0, 2, 0)).valid());
    }

    @Test
    void copiesSharingAStep() {
        // Two inputs at time 1 both copied over step 0.
        MmapInstance in = instance(4, new long[] {1, 1}, input(0, 1, 0, 1, 1, 1), input(1, 1, 0, 1, 1, 1));
        assertOnly(MappingRule.COPY_OVERLAP, check(in, copy(0, 1, 0), copy(0, 1, 1)));
        assertEquals(1, check(in, copy(0, 1, 0), Decision.DROP).reward());
    }

    @Test
    void noCopyWithoutAnEarlierAllocation() {
        MmapInstance in = instance(4, new long[] {1, 1}, output(0, 0, 1, 1, 0, 1), input(0, 1, 1, 1, 0, 1));
        assertOnly(MappingRule.NOCOPY_SOURCE, check(in, Decision.DROP, noCopy(1, 1, 0)));
        assertTrue(check(in, copy(0, 0, 0), noCopy(1, 1, 0)).valid());
        // Another tensor's allocation does not count.
        MmapInstance other = instance(4, new long[] {1, 1}, output(1, 0, 1, 1, 0, 1), input(0, 1, 1, 1, 0, 1));
        assertOnly(MappingRule.NOCOPY_SOURCE, check(other, copy(0, 0, 0), noCopy(1, 1, 1)));
        // A gap between the earlier allocation and the NoCopy is not an extension.
        MmapInstance gap = instance(4, new long[] {1, 1, 1}, output(0, 0, 2, 1, 0, 1), input(0, 2, 1, 1, 0, 1));
        assertOnly(MappingRule.NOCOPY_SOURCE, check(gap, copy(0, 0, 0), noCopy(2, 2, 0)));
    }

    @Test
    void aliasGroupSplit() {
        MmapInstance in = instance(4, new long[] {1, 1}, aliased(input(0, 0, 0, 1, 0, 1), 9),
                aliased(input(1, 1, 1, 1, 0, 1), 9));
        assertOnly(MappingRule.ALIAS_SPLIT, check(in, copy(0, 0, 0), Decision.DROP));
        assertOnly(MappingRule.ALIAS_OFFSET, check(in, copy(0, 0, 0), copy(1, 1, 1)));
        assertTrue(check(in, copy(0, 0, 0), copy(1, 1, 0)).valid());
        assertTrue(check(in, Decision.DROP, Decision.DROP).valid());
    }

    @Test
    void intervalOutsideItsRules() {
        MmapInstance in = instance(4, new long[] {1, 1, 1}, input(0, 2, 1, 1, 0, 1));
        assertOnly(MappingRule.INTERVAL, check(in, copy(0, 2, 0)));
        assertOnly(MappingRule.INTERVAL, check(in, copy(1, 1, 0)));
        MmapInstance out = instance(4, new long[] {1, 1, 1}, output(0, 0, 1, 1, 0, 1), output(0, 1, 2, 1, 0, 1));
        assertOnly(MappingRule.INTERVAL, check(out, copy(0, 0, 0), noCopy(1, 1, 1)));
        assertTrue(check(out, copy(0, 0, 0), noCopy(1, 2, 1)).valid());
    }

    @Test
    void instanceRulesNameTheCulprit() {
        InvalidInstanceException e = assertThrows(InvalidInstanceException.class,
                () -> instance(4, new long[] {1, 1}, input(0, 1, 0, 1, 0, 1), input(0, 0, 0, 1, 0, 1)));
        assertEquals("buffers[1].time", e.where());
        e = assertThrows(InvalidInstanceException.class, () -> instance(4, new long[] {1}, input(0, 0, 0, 0, 0, 1)));
        assertEquals("buffers[0].size", e.where());
        // A buffer right in itself that outlives the supply list: the list ends too soon (issue 37.7), the buffer
        // is named in the problem.
        e = assertThrows(InvalidInstanceException.class, () -> instance(4, new long[] {1},
                new MmapBuffer(0, -1, 1, false, 0, 0, 1, 0, 0)));
        assertEquals("supply", e.where());
        assertTrue(e.problem().contains("buffers[0] (time 0, live [0, 1]) reaches instruction 1"), e.problem());
        e = assertThrows(InvalidInstanceException.class, () -> instance(4, new long[] {1, 1},
                new MmapBuffer(0, -1, 1, false, 0, 1, 1, 0, 0)));
        assertEquals("buffers[0].live", e.where());
    }

    @Test
    void latestCopyStartAndEarliestCopyEnd() {
        MmapInstance in = instance(4, new long[] {2, 1, 1, 5, 1}, input(0, 3, 0, 1, 2, 1), output(1, 3, 4, 1, 1, 1),
                output(2, 3, 4, 1, 2, 1), input(3, 4, 0, 1, 20, 1));
        assertEquals(1, in.latestCopyStart(0));
        assertEquals(4, in.earliestCopyEnd(1));
        assertEquals(-1, in.earliestCopyEnd(2));
        assertEquals(-1, in.latestCopyStart(3));
    }

    @Test
    void bruteForceFindsTheObviousOptimum() {
        // Capacity 2: either both small buffers (3 + 3) or the big one (5).
        MmapInstance in = instance(2, new long[] {1}, input(0, 0, 0, 1, 0, 3), input(1, 0, 0, 1, 0, 3),
                input(2, 0, 0, 2, 0, 5));
        assertEquals(6, BruteForceMapping.optimum(in));
    }
}
