package dev.memplan.model.mmap;

import dev.memplan.model.Limits;

/**
 * The seam of the two-level memory mapping problem, like {@code Planner} for the scratchpad problem: (instance,
 * limits) to a checked {@link MappingResult}. The exact program, the XLA-style greedy policy, random play and
 * Monte Carlo tree search are all mapping planners.
 */
public interface MappingPlanner {

    String name();

    /** Maps the instance within the limits (time limit, threads, seed); the mapping has passed the checker. */
    MappingResult plan(MmapInstance instance, Limits limits);
}
