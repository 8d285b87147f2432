package dev.memplan.formulations.milp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class SolversTest {

    @Test
    void eachBackendHasItsSolver() {
        assertInstanceOf(MpSolverBackend.class, Solvers.create(Backend.SCIP));
        assertInstanceOf(MpSolverBackend.class, Solvers.create(Backend.CBC));
        assertInstanceOf(MpSolverBackend.class, Solvers.create(Backend.HIGHS));
        assertInstanceOf(CpSatBackend.class, Solvers.create(Backend.CPSAT));
        assertInstanceOf(OjAlgoBackend.class, Solvers.create(Backend.OJALGO));
        assertEquals("scip", Solvers.createDefault().name());
    }

    /**
     * Without the natives a step says which solver it needed and why they did not load; no fallback to ojAlgo
     * (issue 37.4: it counts no work). The whole path, loader to exit code, runs in a JVM where the loader is made
     * to fail: cli's NativesUnavailableTest.
     */
    @Test
    void withoutNativesTheMessageNamesTheSolverAndTheReason() {
        NativeSolversUnavailableException e = new NativeSolversUnavailableException("the cpsat solver",
                "UnsatisfiedLinkError no jniortools");
        assertEquals("the cpsat solver needs OR-Tools' native libraries, which cannot be loaded on this Java runtime"
                + " (UnsatisfiedLinkError no jniortools)", e.getMessage());
        assertEquals("UnsatisfiedLinkError no jniortools", e.reason());
        // Found behind the wrapping of a step run on another thread, and not found where it is not.
        assertSame(e, NativeSolversUnavailableException.in(new java.util.concurrent.ExecutionException(
                new IllegalStateException("step failed", e))));
        assertNull(NativeSolversUnavailableException.in(new IllegalStateException("other")));
    }

    @Test
    void nativeLoadingIsMemoisedAndThreadSafe() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Callable<Boolean>> calls = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                calls.add(Solvers::nativeAvailable);
            }
            for (Future<Boolean> answer : pool.invokeAll(calls)) {
                assertTrue(answer.get());
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(null, Solvers.nativeFailure());
    }
}
