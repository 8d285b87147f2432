package dev.memplan.model;

import java.util.Objects;

/**
 * What an {@link Allocator} returns: a placement (OPTIMAL, FEASIBLE or HEURISTIC) or none (INFEASIBLE when
 * proven, UNKNOWN when the allocator gave up or hit its limit), the wall time, and optionally why there is no
 * placement in words (null when the status says it all, e.g. a time limit).
 */
public record Allocation(SolveStatus status, Placement placement, double seconds, String note) {

    public Allocation(SolveStatus status, Placement placement, double seconds) {
        this(status, placement, seconds, null);
    }

    public Allocation {
        Objects.requireNonNull(status, "status");
        boolean placed = status == SolveStatus.OPTIMAL || status == SolveStatus.FEASIBLE
                || status == SolveStatus.HEURISTIC;
        if (placed != (placement != null)) {
            throw new IllegalArgumentException("status " + status + (placed ? " needs" : " cannot have") + " a placement");
        }
    }

    /** A heuristic's packing that does not fit: no answer (UNKNOWN: another packing may fit), saying by how much. */
    public static Allocation exceedsCapacity(long height, long capacity, double seconds) {
        return new Allocation(SolveStatus.UNKNOWN, null, seconds,
                "the heuristic's packing exceeds the capacity: height " + height + " > " + capacity);
    }

    public boolean solved() {
        return placement != null;
    }
}
