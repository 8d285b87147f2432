package dev.memplan.model.mmap;

import dev.memplan.model.SolveStatus;

/**
 * What a {@link MappingPlanner} returns: the checked mapping (null only with {@link SolveStatus#UNKNOWN}), its
 * status, its reward, the best upper bound on the reward known to the planner (-1: none), the wall time and a
 * note (e.g. how many Drop-backups a game player needed).
 */
public record MappingResult(String planner, Mapping mapping, SolveStatus status, long reward, long bound,
        double seconds, String note) {

    /**
     * A result for {@code mapping} after the {@link MappingChecker}: a planner that produced an invalid mapping
     * has a bug, so this throws instead of reporting it.
     *
     * @throws IllegalStateException when the mapping breaks a rule
     */
    public static MappingResult checked(String planner, MmapInstance instance, Mapping mapping, SolveStatus status,
            long bound, long startNanos, String note) {
        MappingReport report = MappingChecker.check(instance, mapping);
        if (!report.valid()) {
            throw new IllegalStateException("bug: planner " + planner + " produced an invalid mapping: "
                    + report.violations().subList(0, Math.min(3, report.violations().size())));
        }
        return new MappingResult(planner, mapping, status, report.reward(), bound,
                (System.nanoTime() - startNanos) / 1e9, note);
    }

    /** The relative gap to the bound, {@code (bound - reward) / bound}; NaN without a bound. */
    public double gap() {
        if (bound < 0) {
            return Double.NaN;
        }
        return bound == 0 ? 0.0 : (bound - reward) / (double) bound;
    }
}
