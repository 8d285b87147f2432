package dev.memplan.formulations.milp;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** The solvers memplan can use; {@link #SCIP} is the default for MILPs. */
public enum Backend {
    /** SCIP through OR-Tools MPSolver. */
    SCIP,
    /** COIN-OR CBC through OR-Tools MPSolver. */
    CBC,
    /** HiGHS through OR-Tools MPSolver. */
    HIGHS,
    /** OR-Tools CP-SAT: integer variables and integer data only. */
    CPSAT,
    /** ojAlgo, pure Java: no native code. */
    OJALGO;

    /** The back-end named {@code text} ("scip", "cbc", "highs", "cpsat", "ojalgo"; case-insensitive). */
    public static Backend parse(String text) {
        if (text != null) {
            String wanted = text.trim();
            for (Backend b : values()) {
                if (b.id().equalsIgnoreCase(wanted)) {
                    return b;
                }
            }
        }
        throw new IllegalArgumentException("unknown solver '" + text + "'; choose one of " + choices());
    }

    /** "scip, cbc, highs, cpsat, ojalgo". */
    public static String choices() {
        return Arrays.stream(values()).map(Backend::id).collect(Collectors.joining(", "));
    }

    /** The lower-case name used on the command line and in results. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** True for the back-ends that need the OR-Tools native libraries. */
    public boolean needsNative() {
        return this != OJALGO;
    }
}
