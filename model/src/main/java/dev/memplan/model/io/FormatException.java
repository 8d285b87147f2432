package dev.memplan.model.io;

import java.util.Objects;

/**
 * A file that a reader of this package does not understand (memory-model.md, "Files"): the message names
 * the file, the place and the problem, as {@code file: where: problem}.
 *
 * <p>{@link #where()} is {@code line 3, column 7} for JSON syntax errors, a JSON path such as
 * {@code $.operators[2].inputs[0]} for structural errors, and {@code line 5} or {@code line 5, column 'size'}
 * for CSV.
 */
public final class FormatException extends RuntimeException {
    private final String file;
    private final String where;
    private final String problem;

    public FormatException(String file, String where, String problem) {
        this(file, where, problem, null);
    }

    public FormatException(String file, String where, String problem, Throwable cause) {
        super(Objects.requireNonNull(file, "file") + ": " + Objects.requireNonNull(where, "where") + ": "
                + Objects.requireNonNull(problem, "problem"), cause);
        this.file = file;
        this.where = where;
        this.problem = problem;
    }

    /** The file name as given to the reader ({@code <string>} for text without a file). */
    public String file() {
        return file;
    }

    /** The place in the file: a line and column, a JSON path, or a CSV line and column name. */
    public String where() {
        return where;
    }

    /** The problem, without file and place. */
    public String problem() {
        return problem;
    }
}
