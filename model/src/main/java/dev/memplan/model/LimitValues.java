package dev.memplan.model;

import java.time.Duration;
import java.util.Locale;

/**
 * The limits a user gives (a wall-time limit in seconds, a work limit in units, a thread count), checked in one
 * place for every command and sweep, and the way reports write them back. Every check throws an
 * {@link IllegalArgumentException} whose message names the place ({@code option}) and the rule.
 */
public final class LimitValues {
    /** The largest work limit: 1e9 units (about 30 years of counted work). */
    public static final double MAX_WORK_LIMIT = 1e9;

    /** Longer time limits are taken as this (about 146 years), so that a deadline in nanoseconds fits a long. */
    private static final double MAX_SECONDS = Long.MAX_VALUE / 1e9 / 2;

    private LimitValues() {
    }

    /**
     * A time limit given as {@code option} in seconds: null stays null (no limit); NaN, infinities, zero and
     * negative values are refused, since "NaN seconds" would silently mean "no time at all".
     */
    public static Duration wall(Double seconds, String option) {
        if (seconds == null) {
            return null;
        }
        if (!Double.isFinite(seconds) || seconds <= 0) {
            throw new IllegalArgumentException(option + " must be a positive number of seconds, got " + seconds);
        }
        return Duration.ofNanos(Math.max(1, Math.round(Math.min(seconds, MAX_SECONDS) * 1e9)));
    }

    /**
     * A work limit given as {@code option}: from a micro-unit ({@link Budget#MIN_WORK_LIMIT}, the resolution of the
     * work counters: a smaller limit would be counted as none at all) to {@link #MAX_WORK_LIMIT} units; null stays
     * null (not given).
     */
    public static Double work(Double units, String option) {
        if (units != null && !isWorkLimit(units)) {
            throw new IllegalArgumentException(option + " must be a number of work units from 0.000001 (the resolution"
                    + " of the work counters) to 1e9, got " + units);
        }
        return units;
    }

    /** Whether {@code units} is a work limit memplan can count: finite, from a micro-unit to 1e9. */
    public static boolean isWorkLimit(double units) {
        return Double.isFinite(units) && units >= Budget.MIN_WORK_LIMIT && units <= MAX_WORK_LIMIT;
    }

    /** A thread count given as {@code option}: 1..{@link Limits#MAX_THREADS}. */
    public static int threads(int n, String option) {
        if (n < 1 || n > Limits.MAX_THREADS) {
            throw new IllegalArgumentException(option + " must be within 1.." + Limits.MAX_THREADS + ", got " + n);
        }
        return n;
    }

    /** A budget from now: {@code work} units (null: none) with {@code wall} as their outer guard, or {@code wall} alone. */
    public static Budget budget(Double work, Duration wall) {
        return work != null ? Budget.ofWork(work, wall) : Budget.ofWall(wall);
    }

    /**
     * The budget of a command whose time limit {@code wall} bounds its whole wall time: {@link #budget} of what is
     * left of the limit since the command started at {@code startedNanos} (the JVM's start-up counts), less a margin
     * to check and write the result (a tenth of the limit, at most {@link Shares#WRITE_MARGIN_CAP}); without a time
     * limit, {@code budget(work, null)}.
     */
    public static Budget commandBudget(Double work, Duration wall, long startedNanos) {
        if (wall == null) {
            return budget(work, null);
        }
        Duration tenth = wall.dividedBy(Shares.WRITE_MARGIN_DIVISOR);
        Duration left = wall.minus(tenth.compareTo(Shares.WRITE_MARGIN_CAP) < 0 ? tenth : Shares.WRITE_MARGIN_CAP)
                .minusNanos(System.nanoTime() - startedNanos);
        return budget(work, left.isNegative() ? Duration.ZERO : left);
    }

    /** A work limit as the user typed it: 60, 0.5. */
    public static String units(double value) {
        return Objective.number(value);
    }

    /**
     * What a work-limited run used, for the report: the units used of the limit, and whether the wall-time guard
     * stopped the work early (then the result depends on the machine).
     */
    public static String workUsed(Budget work, double limit) {
        return String.format(Locale.ROOT, "%.2f of %s units%s", work.workUsed(), units(limit),
                work.wallStopped() ? " (" + Budget.WALL_CUT + ")" : " (counted work; the wall clock cut nothing short)");
    }

    /** Beside a status: " (the wall clock cut ...)" when it cut a work-limited run's counted work; else nothing. */
    public static String cut(Budget work) {
        return work.workMode() && work.wallStopped() ? " (" + Budget.WALL_CUT + ")" : "";
    }
}
