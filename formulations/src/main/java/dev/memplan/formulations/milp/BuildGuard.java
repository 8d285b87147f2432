package dev.memplan.formulations.milp;

import dev.memplan.model.Deadline;

/**
 * Abandons the building of a {@link Model} once a deadline passes: while a guard is open on a thread, every model
 * built on that thread checks the deadline every {@link #EVERY} variables and constraints and throws
 * {@link BuildAbandonedException} when it has passed (or the run was interrupted), or when the pace so far says
 * that the build will not be done within half of the time it had (the solver's copy of the model and the solve need
 * the other half): the pace follows the machine's load, which a fixed rate in an estimate cannot. The encodings
 * build their models in their constructors; a scoped guard reaches all of them without a deadline parameter on each.
 */
public final class BuildGuard implements AutoCloseable {
    /** Additions between two checks (a check reads the clock). */
    static final int EVERY = 4096;

    /** Below this many additions the pace is not yet a forecast. */
    static final long PACE_AFTER = 8 * EVERY;

    private static final ThreadLocal<BuildGuard> CURRENT = new ThreadLocal<>();

    private final BuildGuard previous;
    private final Deadline deadline;
    private final long expected;
    private final long began = System.nanoTime();

    private BuildGuard(BuildGuard previous, Deadline deadline, long expected) {
        this.previous = previous;
        this.deadline = deadline;
        this.expected = expected;
    }

    /** Opens a guard on this thread until {@link #close()}, without a forecast. */
    public static BuildGuard until(Deadline deadline) {
        return until(deadline, 0);
    }

    /**
     * Opens a guard on this thread until {@link #close()}; {@code expected} variables and constraints (0: unknown)
     * give the forecast. Nested guards keep the earlier deadline.
     */
    public static BuildGuard until(Deadline deadline, long expected) {
        BuildGuard previous = CURRENT.get();
        BuildGuard guard = new BuildGuard(previous,
                previous == null ? deadline : previous.deadline.earlier(deadline), expected);
        CURRENT.set(guard);
        return guard;
    }

    /** Throws when the guard open on this thread says to stop, {@code added} variables and constraints in. */
    static void check(String model, long added) {
        BuildGuard guard = CURRENT.get();
        if (guard == null) {
            return;
        }
        if (guard.deadline.expired()) {
            throw new BuildAbandonedException("building model '" + model + "' was abandoned: "
                    + (Deadline.interrupted() ? "interrupted" : "the time limit was reached"));
        }
        java.time.Duration left = guard.deadline.remaining();
        if (guard.expected > 0 && added >= PACE_AFTER && left != null) {
            long now = System.nanoTime();
            double forecast = (now - guard.began) * (double) guard.expected / added;
            double allowed = (now - guard.began + left.toNanos()) / 2.0;
            if (forecast > allowed) {
                throw new BuildAbandonedException(String.format("building model '%s' was abandoned: at its pace it "
                        + "would take %.1f s of the %.1f s it had", model, forecast / 1e9, 2 * allowed / 1e9));
            }
        }
    }

    @Override
    public void close() {
        if (previous == null) {
            CURRENT.remove();
        } else {
            CURRENT.set(previous);
        }
    }
}
