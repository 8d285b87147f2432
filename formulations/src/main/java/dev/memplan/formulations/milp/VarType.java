package dev.memplan.formulations.milp;

/** The domain of a {@link Variable}: 0/1, integral within bounds, or real within bounds. */
public enum VarType {
    BINARY,
    INTEGER,
    CONTINUOUS;

    /** True for {@link #BINARY} and {@link #INTEGER}. */
    public boolean isIntegral() {
        return this != CONTINUOUS;
    }
}
