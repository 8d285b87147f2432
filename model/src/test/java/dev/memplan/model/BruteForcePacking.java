package dev.memplan.model;

/**
 * The packing oracle of every allocator test (shared through this module's test jar): tries every offset of every
 * buffer (multiples of its alignment, or its fixed offset), in input order, rejecting a partial assignment as
 * soon as two buffers live at the same time share an address. Exponential; meant for a handful of buffers with
 * small sizes. Shares no code with the allocators and models it judges.
 */
public final class BruteForcePacking {

    private BruteForcePacking() {
    }

    /** Whether some legal placement puts every buffer inside {@code [0, capacity)}. */
    public static boolean feasible(BufferSet set, long capacity) {
        return place(set, capacity, 0, new long[set.size()]);
    }

    /** The smallest capacity that packs the set, or -1 when none does (fixed offsets collide). */
    public static long minimumCapacity(BufferSet set) {
        long bound = 0;
        for (Buffer b : set.buffers()) {
            bound += b.size() + b.alignment() - 1 + (b.fixedOffset() == null ? 0 : b.fixedOffset());
        }
        for (long c = 0; c <= bound; c++) {
            if (feasible(set, c)) {
                return c;
            }
        }
        return -1;
    }

    private static boolean place(BufferSet set, long capacity, int i, long[] offsets) {
        if (i == set.size()) {
            return true;
        }
        Buffer b = set.get(i);
        long first = b.fixedOffset() == null ? 0 : b.fixedOffset();
        long last = b.fixedOffset() == null ? capacity - b.size() : b.fixedOffset();
        for (long o = first; o <= last; o += b.alignment()) {
            if (o < 0 || o + b.size() > capacity || o % b.alignment() != 0 || clashes(set, offsets, i, o)) {
                continue;
            }
            offsets[i] = o;
            if (place(set, capacity, i + 1, offsets)) {
                return true;
            }
        }
        return false;
    }

    private static boolean clashes(BufferSet set, long[] offsets, int i, long o) {
        Buffer b = set.get(i);
        for (int j = 0; j < i; j++) {
            Buffer other = set.get(j);
            boolean sameTime = b.lower() < other.upper() && other.lower() < b.upper();
            boolean sameAddress = o < offsets[j] + other.size() && offsets[j] < o + b.size();
            if (sameTime && sameAddress) {
                return true;
            }
        }
        return false;
    }
}
