package dev.memplan.baselines.allocation.heuristics;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.datasets.MiniMallocSuite;
import dev.memplan.model.Allocation;
import dev.memplan.model.Allocator;
import dev.memplan.model.BruteForcePacking;
import dev.memplan.model.Buffer;
import dev.memplan.model.BufferChecker;
import dev.memplan.model.BufferSet;
import dev.memplan.model.Limits;
import dev.memplan.model.Placement;
import dev.memplan.model.SolveStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** TFLite's arena planner, tflite-micro's greedy planner and XLA's best-fit heap, against hand-made cases. */
class CompilerHeuristicsTest {

    /** An allocator with its unbounded packing. */
    record Heuristic(Allocator allocator, Function<BufferSet, Placement> pack) {
        @Override
        public String toString() {
            return allocator.name();
        }
    }

    static Stream<Heuristic> heuristics() {
        TfliteArenaAllocator tflite = new TfliteArenaAllocator();
        GreedyBySizeAllocator greedy = new GreedyBySizeAllocator();
        BestFitAllocator bestFit = new BestFitAllocator();
        return Stream.of(new Heuristic(tflite, tflite::pack), new Heuristic(greedy, greedy::pack),
                new Heuristic(bestFit, bestFit::pack));
    }

    private static Buffer buffer(String id, long lower, long upper, long size) {
        return new Buffer(id, lower, upper, size);
    }

    private static long[] offsets(Function<BufferSet, Placement> pack, BufferSet set) {
        return pack.apply(set).offsets();
    }

    @Test
    void namesAreTheOnesTheBenchmarkUses() {
        assertEquals("tflite", new TfliteArenaAllocator().name());
        assertEquals("greedy", new GreedyBySizeAllocator().name());
        assertEquals("bestfit", new BestFitAllocator().name());
    }

    /**
     * After A, B, C and E are placed, Z (live at 2) shares its moment with B at [4, 6) and E at [8, 9): the gap
     * [0, 4) is the lowest, [6, 8) the smallest. Best fit takes 6, first fit 0. Z comes before E in the input;
     * TFLite and XLA both place E first (earlier first use; longer live range), greedy keeps input order.
     */
    @Test
    void bestFitAndFirstFitTakeDifferentGaps() {
        BufferSet set = new BufferSet(List.of(
                buffer("A", 0, 1, 4), buffer("B", 0, 3, 2), buffer("C", 0, 1, 2), buffer("Z", 2, 3, 1),
                buffer("E", 0, 3, 1), buffer("F", 3, 4, 1)));
        assertArrayEquals(new long[] {0, 4, 6, 6, 8, 0}, new TfliteArenaAllocator().pack(set).offsets());
        assertArrayEquals(new long[] {0, 4, 6, 6, 8, 0}, new BestFitAllocator().pack(set).offsets());
        assertArrayEquals(new long[] {0, 4, 6, 0, 8, 0}, new GreedyBySizeAllocator().pack(set).offsets());
    }

    /** Ties in size: TFLite by earlier first use, XLA by longer live range, tflite-micro by input order. */
    @Test
    void sizeTiesAreBrokenAsEachSourceDoes() {
        // Y starts later but lives longer; both size 2; X before Y in the input. The second placed goes on top.
        BufferSet set = new BufferSet(List.of(buffer("W", 0, 9, 1), buffer("X", 0, 2, 2), buffer("Y", 1, 5, 2)));
        // W is live for the whole run: TFLite puts it first, at the bottom.
        assertArrayEquals(new long[] {0, 1, 3}, new TfliteArenaAllocator().pack(set).offsets());
        assertArrayEquals(new long[] {4, 2, 0}, new BestFitAllocator().pack(set).offsets());
        assertArrayEquals(new long[] {4, 0, 2}, new GreedyBySizeAllocator().pack(set).offsets());
    }

    @ParameterizedTest
    @MethodSource("heuristics")
    void alignmentIsKept(Heuristic h) {
        BufferSet set = new BufferSet(List.of(new Buffer("a", 0, 2, 3, 1, null), new Buffer("b", 0, 2, 3, 4, null),
                new Buffer("c", 1, 3, 2, 8, null)));
        Placement p = h.pack().apply(set);
        assertEquals(List.of(), BufferChecker.check(p, Long.MAX_VALUE));
        assertEquals(0, p.offset(1) % 4);
        assertEquals(0, p.offset(2) % 8);
        assertEquals(0, p.offset(0), "the largest-first order puts a (input order) or b at the bottom");
        assertEquals(4, p.offset(1));
        assertEquals(8, p.offset(2), "c overlaps a and b: above 7, aligned to 8");
    }

    @ParameterizedTest
    @MethodSource("heuristics")
    void fixedOffsetsArePlacedFirstAndKept(Heuristic h) {
        // F sits at [4, 6); A (size 4) fits below it, B (size 3) does not and goes on top.
        BufferSet set = new BufferSet(List.of(buffer("A", 0, 2, 4), new Buffer("F", 0, 2, 2, 1, 4L),
                buffer("B", 1, 2, 3)));
        assertArrayEquals(new long[] {0, 4, 6}, offsets(h.pack(), set));
    }

    @ParameterizedTest
    @MethodSource("heuristics")
    void collidingFixedOffsetsAreRejectedNotPacked(Heuristic h) {
        BufferSet set = new BufferSet(List.of(new Buffer("F", 0, 2, 4, 1, 0L), new Buffer("G", 1, 3, 4, 1, 2L)));
        assertThrows(IllegalArgumentException.class, () -> h.pack().apply(set));
        Allocation a = h.allocator().allocate(set, 100, Limits.DEFAULT);
        assertEquals(SolveStatus.UNKNOWN, a.status(), "a heuristic proves nothing");
        assertNull(a.placement());
    }

    @ParameterizedTest
    @MethodSource("heuristics")
    void misalignedFixedOffsetIsRejected(Heuristic h) {
        BufferSet set = new BufferSet(List.of(new Buffer("F", 0, 2, 4, 4, 2L)));
        assertThrows(IllegalArgumentException.class, () -> h.pack().apply(set));
        assertEquals(SolveStatus.UNKNOWN, h.allocator().allocate(set, 100, Limits.DEFAULT).status());
    }

    @ParameterizedTest
    @MethodSource("heuristics")
    void paperExampleFitsItsCapacity(Heuristic h) {
        BufferSet set = MiniMallocSuite.paperExample();
        Allocation a = h.allocator().allocate(set, 12, Limits.DEFAULT);
        assertEquals(SolveStatus.HEURISTIC, a.status());
        assertEquals(List.of(), BufferChecker.check(a.placement(), 12));
        assertEquals(12, a.placement().height());
    }

    /** At a capacity below the height reached: UNKNOWN, never INFEASIBLE, even where truly infeasible. */
    @ParameterizedTest
    @MethodSource("heuristics")
    void belowItsHeightItSaysUnknown(Heuristic h) {
        BufferSet set = MiniMallocSuite.paperExample();
        for (long capacity : new long[] {11, 4, 0}) {
            Allocation a = h.allocator().allocate(set, capacity, Limits.DEFAULT);
            assertEquals(SolveStatus.UNKNOWN, a.status());
            assertNull(a.placement());
            assertTrue(a.seconds() >= 0);
        }
    }

    /** Random tiny sets: every packing legal, its height at least the true minimum, allocate consistent. */
    @ParameterizedTest
    @MethodSource("heuristics")
    void randomTinySetsAgainstTheBruteForceMinimum(Heuristic h) {
        Random random = new Random(7);
        int strictlyAbove = 0;
        for (int round = 0; round < 150; round++) {
            BufferSet set = randomSet(random);
            Placement p = h.pack().apply(set);
            assertEquals(List.of(), BufferChecker.check(p, Long.MAX_VALUE), set::toString);
            long minimum = BruteForcePacking.minimumCapacity(set);
            assertTrue(p.height() >= minimum, () -> set + ": " + p.height() + " < " + minimum);
            if (p.height() > minimum) {
                strictlyAbove++;
            }
            assertEquals(SolveStatus.HEURISTIC, h.allocator().allocate(set, p.height(), Limits.DEFAULT).status());
            assertEquals(SolveStatus.UNKNOWN, h.allocator().allocate(set, p.height() - 1, Limits.DEFAULT).status());
        }
        assertTrue(strictlyAbove > 0, "the sample should contain a case the heuristic does not solve optimally");
    }

    static BufferSet randomSet(Random random) {
        int n = 2 + random.nextInt(4);
        List<Buffer> buffers = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            long lower = random.nextInt(5);
            long upper = lower + 1 + random.nextInt(4);
            long size = 1 + random.nextInt(4);
            long alignment = random.nextInt(4) == 0 ? 2 : 1;
            buffers.add(new Buffer("b" + i, lower, upper, size, alignment, null));
        }
        return new BufferSet(buffers);
    }

    /** The eleven hard instances pack in milliseconds; the packing is legal and no lower than the peak load. */
    @ParameterizedTest
    @MethodSource("heuristics")
    void challengingInstancesPackLegally(Heuristic h) {
        for (String name : MiniMallocSuite.challengingNames()) {
            BufferSet set = MiniMallocSuite.challenging(name);
            Placement p = h.pack().apply(set);
            assertTrue(p.height() >= peakLoad(set), name);
            Allocation a = h.allocator().allocate(set, MiniMallocSuite.CHALLENGING_CAPACITY, Limits.DEFAULT);
            assertEquals(p.height() <= MiniMallocSuite.CHALLENGING_CAPACITY ? SolveStatus.HEURISTIC
                    : SolveStatus.UNKNOWN, a.status(), name);
        }
    }

    private static long peakLoad(BufferSet set) {
        long peak = 0;
        for (Buffer at : set.buffers()) {
            long load = 0;
            for (Buffer b : set.buffers()) {
                if (b.lower() <= at.lower() && at.lower() < b.upper()) {
                    load += b.size();
                }
            }
            peak = Math.max(peak, load);
        }
        return peak;
    }

    /** Each heuristic stops at its deadline (null), and a command's limit reaches it through allocate too. */
    @Test
    void theHeuristicsStopAtTheirDeadline() {
        BufferSet set = dev.memplan.datasets.HeapTrace.generate(5_000, 1);
        long past = System.nanoTime() - 1;
        assertNull(new GreedyBySizeAllocator().pack(set, past));
        assertNull(new BestFitAllocator().pack(set, past));
        assertNull(new TfliteArenaAllocator().pack(set, past));
        assertEquals(new GreedyBySizeAllocator().pack(set).height(),
                new GreedyBySizeAllocator().pack(set, Long.MAX_VALUE).height());
        Allocation a = new BestFitAllocator().allocate(set, Long.MAX_VALUE, Limits.ofWall(java.time.Duration.ZERO));
        assertEquals(SolveStatus.UNKNOWN, a.status());
        assertEquals("stopped at the time limit", a.note());
    }
}
