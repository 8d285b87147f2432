package dev.memplan.cli;

import dev.memplan.formulations.milp.Backend;
import dev.memplan.model.Limits;
import java.time.Duration;
import picocli.CommandLine.Option;

/** The solver options every solving command shares. */
final class SolverOptions {
    @Option(names = "--solver", paramLabel = "scip|cpsat|cbc|highs|ojalgo", defaultValue = "scip",
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
