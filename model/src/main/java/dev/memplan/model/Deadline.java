package dev.memplan.model;

import java.time.Duration;

/**
 * A point in wall time (the monotonic clock) by which a whole command must be done, so that a time limit bounds
 * the command and not each step: every step, sub-step, model build and solver call is given what is left. A
 * deadline also passes once the run is {@linkplain #interrupt() interrupted} (Ctrl-C), so the same checks that
 * honour the limit stop the work and return the best checked plan so far.
 */
public final class Deadline {
    /** No deadline: only an interrupt ends the work early. */
    public static final Deadline NONE = new Deadline(Long.MAX_VALUE);

    private static volatile boolean interrupted;

    private final long at;

    private Deadline(long at) {
        this.at = at;
    }

    /** The deadline {@code limit} from now (saturating: a limit of centuries is no deadline). */
    public static Deadline after(Duration limit) {
        long nanos;
        try {
            nanos = limit.toNanos();
        } catch (ArithmeticException e) {
            return NONE;
        }
        long now = System.nanoTime();
        return nanos >= Long.MAX_VALUE - now ? NONE : new Deadline(now + Math.max(0, nanos));
    }

    /** Whether this deadline is a real one (not {@link #NONE}). */
    public boolean isSet() {
        return at != Long.MAX_VALUE;
    }

    /** The time left, never negative; zero once interrupted; null when no deadline is set. */
    public Duration remaining() {
        if (interrupted) {
            return Duration.ZERO;
        }
        if (!isSet()) {
            return null;
        }
        return Duration.ofNanos(Math.max(0, at - System.nanoTime()));
    }

    /** True once the deadline has passed or the run was interrupted. */
    public boolean expired() {
        return interrupted || (isSet() && System.nanoTime() >= at);
    }

    /** The earlier of this and {@code other}. */
    public Deadline earlier(Deadline other) {
        return other == null || at <= other.at ? this : other;
    }

    /**
     * Marks the run interrupted (the first Ctrl-C): from now on every deadline has passed. Only a command's signal
     * handler calls this; there is no way back within the process.
     */
    public static void interrupt() {
        interrupted = true;
    }

    /** Whether {@link #interrupt()} was called. */
    public static boolean interrupted() {
        return interrupted;
    }

    @Override
    public String toString() {
        Duration left = remaining();
        return left == null ? "no deadline" : "deadline in " + left.toMillis() + " ms";
    }
}
