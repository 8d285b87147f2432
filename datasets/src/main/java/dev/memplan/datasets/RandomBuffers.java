package dev.memplan.datasets;

import dev.memplan.model.Buffer;
import dev.memplan.model.BufferSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Seeded random buffer sets in the style of MiniMalloc's benchmarks: buffers with random start times over a
 * horizon, random lifetimes and sizes, packed into a capacity a given fraction above the busiest moment's live
 * bytes (slack 0: zero slack, the hard case where any wasted address makes the set infeasible).
 */
public final class RandomBuffers {

    private RandomBuffers() {
    }

    /**
     * {@code count} buffers over times [0, {@code horizon}), lifetimes 1..{@code maxLifetime}, sizes
     * 1..{@code maxSize} rounded up to {@code alignment} (each buffer aligned to it); capacity =
     * ceil(peak live bytes x (1 + {@code slack})). Same arguments, same set, on every machine.
     */
    public static BufferSet generate(long seed, int count, long horizon, long maxLifetime, long maxSize,
                                     long alignment, double slack) {
        if (count < 1 || horizon < 1 || maxLifetime < 1 || maxSize < 1 || alignment < 1 || slack < 0) {
            throw new IllegalArgumentException("count, horizon, lifetime, size and alignment must be >= 1, slack >= 0");
        }
        Random random = new Random(seed);
        List<Buffer> buffers = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            long lower = (long) (random.nextDouble() * horizon);
            long upper = lower + 1 + (long) (random.nextDouble() * maxLifetime);
            long size = 1 + (long) (random.nextDouble() * maxSize);
            size = (size + alignment - 1) / alignment * alignment;
            buffers.add(new Buffer(Integer.toString(i), lower, upper, size, alignment, null));
        }
        long capacity = (long) Math.ceil(peakLiveBytes(buffers) * (1 + slack));
        return new BufferSet(buffers, capacity);
    }

    /** The most bytes live at one time: a lower bound on any packing's height. */
    public static long peakLiveBytes(List<Buffer> buffers) {
        long[][] events = new long[2 * buffers.size()][];
        int k = 0;
        for (Buffer b : buffers) {
            events[k++] = new long[] {b.lower(), b.size()};
            events[k++] = new long[] {b.upper(), -b.size()};
        }
        // At equal times the ends come first: [lower, upper) ranges that touch do not overlap.
        java.util.Arrays.sort(events, (x, y) -> x[0] != y[0] ? Long.compare(x[0], y[0]) : Long.compare(x[1], y[1]));
        long live = 0;
        long peak = 0;
        for (long[] e : events) {
            live += e[1];
            peak = Math.max(peak, live);
        }
        return peak;
    }
}
