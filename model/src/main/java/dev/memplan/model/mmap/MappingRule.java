package dev.memplan.model.mmap;

/** The rules of the two-level memory mapping problem (MMap-MuZero paper, Appendix A) that a mapping must keep. */
public enum MappingRule {
    /** One decision per buffer. */
    COUNT("count"),
    /** An allocation ends at an input's time or starts at an output's time, inside the live range; a NoCopy output
     * keeps its whole live range. */
    INTERVAL("interval"),
    /** Every allocation lies inside {@code [0, capacity)}. */
    CAPACITY("capacity"),
    /** Allocations live at the same time use disjoint addresses. */
    OVERLAP("overlap"),
    /** The supply of a copy's steps covers its demand (Eq. 5). */
    SUPPLY("supply"),
    /** No two copies share a step (Eq. 6). */
    COPY_OVERLAP("copy-overlap"),
    /** A NoCopy extends an earlier fast-memory allocation of the same tensor. */
    NOCOPY_SOURCE("nocopy-source"),
    /** An alias group is placed whole or dropped whole (Section 4.2). */
    ALIAS_SPLIT("alias-split"),
    /** The placed buffers of an alias group share one offset (Eq. 4). */
    ALIAS_OFFSET("alias-offset");

    private final String id;

    MappingRule(String id) {
        this.id = id;
    }

    /** The rule's printed name, e.g. {@code copy-overlap}. */
    public String id() {
        return id;
    }
}
