package dev.memplan.model;

import java.util.List;

/**
 * What the {@link PlanChecker} found: every violation (empty for a valid plan), the traffic (with the recomputes
 * and their cost), the peak footprint (max over t of the bytes resident at t) and the peak address (max offset +
 * size). The figures are computed for broken plans too, over the segments that make sense.
 */
public record CheckReport(List<Violation> violations, Traffic traffic, long peakFootprint, long peakAddress) {

    public CheckReport {
        violations = List.copyOf(violations);
    }

    public boolean valid() {
        return violations.isEmpty();
    }
}
