package dev.memplan.decomposition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.formulations.BruteForceAccess;
import dev.memplan.model.Budgets;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.TensorSetting;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The traffic bound from the bytes every order must hold live: never above the optimum, tight where it can be. */
class PeakBoundTest {
    private static final int CAP = PeakBound.DEFAULT_STATE_CAP;

    /**
     * The image Z (60 bytes, a graph input) is read by the first and the last operator; a2 reads u and writes u2
     * (30 bytes each) in between, so at a2 Z, u and u2 are live: 120 bytes at a budget of 91 (the last operator's
     * own bytes). 29 bytes must be off chip there, and Z, a host tensor, can leave at the price of its load.
     */
    private static Graph image() {
        return Graph.builder("image")
                .activation("Z", 60).activation("u", 30).activation("u2", 30).activation("out", 1)
                .operator("a1", List.of("Z"), List.of("u"))
                .operator("a2", List.of("u"), List.of("u2"))
                .operator("f", List.of("Z", "u2"), List.of("out"))
                .output("out")
                .build();
    }

    @Test
    void theSmallestGraphWithForcedBytesOffChip() {
        Graph g = image();
        assertEquals(91, Budgets.minimumRequired(g));
        PeakBound.Result r = PeakBound.of(g, 91, Long.MAX_VALUE, CAP, Limits.DEFAULT);
        assertEquals(29, r.traffic());
        assertFalse(r.proven());
        // The optimum reloads the whole image: 60.
        assertEquals(60, BruteForceAccess.minTraffic(g, TensorSetting.ACTIVATIONS, 91, null));
        // With the optimum as target nothing cheaper exists: proven; just above it, not.
        assertTrue(PeakBound.of(g, 91, 29, CAP, Limits.DEFAULT).proven());
        assertFalse(PeakBound.of(g, 91, 30, CAP, Limits.DEFAULT).proven());
        // With room for everything nothing is forced.
        assertEquals(0, PeakBound.of(g, 120, Long.MAX_VALUE, CAP, Limits.DEFAULT).traffic());
    }

    /**
     * The same, but Z is written by an operator: leaving costs it a spill and a load, and the bound counts both for
     * the bytes no host tensor or graph output can cover.
     */
    @Test
    void aWrittenTensorThatLeavesPaysItsSpillToo() {
        Graph g = Graph.builder("written")
                .activation("Z", 60).activation("u", 30).activation("u2", 30).activation("out", 1)
                .operator("z", List.of(), List.of("Z"))
                .operator("a1", List.of("Z"), List.of("u"))
                .operator("a2", List.of("u"), List.of("u2"))
                .operator("f", List.of("Z", "u2"), List.of("out"))
                .output("out")
                .build();
        assertEquals(58, PeakBound.of(g, 91, Long.MAX_VALUE, CAP, Limits.DEFAULT).traffic());
        assertEquals(120, BruteForceAccess.minTraffic(g, TensorSetting.ACTIVATIONS, 91, null));
    }

    /**
     * On random tiny graphs, in both settings and at several budgets: the bound never exceeds the brute-force
     * optimum; with the optimum plus one as target it is never "proven" (the optimal plan's order stays below it);
     * with the optimum as target it is proven whenever the bound alone already meets it.
     */
    @Test
    void neverAboveTheBruteForceOptimum() {
        int cases = 0;
        int positive = 0;
        int tight = 0;
        for (TinyCase c : TinyCase.random(11, 60)) {
            Graph g = c.g();
            long b = c.budget();
            long optimum = c.optimum();
            PeakBound.Result free = PeakBound.of(g, b, Long.MAX_VALUE, CAP, Limits.DEFAULT);
            assertTrue(free.traffic() <= optimum, c.at() + ": bound " + free.traffic() + " above the optimum "
                    + optimum);
            PeakBound.Result above = PeakBound.of(g, b, optimum + 1, CAP, Limits.DEFAULT);
            assertFalse(above.proven(), c.at());
            assertTrue(above.traffic() <= optimum, c.at());
            if (free.traffic() == optimum) {
                assertTrue(PeakBound.of(g, b, optimum, CAP, Limits.DEFAULT).proven() || optimum == 0);
                tight++;
            }
            positive += free.traffic() > 0 ? 1 : 0;
            cases++;
        }
        assertEquals(320, cases);
        assertTrue(positive >= 20, "the bound is positive on only " + positive + " cases");
        assertTrue(tight >= positive / 4, tight + " tight of " + positive + " positive");
    }
}
