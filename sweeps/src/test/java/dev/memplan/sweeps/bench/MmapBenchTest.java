package dev.memplan.sweeps.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.baselines.mmap.MmapPlanners;
import dev.memplan.sweeps.SweepException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** bench mmap's spec and rows ({@link MmapBench}): its instances in order, its bounds, a row per planner. */
class MmapBenchTest {
    @Test
    void theInstancesAreTheNetworksThenTheGeneratedProgramsOfTheSeed() {
        assertEquals(List.of("resnet50", "gen:mmap:30:7"),
                MmapBench.Spec.of(List.of("resnet50"), List.of(" 30"), 5, 7, 8).instances());
        assertEquals(List.of("gen:mmap:30:7"), MmapBench.Spec.of(List.of("none"), List.of("30"), 5, 7, 8).instances());
        assertEquals(List.of("resnet50"), MmapBench.Spec.of(List.of("resnet50"), List.of("none"), 5, 7, 8).instances());
    }

    @Test
    void countsNetworksLimitsAndSimulationsOutOfBoundsAreRefusedWhenMade() {
        assertEquals("--random must be buffer counts from 1 to 1000000 (or 'none'), got '0'",
                assertThrows(SweepException.class, () -> MmapBench.Spec.of(List.of("none"), List.of("0"), 5, 1, 8))
                        .getMessage());
        assertTrue(assertThrows(SweepException.class, () -> MmapBench.Spec.of(List.of("nosuch"), List.of("none"), 5,
                1, 8)).getMessage().startsWith("no zoo network named 'nosuch'"));
        assertEquals("--time-limit must be a positive number of seconds, got 0.0", assertThrows(SweepException.class,
                () -> MmapBench.Spec.of(List.of("none"), List.of("10"), 0, 1, 8)).getMessage());
        assertThrows(SweepException.class, () -> MmapBench.Spec.of(List.of("none"), List.of("10"), 5, 1, 0));
    }

    @Test
    void eachInstanceGivesARowPerPlannerInOrder() {
        List<List<String[]>> handed = new ArrayList<>();
        MmapBench.run(MmapBench.Spec.of(List.of("none"), List.of("20"), 5, 3, 4), handed::add, line -> { });
        assertEquals(1, handed.size());
        List<String[]> rows = handed.get(0);
        assertEquals(MmapBench.PLANNERS.size(), rows.size());
        for (String[] row : rows) {
            assertEquals(MmapPlanners.HEADER.length, row.length);
            assertEquals("gen:mmap:20:3", row[0]);
        }
        assertEquals("greedy", rows.get(0)[2]);
    }
}
