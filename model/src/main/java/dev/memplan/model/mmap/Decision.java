package dev.memplan.model.mmap;

import java.util.Objects;

/**
 * What a mapping decides for one buffer: the action and, unless it is {@link Action#DROP}, the fast-memory
 * allocation: the closed logical-time interval {@code [start, end]} (the paper's interval mapping I) and the
 * offset (the offset mapping O).
 */
public record Decision(Action action, int start, int end, long offset) {

    /** The decision to leave a buffer in slow memory. */
    public static final Decision DROP = new Decision(Action.DROP, 0, -1, -1);

    public Decision {
        Objects.requireNonNull(action, "action");
    }

    public boolean placed() {
        return action != Action.DROP;
    }
}
