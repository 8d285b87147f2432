package dev.memplan.model;

/**
 * The two tensor settings of the COSMA evaluation (memory-model.md, "Graph"): parameters dropped, or kept.
 * Every budget is computed for one setting.
 */
public enum TensorSetting {
    /** Activations only: parameter tensors are removed from the graph before anything else happens. */
    ACTIVATIONS("activations"),
    /** Activations + parameters. */
    ALL("all");

    private final String fileName;

    TensorSetting(String fileName) {
        this.fileName = fileName;
    }

    /** The name used on the command line and in plan files: {@code activations} or {@code all}. */
    public String fileName() {
        return fileName;
    }

    /**
     * The setting a command line or a sweep spec names: {@link #fromFileName}'s names, or a value's name in any case
     * ({@link EnumNames}).
     *
     * @throws IllegalArgumentException naming both settings
     */
    public static TensorSetting parse(String text) {
        TensorSetting s = fromFileName(text);
        return s != null ? s : EnumNames.parse(values(), TensorSetting::fileName, text, "tensor setting");
    }

    /** Parses {@code activations} or {@code all} (also {@code activations+parameters}); null otherwise. */
    public static TensorSetting fromFileName(String text) {
        if (text == null) {
            return null;
        }
        switch (text) {
            case "activations":
                return ACTIVATIONS;
            case "all":
            case "activations+parameters":
                return ALL;
            default:
                return null;
        }
    }
}
