package dev.memplan.baselines.allocation.heuristics;

import dev.memplan.model.Buffer;
import dev.memplan.model.BufferSet;

/**
 * Exhaustive oracle for tiny buffer sets (tests only): tries every aligned offset of every buffer, in input
 * order, against the buffers already given an offset. Shares no code with the allocators it judges.
 */
final class BruteForcePacking {

    private BruteForcePacking() {
    }

    /** Whether some legal packing fits below {@code capacity}. */
    static boolean feasible(BufferSet set, long capacity) {
        return assign(set, capacity, new long[set.size()], 0);
    }

    /** The smallest capacity with a legal packing. */
    static long minimumHeight(BufferSet set) {
        long capacity = 0;
        while (!feasible(set, capacity)) {
            capacity++;
        }
        return capacity;
    }

    private static boolean assign(BufferSet set, long capacity, long[] offsets, int i) {
        if (i == set.size()) {
            return true;
        }
        Buffer b = set.get(i);
        long first = b.fixedOffset() != null ? b.fixedOffset() : 0;
        long last = b.fixedOffset() != null ? b.fixedOffset() : capacity - b.size();
        for (long offset = first; offset <= last; offset++) {
            if (offset < 0 || offset + b.size() > capacity || offset % b.alignment() != 0) {
                continue;
            }
            boolean clash = false;
            for (int j = 0; j < i && !clash; j++) {
                Buffer other = set.get(j);
                clash = other.lower() < b.upper() && b.lower() < other.upper()
                        && offsets[j] < offset + b.size() && offset < offsets[j] + other.size();
            }
            if (!clash) {
                offsets[i] = offset;
                if (assign(set, capacity, offsets, i + 1)) {
                    return true;
                }
            }
        }
        return false;
    }
}
