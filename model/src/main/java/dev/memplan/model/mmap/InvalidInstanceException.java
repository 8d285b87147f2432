package dev.memplan.model.mmap;

/**
 * An instance that breaks a rule of {@link MmapInstance}; {@link #where()} names the culprit as a path such as
 * {@code buffers[3].liveFirst}, so a file reader can report it at its place in the file.
 */
public final class InvalidInstanceException extends IllegalArgumentException {
    private final String where;

    public InvalidInstanceException(String where, String problem) {
        super(where + ": " + problem);
        this.where = where;
    }

    public String where() {
        return where;
    }

    /** The problem without the place. */
    public String problem() {
        return getMessage().substring(where.length() + 2);
    }
}
