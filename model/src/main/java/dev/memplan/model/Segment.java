package dev.memplan.model;

import java.util.Objects;

/**
 * A stretch of a tensor's time on chip: timesteps {@code [start, end]} inclusive, at one base address
 * {@code offset}, begun by creation, by a load or by a recompute (memory-model.md, "Residency: segments" and
 * "Recomputation"). Values are not validated here: the {@link PlanChecker} judges them, so that a broken plan
 * can still be read and reported.
 */
public record Segment(int start, int end, long offset, Origin origin) {

    public Segment {
        Objects.requireNonNull(origin, "origin");
    }

    public static Segment created(int start, int end, long offset) {
        return new Segment(start, end, offset, Origin.CREATED);
    }

    public static Segment loaded(int start, int end, long offset) {
        return new Segment(start, end, offset, Origin.LOADED);
    }

    public static Segment recomputed(int start, int end, long offset) {
        return new Segment(start, end, offset, Origin.RECOMPUTED);
    }

    public boolean contains(int t) {
        return start <= t && t <= end;
    }

    /** The same segment at another address. */
    public Segment at(long newOffset) {
        return new Segment(start, end, newOffset, origin);
    }
}
