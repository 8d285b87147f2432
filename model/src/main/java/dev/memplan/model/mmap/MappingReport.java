package dev.memplan.model.mmap;

import java.util.List;

/** What the {@link MappingChecker} found: every violation (none for a valid mapping) and the mapping's reward. */
public record MappingReport(List<MappingViolation> violations, long reward) {

    public MappingReport {
        violations = List.copyOf(violations);
    }

    public boolean valid() {
        return violations.isEmpty();
    }

    /** True when some violation breaks {@code rule}. */
    public boolean breaks(MappingRule rule) {
        return violations.stream().anyMatch(v -> v.rule() == rule);
    }
}
