package dev.memplan.model;

/**
 * A graph that breaks a rule of the memory model. {@link #where()} locates the culprit in the graph's
 * own lists (e.g. {@code operators[3].inputs[1]}), which is also its JSON path in a memplan-graph/1 file.
 */
public final class InvalidGraphException extends IllegalArgumentException {
    private final String where;
    private final String problem;

    public InvalidGraphException(String where, String problem) {
        super(where.isEmpty() ? problem : where + ": " + problem);
        this.where = where;
        this.problem = problem;
    }

    /** The place in the graph, as a path relative to the graph's root; empty for the whole graph. */
    public String where() {
        return where;
    }

    /** The problem, without the place. */
    public String problem() {
        return problem;
    }
}
