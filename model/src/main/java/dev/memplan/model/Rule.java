package dev.memplan.model;

/** The rules of the memory model that the checkers enforce; each violation names one. */
public enum Rule {
    /**
     * The schedule names only operators of the graph, runs each at least once, and runs no operator before the
     * first run of the producer of a tensor it reads ("Time", "Recomputation"). Without recomputes: a
     * topological permutation.
     */
    SCHEDULE("schedule"),
    /** The plan names only tensors of the graph, in the plan's tensor setting. */
    UNKNOWN_TENSOR("unknown-tensor"),
    /** A segment lies within the timesteps 0..T-1 of the schedule, has start <= end and a non-negative offset. */
    SEGMENT_RANGE("segment-range"),
    /** A produced tensor has exactly one created segment, at its producer's first run; host tensors none. */
    CREATED("created"),
    /** No segment of a produced tensor begins before its creation. */
    BEFORE_CREATION("before-creation"),
    /**
     * A loaded segment needs a host copy at its start: host tensors have one, a produced tensor once its created
     * segment has ended; a recompute makes none.
     */
    HOST_COPY("host-copy"),
    /** Rule 1: segments of one tensor do not overlap in time. */
    SEGMENT_OVERLAP("segment-overlap"),
    /** Rule 2: every use of a tensor, by every run, lies inside one of its segments. */
    RESIDENCY("residency"),
    /**
     * Rule 3: no segment extends past the tensor's last use in the whole schedule (an unread tensor's: its
     * producer's first run); a recomputed segment may still hold its own timestep.
     */
    PAST_LAST_USE("past-last-use"),
    /** Rule 4: every address range lies inside [0, B) (for buffers: below the capacity). */
    BUDGET("budget"),
    /** Rule 4: address ranges live at the same time are pairwise disjoint. */
    ADDRESS_OVERLAP("address-overlap"),
    /** Rule 5: every offset is a multiple of the alignment. */
    ALIGNMENT("alignment"),
    /** A buffer with a fixed offset is placed there. */
    FIXED_OFFSET("fixed-offset"),
    /** A recomputed segment starts at a run of its tensor's producer (host tensors have none). */
    RECOMPUTE_START("recompute-start"),
    /** A recompute needs an earlier run: a recomputed segment may not start at its producer's first run. */
    EARLIER_RUN("earlier-run"),
    /** A recompute makes all its operator's outputs together: each gets a recomputed segment starting there. */
    SIBLINGS("siblings"),
    /**
     * A recompute makes a new copy: no segment of an output contains the timestep before a recompute of its
     * producer and continues through it.
     */
    THROUGH_RECOMPUTE("through-recompute");

    private final String id;

    Rule(String id) {
        this.id = id;
    }

    /** The rule's printed name, e.g. {@code address-overlap}. */
    public String id() {
        return id;
    }
}
