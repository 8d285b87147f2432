package dev.memplan.cli;

import picocli.CommandLine.Option;

/**
 * The limits every solving command shares, declared once: the wall-time limit, the deterministic work limit and
 * the threads (issue 24: one option set). A mixin of {@link SolverOptions} (solve, compare, budgets, bench) and of
 * allocate; checked by {@link dev.memplan.sweeps.SolveCase} and {@link dev.memplan.baselines.allocation.AllocationRun}.
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
}
