package dev.memplan.formulations.milp;

import dev.memplan.model.Budget;
import dev.memplan.model.Shares;

/**
 * Abandons the building of a {@link Model} once its {@link Budget}'s wall time is up or a stop is requested: while a
 * guard is open on a thread, every model built on that thread polls the budget every {@link #EVERY} variables and
 * constraints (and every step that computes for a model, such as the forced-traffic bound, {@link #poll(String)})
 * and throws {@link BuildAbandonedException} when it is over, or when the pace so far says
 * that the build will not be done within half of the time it had (the solver's copy of the model and the solve need
 * the other half): the pace follows the machine's load, which a fixed rate in an estimate cannot. The encodings
 * build their models in their constructors; a scoped guard reaches all of them without a budget parameter on each.
 */
public final class BuildGuard implements AutoCloseable {
    /** Additions between two checks (a check reads the clock). */
    static final int EVERY = 4096;

    /** Below this many additions the pace is not yet a forecast. */
    static final long PACE_AFTER = 8 * EVERY;

    private static final ThreadLocal<BuildGuard> CURRENT = new ThreadLocal<>();

    private final BuildGuard previous;
    private final Budget budget;
    private final long expected;
    private final long began = System.nanoTime();

    private BuildGuard(BuildGuard previous, Budget budget, long expected) {
        this.previous = previous;
        this.budget = budget;
        this.expected = expected;
    }

    /** Opens a guard on this thread until {@link #close()}, without a forecast. */
    public static BuildGuard until(Budget budget) {
        return until(budget, 0);
    }

    /**
     * Opens a guard on this thread until {@link #close()}; {@code expected} variables and constraints (0: unknown)
     * give the forecast. A nested guard polls its own budget and the guard around it.
     */
    public static BuildGuard until(Budget budget, long expected) {
        BuildGuard previous = CURRENT.get();
        BuildGuard guard = new BuildGuard(previous, budget, expected);
        CURRENT.set(guard);
        return guard;
    }

    /** Throws when the guard open on this thread says to stop, {@code added} variables and constraints in. */
    static void check(String model, long added) {
        BuildGuard guard = CURRENT.get();
        if (guard == null) {
            return;
        }
        for (BuildGuard g = guard; g != null; g = g.previous) {
            if (g.budget.wallOver()) {
                throw new BuildAbandonedException("building model '" + model + "' was abandoned: "
                        + (g.budget.requested() ? "interrupted" : "the time limit was reached"));
            }
        }
        java.time.Duration left = guard.budget.wallLeft();
        if (guard.expected > 0 && added >= PACE_AFTER && left != null) {
            long now = System.nanoTime();
            double forecast = (now - guard.began) * (double) guard.expected / added;
            double allowed = (now - guard.began + left.toNanos()) / (double) Shares.BUILD_DIVISOR;
            if (forecast > allowed) {
                throw new BuildAbandonedException(String.format("building model '%s' was abandoned: at its pace it "
                        + "would take %.1f s of the %.1f s it had", model, forecast / 1e9, 2 * allowed / 1e9));
            }
        }
    }

    /**
     * Throws {@link BuildAbandonedException} when the guard open on this thread (if any) says to stop: for a
     * computation that builds no {@link Model} itself, such as a bound the programs read.
     */
    public static void poll(String what) {
        check(what, 0);
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
