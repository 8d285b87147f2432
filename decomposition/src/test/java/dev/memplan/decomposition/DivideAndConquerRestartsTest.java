package dev.memplan.decomposition;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.formulations.BruteForceAccess;
import dev.memplan.formulations.cosma.CosmaSolver;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.model.Budgets;
import dev.memplan.model.Graph;
import dev.memplan.model.JustInTimePlanner;
import dev.memplan.model.Limits;
import dev.memplan.model.Plan;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.Schedule;
import dev.memplan.model.TensorSetting;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Divide and conquer's restarts (a class of their own, so that they run beside {@link DivideAndConquerTest}'s cases
 * in the build's other test JVM).
 */
class DivideAndConquerRestartsTest {
    private static final CosmaSolver.Options COSMA = CosmaSolver.Options.traffic(Backend.CPSAT).withDecoupled(true, null);
    private static final TensorSetting ACT = TensorSetting.ACTIVATIONS;

    /**
     * Restarts: once every kind of pass has come up empty with time left, the windows run again from each
     * alternative plan (cheapest first). The result stays valid, never below the brute-force optimum, never above
     * the run without alternatives nor above any alternative; and on some graphs a restart's windows find a plan
     * that neither the first search nor the alternatives as they are reach.
     */
    @Test
    void restartsSearchFromTheAlternativesWhenThePassesComeUpEmpty() {
        Random random = new Random(5);
        Limits limits = Limits.ofWall(Duration.ofSeconds(60));
        // Without the stem plans: on graphs this small the stem is the whole graph, whose plan would end the run first.
        DivideAndConquer.Options options = DivideAndConquer.Options.of(COSMA).withMaxPart(2).withStemPlans(false);
        int restarted = 0;
        int helped = 0;
        for (int i = 0; i < 6; i++) {
            Graph g = BruteForceAccess.randomTinyGraph(random, 7, false).withSetting(ACT);
            long budget = Budgets.minimumRequired(g);
            long optimum = BruteForceAccess.minTraffic(g, ACT, budget, null);
            List<Plan> starts = List.of(new JustInTimePlanner(null).plan(g, ACT, budget, Limits.DEFAULT));
            List<Plan> alternatives = new ArrayList<>();
            long cheapestAlternative = Long.MAX_VALUE;
            for (int k = 0; k < 3; k++) {
                Plan p = new JustInTimePlanner(randomOrder(g, random)).plan(g, ACT, budget, Limits.DEFAULT);
                alternatives.add(p);
                cheapestAlternative = Math.min(cheapestAlternative, PlanChecker.requireValid(g, p, "test").traffic()
                        .nonCompulsory());
            }
            DncResult alone = DivideAndConquer.solve(g, ACT, budget, options, limits, starts, line -> { });
            List<String> lines = new ArrayList<>();
            DncResult r = DivideAndConquer.solve(g, ACT, budget, options, limits, starts, alternatives, lines::add);
            assertTrue(PlanChecker.check(g, r.plan()).valid());
            assertTrue(r.traffic() >= optimum, r.traffic() + " < optimum " + optimum);
            assertTrue(r.traffic() <= alone.traffic() && r.traffic() <= cheapestAlternative, r.traffic() + " vs "
                    + alone.traffic() + ", " + cheapestAlternative);
            boolean again = lines.stream().anyMatch(l -> l.contains("the windows again, from restart"));
            restarted += again ? 1 : 0;
            if (r.traffic() < Math.min(alone.traffic(), cheapestAlternative)) {
                helped++;
                assertTrue(again && r.source().startsWith("restart") && r.source().endsWith(", windows"), r.source());
            }
        }
        assertTrue(restarted > 0 && helped > 0, "restarted " + restarted + ", helped " + helped);
    }

    /** A random topological order of the graph. */
    private static Schedule randomOrder(Graph g, Random random) {
        List<Integer> order = new ArrayList<>();
        boolean[] done = new boolean[g.operatorCount()];
        while (order.size() < g.operatorCount()) {
            List<Integer> ready = new ArrayList<>();
            for (int o = 0; o < g.operatorCount(); o++) {
                boolean ok = !done[o];
                for (int t : g.inputs(o)) {
                    ok &= g.producer(t) < 0 || done[g.producer(t)];
                }
                if (ok) {
                    ready.add(o);
                }
            }
            int o = ready.get(random.nextInt(ready.size()));
            done[o] = true;
            order.add(o);
        }
        return Schedule.of(g, order.stream().mapToInt(Integer::intValue).toArray());
    }
}
