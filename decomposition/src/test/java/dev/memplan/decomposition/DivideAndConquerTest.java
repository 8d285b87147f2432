package dev.memplan.decomposition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.datasets.zoo.Zoo;
import dev.memplan.formulations.BruteForceAccess;
import dev.memplan.formulations.cosma.CosmaResult;
import dev.memplan.formulations.cosma.CosmaSolver;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.model.Budgets;
import dev.memplan.model.Budget;
import dev.memplan.model.Graph;
import dev.memplan.model.JustInTimePlanner;
import dev.memplan.model.Limits;
import dev.memplan.model.Plan;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.Schedule;
import dev.memplan.model.SolveStatus;
import dev.memplan.model.TensorSetting;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class DivideAndConquerTest {
    private static final CosmaSolver.Options COSMA = CosmaSolver.Options.traffic(Backend.CPSAT).withDecoupled(true, null);
    private static final TensorSetting ACT = TensorSetting.ACTIVATIONS;

    private static DncResult dnc(Graph g, long budget, DivideAndConquer.Options options) {
        return DivideAndConquer.solve(g, ACT, budget, options, Limits.DEFAULT, List.of(), line -> { });
    }

    /** Every stage valid and never below the brute-force optimum; handover never worse than spill at cut. */
    @Test
    void stitchedPlansAreValidNeverBelowTheOptimumAndHandoverNeverCostsMore() {
        Random random = new Random(13);
        for (int i = 0; i < 8; i++) {
            Graph g = BruteForceAccess.randomTinyGraph(random, 6, false).withSetting(ACT);
            long mr = Budgets.minimumRequired(g);
            long mp = BruteForceAccess.minPeak(g);
            for (long budget : new long[] {mr, Budgets.halfway(mr, mp), mp}) {
                long optimum = BruteForceAccess.minTraffic(g, ACT, budget, null);
                for (int maxPart : new int[] {2, 3}) {
                    DncResult r = dnc(g, budget, DivideAndConquer.Options.of(COSMA).withMaxPart(maxPart));
                    assertTrue(PlanChecker.check(g, r.plan()).valid());
                    assertTrue(r.traffic() >= optimum, "below the optimum: " + r.traffic() + " < " + optimum);
                    assertTrue(r.handover() <= r.spillAtCut(), "handover " + r.handover() + " > spill at cut "
                            + r.spillAtCut());
                    assertTrue(r.traffic() <= r.handover());
                    if (r.bound() != null) {
                        assertTrue(r.bound() <= optimum);
                    }
                    if (r.status() == SolveStatus.OPTIMAL) {
                        assertEquals(optimum, r.traffic());
                    }
                }
            }
        }
    }

    /** A chain cut in the middle with room to spare: spilling at the cut pays a round trip, handing over nothing. */
    @Test
    void handingTheStateOverSavesTheRoundTripAtACut() {
        Graph g = Graph.builder("chain")
                .activation("x", 2).activation("a", 4).activation("b", 4).activation("c", 4).activation("d", 4)
                .operator("oa", List.of("x"), List.of("a"))
                .operator("ob", List.of("a"), List.of("b"))
                .operator("oc", List.of("b"), List.of("c"))
                .operator("od", List.of("c"), List.of("d"))
                .output("d").build();
        // Without the stem plans: the stem (the whole chain) would plan it without the round trip in both runs.
        DivideAndConquer.Options options = DivideAndConquer.Options.of(COSMA).withBreakNodes(List.of("ob"))
                .withWindows(false).withStemPlans(false);
        DncResult r = dnc(g, 100, options);
        assertEquals(2, r.partition().size());
        assertEquals(8, r.spillAtCut(), "b is spilled and loaded again at the cut");
        assertEquals(0, r.handover());
        assertEquals(0, r.traffic());
        DncResult paper = dnc(g, 100, options.withHandover(false));
        assertEquals(8, paper.traffic());
    }

    /** One part: the plan of the monolithic pipeline, the same traffic. */
    @Test
    void onePartGivesTheMonolithicAnswer() {
        Random random = new Random(7);
        for (int i = 0; i < 6; i++) {
            Graph g = BruteForceAccess.randomTinyGraph(random, 6, false).withSetting(ACT);
            long budget = Budgets.halfway(Budgets.minimumRequired(g), BruteForceAccess.minPeak(g));
            CosmaResult whole = CosmaSolver.solve(g, ACT, budget, COSMA, Limits.DEFAULT);
            DncResult r = dnc(g, budget, DivideAndConquer.Options.of(COSMA).withMaxPart(g.operatorCount()));
            assertEquals(1, r.partition().size());
            assertEquals(whole.objective().longValue(), r.spillAtCut());
            assertEquals(whole.objective().longValue(), r.traffic());
        }
    }

    /**
     * A human-designed network split on purpose (it is below the auto threshold): valid, never below the
     * monolithic optimum, never above the fixed-schedule optimum it starts from.
     */
    @Test
    void aSmallZooNetworkSplitIsNeverWorseThanItsStartNorBelowTheOptimum() {
        Graph g = Zoo.graph("resnet50").withSetting(ACT);
        long budget = Budgets.minimumRequired(g);
        Limits limits = Limits.ofWall(Duration.ofSeconds(10));
        CosmaResult whole = CosmaSolver.solve(g, ACT, budget, COSMA, limits);
        CosmaResult fs = CosmaSolver.solve(g, ACT, budget, COSMA.withSchedule(Schedule.defaultOrder(g)), limits);
        DncResult r = DivideAndConquer.solve(g, ACT, budget, DivideAndConquer.Options.of(COSMA).withMaxPart(20),
                limits, List.of(fs.plan()), line -> { });
        assertTrue(r.partition().size() > 1);
        assertTrue(PlanChecker.check(g, r.plan()).valid());
        assertTrue(r.traffic() <= fs.objective());
        if (whole.status() == SolveStatus.OPTIMAL) {
            assertTrue(r.traffic() >= whole.objective());
        }
    }

    /**
     * Past the command's deadline no part is solved and nothing is stitched (853 parts of a 20,000-operator graph
     * were once stitched 18 s after a 5 s limit): the best starting plan comes back as it was, checked.
     */
    @Test
    void pastTheDeadlineTheStartComesBackWithoutStitching() {
        Random random = new Random(21);
        Limits expired = Limits.DEFAULT.withBudget(Budget.ofWall(Duration.ZERO));
        int discriminating = 0;
        for (int i = 0; i < 6; i++) {
            Graph g = BruteForceAccess.randomTinyGraph(random, 6, false).withSetting(ACT);
            long budget = Budgets.minimumRequired(g);
            Plan start = new JustInTimePlanner(null).plan(g, ACT, budget, Limits.DEFAULT);
            long startTraffic = PlanChecker.requireValid(g, start, "test").traffic().nonCompulsory();
            if (startTraffic > BruteForceAccess.minTraffic(g, ACT, budget, null)) {
                discriminating++;
            }
            List<String> log = new ArrayList<>();
            DncResult r = DivideAndConquer.solve(g, ACT, budget, DivideAndConquer.Options.of(COSMA).withMaxPart(2),
                    expired, List.of(start), log::add);
            assertEquals(null, r.spillAtCut(), String.join("\n", log));
            assertEquals(0, r.windowsTried());
            assertEquals(startTraffic, r.traffic());
            assertTrue(PlanChecker.check(g, r.plan()).valid());
        }
        assertTrue(discriminating > 0, "some start must leave room for the parts to improve");
    }

    /**
     * --decompose auto divides the NAS networks at once (their whole program returns only its starting plan) and
     * tries a generated layered graph of the same size whole first (proven optimal whole within seconds).
     */
    @Test
    void autoTriesTheWholeGraphFirstOnlyWhereItsProgramIsSmall() {
        for (String nas : List.of("nasnet", "pnasnet", "amoebanet", "darts")) {
            String why = DivideAndConquer.wholeFirstDoesNotPayOff(Zoo.graph(nas).withSetting(ACT), Limits.DEFAULT);
            assertTrue(why != null && why.contains("nonzeros or more"), nas + ": " + why);
        }
        Graph layered = dev.memplan.datasets.GeneratedGraphs.graph("gen:layered:500").withSetting(ACT);
        assertEquals(null, DivideAndConquer.wholeFirstDoesNotPayOff(layered, Limits.DEFAULT));
    }

    /**
     * A graph of at most 300 operators whose whole program is large for its size (gen:cells:50:train, 123 operators,
     * about 577,000 nonzeros) gets divide and conquer after the whole program under auto: both run, and the answer is
     * checked and no worse than the whole program's plan. Every zoo network's activations below 300 operators keep
     * the whole program alone (their proven cases keep the whole limit).
     */
    @Test
    void autoFollowsALargeProgramOfASmallGraphByDivideAndConquer() {
        for (String name : Zoo.names()) {
            Graph g = Zoo.graph(name).withSetting(ACT);
            if (g.operatorCount() <= DivideAndConquer.AUTO_THRESHOLD) {
                assertEquals(null, DivideAndConquer.smallGraphWholeFirst(g), name);
            }
        }
        Graph g = dev.memplan.datasets.TrainingGraphs.of(dev.memplan.datasets.GeneratedGraphs.graph("gen:cells:50"),
                dev.memplan.datasets.TrainingGraphs.Step.BACKWARD);
        Graph act = g.withSetting(ACT);
        assertTrue(act.operatorCount() <= DivideAndConquer.AUTO_THRESHOLD, act.operatorCount() + " operators");
        String why = DivideAndConquer.smallGraphWholeFirst(act);
        assertTrue(why != null && why.contains("nonzeros or more"), why);
        List<String> lines = new ArrayList<>();
        CosmaPipeline.Outcome auto = new CosmaPipeline(CosmaPipeline.Settings.of(COSMA, null), lines::add)
                .run(g, ACT, Budgets.minimumRequired(act), Limits.DEFAULT.withBudget(Budget.ofWork(3, null)), null);
        assertTrue(auto.whole() != null && auto.dnc() != null, String.join("\n", lines));
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("decompose auto: the whole graph first, then divide")),
                String.join("\n", lines));
        assertTrue(PlanChecker.check(act, auto.result().plan()).valid());
        assertTrue(auto.whole().plan() == null || auto.result().objective() <= auto.whole().objective());
    }
}
