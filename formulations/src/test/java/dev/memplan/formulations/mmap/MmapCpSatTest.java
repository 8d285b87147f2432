package dev.memplan.formulations.mmap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.datasets.mmap.MmapInstances;
import dev.memplan.datasets.zoo.Zoo;
import dev.memplan.model.Limits;
import dev.memplan.model.SolveStatus;
import dev.memplan.model.mmap.BruteForceMapping;
import dev.memplan.model.mmap.MappingChecker;
import dev.memplan.model.mmap.MappingResult;
import dev.memplan.model.mmap.MmapBuffer;
import dev.memplan.model.mmap.MmapInstance;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class MmapCpSatTest {

    /** A tiny random program: 3 instructions, 4 buffers over 2-3 tensors, capacity 3, an alias pair now and then. */
    static MmapInstance tiny(long seed) {
        Random rnd = new Random(seed);
        int t = 3;
        long[] supply = new long[t];
        for (int k = 0; k < t; k++) {
            supply[k] = rnd.nextInt(3);
        }
        List<MmapBuffer> buffers = new ArrayList<>();
        int n = 4;
        int[] times = new int[n];
        for (int i = 0; i < n; i++) {
            times[i] = rnd.nextInt(t);
        }
        java.util.Arrays.sort(times);
        for (int i = 0; i < n; i++) {
            boolean output = rnd.nextBoolean();
            int time = times[i];
            int first = output ? time : rnd.nextInt(time + 1);
            int last = output ? time + rnd.nextInt(t - time) : time;
            int alias = i >= 2 && rnd.nextInt(4) == 0 ? 7 : -1;
            buffers.add(new MmapBuffer(rnd.nextInt(2), alias, 1 + rnd.nextInt(2), output, time, first, last,
                    rnd.nextInt(3), 1 + rnd.nextInt(9)));
        }
        return new MmapInstance("tiny" + seed, 3, supply, buffers);
    }

    @Test
    void exactEqualsBruteForceOnTinyPrograms() {
        MmapCpSat exact = new MmapCpSat(null);
        for (long seed = 1; seed <= 40; seed++) {
            MmapInstance in = tiny(seed);
            MappingResult r = exact.plan(in, Limits.DEFAULT);
            assertEquals(SolveStatus.OPTIMAL, r.status(), in.name());
            assertEquals(BruteForceMapping.optimum(in), r.reward(), in.name());
            assertTrue(MappingChecker.check(in, r.mapping()).valid());
        }
    }

    /** The program without offsets bounds every mapping: never below the brute-force optimum. */
    @Test
    void theRelaxationWithoutOffsetsNeverBoundsBelowTheOptimum() {
        for (long seed = 1; seed <= 40; seed++) {
            MmapInstance in = tiny(seed);
            long optimum = BruteForceMapping.optimum(in);
            long bound = MmapCpSat.relaxationBound(in, Limits.DEFAULT);
            assertTrue(bound >= optimum, in.name() + ": bound " + bound + " < optimum " + optimum);
            assertTrue(bound <= in.benefitBound());
        }
    }

    /**
     * The time-indexed LP bounds every mapping: never below the brute-force optimum of the tiny programs, nor below
     * the proven optima of zoo instances, and never above the sum of the benefits.
     */
    @Test
    void theTimeIndexedLpNeverBoundsBelowTheOptimum() {
        int tighter = 0;
        for (long seed = 1; seed <= 40; seed++) {
            MmapInstance in = tiny(seed);
            long optimum = BruteForceMapping.optimum(in);
            long bound = MmapLpBound.of(in, Long.MAX_VALUE).orElseThrow();
            assertTrue(bound >= optimum, in.name() + ": LP bound " + bound + " < optimum " + optimum);
            assertTrue(bound <= in.benefitBound(), in.name());
            tighter += bound < in.benefitBound() ? 1 : 0;
        }
        assertTrue(tighter > 0, "the LP never cut below the sum of the benefits");
        // Proven optima (BENCHMARKS, "Two-level memory mapping"): ResNet-50 1,091,556, LR-ASPP 230,177.
        long resnet = MmapLpBound.of(dev.memplan.datasets.mmap.MmapInstances.fromGraph(
                dev.memplan.datasets.zoo.Zoo.build("resnet50").graph()), Long.MAX_VALUE).orElseThrow();
        assertTrue(resnet >= 1_091_556 && resnet < 1_200_000, "resnet50 LP bound " + resnet);
        long lraspp = MmapLpBound.of(dev.memplan.datasets.mmap.MmapInstances.fromGraph(
                dev.memplan.datasets.zoo.Zoo.build("lraspp_mobilenet_v3_large").graph()), Long.MAX_VALUE).orElseThrow();
        assertTrue(lraspp >= 230_177, "lraspp LP bound " + lraspp);
    }

    @Test
    void zooInstanceUnderATimeLimitGivesACheckedMappingAndABound() {
        MmapInstance in = MmapInstances.fromGraph(Zoo.graph("lraspp_mobilenet_v3_large"));
        MappingResult r = new MmapCpSat(null).plan(in, Limits.ofWall(Duration.ofSeconds(5)));
        assertTrue(r.status() == SolveStatus.OPTIMAL || r.status() == SolveStatus.FEASIBLE
                || r.status() == SolveStatus.UNKNOWN, r.toString());
        assertTrue(r.bound() >= r.reward() && r.bound() <= in.benefitBound());
        if (r.mapping() != null) {
            assertTrue(MappingChecker.check(in, r.mapping()).valid());
        }
    }
}
