package dev.memplan.decomposition;

/**
 * What one step of divide and conquer (or of the pipeline's recompute step) did: its name, whether it ran, the best
 * checked traffic and the lower bound known after it (null: none yet), what it spent (wall seconds; work units under
 * a work limit, else null) and a note in words (why it was skipped, what it found; null for none).
 * A table or a test reads these instead of the progress lines.
 */
public record StepReport(String name, Status status, Long traffic, Long bound, double seconds, Double work,
                         String note) {

    /** A step without a note. */
    public StepReport(String name, Status status, Long traffic, Long bound, double seconds, Double work) {
        this(name, status, traffic, bound, seconds, work, null);
    }

    /** Whether a step ran. */
    public enum Status {
        /** It ran to its end. */
        DONE,
        /** It did not apply (a starting plan already met the bound, one part only, windows off, ...). */
        SKIPPED,
        /** The budget ran out during it: the steps after it keep the best checked plan so far. */
        OUT_OF_BUDGET
    }
}
