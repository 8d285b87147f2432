package dev.memplan.sweeps;

/**
 * A user mistake in a sweep or a bench: a spec that breaks the schema (the message names the file, line and column),
 * a graph that does not exist, a budget below M_R, a database that cannot be opened, a bench count out of its
 * bounds. The command reports it in one line with exit code 2.
 */
public final class SweepException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public SweepException(String message) {
        super(message);
    }

    public SweepException(String message, Throwable cause) {
        super(message, cause);
    }
}
