package dev.memplan.model;

import java.time.Duration;

/**
 * What a Planner or Allocator may spend: wall time (null for none), threads, the relative gap at which an
 * optimiser may stop, the random seed (so that a run can be repeated), the {@link Deadline} of the whole
 * command, the deterministic {@link Work} budget (unlimited unless given), and where to report {@link Progress}.
 *
 * <p>{@link #timeLimit()} is what is left: the given limit, capped by the time to the deadline. Every step that
 * reads it when it starts (a solver call, a packing, a scheduler) therefore stays within the command's limit
 * without knowing about it. {@link #startingNow()} turns the relative limit into the deadline, so that the steps
 * of one planner share one clock.
 */
public record Limits(Duration timeLimit, int threads, double relativeGap, long seed, Deadline deadline, Work work,
                     Progress progress) {

    public static final Limits DEFAULT = new Limits(null, 1, 0.0, 0L);

    /**
     * The most threads any step may use: far above the cores of any machine memplan plans on, and low enough that
     * a mistyped count cannot make the native solvers fail (SCIP printed native errors at 100,000).
     */
    public static final int MAX_THREADS = 256;

    public Limits {
        if (threads < 1 || threads > MAX_THREADS) {
            throw new IllegalArgumentException("threads must be within 1.." + MAX_THREADS + ", got " + threads);
        }
        if (relativeGap < 0) {
            throw new IllegalArgumentException("relative gap must be >= 0, got " + relativeGap);
        }
        if (timeLimit != null && timeLimit.isNegative()) {
            throw new IllegalArgumentException("time limit must not be negative, got " + timeLimit);
        }
        deadline = deadline == null ? Deadline.NONE : deadline;
        work = work == null ? Work.unlimited() : work;
        progress = progress == null ? Progress.NONE : progress;
    }

    /** Without a deadline beyond the time limit, a work limit, or a progress listener. */
    public Limits(Duration timeLimit, int threads, double relativeGap, long seed) {
        this(timeLimit, threads, relativeGap, seed, Deadline.NONE);
    }

    /** Without a work limit or a progress listener. */
    public Limits(Duration timeLimit, int threads, double relativeGap, long seed, Deadline deadline) {
        this(timeLimit, threads, relativeGap, seed, deadline, null, null);
    }

    /**
     * Whether a deterministic work limit governs the run ({@link Work#isLimited()}). Then {@link #timeLimit()}
     * is measured in work units, read as deterministic seconds: every share a step takes of it is a share of work,
     * the same on a quiet or a loaded machine, and the {@link #deadline()} stays the outer guard of wall time.
     */
    public boolean workMode() {
        return work.isLimited();
    }

    /** The wall time to the deadline, whatever the mode; null without one. */
    public Duration wallLeft() {
        return deadline.remaining();
    }

    /**
     * The time left: the given limit capped by the deadline (zero once it passed); null when neither is set. In
     * {@link #workMode()}: the work left for this step in units read as seconds, the given limit capped by what
     * is left of the work budget; the deadline does not enter.
     */
    @Override
    public Duration timeLimit() {
        if (work.isLimited()) {
            double units = work.left();
            Duration left = Duration.ofNanos(Math.round(Math.min(units, 1e9) * 1e9));
            return timeLimit == null || left.compareTo(timeLimit) < 0 ? left : timeLimit;
        }
        Duration left = deadline.remaining();
        if (left == null) {
            return timeLimit;
        }
        return timeLimit == null || left.compareTo(timeLimit) < 0 ? left : timeLimit;
    }

    /** True once the deadline has passed (or the run was interrupted). */
    public boolean expired() {
        return deadline.expired() || (timeLimit != null && timeLimit.isZero()) || (work.isLimited() && work.exhausted());
    }

    /** Another time limit, the same deadline. */
    public Limits withTimeLimit(Duration value) {
        return new Limits(value, threads, relativeGap, seed, deadline, work, progress);
    }

    /** Another work budget, the rest the same. */
    public Limits withWork(Work value) {
        return new Limits(timeLimit, threads, relativeGap, seed, deadline, value, progress);
    }

    /** Another progress listener, the rest the same. */
    public Limits withProgress(Progress value) {
        return new Limits(timeLimit, threads, relativeGap, seed, deadline, work, value);
    }

    /** The time limit, from now on, as (the earlier of it and) the deadline. */
    public Limits startingNow() {
        Duration limit = timeLimit();
        if (work.isLimited()) {
            // A step's share of work: a child budget its sub-steps draw from, charged through to the root.
            return new Limits(limit, threads, relativeGap, seed, deadline, work.cap(limit.toNanos() / 1e9), progress);
        }
        return limit == null ? this : new Limits(limit, threads, relativeGap, seed,
                deadline.earlier(Deadline.after(limit)), work, progress);
    }
}
