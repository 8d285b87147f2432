package dev.memplan.model;

/** The rules of the memory model that the checkers enforce; each violation names one. */
public enum Rule {
    /** The schedule is a permutation of the operators that respects every dependency ("Time"). */
    SCHEDULE("schedule"),
    /** The plan names only tensors of the graph, in the plan's tensor setting. */
    UNKNOWN_TENSOR("unknown-tensor"),
    /** A segment lies within the timesteps 0..n-1, has start <= end and a non-negative offset. */
    SEGMENT_RANGE("segment-range"),
    /** A produced tensor has exactly one created segment, at its producer's timestep; host tensors none. */
    CREATED("created"),
    /** No segment of a produced tensor begins before its creation. */
    BEFORE_CREATION("before-creation"),
    /** A loaded segment needs a host copy at its start. */
    HOST_COPY("host-copy"),
    /** Rule 1: segments of one tensor do not overlap in time. */
    SEGMENT_OVERLAP("segment-overlap"),
    /** Rule 2: every use of a tensor lies inside one of its segments. */
    RESIDENCY("residency"),
    /** Rule 3: no segment extends past the tensor's last use. */
    PAST_LAST_USE("past-last-use"),
    /** Rule 4: every address range lies inside [0, B) (for buffers: below the capacity). */
    BUDGET("budget"),
    /** Rule 4: address ranges live at the same time are pairwise disjoint. */
    ADDRESS_OVERLAP("address-overlap"),
    /** Rule 5: every offset is a multiple of the alignment. */
    ALIGNMENT("alignment"),
    /** A buffer with a fixed offset is placed there. */
    FIXED_OFFSET("fixed-offset");

    private final String id;

    Rule(String id) {
        this.id = id;
    }

    /** The rule's printed name, e.g. {@code address-overlap}. */
    public String id() {
        return id;
    }
}
