package dev.memplan.baselines.replacement;

import java.util.List;

/**
 * The simulator needs {@code size} contiguous bytes at an address that is a multiple of {@code alignment}
 * below {@code budget} at timestep {@code time}, and no free gap is big enough: a policy picks victims among
 * the evictable residents (sorted by offset). When not {@code contiguous} (the {@link AddressRule#BYTES} mode)
 * only bytes count: the victims must free {@link #deficit()} bytes, wherever they are.
 */
public record ReplacementEvent(int time, long size, long alignment, long budget, List<Resident> residents,
                               boolean contiguous) {

    public ReplacementEvent(int time, long size, long alignment, long budget, List<Resident> residents) {
        this(time, size, alignment, budget, residents, true);
    }

    /** Bytes missing: size + resident bytes (rounded up to the alignment) - budget. */
    public long deficit() {
        long used = 0;
        for (Resident r : residents) {
            used += dev.memplan.model.Budgets.roundUp(r.size(), alignment);
        }
        return dev.memplan.model.Budgets.roundUp(size, alignment) + used - budget;
    }


    public ReplacementEvent {
        residents = List.copyOf(residents);
    }
}
