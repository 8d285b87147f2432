package dev.memplan.model;

import java.util.Arrays;

/**
 * An address for every buffer of a {@link BufferSet}: {@code offsets[i]} is the base address of buffer i.
 * Whether the placement is legal is decided by the {@link BufferChecker}.
 */
public record Placement(BufferSet buffers, long[] offsets) {

    public Placement {
        if (offsets.length != buffers.size()) {
            throw new IllegalArgumentException(offsets.length + " offsets for " + buffers.size() + " buffers");
        }
        offsets = offsets.clone();
    }

    public long offset(int index) {
        return offsets[index];
    }

    @Override
    public long[] offsets() {
        return offsets.clone();
    }

    /** Height: max over buffers of offset + size (0 when empty), saturating at Long.MAX_VALUE ({@link ByteRange}). */
    public long height() {
        long h = 0;
        for (int i = 0; i < offsets.length; i++) {
            h = Math.max(h, ByteRange.add(offsets[i], buffers.get(i).size()));
        }
        return h;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Placement p && p.buffers.equals(buffers) && Arrays.equals(p.offsets, offsets);
    }

    @Override
    public int hashCode() {
        return 31 * buffers.hashCode() + Arrays.hashCode(offsets);
    }

    @Override
    public String toString() {
        return "Placement" + Arrays.toString(offsets);
    }
}
