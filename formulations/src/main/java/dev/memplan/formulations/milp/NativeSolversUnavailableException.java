package dev.memplan.formulations.milp;

/**
 * OR-Tools' native libraries (CP-SAT, SCIP, CBC, HiGHS) cannot be loaded on this Java runtime: an unsupported
 * platform, or a runtime that cannot unpack them (a jlinked image without {@code jdk.zipfs}). Thrown instead of
 * falling back to ojAlgo, which counts no work and runs models of a size the native solvers take in their stride
 * out of heap: a step that needs the native solvers cannot keep the command's limits without them.
 */
public final class NativeSolversUnavailableException extends RuntimeException {
    private final String reason;

    NativeSolversUnavailableException(String needs, String reason) {
        super(needs + " needs OR-Tools' native libraries, which cannot be loaded on this Java runtime (" + reason + ")");
        this.reason = reason;
    }

    /** The failure behind {@code e} (a step on another thread wraps it), or null. */
    public static NativeSolversUnavailableException in(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof NativeSolversUnavailableException n) {
                return n;
            }
        }
        return null;
    }

    /** Why loading failed (the loader's error, in one line). */
    public String reason() {
        return reason;
    }
}
