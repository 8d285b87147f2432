package dev.memplan.datasets;

import dev.memplan.model.Buffer;
import dev.memplan.model.BufferSet;
import dev.memplan.model.ClockGuard;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Seeded allocation traces shaped like a real accelerator program's heap: {@code gen:heap:N[:SEED]} has exactly N
 * buffers, thousands of them live at once, sizes from 2 bytes to 256 MiB. Where {@link TrainingTrace} has at most a
 * few hundred buffers live at any moment, a real trace of 28,526 buffers had up to 3,218 live at once (sizes 2 B
 * to 256 MiB, issue 37); packing such a trace is what makes an allocator's per-buffer work grow with the live set.
 *
 * <p>Four buffers are allocated per time step, in order. A lifetime is short (55%: geometric, mean 2 steps),
 * medium (41%: uniform 1..2,750 steps) or long (4%: uniform 2,500..10,000 steps), so that about 3,000 buffers
 * are live at once whatever N is (fewer near the ends). Its size is small (70%: 2 B..64 KiB), medium (27%:
 * 64 KiB..16 MiB) or huge (3%: 16..256 MiB), log-uniform within each class and even, as real sizes are: most
 * buffers are small and a few huge ones hold most of the load. Alignment 1. Same name, same trace, on every
 * machine.
 */
public final class HeapTrace {
    /** The fewest and most buffers a trace may have. */
    public static final int MIN_BUFFERS = 100;
    public static final int MAX_BUFFERS = 1_000_000;

    /** Buffers allocated per time step (an operator allocates a few). */
    private static final int PER_STEP = 4;

    private HeapTrace() {
    }

    /** Whether the text names a generated heap trace (starts with {@code gen:heap:}). */
    public static boolean isTraceName(String text) {
        return text.startsWith("gen:heap:");
    }

    /**
     * The trace of that name.
     *
     * @throws IllegalArgumentException naming the expected form when the name is malformed or out of range
     */
    public static BufferSet of(String name) {
        return GeneratedTraces.parse(name, "heap", "heap ", MIN_BUFFERS, MAX_BUFFERS, HeapTrace::generate);
    }

    /** Exactly {@code count} buffers, drawn from {@code seed}. */
    public static BufferSet generate(int count, long seed) {
        if (count < MIN_BUFFERS || count > MAX_BUFFERS) {
            throw new IllegalArgumentException("a heap trace has " + MIN_BUFFERS + ".." + MAX_BUFFERS + " buffers");
        }
        Random r = new Random(seed);
        List<Buffer> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            ClockGuard.poll(i, "generating the trace");
            long at = i / PER_STEP;
            out.add(new Buffer("b" + i, at, at + lifetime(r), size(r), 1, null));
        }
        return new BufferSet(out);
    }

    private static long lifetime(Random r) {
        double c = r.nextDouble();
        if (c < 0.55) {
            // Geometric with mean 2: a temporary freed soon after it is made.
            return 1 + (long) Math.floor(Math.log(1 - r.nextDouble()) / Math.log(1 - 1.0 / 2));
        }
        if (c < 0.96) {
            return 1 + r.nextInt(2_750);
        }
        return 2_500 + r.nextInt(7_501);
    }

    private static long size(Random r) {
        double c = r.nextDouble();
        // log2 of the size, uniform within the class: 2 B .. 64 KiB, 64 KiB .. 16 MiB, 16 MiB .. 256 MiB.
        double lo = c < 0.70 ? 1 : c < 0.97 ? 16 : 24;
        double hi = c < 0.70 ? 16 : c < 0.97 ? 24 : 28;
        long bytes = (long) Math.pow(2, lo + (hi - lo) * r.nextDouble());
        return Math.max(2, bytes & ~1L);
    }
}
