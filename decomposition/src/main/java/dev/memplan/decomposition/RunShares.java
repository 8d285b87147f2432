package dev.memplan.decomposition;

import dev.memplan.model.Budget;
import dev.memplan.model.Limits;
import dev.memplan.model.Shares;

/**
 * How divide and conquer cuts its run's {@link Budget} into steps: what the run has spent since it began and what
 * each step may take, in the budget's governing quantity ({@link Budget#left()}: work in billionths of a unit under
 * a work limit, so that every decision taken here is the same on a quiet or a loaded machine; wall nanoseconds
 * otherwise). Every fraction is one of the named {@link Shares}. Shares are cut at millisecond resolution (a
 * thousandth of a unit under a work limit), as they have been since the shares were first measured, so that the
 * deterministic runs keep their numbers. Each method is O(1).
 */
final class RunShares {
    private static final long MILLI = 1_000_000L;

    private final Limits limits;
    private final Budget budget;
    private final long limit;
    private final long began;
    private final long workAtStart;
    /** The fraction of the limit a search leaves for its last step (the final bound). */
    private final double reserve;

    /**
     * @param limits the run's limits, as they are when it begins
     * @param reserve the fraction of the limit {@link #searchOver()} keeps back for the last step (0 for none)
     */
    RunShares(Limits limits, double reserve) {
        this.limits = limits;
        this.budget = limits.budget();
        this.began = System.nanoTime();
        this.limit = budget.left();
        this.workAtStart = budget.workUsedMicro();
        this.reserve = reserve;
    }

    private boolean limited() {
        return limit != Budget.NONE;
    }

    /** Whether the shares are of deterministic work rather than of wall time. */
    boolean work() {
        return budget.workMode();
    }

    /** The run's limits. */
    Limits limits() {
        return limits;
    }

    /** Wall seconds since the run began (for reports: no decision reads it under a work limit). */
    double wallSeconds() {
        return (System.nanoTime() - began) / 1e9;
    }

    /** Work units the run used so far; null when no work limit governs it. */
    Double workUsed() {
        return work() ? (budget.workUsedMicro() - workAtStart) / 1e6 : null;
    }

    /** What the run has spent: its work (billionths of a unit), or its wall nanoseconds. */
    long elapsed() {
        return work() ? (budget.workUsedMicro() - workAtStart) * 1000 : System.nanoTime() - began;
    }

    /** What is left before the end less the margin (wall time only: work has none); NONE without a limit. */
    long left() {
        if (!limited()) {
            return Budget.NONE;
        }
        long d = (work() ? limit : limit - Shares.MARGIN.toNanos()) - elapsed();
        return Math.max(0, d);
    }

    /** True once what is left is used up, or the budget is stopped (its end, or a stop request). */
    boolean over() {
        return (limited() && left() == 0) || budget.stopped();
    }

    /** True once a search should stop: {@link #over()}, or into the reserve kept for the last step. */
    boolean searchOver() {
        return over() || (limited() && left() / MILLI < limit / MILLI * reserve);
    }

    /** The run's limits with what is left (at least a millisecond); unchanged without a limit. */
    Limits rest() {
        if (!limited()) {
            return limits;
        }
        long d = left();
        return limits.upTo(d == 0 ? MILLI : d);
    }

    /** The run's limits for a step of {@code amount} (of the governing quantity). */
    Limits step(long amount) {
        return limits.upTo(amount);
    }

    /** The run's limits with {@link Shares#EARLY_BOUND} of the limit (at most what is left); 2 s without one. */
    Limits early() {
        long share = !limited() ? Shares.EARLY_BOUND_CAP.toNanos()
                : Math.max(1, Math.round(limit / MILLI * Shares.EARLY_BOUND)) * MILLI;
        long d = left();
        if (limited() && d <= share) {
            share = d == 0 ? MILLI : d;
        }
        return limits.upTo(share);
    }

    /** The moment (from the start) at the fraction {@code f} of the limit; NONE without a limit. */
    long fraction(double f) {
        return limited() ? Math.round(limit / MILLI * f) * MILLI : Budget.NONE;
    }

    /** The fraction {@code f} of what is left ({@link Shares#STEP_CAP} without a limit). */
    long fractionOfRest(double f) {
        return limited() ? Math.max(1, Math.round(left() / MILLI * f)) * MILLI : Shares.STEP_CAP.toNanos();
    }

    /**
     * What a step of {@code size} of the {@code leftUnits} still to do may take until the moment {@code end}: its
     * proportional share of the time to it ({@link Shares#STEP_CAP} when there is no end).
     */
    long shareUntil(long end, int size, int leftUnits) {
        if (end == Budget.NONE) {
            return Shares.STEP_CAP.toNanos();
        }
        long d = end - elapsed();
        return (d < 0 ? 1 : Math.max(1, d / MILLI * size / Math.max(1, leftUnits))) * MILLI;
    }

    /**
     * One search step: 1/{@link Shares#WINDOW_STEP_DIVISOR} of the limit at most, never into the reserve kept for the
     * last step (nor past the end): a step that took the reserve left the final bound too little (BENCHMARKS.md,
     * "Divide and conquer").
     */
    long step() {
        if (!limited()) {
            return Shares.STEP_CAP.toNanos();
        }
        long beforeReserve = left() / MILLI - Math.round(limit / MILLI * reserve);
        long tenth = limit / Shares.WINDOW_STEP_DIVISOR / MILLI;
        return Math.max(1, Math.min(beforeReserve, tenth)) * MILLI;
    }
}
