package dev.memplan.baselines.allocation.heuristics;

import dev.memplan.model.Allocation;
import dev.memplan.model.Allocator;
import dev.memplan.model.Buffer;
import dev.memplan.model.BufferSet;
import dev.memplan.model.Limits;
import dev.memplan.model.Placement;
import java.util.Comparator;

/**
 * TensorFlow Lite's arena planner: the offline plan TFLite computes for its tensor arena
 * ({@code tensorflow/lite/arena_planner.cc}, {@code CreateTensorAllocationVector}, and
 * {@code tensorflow/lite/simple_memory_arena.cc}, {@code SimpleMemoryArena::Allocate}; TensorFlow, Apache-2.0).
 *
 * <p>Order: buffers live for the whole run (their range covers every buffer's range) first, in input order, as
 * TFLite puts graph inputs and variables at the bottom of the arena; then by size, largest first, ties by
 * earlier first use ({@code lower}), then input order. Each buffer takes the smallest gap it fits in among the
 * placed buffers it shares a moment with, the gap below the lowest of them included and the lowest of equal
 * gaps preferred; when no gap fits it goes on top of the highest. Buffers with a fixed offset are placed first,
 * at their address (TFLite has no such buffers; this is the natural extension).
 *
 * <p>The heuristic ignores the capacity: {@link #pack} is the packing it reaches, {@link #allocate} reports
 * whether that fits. Time O(n log n + p log p) for p pairs of buffers live at once ({@link GapPacking}); limits
 * are not consulted (times: BENCHMARKS.md, "Allocation at production scale").
 */
public final class TfliteArenaAllocator implements Allocator {

    public static final String NAME = "tflite";

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
     * The packing with unbounded capacity; its {@link Placement#height()} is the arena size TFLite would ask for.
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
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        for (Buffer b : buffers.buffers()) {
            first = Math.min(first, b.lower());
            last = Math.max(last, b.upper());
        }
        long start = first;
        long end = last;
        Comparator<Integer> order = (a, b) -> {
            Buffer x = buffers.get(a);
            Buffer y = buffers.get(b);
            boolean wholeX = isWholeRun(x, start, end);
            boolean wholeY = isWholeRun(y, start, end);
            if (wholeX != wholeY) {
                return wholeX ? -1 : 1;
            }
            if (wholeX) {
                return Integer.compare(a, b);
            }
            if (x.size() != y.size()) {
                return Long.compare(y.size(), x.size());
            }
            if (x.lower() != y.lower()) {
                return Long.compare(x.lower(), y.lower());
            }
            return Integer.compare(a, b);
        };
        return GapPacking.pack(buffers, order, GapPacking.Fit.BEST, NAME, deadlineNanos);
    }

    private static boolean isWholeRun(Buffer b, long start, long end) {
        return b.lower() <= start && b.upper() >= end;
    }
}
