package dev.memplan.model;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a run, and every step within it, may still spend: wall time and deterministic work kept as two quantities
 * ({@link #wallLeft()}, {@link #workLeft()}), and a stop flag ({@link #cancel()}, or Ctrl-C through
 * {@link #interrupt()}) that every step polls through {@link #stopped()}. Modelled on OR-Tools' {@code TimeLimit}
 * and {@code NestedTimeLimit} (ortools/util/time_limit.h): a step takes a {@link #child(double) child} of its
 * share, whose work is charged to every ancestor, whose wall end is never later than its parent's, and which is
 * stopped whenever an ancestor is.
 *
 * <p><b>Work</b> is counted in <em>work units</em> (deterministic seconds; one unit takes about a second on the
 * quiet reference machine, BENCHMARKS.md "Deterministic work limits", the work calibration) and kept as integer micro-units, so sums do not
 * depend on the order of charges. A solver back-end charges what it reports (CP-SAT's deterministic time, a node
 * count), memplan's own loops charge through a {@link Meter}. A budget is in <em>work mode</em> when it or an
 * ancestor has a finite work limit: then every share is a share of work, decided from limits and charges and never
 * from a clock, so the same input gives the same answer on a quiet or a loaded machine; the wall end stays the
 * outer guard, and a step it stops {@linkplain #markWallStop() says so}.
 *
 * <p><b>Shares</b> are cut in the quantity that governs the budget ({@link #left()}): nanoseconds of wall time,
 * or billionths of a work unit in work mode. The named shares are in {@link Shares}.
 *
 * <p>Every operation is O(depth) of the budget tree (a few levels). Thread-safe.
 */
public final class Budget {
    /** Micro-units per work unit: the resolution of every work counter. */
    public static final long MICRO = 1_000_000L;

    /**
     * The least work limit a command or a sweep accepts: one micro-unit, the resolution of every work counter (a
     * smaller limit would round to no work at all).
     */
    public static final double MIN_WORK_LIMIT = 1.0 / MICRO;

    /** No limit on a quantity (and {@link #left()} of a budget without any). */
    public static final long NONE = Long.MAX_VALUE;

    /**
     * What every report says, beside its status and work, of a work-limited run whose {@link #wallStopped()} is true.
     */
    public static final String WALL_CUT = "the wall clock cut counted work short: this result depends on the machine";

    private static volatile boolean interrupted;

    private final Budget parent;
    private final long wallEnd;
    private final long workCap;
    private final long began = System.nanoTime();
    private final AtomicLong used = new AtomicLong();
    private final AtomicBoolean cancelled = new AtomicBoolean();
    private final AtomicBoolean wallStopped = new AtomicBoolean();
    /** Stop requests of the solvers running under this tree (kept at the root). */
    private final List<Stopper> stoppers;
    private final long allotment;
    /** The root's thread and its CPU time when the root was made (for {@link #pace()}; -1: not measurable). */
    private final long paceThread;
    private final long paceCpu;

    private Budget(Budget parent, long wallEnd, long workCap) {
        this.parent = parent;
        this.wallEnd = wallEnd;
        this.workCap = workCap;
        this.stoppers = parent == null ? new CopyOnWriteArrayList<>() : parent.stoppers;
        this.allotment = left();
        this.paceThread = parent == null ? Thread.currentThread().getId() : parent.paceThread;
        this.paceCpu = parent == null ? threadCpu(paceThread) : parent.paceCpu;
    }

    /** No limit: only a stop request ends the work early; work is still counted for the report. */
    public static Budget unlimited() {
        return new Budget(null, NONE, NONE);
    }

    /** {@code wall} of wall time from now (null: no limit; saturating: centuries are no limit). */
    public static Budget ofWall(Duration wall) {
        return new Budget(null, wallEnd(wall), NONE);
    }

    /**
     * {@code units} (>= 0, infinity for none) of deterministic work, with {@code wall} from now as the outer guard
     * (null: none).
     */
    public static Budget ofWork(double units, Duration wall) {
        if (Double.isNaN(units) || units < 0) {
            throw new IllegalArgumentException("a work limit must be >= 0, got " + units);
        }
        return new Budget(null, wallEnd(wall), toMicro(units));
    }

    private static long wallEnd(Duration wall) {
        if (wall == null) {
            return NONE;
        }
        if (wall.isNegative()) {
            throw new IllegalArgumentException("a time limit must not be negative, got " + wall);
        }
        long nanos;
        try {
            nanos = wall.toNanos();
        } catch (ArithmeticException e) {
            return NONE;
        }
        long now = System.nanoTime();
        return nanos >= NONE - now ? NONE : now + nanos;
    }

    private static long toMicro(double units) {
        if (Double.isInfinite(units) || units * MICRO >= NONE) {
            return NONE;
        }
        return Math.round(units * MICRO);
    }

    /** Work micro-units as billionths of a unit (the work quantity of {@link #left()}), saturating at 1e9 units. */
    private static long workTicks(long micro) {
        return Math.round(Math.min(micro == NONE ? Double.POSITIVE_INFINITY : micro / (double) MICRO, 1e9) * 1e9);
    }

    // ---- the two quantities

    /** Whether a finite work limit governs this budget (its own or an ancestor's). */
    public boolean workMode() {
        for (Budget b = this; b != null; b = b.parent) {
            if (b.workCap != NONE) {
                return true;
            }
        }
        return false;
    }

    /** Wall time left, never negative, zero once stopped by request; null without a wall limit. */
    public Duration wallLeft() {
        if (requested()) {
            return Duration.ZERO;
        }
        if (wallEnd == NONE) {
            return null;
        }
        return Duration.ofNanos(Math.max(0, wallEnd - System.nanoTime()));
    }

    /**
     * Work units left here, the least over this budget and its ancestors, at the resolution of {@link #left()}
     * (billionths of a unit, at most 1e9 units); infinity without a work limit.
     */
    public double workLeft() {
        long m = workLeftMicro();
        return m == NONE ? Double.POSITIVE_INFINITY : workTicks(m) / 1e9;
    }

    /** {@link #workLeft()} in micro-units ({@link #NONE} without a limit). */
    public long workLeftMicro() {
        long left = NONE;
        for (Budget b = this; b != null; b = b.parent) {
            if (b.workCap != NONE) {
                left = Math.min(left, Math.max(0, b.workCap - b.used.get()));
            }
        }
        return left;
    }

    /** Work units charged here (by this step and its children). */
    public double workUsed() {
        return used.get() / (double) MICRO;
    }

    /** {@link #workUsed()} in micro-units (exact). */
    public long workUsedMicro() {
        return used.get();
    }

    /** Wall seconds since this budget was made (for reports: no decision reads it in work mode). */
    public double wallSeconds() {
        return (System.nanoTime() - began) / 1e9;
    }

    // ---- the governing quantity, in which shares are cut

    /** Whether any limit governs: work, or else wall time. */
    public boolean limited() {
        return workMode() || wallEnd != NONE;
    }

    /** What is left in the governing quantity: work in billionths of a unit, else wall nanoseconds; NONE without. */
    public long left() {
        if (workMode()) {
            return workTicks(workLeftMicro());
        }
        if (wallEnd == NONE) {
            return NONE;
        }
        return requested() ? 0 : Math.max(0, wallEnd - System.nanoTime());
    }

    /** What this budget had when it was made, in the governing quantity ({@link #NONE} without a limit). */
    public long allotment() {
        return allotment;
    }

    /** What this budget has spent since it was made, in the governing quantity. */
    public long spent() {
        return workMode() ? used.get() * 1000 : System.nanoTime() - began;
    }

    // ---- the machine's pace (wall-time estimates only)

    /** Wall time a root budget runs before its {@link #pace()} is read; before it the pace is 1. */
    static final long PACE_AFTER_NANOS = 250_000_000L;

    /** The most {@link #pace()} scales a quiet estimate by. */
    public static final double PACE_CAP = 6;

    /**
     * How many times slower than on a quiet machine this run's wall clock runs: the wall time since the root
     * budget was made over the CPU time the thread that made it had in that time, within 1..{@link #PACE_CAP}
     * (1 before {@link #PACE_AFTER_NANOS}, or where the JVM does not measure a thread's CPU time). A command's
     * thread does its work itself (the solvers run on it through JNI), so on a machine whose other processes take
     * two thirds of the cores the pace is about 3: a step measured at a second quiet then takes three. Read only for
     * wall-time estimates ({@link #paced}); no decision in work mode reads it.
     */
    public double pace() {
        Budget root = this;
        while (root.parent != null) {
            root = root.parent;
        }
        long wall = System.nanoTime() - root.began;
        long cpu = threadCpu(paceThread);
        if (wall < PACE_AFTER_NANOS || paceCpu < 0 || cpu < 0) {
            return 1;
        }
        return Math.max(1, Math.min(PACE_CAP, wall / (double) Math.max(1, cpu - paceCpu)));
    }

    /**
     * What a step that takes {@code quietNanos} of wall time on a quiet machine needs of {@link #left()} now: in
     * work mode {@code quietNanos} itself (a work unit is about a quiet second, and no share may read the clock),
     * else {@code quietNanos} times {@link #pace()}.
     */
    public long paced(long quietNanos) {
        if (workMode() || wallEnd == NONE) {
            return quietNanos;
        }
        double nanos = quietNanos * pace();
        return nanos >= NONE ? NONE : Math.round(nanos);
    }

    /**
     * What a replacement scheme's plan on {@code operators} operators needs of {@link #left()} before it starts:
     * twice {@link Shares#SCHEME_NANOS_PER_OPERATOR} per operator, {@linkplain #paced paced}.
     */
    public long schemeNeeds(int operators) {
        return paced(2 * Shares.SCHEME_NANOS_PER_OPERATOR * operators);
    }

    private static long threadCpu(long thread) {
        try {
            ThreadMXBean mx = ManagementFactory.getThreadMXBean();
            return mx.isThreadCpuTimeSupported() && mx.isThreadCpuTimeEnabled() ? mx.getThreadCpuTime(thread) : -1;
        } catch (UnsupportedOperationException | SecurityException e) {
            return -1;
        }
    }

    // ---- children

    /**
     * A step's slice: {@code share} (0..1) of what is left now; without any limit, {@link Shares#STEP_CAP} of wall
     * time.
     */
    public Budget child(double share) {
        if (!(share >= 0 && share <= 1)) {
            throw new IllegalArgumentException("a share must be within 0..1, got " + share);
        }
        long left = left();
        return upTo(left == NONE ? Shares.STEP_CAP.toNanos() : Math.round(left * share));
    }

    /** A step's slice: 1/{@code n} of what is left now; without any limit, {@link Shares#STEP_CAP} of wall time. */
    public Budget part(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("a part must be 1/n for n >= 1, got " + n);
        }
        long left = left();
        return upTo(left == NONE ? Shares.STEP_CAP.toNanos() : left / n);
    }

    /**
     * A child of 1/{@code n} of the work left, floored to the micro-unit (two halves of a search never take more
     * than the whole); without a work limit, a child with what is left.
     */
    public Budget splitWork(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("a split must be 1/n for n >= 1, got " + n);
        }
        long left = workLeftMicro();
        return new Budget(this, wallEnd, left == NONE ? NONE : left / n);
    }

    /** A child with everything that is left here: its own clock and counters, charged to this budget. */
    public Budget child() {
        return upTo(NONE);
    }

    /**
     * A child of at most {@code amount} of the governing quantity ({@link #left()}'s terms; NONE: what is left).
     * In work mode its work is capped and its wall end is this one's; else its wall end is {@code amount} from now.
     */
    public Budget upTo(long amount) {
        if (amount < 0) {
            throw new IllegalArgumentException("an amount must be >= 0, got " + amount);
        }
        if (workMode()) {
            long cap = Math.min(amount, left());
            return new Budget(this, wallEnd, toMicro(cap / 1e9));
        }
        long now = System.nanoTime();
        long end = amount >= NONE - now ? NONE : now + amount;
        return new Budget(this, Math.min(wallEnd, end), NONE);
    }

    /** A child whose wall end is at most {@code wall} from now (null: this one's), the work the same. */
    public Budget wallAtMost(Duration wall) {
        return new Budget(this, Math.min(wallEnd, wallEnd(wall)), NONE);
    }

    // ---- charging

    /** Charges {@code units} (>= 0) of work here and to every ancestor; returns whether work is left afterwards. */
    public boolean charge(double units) {
        return chargeMicro(toMicro(Math.max(0, units)));
    }

    /** Charges {@code micro} micro-units here and to every ancestor; returns whether work is left afterwards. */
    public boolean chargeMicro(long micro) {
        if (micro < 0) {
            throw new IllegalArgumentException("a charge must be >= 0, got " + micro);
        }
        for (Budget b = this; b != null; b = b.parent) {
            b.used.accumulateAndGet(micro, Budget::saturatingAdd);
        }
        return workLeftMicro() != 0;
    }

    private static long saturatingAdd(long a, long b) {
        long s = a + b;
        return s < 0 ? NONE : s;
    }

    /** A meter for a loop of memplan's own that charges its steps here at {@code stepsPerUnit} to the unit. */
    public Meter meter(long stepsPerUnit) {
        return new Meter(this, stepsPerUnit);
    }

    /**
     * Records that a step charged here was stopped, or skipped, by wall time (the outer guard) or Ctrl-C, not by its
     * work: its result then depends on the machine. Seen by every ancestor. {@link #stopped()} and
     * {@link #wallOver()} call it themselves; a step that hands the wall time to a native solver calls it when the
     * solver reports stopping at that time.
     */
    public void markWallStop() {
        if (!workMode()) {
            // Without a work limit every stop is the clock's: there is nothing to tell apart.
            return;
        }
        for (Budget b = this; b != null; b = b.parent) {
            b.wallStopped.set(true);
        }
    }

    /**
     * Whether some step charged here was stopped or skipped by wall time (or Ctrl-C) rather than by work: the one
     * answer behind a report's work row and status line and a sweep row's {@code reproducible}.
     */
    public boolean wallStopped() {
        return wallStopped.get();
    }

    // ---- the stop flag

    /**
     * True once a stop was requested, the wall end passed, or (in work mode) the work is spent. A step that polls
     * this and stops on a true answer has been cut by whatever made it true: when that is the clock or Ctrl-C
     * rather than the work, the budget {@linkplain #markWallStop() records it}, so that every report of the run
     * reads one flag ({@link #wallStopped()}) instead of each step remembering to set it.
     */
    public boolean stopped() {
        return workLeftMicro() == 0 || wallOver();
    }

    /**
     * True once the wall end passed or a stop was requested (the outer guard in work mode). In work mode a true
     * answer from the clock or Ctrl-C (not from a {@link #cancel()} within the run) {@linkplain #markWallStop()
     * marks the budget}: the step that asked stops, or skips, for a reason the machine decided.
     */
    public boolean wallOver() {
        if (interrupted || (wallEnd != NONE && System.nanoTime() - wallEnd >= 0)) {
            markWallStop();
            return true;
        }
        return requested();
    }

    /** Whether this budget or an ancestor was {@linkplain #cancel() cancelled}, or the run interrupted. */
    public boolean requested() {
        if (interrupted) {
            return true;
        }
        for (Budget b = this; b != null; b = b.parent) {
            if (b.cancelled.get()) {
                return true;
            }
        }
        return false;
    }

    /** Stops this budget and its children: the flag their loops poll, and the solvers registered under them. */
    public void cancel() {
        cancelled.set(true);
        for (Stopper s : stoppers) {
            if (s.budget.requested()) {
                s.stop.run();
            }
        }
    }

    /**
     * Registers the stop request of a solver running under this budget (CP-SAT's {@code stopSearch}), run when this
     * budget or an ancestor is cancelled, until the registration is closed.
     */
    public Registration onStop(Runnable stop) {
        Stopper s = new Stopper(this, stop);
        stoppers.add(s);
        if (requested()) {
            stop.run();
        }
        return () -> stoppers.remove(s);
    }

    /** An open {@link #onStop(Runnable)} registration. */
    @FunctionalInterface
    public interface Registration extends AutoCloseable {
        @Override
        void close();
    }

    private record Stopper(Budget budget, Runnable stop) {
    }

    /**
     * Marks the run interrupted (the first Ctrl-C): from now on every budget is stopped. Only a command's signal
     * handler calls this; there is no way back within the process.
     */
    public static void interrupt() {
        interrupted = true;
    }

    /** Whether {@link #interrupt()} was called. */
    public static boolean interrupted() {
        return interrupted;
    }

    /** Why a step was stopped, in words for a note. */
    public String whyStopped() {
        return requested() ? "interrupted" : "no time left within the limit";
    }

    @Override
    public String toString() {
        Duration wall = wallLeft();
        String w = wall == null ? "no wall limit" : "wall " + wall.toMillis() + " ms left";
        return workMode() ? String.format(Locale.ROOT, "work %.3f used, %.3f left; %s", workUsed(), workLeft(), w)
                : String.format(Locale.ROOT, "work %.3f used (no limit); %s", workUsed(), w);
    }

    /**
     * Counts the steps of one loop and charges them in batches (a charge touches every ancestor's counter, so
     * charging each step would cost more than many steps). Not thread-safe: one meter per thread.
     */
    public static final class Meter {
        private static final long BATCH = 1024;
        private final Budget budget;
        private final long stepsPerUnit;
        private long steps;
        private long flushedSteps;
        private long charged;

        private Meter(Budget budget, long stepsPerUnit) {
            if (stepsPerUnit < 1) {
                throw new IllegalArgumentException("steps per unit must be >= 1, got " + stepsPerUnit);
            }
            this.budget = budget;
            this.stepsPerUnit = stepsPerUnit;
        }

        /** Counts {@code n} steps; returns false once the work is spent (checked every batch of steps). */
        public boolean step(long n) {
            steps += n;
            return steps - flushedSteps < BATCH || flush();
        }

        /** Counts one step; returns false once the work is spent. */
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
                total = NONE;
            }
            long delta = total - charged;
            charged = total;
            return budget.chargeMicro(delta);
        }

        /** All steps counted so far. */
        public long steps() {
            return steps;
        }
    }
}
