package dev.memplan.formulations.milp;

import com.google.ortools.Loader;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

/** Creates back-ends and loads the OR-Tools native libraries (once). */
public final class Solvers {

    private static final Object LOCK = new Object();
    private static volatile Boolean nativeLoaded;
    private static volatile String nativeFailure;
    private static final AtomicBoolean WARNED = new AtomicBoolean();

    private Solvers() {
    }

    /**
     * The solver for {@code backend}. When {@code backend} needs the OR-Tools native libraries and they cannot
     * be loaded, one warning goes to {@link dev.memplan.model.Notices} (once per process) and the ojAlgo solver is returned instead; its
     * results say {@code ojalgo}.
     */
    public static MilpSolver create(Backend backend) {
        Objects.requireNonNull(backend, "backend");
        String failure = backend.needsNative() && !nativeAvailable() ? nativeFailure : null;
        java.util.function.Consumer<String> warnings = failure != null && WARNED.compareAndSet(false, true)
                ? dev.memplan.model.Notices::warn : null;
        return create(backend, failure, warnings);
    }

    /** {@link #create(Backend)} with the native state given: {@code failure} null when the libraries loaded. */
    static MilpSolver create(Backend backend, String failure, java.util.function.Consumer<String> warnings) {
        if (backend.needsNative() && failure != null) {
            if (warnings != null) {
                warnings.accept("OR-Tools native libraries could not be loaded (" + failure
                        + "); falling back to ojAlgo");
            }
            return new OjAlgoBackend();
        }
        return switch (backend) {
            case SCIP, CBC, HIGHS -> new MpSolverBackend(backend);
            case CPSAT -> new CpSatBackend();
            case OJALGO -> new OjAlgoBackend();
        };
    }

    /** The default back-end for a MILP: SCIP. */
    public static MilpSolver createDefault() {
        return create(Backend.SCIP);
    }

    /**
     * Whether the OR-Tools native libraries are loaded: the first call runs {@link Loader#loadNativeLibraries()}
     * (they unpack into {@code java.io.tmpdir}); the answer is remembered. Thread-safe.
     */
    public static boolean nativeAvailable() {
        Boolean loaded = nativeLoaded;
        if (loaded != null) {
            return loaded;
        }
        synchronized (LOCK) {
            if (nativeLoaded == null) {
                try {
                    Loader.loadNativeLibraries();
                    nativeLoaded = Boolean.TRUE;
                } catch (Exception | LinkageError e) {
                    nativeFailure = describe(e);
                    nativeLoaded = Boolean.FALSE;
                }
            }
            return nativeLoaded;
        }
    }

    /**
     * Starts loading the native libraries on a background thread, so that the second or more it takes (unpacking
     * into tmpdir, linking) overlaps the command's own start (reading the graph, the budget) instead of counting
     * against a time limit inside the first solver call.
     */
    public static void preload() {
        if (nativeLoaded == null) {
            Thread t = new Thread(() -> {
                try {
                    nativeAvailable();
                } catch (VirtualMachineError e) {
                    // Out of memory while unpacking: nothing is remembered, so the command's own thread tries again
                    // when it needs a solver and reports what it meets there (one line, not this thread's trace).
                }
            }, "memplan-native-preload");
            t.setDaemon(true);
            t.start();
        }
    }

    /** Why the native libraries could not be loaded, or null (loaded, or not tried yet). */
    public static String nativeFailure() {
        return nativeFailure;
    }

    /** Throws IllegalStateException unless the native libraries are loaded; for the OR-Tools back-ends. */
    static void requireNative(String backend) {
        if (!nativeAvailable()) {
            throw new IllegalStateException(
                    backend + " needs the OR-Tools native libraries, which could not be loaded (" + nativeFailure
                            + ")");
        }
    }

    private static String describe(Throwable e) {
        StringBuilder text = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (text.length() > 0) {
                text.append(": ");
            }
            text.append(t.getClass().getSimpleName());
            if (t.getMessage() != null) {
                text.append(' ').append(t.getMessage());
            }
            if (text.length() > 300) {
                break;
            }
        }
        return text.toString();
    }

    /**
     * Whether the back-ends should print their own search log (to standard output): set the environment
     * variable {@code MEMPLAN_SOLVER_LOG=1} to see why a model is slow. Off otherwise.
     */
    public static boolean logRequested() {
        String value = System.getenv("MEMPLAN_SOLVER_LOG");
        return value != null && !value.isEmpty() && !value.equals("0");
    }
}
