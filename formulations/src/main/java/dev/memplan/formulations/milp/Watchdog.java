package dev.memplan.formulations.milp;

import dev.memplan.model.Budget;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Stop requests for a native solve, from a daemon thread that polls while the solve runs: at a deadline, since the
 * solvers' own time limits do not cover everything they do (CP-SAT's presolve of large models, MPSolver's extraction
 * of the model into SCIP), and whenever the run's {@link Budget} is stopped by request ({@link Budget#cancel()},
 * Ctrl-C). Polling, not a one-off call, because a stop request made before the native solve has begun is lost:
 * OR-Tools 9.15's {@code CpSolver.stopSearch} does nothing until {@code solve()} has created its wrapper, so a
 * cancel landing between {@link Budget#onStop(Runnable)} and the solve's start would otherwise be honoured only by
 * the solver's own limit. The request is repeated at every poll once due; both solvers take it as often as asked.
 */
public final class Watchdog {
    /** Between two polls of the clock and the stop flag. */
    static final long POLL_NANOS = 20_000_000L;

    private Watchdog() {
    }

    /**
     * Runs {@code work}; while it runs, calls {@code stop} (from a daemon thread, at every poll) once
     * {@code deadline} ({@link System#nanoTime()} terms; Long.MAX_VALUE: none) has passed or {@code budget} was
     * stopped by request.
     */
    public static <T> T around(long deadline, Budget budget, Runnable stop, Supplier<T> work) {
        ScheduledExecutorService watchdog = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "solver-watchdog");
            t.setDaemon(true);
            return t;
        });
        try {
            watchdog.scheduleAtFixedRate(() -> {
                if (budget.requested() || (deadline != Long.MAX_VALUE && System.nanoTime() - deadline >= 0)) {
                    stop.run();
                }
            }, 0, POLL_NANOS, TimeUnit.NANOSECONDS);
            return work.get();
        } finally {
            watchdog.shutdownNow();
            // A stop request already under way must end before the caller frees the solver.
            try {
                watchdog.awaitTermination(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** The deadline {@code delayNanos} from now ({@link System#nanoTime()} terms); Long.MAX_VALUE stays none. */
    public static long deadlineIn(long delayNanos) {
        if (delayNanos == Long.MAX_VALUE) {
            return Long.MAX_VALUE;
        }
        long now = System.nanoTime();
        return delayNanos >= Long.MAX_VALUE - now ? Long.MAX_VALUE : now + Math.max(0, delayNanos);
    }
}
