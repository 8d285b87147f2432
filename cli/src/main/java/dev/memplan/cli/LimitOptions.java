package dev.memplan.cli;

import dev.memplan.model.Budget;
import dev.memplan.model.LimitValues;
import dev.memplan.model.Shares;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * The limits every solving command shares, declared once: the wall-time limit, the deterministic work limit and
 * the threads (issue 24: one option set). A mixin of {@link SolverOptions} (solve, compare, budgets, bench) and of
 * allocate.
 */
final class LimitOptions {
    @Option(names = "--time-limit", paramLabel = "SECONDS",
            description = {"wall-time limit: of the whole command for solve, compare, budgets and allocate (JVM start,",
                "every step, checking and writing; the best checked result so far when it is reached), per solve for",
                "bench; with --work-limit the outer guard of the work (default: none)"})
    Double timeLimit;

    @Option(names = "--work-limit", paramLabel = "UNITS",
            description = {"deterministic work limit in work units (about a second each on a quiet 2-core machine):",
                "every share of the search is a share of counted work (CP-SAT's deterministic time, memplan's own",
                "steps), so the same command prints the same result on any machine and load; with --time-limit too,",
                "the time limit is the outer guard (default: none; COSMA needs --solver cpsat)"})
    Double workLimit;

    @Option(names = "--threads", paramLabel = "N", defaultValue = "1",
            description = "solver threads, 1.." + dev.memplan.model.Limits.MAX_THREADS + " (default: ${DEFAULT-VALUE};"
                    + " a work limit runs CP-SAT on one worker)")
    int threads;

    /** The wall-time limit, checked; null for none. */
    Duration wallLimit() {
        return UserException.of(() -> LimitValues.wall(timeLimit, "--time-limit"));
    }

    /** The work limit in units, checked; null without --work-limit. */
    Double workUnits() {
        return UserException.of(() -> LimitValues.work(workLimit, "--work-limit"));
    }

    /**
     * A budget from now: the work limit with {@code wall} as its outer guard, or {@code wall} alone (null: none).
     */
    Budget budget(Duration wall) {
        Double units = workUnits();
        return units != null ? Budget.ofWork(units, wall) : Budget.ofWall(wall);
    }

    /**
     * The budget of a command whose --time-limit bounds its whole wall time: {@link #budget} of what is left of the
     * limit since the command started (the JVM's start-up counts), less a margin to check and write the result (a
     * tenth of the limit, at most {@link Shares#WRITE_MARGIN_CAP}); without a time limit, {@code budget(null)}.
     */
    Budget commandBudget() {
        Duration wall = wallLimit();
        if (wall == null) {
            return budget(null);
        }
        Duration tenth = wall.dividedBy(Shares.WRITE_MARGIN_DIVISOR);
        Duration left = wall.minus(tenth.compareTo(Shares.WRITE_MARGIN_CAP) < 0 ? tenth : Shares.WRITE_MARGIN_CAP)
                .minusNanos(System.nanoTime() - Main.started());
        return budget(left.isNegative() ? Duration.ZERO : left);
    }

    /** The thread count, checked. */
    int threads() {
        return UserException.of(() -> LimitValues.threads(threads, "--threads"));
    }

    boolean workMode() {
        return workLimit != null;
    }
}
