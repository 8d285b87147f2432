package dev.memplan.model;

import java.util.Locale;

/** What a tensor holds (memory-model.md, "Graph"). Parameters are host tensors: no operator produces them. */
public enum TensorKind {
    ACTIVATION,
    PARAMETER;

    /** The name used in the file formats: {@code activation} or {@code parameter}. */
    public String fileName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses a file name; null when the text is neither kind. */
    public static TensorKind fromFileName(String text) {
        for (TensorKind k : values()) {
            if (k.fileName().equals(text)) {
                return k;
            }
        }
        return null;
    }
}
