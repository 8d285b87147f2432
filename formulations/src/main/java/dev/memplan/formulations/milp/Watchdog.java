package dev.memplan.formulations.milp;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * A stop request at a deadline for a native solve: the solvers' own time limits do not cover everything they do
 * (CP-SAT's presolve of large models, MPSolver's extraction of the model into SCIP), and a command's time limit is
 * a promise.
 */
public final class Watchdog {
    private Watchdog() {
    }

    /**
     * Runs {@code work}; if it is still running {@code delayNanos} from now, calls {@code stop} (once, from a daemon
     * thread). {@code delayNanos} of Long.MAX_VALUE: no watchdog.
     */
    public static <T> T around(long delayNanos, Runnable stop, Supplier<T> work) {
        if (delayNanos == Long.MAX_VALUE) {
            return work.get();
        }
        ScheduledExecutorService watchdog = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "solver-watchdog");
            t.setDaemon(true);
            return t;
        });
        try {
            watchdog.schedule(stop, Math.max(0, delayNanos), TimeUnit.NANOSECONDS);
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
}
