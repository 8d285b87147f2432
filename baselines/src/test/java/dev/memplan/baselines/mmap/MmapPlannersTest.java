package dev.memplan.baselines.mmap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.datasets.mmap.MmapInstances;
import dev.memplan.model.Limits;
import dev.memplan.model.mmap.MappingResult;
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

    @Test
    void aResultReportsItsRowsAndOnlyStatusWhenNothingWasFound() {
        MmapInstance trap = MmapPlayersTest.greedyTrap();
        MappingResult r = new GreedyMapping().plan(trap, new Limits(Duration.ofSeconds(10), 1, 0.0, 1L));
        List<String[]> rows = MmapPlanners.report(trap, r, "", "1.00 of 2 units");
        assertEquals(List.of("instance", "planner", "status", "reward", "bound", "actions", "checked", "time", "work"),
                rows.stream().map(row -> row[0]).filter(l -> !l.equals("note")).toList());
        assertEquals(MmapPlanners.describe(trap), rows.get(0)[1]);
        assertEquals("7", rows.get(3)[1]);
        assertEquals("valid", rows.get(6)[1]);
        assertEquals("1.00 of 2 units", rows.get(8)[1]);
        MappingResult none = new MappingResult("exact", null, dev.memplan.model.SolveStatus.UNKNOWN, 0, -1, 0.5,
                "out of time");
        assertEquals(List.of("instance", "planner", "status"),
                MmapPlanners.report(trap, none, " (cut)", null).stream().map(row -> row[0]).toList());
        assertEquals("UNKNOWN (cut)", MmapPlanners.report(trap, none, " (cut)", null).get(2)[1]);
    }

    @Test
    void aCapacityIsAByteCountCheckedBeforeTheInstanceIsRead() {
        assertEquals("--capacity must be >= 0, got -1", assertThrows(IllegalArgumentException.class,
                () -> MmapInstances.read("no-such-instance", name -> null, -1L)).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> MmapInstances.checkCapacity(1L << 54))
                .getMessage().startsWith("--capacity is 18014398509481984, above 2^53"));
        assertEquals(123, MmapInstances.read("gen:mmap:20:3", name -> null, 123L).capacity());
        assertEquals(MmapInstances.generated("gen:mmap:20:3").capacity(),
                MmapInstances.read("gen:mmap:20:3", name -> null, null).capacity());
    }
}
