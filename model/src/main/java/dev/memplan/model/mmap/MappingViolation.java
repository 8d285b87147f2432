package dev.memplan.model.mmap;

import java.util.List;

/** One broken rule, the buffers (indices) that break it and a sentence that says it all. */
public record MappingViolation(MappingRule rule, List<Integer> buffers, String message) {

    public MappingViolation {
        buffers = List.copyOf(buffers);
    }

    @Override
    public String toString() {
        return rule.id() + ": " + message;
    }
}
