package dev.memplan.baselines.allocation.heuristics;

import dev.memplan.model.Allocation;
import dev.memplan.model.Allocator;
import dev.memplan.model.Buffer;
import dev.memplan.model.BufferSet;
import dev.memplan.model.Limits;
import dev.memplan.model.Placement;
import java.util.Comparator;

/**
 * XLA's global decreasing-size best-fit heap ({@code xla/service/heap_simulator/heap_simulator.cc},
 * {@code GlobalDecreasingSizeBestFitHeap} with the spatial order, {@code FindChunkCandidate}; OpenXLA,
 * Apache-2.0), the default heap algorithm of XLA's buffer assignment.
 *
 * <p>Buffers with a fixed offset are placed first, at their address. The others go by size, largest first,
 * ties by longer live range, then input order ({@code GetSpatialBufferIntervalCompare}). Each takes the free
 * chunk it fits in, among the placed buffers it shares a moment with, that is smallest, the lowest of equal
 * chunks preferred; the space above the highest placed buffer is an unbounded chunk, so it is taken only when
 * no bounded chunk fits.
 *
 * <p>The heuristic ignores the capacity: {@link #pack} is the packing it reaches, {@link #allocate} reports
 * whether that fits. Time O(n log n + p log p) for p pairs of buffers live at once ({@link GapPacking}); limits
 * are not consulted (times: BENCHMARKS.md, "Allocation at production scale").
 */
public final class BestFitAllocator implements Allocator {

    public static final String NAME = "bestfit";

    @Override
    public String name() {
        return NAME;
    }

    /**
     * HEURISTIC with the packing when its height is at most {@code capacity}, UNKNOWN otherwise (also when the
     * fixed offsets collide); never INFEASIBLE.
     */
    @Override
    public Allocation allocate(BufferSet buffers, long capacity, Limits limits) {
        long deadline = GapPacking.deadline(limits);
        return GapPacking.allocate(buffers, capacity, b -> pack(b, deadline), NAME, System.nanoTime());
    }

    /**
     * The packing with unbounded capacity; its {@link Placement#height()} is the heap size XLA would report.
     *
     * @throws IllegalArgumentException when the fixed offsets alone are illegal
     */
    public Placement pack(BufferSet buffers) {
        return pack(buffers, Long.MAX_VALUE);
    }

    /**
     * As {@link #pack(BufferSet)}, or null once {@link System#nanoTime()} passes {@code deadlineNanos}
     * (Long.MAX_VALUE: none).
     */
    public Placement pack(BufferSet buffers, long deadlineNanos) {
        Comparator<Integer> order = Comparator.comparingLong((Integer i) -> buffers.get(i).size()).reversed()
                .thenComparing(Comparator.comparingLong((Integer i) -> duration(buffers.get(i))).reversed())
                .thenComparing(Comparator.naturalOrder());
        return GapPacking.pack(buffers, order, GapPacking.Fit.BEST, NAME, deadlineNanos);
    }

    private static long duration(Buffer b) {
        return b.upper() - b.lower();
    }
}
