package dev.memplan.baselines.allocation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.model.Allocation;
import dev.memplan.model.Buffer;
import dev.memplan.model.BufferSet;
import dev.memplan.model.SolveStatus;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** One allocator run: its options checked before any work, the checked placement, the verdict line. */
class AllocationRunTest {
    private static String refused(String allocator, Long capacity, boolean minimize, Double time, Double work,
                                  int threads) {
        return assertThrows(IllegalArgumentException.class,
                () -> AllocationRun.of(allocator, capacity, minimize, time, work, threads, System.nanoTime()))
                .getMessage();
    }

    @Test
    void eachBadOptionIsRefusedNamingIt() {
        assertTrue(refused("magic", null, false, null, null, 1).startsWith("unknown allocator 'magic'; allocators: auto,"));
        assertTrue(refused("ilp", null, false, null, 5.0, 1).startsWith("--work-limit does not work with --allocator ilp"));
        assertEquals("--capacity must be positive, got 0", refused("skyline", 0L, false, null, null, 1));
        assertTrue(refused("telamalloc", null, true, null, null, 1).startsWith("--allocator telamalloc answers"));
        assertTrue(refused("skyline", null, false, -1.0, null, 1).contains("--time-limit"));
        assertTrue(refused("skyline", null, false, null, null, 0).contains("--threads"));
    }

    @Test
    void aRunPacksChecksAndSaysWhatItFound() {
        // Three buffers live at once: 30 bytes at the least, so 30 fits and 29 does not.
        BufferSet set = new BufferSet(List.of(new Buffer("a", 0, 2, 10), new Buffer("b", 0, 2, 10),
                new Buffer("c", 1, 3, 10)));
        AllocationRun fit = AllocationRun.of("minimalloc", 30L, false, 10.0, null, 1, System.nanoTime());
        Allocation a = fit.run(set, 30L, line -> { });
        assertTrue(a.solved());
        assertTrue(fit.verdict(a, 30L, 30).startsWith("solved: height 30, 1.000000 L (gap 0.0000%), time "),
                fit.verdict(a, 30L, 30));
        assertNull(fit.workUsed());
        AllocationRun tight = AllocationRun.of("minimalloc", 29L, false, 10.0, null, 1, System.nanoTime());
        Allocation none = tight.run(set, 29L, line -> { });
        assertEquals(SolveStatus.INFEASIBLE, none.status());
        assertTrue(tight.verdict(none, 29L, 30).startsWith("infeasible (proven): no packing fits in 29 bytes"));
        AllocationRun least = AllocationRun.of("auto", null, true, null, 2.0, 1, System.nanoTime());
        List<String> log = new ArrayList<>();
        Allocation min = least.run(set, null, log::add);
        assertEquals(30, min.placement().height());
        assertTrue(least.verdict(min, null, 30).startsWith("minimum height (proven): height 30"),
                least.verdict(min, null, 30));
        assertTrue(least.workUsed().endsWith(" of 2 units (counted work; the wall clock cut nothing short)"),
                least.workUsed());
        assertTrue(!log.isEmpty());
        assertEquals("gave up after 0.000 s: no solution found (not proven infeasible)",
                tight.verdict(new Allocation(SolveStatus.UNKNOWN, null, 0.0), 29L, 30));
    }
}
