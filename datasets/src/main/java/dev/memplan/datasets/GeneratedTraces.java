package dev.memplan.datasets;

import dev.memplan.model.BufferSet;

/**
 * Generated buffer traces by name, as commands read them: {@code gen:trace:N[:SEED]} ({@link TrainingTrace}, a
 * transformer's training step) and {@code gen:heap:N[:SEED]} ({@link HeapTrace}, thousands of buffers live at once).
 */
public final class GeneratedTraces {
    /** The forms, for messages. */
    public static final String FORMS = "gen:trace:N[:SEED] or gen:heap:N[:SEED]";

    private GeneratedTraces() {
    }

    /** Whether the text names a generated trace of either kind. */
    public static boolean isTraceName(String text) {
        return TrainingTrace.isTraceName(text) || HeapTrace.isTraceName(text);
    }

    /**
     * The trace of that name.
     *
     * @throws IllegalArgumentException naming the expected form when the name is malformed or out of range
     */
    public static BufferSet of(String name) {
        return HeapTrace.isTraceName(name) ? HeapTrace.of(name) : TrainingTrace.of(name);
    }
}
