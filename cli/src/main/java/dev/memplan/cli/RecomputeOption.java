package dev.memplan.cli;

import picocli.CommandLine.Option;

/**
 * {@code --recompute-weight LAMBDA} of solve, compare and budgets (memory-model.md, "Recomputation"): operators may
 * run again, and the objective is non-compulsory traffic + lambda x recompute cost. Without it, nothing changes.
 */
final class RecomputeOption {
    @Option(names = "--recompute-weight", paramLabel = "LAMBDA",
            description = {"let operators run again (recomputation): minimise non-compulsory traffic + LAMBDA x",
                "recompute cost, LAMBDA in bytes of traffic per cost unit (>= 0; default: spill only)"})
    String weight;

    /**
     * lambda, or null when the option is not given.
     *
     * @throws UserException for anything but a finite number >= 0
     */
    Double lambda() {
        if (weight == null) {
            return null;
        }
        double value;
        try {
            value = Double.parseDouble(weight.strip());
        } catch (NumberFormatException e) {
            value = Double.NaN;
        }
        if (!(value >= 0) || Double.isInfinite(value)) {
            throw new UserException("--recompute-weight: '" + weight + "' is not a finite number >= 0 (bytes of "
                    + "traffic per cost unit)");
        }
        return value;
    }

    /** lambda as the reports print it: an integer when it is one. */
    static String describe(double lambda) {
        return dev.memplan.sweeps.Comparison.number(lambda);
    }
}
