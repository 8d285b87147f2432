package dev.memplan.model;

/**
 * A command's wall clock over the steps that come before any result can exist (reading, generating and converting
 * the graph or the buffers): while a guard is open on a thread, the long loops of those steps on that thread poll
 * its {@link Budget} every {@link #EVERY} items ({@link #poll(String)}) and throw {@link TimeUpException} once the
 * budget's wall time is up or a stop is requested. The command then says so in one line and ends with nothing, so
 * that a time limit holds however large the input is. Scoped like the model builds' guard (one per thread), so the
 * graph's constructor and the generators need no budget parameter; without an open guard a poll does nothing.
 */
public final class ClockGuard implements AutoCloseable {
    /** Items between two polls (a poll reads the clock). */
    public static final int EVERY = 4096;

    private static final ThreadLocal<ClockGuard> CURRENT = new ThreadLocal<>();

    private final ClockGuard previous;
    private final Budget budget;

    private ClockGuard(ClockGuard previous, Budget budget) {
        this.previous = previous;
        this.budget = budget;
    }

    /** Opens a guard on this thread until {@link #close()}. */
    public static ClockGuard until(Budget budget) {
        ClockGuard guard = new ClockGuard(CURRENT.get(), budget);
        CURRENT.set(guard);
        return guard;
    }

    /**
     * Throws {@link TimeUpException} naming {@code what} (the step under way, e.g. "building the graph") when the
     * guard open on this thread, or one around it, is over; nothing without a guard.
     */
    public static void poll(String what) {
        for (ClockGuard g = CURRENT.get(); g != null; g = g.previous) {
            if (g.budget.wallOver()) {
                throw new TimeUpException(what, g.budget.requested());
            }
        }
    }

    /**
     * As {@link #poll(String)} when {@code item} is a positive multiple of {@link #EVERY}: the call for a loop's
     * counter. A step of fewer items never polls, so a small input is read whatever the limit (it takes less than
     * the margin a command keeps).
     */
    public static void poll(long item, String what) {
        if (item > 0 && item % EVERY == 0) {
            poll(what);
        }
    }

    @Override
    public void close() {
        if (previous == null) {
            CURRENT.remove();
        } else {
            CURRENT.set(previous);
        }
    }

    /** The clock ran out (or a stop was requested) before a step that every result needs was done. */
    public static final class TimeUpException extends RuntimeException {
        private final boolean interrupted;

        TimeUpException(String what, boolean interrupted) {
            super((interrupted ? "interrupted" : "the time limit ran out") + " while " + what);
            this.interrupted = interrupted;
        }

        /** Whether a stop request (Ctrl-C), not the clock, ended the step. */
        public boolean interrupted() {
            return interrupted;
        }
    }
}
