package dev.memplan.baselines.allocation;

import dev.memplan.model.Allocation;
import dev.memplan.model.BufferChecker;
import dev.memplan.model.BufferSet;
import dev.memplan.model.LimitValues;
import dev.memplan.model.Limits;
import dev.memplan.model.SolveStatus;
import java.time.Duration;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * One run of an allocator on a buffer set ({@code memplan allocate}): the allocator by name ({@link Allocators#NAMES}),
 * packing into a capacity or minimising the height, under one budget counted from the command's start (reading or
 * generating the buffers is in it).
 *
 * @param timeLimit seconds, null for none
 * @param workLimit work units, null for none
 */
public record AllocationRun(String allocator, boolean minimize, Double timeLimit, Double workLimit, Limits limits) {

    /**
     * A run from the options a user gives, each checked before the buffers are read: the allocator, the capacity
     * (null: from the file name), whether to minimise, the wall-time and work limits and the threads.
     *
     * @throws IllegalArgumentException naming the option and the rule
     */
    public static AllocationRun of(String allocator, Long capacity, boolean minimize, Double timeLimit,
                                   Double workLimit, int threads, long startedNanos) {
        if (!Allocators.NAMES.contains(allocator)) {
            throw new IllegalArgumentException("unknown allocator '" + allocator + "'; allocators: "
                    + String.join(", ", Allocators.NAMES));
        }
        Duration wall = LimitValues.wall(timeLimit, "--time-limit");
        LimitValues.threads(threads, "--threads");
        Double work = LimitValues.work(workLimit, "--work-limit");
        if (work != null && allocator.equals("ilp")) {
            throw new IllegalArgumentException("--work-limit does not work with --allocator ilp: SCIP reports no "
                    + "deterministic work memplan can count; use --allocator cpsat or minimalloc, or --time-limit");
        }
        if (capacity != null && capacity <= 0) {
            throw new IllegalArgumentException("--capacity must be positive, got " + capacity);
        }
        if (minimize && allocator.equals("telamalloc")) {
            throw new IllegalArgumentException("--allocator telamalloc answers feasibility only (does a packing fit the"
                    + " capacity?); for --minimize use auto, minimalloc, ilp, cpsat or a heuristic");
        }
        return new AllocationRun(allocator, minimize, timeLimit, workLimit, new Limits(threads, 0.0, 0L,
                LimitValues.commandBudget(work, wall, startedNanos), null));
    }

    /**
     * The allocation of {@code buffers} into {@code capacity} (ignored when minimising), checked when solved; the
     * portfolio's log lines go to {@code log}.
     */
    public Allocation run(BufferSet buffers, Long capacity, Consumer<String> log) {
        Allocation a;
        if (allocator.equals(Portfolio.NAME)) {
            Portfolio.Outcome outcome = minimize ? Portfolio.minimize(buffers, limits)
                    : Portfolio.allocate(buffers, capacity, limits);
            outcome.log().forEach(log);
            a = outcome.allocation();
        } else {
            a = minimize ? Allocators.minimize(allocator, buffers, limits)
                    : Allocators.byName(allocator).allocate(buffers, capacity, limits);
        }
        if (a.solved()) {
            BufferChecker.requireValid(a.placement(), minimize ? a.placement().height() : capacity, allocator);
        }
        return a;
    }

    /**
     * The result in one line: the height (with its ratio and gap to the lower bound {@code bound}), proven infeasible,
     * or given up and why; with the wall clock's cut under a work limit.
     */
    public String verdict(Allocation a, Long capacity, long bound) {
        String time = String.format(Locale.ROOT, "%.3f s", a.seconds());
        if (a.solved()) {
            String what = !minimize ? "solved" : a.status() == SolveStatus.OPTIMAL ? "minimum height (proven)"
                    : a.status() == SolveStatus.HEURISTIC ? "height reached (heuristic)"
                    : "best height found (not proven)";
            long h = a.placement().height();
            String gap = bound > 0 ? String.format(Locale.ROOT, ", %.6f L (gap %.4f%%)", (double) h / bound,
                    100.0 * (h - bound) / h) : "";
            return what + ": height " + h + gap + ", time " + time + ", status " + a.status()
                    + LimitValues.cut(limits.budget());
        }
        if (a.status() == SolveStatus.INFEASIBLE) {
            return "infeasible (proven): no packing fits in " + capacity + " bytes" + (a.note() != null ? " ("
                    + a.note() + ")" : "") + "; time " + time;
        }
        // Say what happened: a heuristic that stops after 0.5 s did not search for the whole time limit.
        String why = a.note() != null ? a.note() : timeLimit != null && a.seconds() >= 0.9 * timeLimit
                ? "no solution found within the time limit of " + timeLimit + " s" : "no solution found";
        return "gave up after " + time + ": " + why + " (not proven infeasible)" + LimitValues.cut(limits.budget());
    }

    /** The work used under a work limit ({@link LimitValues#workUsed}), null without one. */
    public String workUsed() {
        return limits.workMode() ? LimitValues.workUsed(limits.budget(), workLimit) : null;
    }
}
