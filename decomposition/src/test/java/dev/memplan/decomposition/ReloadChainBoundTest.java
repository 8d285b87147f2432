package dev.memplan.decomposition;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.datasets.zoo.Zoo;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.TensorSetting;
import org.junit.jupiter.api.Test;

/** The bound over orders that sums over time: never above the optimum, and where it beats the single step. */
class ReloadChainBoundTest {
    private static final int CAP = PeakBound.DEFAULT_STATE_CAP;

    /**
     * On random tiny graphs, in both settings and at several budgets: never above the brute-force optimum, and at
     * least once above the live-bytes bound.
     */
    @Test
    void neverAboveTheBruteForceOptimum() {
        int cases = 0;
        int positive = 0;
        int above = 0;
        for (TinyCase c : TinyCase.random(35, 80)) {
            long optimum = c.optimum();
            long bound = ReloadChainBound.of(c.g(), c.budget(), CAP).traffic();
            assertTrue(bound <= optimum, c.at() + ": bound " + bound + " above the optimum " + optimum);
            long single = PeakBound.of(c.g(), c.budget(), Long.MAX_VALUE, CAP, Limits.DEFAULT).traffic();
            positive += bound > 0 ? 1 : 0;
            above += bound > single ? 1 : 0;
            cases++;
        }
        assertTrue(cases == 428 && positive >= 20, cases + " cases, the bound positive on only " + positive);
        // Summing over time, it passes the single-step bound (PeakBound) somewhere.
        assertTrue(above >= 1, "never above the single step in " + cases + " cases");
    }

    /**
     * On the NAS networks at M_R and M_H (activations; the bytes of `memplan budgets G`, M_P proven minimal by the
     * DP over down-sets), with a small state cap: never above the traffic of a checked plan (BENCHMARKS.md, issue 35),
     * PNASNet M_H's being its proven optimum.
     */
    @Test
    void neverAboveTheNasPlans() {
        Object[][] cases = {{"nasnet", 544_800L, 310_464L}, {"nasnet", 606_293L, 172_480L},
            {"pnasnet", 554_445L, 413_952L}, {"pnasnet", 616_381L, 123_872L},
            {"amoebanet", 544_800L, 382_592L}, {"amoebanet", 623_430L, 189_728L}};
        for (Object[] c : cases) {
            Graph g = Zoo.graph((String) c[0]).withSetting(TensorSetting.ACTIVATIONS);
            ReloadChainBound.Result r = ReloadChainBound.of(g, (Long) c[1], 2_000);
            assertTrue(r.layers() > 0 && r.layers() < g.operatorCount(), c[0] + ": " + r);
            assertTrue(r.traffic() <= (Long) c[2], c[0] + " at " + c[1] + ": " + r + " above the plan " + c[2]);
        }
    }
}
