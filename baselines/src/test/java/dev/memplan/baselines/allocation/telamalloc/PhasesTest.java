package dev.memplan.baselines.allocation.telamalloc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.memplan.model.Buffer;
import dev.memplan.model.BufferSet;
import java.util.List;
import org.junit.jupiter.api.Test;

class PhasesTest {

    @Test
    void timeIsCutWhereNoBufferIsLiveOnBothSides() {
        BufferSet touching = new BufferSet(List.of(new Buffer("a", 0, 2, 1), new Buffer("b", 2, 4, 1),
                new Buffer("c", 3, 5, 1), new Buffer("d", 7, 9, 1)));
        List<int[]> parts = Phases.components(TimeAxis.of(touching));
        assertEquals(3, parts.size());
        assertArrayEquals(new int[] {0}, parts.get(0));
        assertArrayEquals(new int[] {1, 2}, parts.get(1));
        assertArrayEquals(new int[] {3}, parts.get(2));
    }

    @Test
    void phasesOfHighContentionComeFirstAndTheRestLast() {
        // capacity 10: contention 10 over [0,2) (a, b), 5 over [2,3) (b, e), 9 over [3,5) (c, d); e is grouped
        // when the threshold reaches 50%, as the one buffer left
        BufferSet set = new BufferSet(List.of(new Buffer("a", 0, 2, 6), new Buffer("b", 0, 3, 4),
                new Buffer("c", 3, 5, 5), new Buffer("d", 3, 5, 4), new Buffer("e", 2, 3, 1)));
        TimeAxis axis = TimeAxis.of(set);
        int[] all = {0, 1, 2, 3, 4};
        List<int[]> phases = Phases.group(axis, all, new boolean[5], 10, 0.1);
        assertEquals(3, phases.size());
        assertArrayEquals(new int[] {0, 1}, phases.get(0), "threshold 100%: [0,2)");
        assertArrayEquals(new int[] {2, 3}, phases.get(1), "threshold 90%: [3,5), 9 of 10 exactly");
        assertArrayEquals(new int[] {4}, phases.get(2), "the trough");
    }

    @Test
    void thresholdsCountInWholeBytes() {
        // step 0.3 of 10 gives thresholds 10, 7, 4 and (1 - 3 * 0.3) * 10 = 1.0000000000000009 in floating point;
        // at 1, b and c (contention 1, apart in time) must form two phases, not end up together in the rest
        BufferSet set = new BufferSet(List.of(new Buffer("a", 0, 1, 10), new Buffer("b", 1, 2, 1),
                new Buffer("c", 3, 4, 1)));
        List<int[]> phases = Phases.group(TimeAxis.of(set), new int[] {0, 1, 2}, new boolean[3], 10, 0.3);
        assertEquals(3, phases.size());
        assertArrayEquals(new int[] {1}, phases.get(1));
        assertArrayEquals(new int[] {2}, phases.get(2));
    }

    @Test
    void buffersAlreadyGroupedAreLeftOut() {
        BufferSet set = new BufferSet(List.of(new Buffer("f", 0, 2, 5), new Buffer("a", 0, 2, 5)));
        boolean[] grouped = {true, false};
        List<int[]> phases = Phases.group(TimeAxis.of(set), new int[] {0, 1}, grouped, 10, 0.5);
        assertEquals(1, phases.size());
        assertArrayEquals(new int[] {1}, phases.get(0));
    }
}
