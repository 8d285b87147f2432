package dev.memplan.formulations.cosma;

/** What the COSMA program minimises. */
public enum CosmaObjective {
    /** Non-compulsory off-chip traffic (eq. 12; eq. 17 with a fixed schedule). */
    TRAFFIC,
    /** Peak footprint with no spills and only compulsory loads (eq. 13-15). */
    PEAK
}
