package dev.memplan.cli;

import dev.memplan.formulations.milp.Backend;
import dev.memplan.model.Limits;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * The solver options every solving command shares. The default back-end is CP-SAT: every COSMA variable is
 * integer, and on the formulations benchmark (BENCHMARKS.md) CP-SAT proves the optimum 2 to 40 times faster
 * than SCIP, CBC or HiGHS.
 */
final class SolverOptions {
    @Option(names = "--solver", paramLabel = "scip|cpsat|cbc|highs|ojalgo", defaultValue = "cpsat",
            description = "back-end (default: ${DEFAULT-VALUE})")
    String solver;

    @Option(names = "--time-limit", paramLabel = "SECONDS", description = "wall-time limit per solve (default: none)")
    Double timeLimit;

    @Option(names = "--threads", paramLabel = "N", defaultValue = "1", description = "solver threads (default: ${DEFAULT-VALUE})")
    int threads;

    Backend backend() {
        try {
            return Backend.parse(solver);
        } catch (IllegalArgumentException e) {
            throw new UserException(e.getMessage());
        }
    }

    Limits limits() {
        if (timeLimit != null && timeLimit <= 0) {
            throw new UserException("--time-limit must be positive, got " + timeLimit);
        }
        if (threads < 1) {
            throw new UserException("--threads must be >= 1, got " + threads);
        }
        Duration limit = timeLimit == null ? null : Duration.ofMillis(Math.round(timeLimit * 1000));
        return new Limits(limit, threads, 0.0, 0L);
    }

    String describe() {
        return "time limit " + (timeLimit == null ? "none" : timeLimit + " s") + ", threads " + threads;
    }
}
