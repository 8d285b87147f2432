package dev.memplan.formulations.milp;

import com.google.ortools.Loader;
import java.util.Objects;

/** Creates back-ends and loads the OR-Tools native libraries (once). */
public final class Solvers {

    /**
     * A system property that makes loading the native libraries fail with its value as the reason, as on a runtime
     * where they cannot load: how the tests reach that path on a machine where they load.
     */
    public static final String FAIL_PROPERTY = "memplan.natives.fail";

    private static final Object LOCK = new Object();
    private static volatile Boolean nativeLoaded;
    private static volatile String nativeFailure;

    private Solvers() {
    }

    /**
     * The solver for {@code backend}.
     *
     * @throws NativeSolversUnavailableException when {@code backend} needs the OR-Tools native libraries and they
     *                                           cannot be loaded: no silent fallback to ojAlgo, which counts no
     *                                           work and would break a work limit (issue 37.4)
     */
    public static MilpSolver create(Backend backend) {
        Objects.requireNonNull(backend, "backend");
        if (backend.needsNative()) {
            requireNative("the " + backend.id() + " solver");
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
                    String injected = System.getProperty(FAIL_PROPERTY);
                    if (injected != null) {
                        throw new UnsatisfiedLinkError(injected + " (-D" + FAIL_PROPERTY + ")");
                    }
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

    /**
     * Throws {@link NativeSolversUnavailableException} naming {@code what} unless the native libraries are loaded;
     * for every step that runs an OR-Tools solver.
     */
    public static void requireNative(String what) {
        if (!nativeAvailable()) {
            throw new NativeSolversUnavailableException(what, nativeFailure);
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
