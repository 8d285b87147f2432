package dev.memplan.model;

import java.util.Objects;

/**
 * What an {@link Allocator} returns: a placement (OPTIMAL, FEASIBLE or HEURISTIC) or none (INFEASIBLE when
 * proven, UNKNOWN when the allocator gave up or hit its limit), and the wall time.
 */
public record Allocation(SolveStatus status, Placement placement, double seconds) {

    public Allocation {
        Objects.requireNonNull(status, "status");
        boolean placed = status == SolveStatus.OPTIMAL || status == SolveStatus.FEASIBLE
                || status == SolveStatus.HEURISTIC;
        if (placed != (placement != null)) {
            throw new IllegalArgumentException("status " + status + (placed ? " needs" : " cannot have") + " a placement");
        }
    }

    public boolean solved() {
        return placement != null;
    }
}
