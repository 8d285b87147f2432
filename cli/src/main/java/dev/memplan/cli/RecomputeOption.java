package dev.memplan.cli;

import picocli.CommandLine.Option;

/**
 * {@code --recompute-weight LAMBDA} of solve, compare and budgets (memory-model.md, "Recomputation"): operators may
 * run again, and the objective is non-compulsory traffic + lambda x recompute cost. Without it, nothing changes.
 * Parsed by {@link dev.memplan.sweeps.SolveCase#recomputeWeight}.
 */
final class RecomputeOption {
    @Option(names = "--recompute-weight", paramLabel = "LAMBDA",
            description = {"let operators run again (recomputation): minimise non-compulsory traffic + LAMBDA x",
                "recompute cost, LAMBDA in bytes of traffic per cost unit (>= 0; default: spill only)"})
    String weight;
}
