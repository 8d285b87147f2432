package dev.memplan.baselines.mmap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.datasets.mmap.MmapInstances;
import dev.memplan.datasets.zoo.Zoo;
import dev.memplan.formulations.mmap.MmapCpSat;
import dev.memplan.model.Limits;
import dev.memplan.model.SolveStatus;
import dev.memplan.model.mmap.Action;
import dev.memplan.model.mmap.BruteForceMapping;
import dev.memplan.model.mmap.Decision;
import dev.memplan.model.mmap.MappingChecker;
import dev.memplan.model.mmap.MappingPlanner;
import dev.memplan.model.mmap.MappingResult;
import dev.memplan.model.mmap.MmapBuffer;
import dev.memplan.model.mmap.MmapInstance;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class MmapPlayersTest {

    private static final List<MappingPlanner> PLAYERS = List.of(new GreedyMapping(), new RandomPlay(),
            new MctsPlay(8, 8, 1.0));

    private static MmapBuffer input(int tensor, int alias, long size, int time, int first, long demand, long benefit) {
        return new MmapBuffer(tensor, alias, size, false, time, first, time, demand, benefit);
    }

    /**
     * Capacity 10 at one instruction: A (6 bytes, benefit 7) has the best benefit per byte, so the greedy policy
     * takes it and then neither B nor C (5 bytes, benefit 5 each) fits; the optimum takes B and C (10 > 7).
     */
    static MmapInstance greedyTrap() {
        return new MmapInstance("trap", 10, new long[] {1}, List.of(input(0, -1, 6, 0, 0, 0, 7),
                input(1, -1, 5, 0, 0, 0, 5), input(2, -1, 5, 0, 0, 0, 5)));
    }

    @Test
    void greedyIsProvablySuboptimalOnTheTrap() {
        MmapInstance in = greedyTrap();
        MappingResult greedy = new GreedyMapping().plan(in, Limits.DEFAULT);
        MappingResult exact = new MmapCpSat(new GreedyMapping()).plan(in, Limits.DEFAULT);
        assertEquals(7, greedy.reward());
        assertEquals(SolveStatus.OPTIMAL, exact.status());
        assertEquals(10, exact.reward());
        assertEquals(10, BruteForceMapping.optimum(in));
        assertTrue(greedy.reward() < exact.reward());
        // The search sees that dropping A leaves room for B and C.
        assertEquals(10, new MctsPlay().plan(in, Limits.DEFAULT).reward());
    }

    @Test
    void everyPlayerGivesACheckedMappingOnRandomProgramsAndTheZoo() {
        List<MmapInstance> instances = List.of(MmapInstances.random(1, 300), MmapInstances.random(2, 300),
                MmapInstances.fromGraph(Zoo.graph("lraspp_mobilenet_v3_large")));
        for (MmapInstance in : instances) {
            for (MappingPlanner p : PLAYERS) {
                MappingResult r = p.plan(in, new Limits(Duration.ofSeconds(5), 1, 0, 3));
                assertNotNull(r.mapping());
                assertTrue(MappingChecker.check(in, r.mapping()).valid(), p.name() + " on " + in.name());
                assertTrue(r.reward() <= in.benefitBound());
            }
            MappingResult exact = new MmapCpSat(new GreedyMapping()).plan(in,
                    Limits.ofWall(Duration.ofSeconds(1)));
            assertTrue(exact.reward() >= new GreedyMapping().plan(in, Limits.DEFAULT).reward());
            assertTrue(exact.bound() >= exact.reward());
        }
    }

    @Test
    void playersNeverBeatTheExactOptimumOnTinyPrograms() {
        for (long seed = 1; seed <= 15; seed++) {
            MmapInstance in = MmapInstances.random(seed, 8).withCapacity(MmapInstances.random(seed, 8).capacity() / 3);
            long optimum = new MmapCpSat(null).plan(in, Limits.DEFAULT).reward();
            for (MappingPlanner p : PLAYERS) {
                MappingResult r = p.plan(in, new Limits(null, 1, 0, seed));
                assertTrue(MappingChecker.check(in, r.mapping()).valid());
                assertTrue(r.reward() <= optimum, p.name() + " beats the optimum on " + in.name());
            }
        }
    }

    @Test
    void dropBackupRecoversFromAnAliasGroupThatCannotBePlacedWhole() {
        // A fits, its alias partner B (same group, 4 bytes) never does; placing A dooms the game at B.
        MmapInstance in = new MmapInstance("backup", 3, new long[] {1, 1}, List.of(input(0, 5, 2, 0, 0, 0, 9),
                input(1, 5, 4, 1, 1, 0, 9), input(2, -1, 1, 1, 1, 0, 1)));
        MmapGame game = new MmapGame(in);
        game.play(game.options()[Action.COPY.ordinal()]);
        assertTrue(MmapGame.infeasible(game.options()));
        assertEquals(0, game.backupReward());
        game.dropBackup();
        assertEquals(0, game.step());
        Decision[] first = game.options();
        assertEquals(Decision.DROP, first[Action.DROP.ordinal()]);
        assertEquals(null, first[Action.COPY.ordinal()]);
        game.play(Decision.DROP);
        game.play(game.options()[Action.DROP.ordinal()]);
        game.play(game.options()[Action.COPY.ordinal()]);
        assertTrue(game.done());
        assertEquals(1, game.backups());
        assertTrue(MappingChecker.check(in, game.mapping()).valid());
        for (MappingPlanner p : PLAYERS) {
            assertEquals(1, p.plan(in, Limits.DEFAULT).reward(), p.name());
        }
    }
}
