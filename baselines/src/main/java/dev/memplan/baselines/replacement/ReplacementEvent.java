package dev.memplan.baselines.replacement;

import java.util.List;

/**
 * The simulator needs {@code size} contiguous bytes at an address that is a multiple of {@code alignment}
 * below {@code budget} at timestep {@code time}, and no free gap is big enough: a policy picks victims among
 * the evictable residents (sorted by offset).
 */
public record ReplacementEvent(int time, long size, long alignment, long budget, List<Resident> residents) {

    public ReplacementEvent {
        residents = List.copyOf(residents);
    }
}
