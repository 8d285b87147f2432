package dev.memplan.model;

import java.util.Locale;

/** How a segment begins (memory-model.md, "Residency: segments"). */
public enum Origin {
    /** Starts at the producer's timestep: the tensor is written by its operator. */
    CREATED,
    /** The tensor is copied in from host memory at the segment's start. */
    LOADED,
    /**
     * Starts at a later run of the producer, which writes the tensor again (memory-model.md, "Recomputation"):
     * a new copy, made with its siblings, that gives host memory no copy.
     */
    RECOMPUTED;

    public String fileName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses {@code created}, {@code loaded} or {@code recomputed}; null otherwise. */
    public static Origin fromFileName(String text) {
        for (Origin o : values()) {
            if (o.fileName().equals(text)) {
                return o;
            }
        }
        return null;
    }
}
