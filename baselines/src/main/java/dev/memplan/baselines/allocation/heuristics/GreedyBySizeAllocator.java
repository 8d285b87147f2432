package dev.memplan.baselines.allocation.heuristics;

import dev.memplan.model.Allocation;
import dev.memplan.model.Allocator;
import dev.memplan.model.BufferSet;
import dev.memplan.model.Limits;
import dev.memplan.model.Placement;
import java.util.Comparator;

/**
 * TensorFlow Lite Micro's greedy memory planner ({@code tensorflow/lite/micro/memory_planner/
 * greedy_memory_planner.cc}, {@code GreedyMemoryPlanner::CalculateOffsetsIfNeeded}; tflite-micro, Apache-2.0).
 *
 * <p>Buffers with a fixed offset ("offline planned" in tflite-micro) are placed first, at their address. The
 * others go by size, largest first, ties in input order (tflite-micro's sort is stable); each takes the lowest
 * offset, at its alignment, where it overlaps no placed buffer it shares a moment with: the first gap that
 * fits, scanning the placed buffers by offset, or on top of the highest.
 *
 * <p>The heuristic ignores the capacity: {@link #pack} is the packing it reaches, {@link #allocate} reports
 * whether that fits. Time O(n log n + p log p) for p pairs of buffers live at once ({@link GapPacking}); limits
 * are not consulted (times: BENCHMARKS.md, "Allocation at production scale").
 */
public final class GreedyBySizeAllocator implements Allocator {

    public static final String NAME = "greedy";

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
     * The packing with unbounded capacity; its {@link Placement#height()} is the arena size the planner reaches.
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
                .thenComparing(Comparator.naturalOrder());
        return GapPacking.pack(buffers, order, GapPacking.Fit.FIRST, NAME, deadlineNanos);
    }
}
