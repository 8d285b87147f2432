package dev.memplan.decomposition;

import static dev.memplan.decomposition.RecomputeSearchTest.belady;
import static dev.memplan.formulations.RecomputeGraphs.skips;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.model.Budgets;
import dev.memplan.model.Graph;
import dev.memplan.model.Objective;
import dev.memplan.model.Plan;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.PlanResult;
import dev.memplan.model.TensorSetting;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link RecomputeChoice#starts}: the plan RerunCover displaced runs first, then the best plan, the spill-only plan and
 * the lowest raw plans, one fewer of those with a displaced plan (the same number of starts in all), none twice.
 */
class RecomputeChoiceTest {
    private static final TensorSetting ALL = TensorSetting.ALL;
    private static final double LAMBDA = 0.125;

    @Test
    void theDisplacedPlanRunsFirstAndTakesARawStartsPlace() {
        Graph g = skips(420, 24).withSetting(ALL);
        long mr = Budgets.minimumRequired(g);
        // Raw plans: Belady's at budgets from M_R up, each valid, the distinct ones only.
        List<RecomputeOutcome.Candidate> raw = new ArrayList<>();
        List<Plan> seen = new ArrayList<>();
        for (long b = mr + 2; b < mr + 400 && raw.size() < RecomputeChoice.CHOOSE_RAW_STARTS + 2; b++) {
            Plan p = belady(g, b);
            if (seen.stream().noneMatch(s -> s.segments().equals(p.segments()))) {
                seen.add(p);
                raw.add(new RecomputeOutcome.Candidate("belady@" + b, PlanResult.heuristic("belady", g, p, 0),
                        Objective.of(PlanChecker.check(g, p).traffic(), LAMBDA)));
            }
        }
        assertTrue(raw.size() > RecomputeChoice.CHOOSE_RAW_STARTS, raw.size() + " distinct raw plans");
        Plan spill = belady(g, mr);
        Plan best = belady(g, mr + 1);
        Plan before = raw.get(raw.size() - 1).result().plan();
        RecomputeChoice choice = new RecomputeChoice(null, LAMBDA, s -> { });
        RecomputeChoice.Start bestStart = new RecomputeChoice.Start("best", best, null);
        RecomputeChoice.Start displaced = new RecomputeChoice.Start("before", before, null);

        List<RecomputeChoice.Start> without = choice.starts(g, raw, null, bestStart, null, spill);
        List<RecomputeChoice.Start> with = choice.starts(g, raw, null, bestStart, displaced, spill);
        assertSame(bestStart, without.get(0));
        assertEquals(RecomputeOutcome.SPILL_ONLY, without.get(1).name());
        assertEquals(2 + RecomputeChoice.CHOOSE_RAW_STARTS, without.size());
        assertSame(displaced, with.get(0));
        assertSame(bestStart, with.get(1));
        assertEquals(RecomputeOutcome.SPILL_ONLY, with.get(2).name());
        assertEquals(without.size(), with.size(), "one start more would shrink every start's share");
        for (int i = 0; i < with.size(); i++) {
            for (int j = i + 1; j < with.size(); j++) {
                assertTrue(!with.get(i).plan().segments().equals(with.get(j).plan().segments())
                        || !with.get(i).plan().schedule().equals(with.get(j).plan().schedule()), i + " = " + j);
            }
        }
        // The raw starts with a displaced plan are the lowest of those without it, less the displaced one.
        List<String> rawWithout = without.subList(2, without.size()).stream().map(RecomputeChoice.Start::name)
                .filter(n -> !n.equals(raw.get(raw.size() - 1).name())).toList();
        List<String> rawWith = with.subList(3, with.size()).stream().map(RecomputeChoice.Start::name).toList();
        assertEquals(rawWithout.subList(0, rawWith.size()), rawWith);
    }
}
