package dev.memplan.model;

import java.time.Duration;

/**
 * The settings of a Planner or Allocator call: threads, the relative gap at which an optimiser may stop, the
 * random seed (so that a run can be repeated), the run's {@link Budget} (the one place that holds wall time, work
 * and the stop flag) and where to report {@link Progress}. A step gives its sub-step {@link #child(double)} of
 * its budget; every other setting passes through unchanged.
 */
public record Limits(int threads, double relativeGap, long seed, Budget budget, Progress progress) {

    /** One thread, no gap, seed 0, no limit. Its budget is shared: never cancel it. */
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
        budget = budget == null ? Budget.unlimited() : budget;
        progress = progress == null ? Progress.NONE : progress;
    }

    /** With {@code wall} of wall time from now (null: no limit), no progress listener. */
    public Limits(Duration wall, int threads, double relativeGap, long seed) {
        this(threads, relativeGap, seed, Budget.ofWall(wall), null);
    }

    /** With {@code wall} of wall time from now (null: no limit), the other settings of {@link #DEFAULT}. */
    public static Limits ofWall(Duration wall) {
        return DEFAULT.withBudget(Budget.ofWall(wall));
    }

    /** Whether deterministic work governs the budget ({@link Budget#workMode()}). */
    public boolean workMode() {
        return budget.workMode();
    }

    /** True once the budget is stopped ({@link Budget#stopped()}). */
    public boolean stopped() {
        return budget.stopped();
    }

    /** The same settings with {@code share} of the budget left ({@link Budget#child(double)}). */
    public Limits child(double share) {
        return withBudget(budget.child(share));
    }

    /** The same settings with 1/{@code n} of the budget left ({@link Budget#part(int)}). */
    public Limits part(int n) {
        return withBudget(budget.part(n));
    }

    /** The same settings with a child of all that is left: a step's own counters, charged to the run. */
    public Limits child() {
        return withBudget(budget.child());
    }

    /** The same settings with at most {@code amount} of the governing quantity ({@link Budget#upTo(long)}). */
    public Limits upTo(long amount) {
        return withBudget(budget.upTo(amount));
    }

    /** Another budget, the rest the same. */
    public Limits withBudget(Budget value) {
        return new Limits(threads, relativeGap, seed, value, progress);
    }

    /** Another progress listener, the rest the same. */
    public Limits withProgress(Progress value) {
        return new Limits(threads, relativeGap, seed, budget, value);
    }
}
