package dev.memplan.baselines.mmap;

import dev.memplan.model.Limits;
import dev.memplan.model.SolveStatus;
import dev.memplan.model.mmap.Decision;
import dev.memplan.model.mmap.MappingPlanner;
import dev.memplan.model.mmap.MappingResult;
import dev.memplan.model.mmap.MmapInstance;
import java.util.Random;

/**
 * Random legal play of the {@link MmapGame}: every buffer in order gets an action drawn uniformly from its legal
 * ones (seeded by the limits' seed); an infeasible state takes the paper's Drop-backup. A floor for the other
 * players. Time O(n) first fits.
 */
public final class RandomPlay implements MappingPlanner {

    public static final String NAME = "random";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public MappingResult plan(MmapInstance in, Limits limits) {
        long start = System.nanoTime();
        Random rnd = new Random(limits.seed());
        MmapGame game = new MmapGame(in);
        while (!game.done()) {
            Decision[] options = game.options();
            if (MmapGame.infeasible(options)) {
                game.dropBackup();
                continue;
            }
            game.play(pick(options, rnd));
        }
        return MappingResult.checked(NAME, in, game.mapping(), SolveStatus.HEURISTIC, -1, start,
                game.backups() + " drop-backups");
    }

    /** A legal option chosen uniformly. */
    static Decision pick(Decision[] options, Random rnd) {
        int k = rnd.nextInt(MmapGame.legalCount(options));
        for (Decision d : options) {
            if (d != null && k-- == 0) {
                return d;
            }
        }
        throw new IllegalStateException("bug: no legal option");
    }
}
