package dev.memplan.model;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A deterministic work budget: what a search may spend, counted without a clock, so that the same input and the
 * same budget give the same answer on a quiet or a loaded machine.
 *
 * <p>Work is measured in <em>work units</em> ("deterministic seconds"): each counter is calibrated so that one
 * unit takes about one second on a quiet 2-core machine (BENCHMARKS.md, "Work calibration"). A solver back-end
 * charges what it reports (CP-SAT's deterministic time, a node or iteration count of SCIP, CBC or HiGHS) and
 * memplan's own loops charge their steps through a {@link Meter} with their own steps-per-unit rate.
 *
 * <p>A budget is a tree: {@link #share(double)} and {@link #cap(double)} make a child whose charges also reach
 * every ancestor; a child is exhausted when its own limit or any ancestor's is spent. Shares are decided from the
 * limits and from what was charged before, never from a clock, so a child's size is the same on every run as long
 * as the work charged before it was. Work charged concurrently by several threads reaches the same totals, but a
 * decision taken while another thread is still charging is not deterministic: give concurrent steps children of
 * fixed size, taken before they start.
 *
 * <p>Amounts are kept as integer micro-units, so sums do not depend on the order of charges.
 */
public final class Work {
    /** Micro-units per unit: the resolution of every counter. */
    public static final long MICRO = 1_000_000L;

    /** No limit; charges are still counted so that the work used can be reported. */
    public static Work unlimited() {
        return new Work(null, Long.MAX_VALUE);
    }

    /** A budget of {@code units} work units (>= 0; infinity for none). */
    public static Work of(double units) {
        if (Double.isNaN(units) || units < 0) {
            throw new IllegalArgumentException("a work limit must be >= 0, got " + units);
        }
        return new Work(null, toMicro(units));
    }

    private final Work parent;
    private final long limit;
    private final AtomicLong used = new AtomicLong();
    private final java.util.concurrent.atomic.AtomicBoolean wallStopped = new java.util.concurrent.atomic.AtomicBoolean();

    private Work(Work parent, long limit) {
        this.parent = parent;
        this.limit = limit;
    }

    private static long toMicro(double units) {
        if (Double.isInfinite(units) || units * MICRO >= Long.MAX_VALUE) {
            return Long.MAX_VALUE;
        }
        return Math.round(units * MICRO);
    }

    private static double toUnits(long micro) {
        return micro == Long.MAX_VALUE ? Double.POSITIVE_INFINITY : micro / (double) MICRO;
    }

    /**
     * Records that a step charged here was stopped by wall time (the outer guard), not by its work: the result
     * then depends on the machine. Seen by every ancestor.
     */
    public void markWallStop() {
        for (Work w = this; w != null; w = w.parent) {
            w.wallStopped.set(true);
        }
    }

    /** Whether some step charged here was stopped by wall time rather than by work. */
    public boolean wallStopped() {
        return wallStopped.get();
    }

    /** Whether this budget or an ancestor has a finite limit. */
    public boolean isLimited() {
        for (Work w = this; w != null; w = w.parent) {
            if (w.limit != Long.MAX_VALUE) {
                return true;
            }
        }
        return false;
    }

    /** This budget's own limit in units (infinity for none); an ancestor may have less left. */
    public double limit() {
        return toUnits(limit);
    }

    /** The units charged to this budget and its children. */
    public double used() {
        return toUnits(used.get());
    }

    /** The units charged, in micro-units (exact). */
    public long usedMicro() {
        return used.get();
    }

    /** What is left here, the least over this budget and its ancestors, in units (infinity for none). */
    public double left() {
        return toUnits(leftMicro());
    }

    /** What is left, in micro-units ({@link Long#MAX_VALUE} for no limit). */
    public long leftMicro() {
        long left = Long.MAX_VALUE;
        for (Work w = this; w != null; w = w.parent) {
            if (w.limit != Long.MAX_VALUE) {
                left = Math.min(left, Math.max(0, w.limit - w.used.get()));
            }
        }
        return left;
    }

    /** True once this budget or an ancestor is spent. */
    public boolean exhausted() {
        return leftMicro() == 0;
    }

    /** Charges {@code units} (>= 0) here and to every ancestor; returns whether work is left afterwards. */
    public boolean charge(double units) {
        return chargeMicro(toMicro(Math.max(0, units)));
    }

    /** Charges {@code micro} micro-units here and to every ancestor; returns whether work is left afterwards. */
    public boolean chargeMicro(long micro) {
        if (micro < 0) {
            throw new IllegalArgumentException("a charge must be >= 0, got " + micro);
        }
        for (Work w = this; w != null; w = w.parent) {
            w.used.accumulateAndGet(micro, Work::saturatingAdd);
        }
        return !exhausted();
    }

    private static long saturatingAdd(long a, long b) {
        long s = a + b;
        return s < 0 ? Long.MAX_VALUE : s;
    }

    /**
     * A child budget of {@code fraction} (0..1) of what is left here now (of nothing when unlimited: the child is
     * unlimited too). Its charges reach this budget.
     */
    public Work share(double fraction) {
        if (!(fraction >= 0 && fraction <= 1)) {
            throw new IllegalArgumentException("a share must be within 0..1, got " + fraction);
        }
        long left = leftMicro();
        return new Work(this, left == Long.MAX_VALUE ? Long.MAX_VALUE : (long) Math.floor(left * fraction));
    }

    /** A child budget of at most {@code units} (infinity: whatever is left here). Its charges reach this budget. */
    public Work cap(double units) {
        if (Double.isNaN(units) || units < 0) {
            throw new IllegalArgumentException("a work cap must be >= 0, got " + units);
        }
        return new Work(this, toMicro(units));
    }

    /**
     * A meter for a loop of memplan's own that charges its steps at {@code stepsPerUnit} steps to the unit,
     * calibrated so that a unit takes about a second on the reference machine.
     */
    public Meter meter(long stepsPerUnit) {
        return new Meter(this, stepsPerUnit);
    }

    @Override
    public String toString() {
        return isLimited() ? String.format(java.util.Locale.ROOT, "work %.3f of %.3f", used(), limit())
                : String.format(java.util.Locale.ROOT, "work %.3f (no limit)", used());
    }

    /**
     * Counts the steps of one loop and charges them to a budget in batches (a charge touches every ancestor's
     * counter, so charging each step would cost more than many steps). Not thread-safe: one meter per thread.
     */
    public static final class Meter {
        private static final long BATCH = 1024;
        private final Work work;
        private final long stepsPerUnit;
        private long steps;
        private long flushedSteps;
        private long charged;

        private Meter(Work work, long stepsPerUnit) {
            if (stepsPerUnit < 1) {
                throw new IllegalArgumentException("steps per unit must be >= 1, got " + stepsPerUnit);
            }
            this.work = work;
            this.stepsPerUnit = stepsPerUnit;
        }

        /** Counts {@code n} steps; returns false once the budget is spent (checked every batch of steps). */
        public boolean step(long n) {
            steps += n;
            return steps - flushedSteps < BATCH || flush();
        }

        /** Counts one step; returns false once the budget is spent. */
        public boolean step() {
            return step(1);
        }

        /**
         * Charges the steps counted since the last flush and returns whether work is left. The total charged is
         * always floor(steps * MICRO / stepsPerUnit), however the steps were batched.
         */
        public boolean flush() {
            flushedSteps = steps;
            long total;
            try {
                total = Math.multiplyExact(steps, MICRO) / stepsPerUnit;
            } catch (ArithmeticException e) {
                total = Long.MAX_VALUE;
            }
            long delta = total - charged;
            charged = total;
            return work.chargeMicro(delta);
        }

        /** All steps counted so far. */
        public long steps() {
            return steps;
        }
    }
}
