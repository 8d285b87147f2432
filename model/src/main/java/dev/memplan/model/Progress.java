package dev.memplan.model;

/**
 * Where long work reports how far it got. Library code never prints: it reports here, and the command line
 * decides how to show it (one self-updating line, or a heartbeat line every few seconds). A listener must be
 * cheap and must not throw; it may be called from several threads.
 */
@FunctionalInterface
public interface Progress {

    /** Reports nothing. */
    Progress NONE = event -> { };

    void report(Event event);

    /** Reports {@code step} with {@code detail} and no count. */
    default void report(String step, String detail) {
        report(new Event(step, detail, -1, -1));
    }

    /** Reports {@code done} of {@code total} items of {@code step} (total -1 when unknown). */
    default void report(String step, String detail, long done, long total) {
        report(new Event(step, detail, done, total));
    }

    /**
     * One report: the step (e.g. "parts", "windows", "bound", "M_P"), what it is doing in words, and how many of
     * how many items are done (-1 when there is no count).
     */
    record Event(String step, String detail, long done, long total) {
    }
}
