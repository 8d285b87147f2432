package dev.memplan.baselines.mmap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.model.Limits;
import dev.memplan.model.mmap.MmapInstance;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The planners by name, and their comparison: fast players first, each reward against the run's best bound. */
class MmapPlannersTest {
    @Test
    void everyNameHasItsPlannerAndAnUnknownOneNamesThemAll() {
        for (String name : MmapPlanners.NAMES) {
            MmapPlanners.byName(name, 8);
        }
        assertEquals("unknown planner 'annealing': use exact, greedy, mcts, random",
                assertThrows(IllegalArgumentException.class, () -> MmapPlanners.byName("annealing", 8)).getMessage());
    }

    @Test
    void theExactProgramRunsLastFromTheBestPlayerAndSetsTheBoundOfEveryRow() {
        MmapInstance trap = MmapPlayersTest.greedyTrap();
        List<String> progress = new ArrayList<>();
        List<String[]> rows = MmapPlanners.compare(trap, List.of("exact", "greedy"), 8, () -> 10.0,
                s -> new Limits(Duration.ofMillis(Math.round(s * 1000)), 1, 0.0, 1L), false, progress::add);
        assertEquals(List.of("greedy", "exact"), rows.stream().map(r -> r[2]).toList());
        assertTrue(progress.get(0).startsWith("mmap: greedy on trap (10.0 s)"), progress.toString());
        // The greedy policy takes A (7); the exact program proves B and C (10), the bound of both rows.
        assertEquals("7", rows.get(0)[4]);
        assertEquals("10", rows.get(1)[4]);
        assertEquals("10", rows.get(0)[5]);
        assertEquals("70.00%", rows.get(0)[6]);
        assertEquals("100.00%", rows.get(1)[6]);
    }
}
