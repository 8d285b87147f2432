package dev.memplan.baselines.allocation.telamalloc;

import dev.memplan.model.Buffer;
import dev.memplan.model.BufferSet;

/**
 * Test oracle: whether a tiny buffer set has a legal placement below a capacity, by trying every aligned offset
 * of every buffer in input order (or its fixed offset) against the buffers before it. Shares no code with the
 * allocators. Exponential: for a handful of buffers and a capacity of a dozen or so.
 */
final class BruteForcePacking {

    private BruteForcePacking() {
    }

    static boolean feasible(BufferSet set, long capacity) {
        return extend(set, capacity, new long[set.size()], 0);
    }

    private static boolean extend(BufferSet set, long capacity, long[] offset, int i) {
        if (i == set.size()) {
            return true;
        }
        Buffer b = set.get(i);
        for (long o = 0; o + b.size() <= capacity; o++) {
            if (o % b.alignment() != 0 || (b.fixedOffset() != null && b.fixedOffset() != o)) {
                continue;
            }
            boolean free = true;
            for (int j = 0; j < i && free; j++) {
                Buffer a = set.get(j);
                boolean together = a.lower() < b.upper() && b.lower() < a.upper();
                free = !together || offset[j] + a.size() <= o || o + b.size() <= offset[j];
            }
            if (free) {
                offset[i] = o;
                if (extend(set, capacity, offset, i + 1)) {
                    return true;
                }
            }
        }
        return false;
    }
}
