package dev.memplan.cli;

import dev.memplan.formulations.milp.RunningSolvers;
import dev.memplan.model.Budget;
import java.util.concurrent.atomic.AtomicInteger;
import sun.misc.Signal;

/**
 * Ctrl-C (SIGINT) for the {@code memplan} process. The first one ends the work as a passed time limit does: every
 * {@link Budget} is stopped, the running solvers are stopped, and the command finishes with the best checked plan so
 * far (solve writes it with --out and says so); the process exits with {@link ExitCode#INTERRUPTED}. If the command has not
 * finished {@link #GRACE_MILLIS} later, or on a second Ctrl-C, the process halts at once with the same code:
 * files are written through temporary files, so nothing half-written is left either way.
 */
final class Interrupts {
    /** How long the command may take to finish after the first Ctrl-C. */
    static final long GRACE_MILLIS = 5_000;

    private static final AtomicInteger COUNT = new AtomicInteger();

    private Interrupts() {
    }

    /** Installs the handler (the JVM's default one would exit at once, through native code still solving). */
    static void install() {
        Signal.handle(new Signal("INT"), signal -> onInterrupt());
    }

    private static void onInterrupt() {
        if (COUNT.incrementAndGet() > 1) {
            Runtime.getRuntime().halt(ExitCode.INTERRUPTED.code());
        }
        System.err.println("memplan: interrupted: stopping the solver, finishing with the best checked plan so far"
                + " (Ctrl-C again to quit at once)");
        Budget.interrupt();
        RunningSolvers.stopAll();
        Thread watchdog = new Thread(() -> {
            try {
                Thread.sleep(GRACE_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
            System.err.println("memplan: interrupted: not finished " + GRACE_MILLIS / 1000 + " s after Ctrl-C; quitting"
                    + " (no file half-written)");
            Runtime.getRuntime().halt(ExitCode.INTERRUPTED.code());
        }, "memplan-interrupt-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
    }
}
