package dev.memplan.formulations.cosma;

/** What the COSMA program minimises. */
public enum CosmaObjective {
    /** Non-compulsory off-chip traffic (eq. 12; eq. 17 with a fixed schedule). */
    TRAFFIC,
    /** Peak footprint with no spills and only compulsory loads (eq. 13-15). */
    PEAK;

    /** The objective as the command line writes it ({@code traffic}, {@code peak}), trimmed, any case. */
    public static CosmaObjective parse(String text) {
        return dev.memplan.model.EnumNames.parse(values(), o -> o.name().toLowerCase(java.util.Locale.ROOT), text,
                "objective");
    }
}
