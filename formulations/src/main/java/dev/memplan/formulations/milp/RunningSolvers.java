package dev.memplan.formulations.milp;

import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The native solves in progress, so that an interrupt (Ctrl-C) can stop them: each back-end registers how to stop
 * its solver (CP-SAT {@code stopSearch}, MPSolver {@code interruptSolve}) for the duration of the call; the
 * command's signal handler calls {@link #stopAll()}. The solvers' own signal handlers are switched off (SCIP's
 * {@code misc/catchctrlc}, CP-SAT's {@code catch_sigint_signal}), or they would swallow the signal. Registering,
 * closing and stopping hold one lock, so a solver is never stopped after its call returned (and its native object
 * may be gone).
 */
public final class RunningSolvers {
    private static final Set<Runnable> STOPS = new LinkedHashSet<>();

    private RunningSolvers() {
    }

    /** A registered stop action; closing it unregisters it. */
    public interface Registration extends AutoCloseable {
        @Override
        void close();
    }

    /** Registers a solve's stop action until the returned registration is closed. */
    public static Registration register(Runnable stop) {
        synchronized (STOPS) {
            STOPS.add(stop);
        }
        return () -> {
            synchronized (STOPS) {
                STOPS.remove(stop);
            }
        };
    }

    /** Stops every registered solve: each returns its best solution so far, as at a time limit. */
    public static void stopAll() {
        synchronized (STOPS) {
            for (Runnable stop : STOPS) {
                stop.run();
            }
        }
    }
}
