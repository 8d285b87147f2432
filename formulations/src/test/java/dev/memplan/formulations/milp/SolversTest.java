package dev.memplan.formulations.milp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
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

    @Test
    void withoutNativesTheOrToolsBackendsFallBackToOjAlgoWithOneWarning() {
        StringBuilder buffer = new StringBuilder();
        java.util.function.Consumer<String> warnings = w -> buffer.append(w).append('\n');
        MilpSolver solver = Solvers.create(Backend.HIGHS, "UnsatisfiedLinkError no jniortools", warnings);
        assertInstanceOf(OjAlgoBackend.class, solver);
        assertEquals("OR-Tools native libraries could not be loaded (UnsatisfiedLinkError no jniortools); "
                + "falling back to ojAlgo\n", buffer.toString());
        assertEquals("ojalgo", solver.solve(Problems.knapsack(6, 1).model(), null).backend());

        buffer.setLength(0);
        assertInstanceOf(OjAlgoBackend.class, Solvers.create(Backend.OJALGO, "whatever", warnings));
        assertInstanceOf(OjAlgoBackend.class, Solvers.create(Backend.CPSAT, "whatever", null));
        assertEquals("", buffer.toString(), "no warning when ojAlgo was asked for or "
                + "the warning was already given");
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
