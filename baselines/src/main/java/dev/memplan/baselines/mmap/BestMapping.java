package dev.memplan.baselines.mmap;

import dev.memplan.model.Limits;
import dev.memplan.model.mmap.MappingPlanner;
import dev.memplan.model.mmap.MappingResult;
import dev.memplan.model.mmap.MmapInstance;
import java.time.Duration;
import java.util.List;

/**
 * The best of several players' mappings, each run in turn with an equal share of the time left: the start of
 * the exact program, so that it is never below any of them.
 */
public final class BestMapping implements MappingPlanner {
    private final List<MappingPlanner> players;

    public BestMapping(List<MappingPlanner> players) {
        if (players.isEmpty()) {
            throw new IllegalArgumentException("need at least one player");
        }
        this.players = List.copyOf(players);
    }

    /** The greedy policy and MCTS. */
    public static BestMapping greedyAndSearch() {
        return new BestMapping(List.of(new GreedyMapping(), new MctsPlay()));
    }

    @Override
    public String name() {
        return "best of " + String.join(", ", players.stream().map(MappingPlanner::name).toList());
    }

    @Override
    public MappingResult plan(MmapInstance in, Limits limits) {
        long start = System.nanoTime();
        MappingResult best = null;
        for (int k = 0; k < players.size(); k++) {
            Limits share = limits;
            if (limits.budget().limited()) {
                // An equal split of what is left (work under a work limit: the players charge it) among the rest.
                share = limits.upTo(Math.max(1, limits.budget().left() / (players.size() - k)));
            }
            MappingResult r = players.get(k).plan(in, share);
            if (best == null || r.mapping() != null && r.reward() > best.reward()) {
                best = r;
            }
        }
        return best;
    }
}
