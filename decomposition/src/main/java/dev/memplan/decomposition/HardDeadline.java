package dev.memplan.decomposition;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * Runs a step on a daemon thread and waits for it at most a given wall time, so that a step which overruns its
 * own time limit (a COSMA solve builds its programs and its forced bound before the solver's clock starts: 34 s
 * for a 7 s limit on NASNet's fixed-schedule program on a loaded machine) cannot stretch the run past its limit.
 * A step that does not answer in time is abandoned: its result is dropped, and it ends on its own when its
 * solver's limit expires.
 */
public final class HardDeadline {

    private HardDeadline() {
    }

    /**
     * The step's result, or null when it did not finish within {@code wait} (null: wait as long as it takes).
     *
     * @throws RuntimeException what the step threw
     */
    public static <T> T call(Duration wait, String name, Supplier<T> step) {
        if (wait == null) {
            return step.get();
        }
        CompletableFuture<T> result = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                result.complete(step.get());
            } catch (Throwable e) {
                result.completeExceptionally(e);
            }
        }, name);
        t.setDaemon(true);
        t.start();
        try {
            return result.get(Math.max(1, wait.toMillis()), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(cause);
        }
    }
}
