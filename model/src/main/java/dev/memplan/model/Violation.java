package dev.memplan.model;

import java.util.List;

/**
 * One broken rule: which rule, which tensors (or buffer ids) and, where it applies, the first timestep at
 * which it is broken (null otherwise), with a sentence that says it all.
 */
public record Violation(Rule rule, List<String> subjects, Integer timestep, String message) {

    public Violation {
        subjects = List.copyOf(subjects);
    }

    @Override
    public String toString() {
        return rule.id() + ": " + message;
    }
}
