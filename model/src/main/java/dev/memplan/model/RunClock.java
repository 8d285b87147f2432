package dev.memplan.model;

import java.time.Duration;

/**
 * The budget of one run of a multi-step planner (the COSMA pipeline, divide and conquer): what has been spent since
 * it began and what each step may take, measured the same way whatever the mode. Under a work limit
 * ({@link Limits#workMode()}) it counts the run's deterministic work, read as seconds, so that every decision taken
 * from it is the same on a quiet or a loaded machine; otherwise it counts wall time. Every fraction it hands out is
 * one of the named {@link Shares}.
 */
public final class RunClock {

    private final long began;
    private final Duration limit;
    private final Limits limits;

    /** The fraction of the limit a search leaves for its last step (the final bound). */
    private final double reserve;

    /** In work mode: the work charged before the run began, so that the clock counts the run's own work. */
    private final long workAtStart;

    /**
     * @param limits the run's limits, as they are when it begins
     * @param reserve the fraction of the limit {@link #searchOver()} keeps back for the last step (0 for none)
     */
    public RunClock(Limits limits, double reserve) {
        this.began = System.nanoTime();
        this.limit = limits.timeLimit();
        this.limits = limits;
        this.reserve = reserve;
        this.workAtStart = limits.work().usedMicro();
    }

    /** Whether the shares are of deterministic work rather than of wall time. */
    public boolean work() {
        return limits.workMode();
    }

    /** Wall seconds since the run began (for reports: no decision reads it under a work limit). */
    public double wallSeconds() {
        return (System.nanoTime() - began) / 1e9;
    }

    /** Work units the run used so far; null when no work limit governs it. */
    public Double workUsed() {
        return work() ? (limits.work().usedMicro() - workAtStart) / 1e6 : null;
    }

    /** What the run has spent: its work read as seconds, or its wall time. */
    public Duration elapsed() {
        if (work()) {
            // Micro-units to nanoseconds.
            return Duration.ofNanos((limits.work().usedMicro() - workAtStart) * 1000);
        }
        return Duration.ofNanos(System.nanoTime() - began);
    }

    /** What is left before the end less the margin (wall time only: work has none); null without a limit. */
    public Duration left() {
        if (limit == null) {
            return null;
        }
        Duration d = (work() ? limit : limit.minus(Shares.MARGIN)).minus(elapsed());
        return d.isNegative() ? Duration.ZERO : d;
    }

    /** True once what is left is used up, the command's deadline passed or the run was interrupted. */
    public boolean over() {
        Duration d = left();
        return (d != null && d.isZero()) || limits.expired();
    }

    /** True once a search should stop: {@link #over()}, or into the reserve kept for the last step. */
    public boolean searchOver() {
        Duration d = left();
        return over() || (d != null && d.toMillis() < limit.toMillis() * reserve);
    }

    /** The run's limits with what is left as the time limit (at least a millisecond); unchanged without a limit. */
    public Limits limits() {
        Duration d = left();
        return d == null ? limits : limits.withTimeLimit(d.isZero() ? Duration.ofMillis(1) : d);
    }

    /** The run's limits with {@link Shares#EARLY_BOUND} of the limit (at most what is left); 2 s without one. */
    public Limits early() {
        Duration d = left();
        Duration share = limit == null ? Duration.ofSeconds(2)
                : Duration.ofMillis(Math.max(1, Math.round(limit.toMillis() * Shares.EARLY_BOUND)));
        if (d != null && d.compareTo(share) <= 0) {
            share = d.isZero() ? Duration.ofMillis(1) : d;
        }
        return limits.withTimeLimit(share);
    }

    /** The moment (from the start) at the fraction {@code f} of the limit; null without a limit. */
    public Duration fraction(double f) {
        return limit == null ? null : Duration.ofMillis(Math.round(limit.toMillis() * f));
    }

    /** The fraction {@code f} of what is left ({@link Shares#STEP_CAP} without a limit). */
    public Duration fractionOfRest(double f) {
        Duration d = left();
        return d == null ? Shares.STEP_CAP : Duration.ofMillis(Math.max(1, Math.round(d.toMillis() * f)));
    }

    /**
     * What a step of {@code size} of the {@code leftUnits} still to do may take until the moment {@code end}: its
     * proportional share of the time to it ({@link Shares#STEP_CAP} when there is no end).
     */
    public Duration shareUntil(Duration end, int size, int leftUnits) {
        if (end == null) {
            return Shares.STEP_CAP;
        }
        Duration d = end.minus(elapsed());
        long ms = d.isNegative() ? 1 : Math.max(1, d.toMillis() * size / Math.max(1, leftUnits));
        return Duration.ofMillis(ms);
    }

    /**
     * One search step: 1/{@link Shares#WINDOW_STEP_DIVISOR} of the limit at most, never into the reserve kept for the
     * last step (nor past the end). A step that took the reserve left the last step too little: PNASNet's final
     * live-bytes bound at M_R is 247,744 B with 4 units of work and 128,102 B with 2 (BENCHMARKS.md, session 13).
     */
    public Duration step() {
        Duration d = left();
        if (d == null) {
            return Shares.STEP_CAP;
        }
        long beforeReserve = d.toMillis() - Math.round(limit.toMillis() * reserve);
        Duration tenth = limit.dividedBy(Shares.WINDOW_STEP_DIVISOR);
        return Duration.ofMillis(Math.max(1, Math.min(beforeReserve, tenth.toMillis())));
    }

    /**
     * How long to wait in wall time for a step given {@code share} before abandoning it, never past the end; null
     * without a limit (wait for it). See {@link #patience(Limits, Duration)}.
     */
    public Duration hard(Duration share) {
        if (work()) {
            return limits.wallLeft();
        }
        Duration d = left();
        if (d == null) {
            return null;
        }
        Duration grace = patience(limits, share);
        return grace.compareTo(d) < 0 ? grace : d;
    }

    /**
     * How long to wait in wall time for a step run with {@code limits} and given {@code share}; null: wait for it.
     * Under a work limit a step stops at its work, so only the command's wall deadline (the outer guard) may cut
     * it short (an abandoned step would go on charging the shared work in the background). In wall mode a step
     * on a loaded machine can overrun its share by seconds: half as long again plus half a second.
     */
    public static Duration patience(Limits limits, Duration share) {
        if (limits.workMode()) {
            return limits.wallLeft();
        }
        return share == null ? null : share.plus(share.dividedBy(2)).plusMillis(500);
    }
}
