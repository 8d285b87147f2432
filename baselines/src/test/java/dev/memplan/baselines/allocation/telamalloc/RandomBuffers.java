package dev.memplan.baselines.allocation.telamalloc;

import dev.memplan.model.Buffer;
import dev.memplan.model.BufferSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Small random buffer sets for the oracle tests: lifetimes within times 0..8, sizes 1..4, a capacity at or just
 * above the peak live size (so that fragmentation, not the peak, decides feasibility), and optionally some
 * alignment and fixed offsets.
 */
final class RandomBuffers {
    private static final int HORIZON = 8;

    private RandomBuffers() {
    }

    /**
     * 1..{@code maxBuffers} buffers, capacity = peak + 0..{@code maxSlack}; with {@code constrained}, about a
     * quarter of the buffers get alignment 2 or 3 and a sixth a fixed (aligned) offset below the capacity.
     */
    static BufferSet next(Random random, int maxBuffers, int maxSlack, boolean constrained) {
        int n = 1 + random.nextInt(maxBuffers);
        int[] lower = new int[n];
        int[] upper = new int[n];
        long[] size = new long[n];
        long[] live = new long[HORIZON];
        for (int i = 0; i < n; i++) {
            lower[i] = random.nextInt(HORIZON - 1);
            upper[i] = lower[i] + 1 + random.nextInt(HORIZON - lower[i]);
            size[i] = 1 + random.nextInt(4);
            for (int t = lower[i]; t < upper[i]; t++) {
                live[t] += size[i];
            }
        }
        long peak = 0;
        for (long l : live) {
            peak = Math.max(peak, l);
        }
        long capacity = peak + random.nextInt(maxSlack + 1);
        List<Buffer> buffers = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            long alignment = constrained && random.nextInt(4) == 0 ? 2 + random.nextInt(2) : 1;
            Long fixed = null;
            if (constrained && random.nextInt(6) == 0 && capacity >= size[i]) {
                fixed = alignment * random.nextInt((int) ((capacity - size[i]) / alignment + 1));
            }
            buffers.add(new Buffer("b" + i, lower[i], upper[i], size[i], alignment, fixed));
        }
        return new BufferSet(buffers, capacity);
    }
}
