package dev.memplan.decomposition;

import static dev.memplan.formulations.RecomputeGraphs.skips;
import static dev.memplan.formulations.RecomputeGraphs.tiny;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.baselines.replacement.Schemes;
import dev.memplan.formulations.BruteForceAccess;
import dev.memplan.formulations.cosma.OrderProgram;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.formulations.milp.SolverResult;
import dev.memplan.formulations.milp.Solvers;
import dev.memplan.model.Budget;
import dev.memplan.model.Budgets;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Plan;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.Schedule;
import dev.memplan.model.TensorSetting;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * {@link OrderCover} against the exhaustive spill-only oracle with the order fixed: wherever it returns a plan, the
 * plan is valid, keeps the order and pays the oracle's optimum of that order (the program's optimum is the order's
 * least traffic without addresses, at most the oracle's, and a packed plan pays it); it returns one on most cases,
 * and on some it is strictly below a scheme's plan in the same order.
 */
class OrderCoverTest {
    private static final TensorSetting ALL = TensorSetting.ALL;

    private static List<Graph> graphs() {
        List<Graph> graphs = new ArrayList<>();
        for (long seed = 1; seed <= 8; seed++) {
            graphs.add(tiny(seed, 5));
            graphs.add(skips(seed, 6));
        }
        return graphs;
    }

    @Test
    void everyPlanItReturnsIsTheOrdersOptimum() {
        Assumptions.assumeTrue(Solvers.nativeAvailable(), "OR-Tools natives");
        int planned = 0;
        int cases = 0;
        for (Graph graph : graphs()) {
            Graph g = graph.withSetting(ALL);
            long mr = Budgets.minimumRequired(g);
            Schedule order = Schedule.defaultOrder(g);
            for (long budget = mr; budget <= mr + 3; budget++) {
                cases++;
                Plan from = new Plan(g.name(), ALL, budget, order, Map.of(), null, null);
                Plan p = OrderCover.of(g, from, budget, Limits.DEFAULT);
                long optimum = BruteForceAccess.minTraffic(graph, ALL, budget, order);
                if (p == null) {
                    continue;
                }
                planned++;
                assertTrue(PlanChecker.check(g, p).valid(), g.name() + " at " + budget);
                assertEquals(order, p.schedule(), g.name() + " at " + budget);
                assertEquals(optimum, p.traffic().nonCompulsory(), g.name() + " at " + budget);
            }
        }
        assertTrue(planned >= cases * 3 / 4, planned + " plans of " + cases + " cases");
    }

    /**
     * With margins ({@link OrderCover#cover} when the first packing does not fit): wherever the cover without them
     * gives a plan, so does the cover with them, at the same traffic (the order's optimum), valid and in the order.
     * (Where the first optimum does not pack at M_R and a margin's does: deeplabv3_resnet50:train, BENCHMARKS.md "Full
     * sinks moved last together"; none of these small cases.)
     */
    @Test
    void aCoverWithMarginsIsTheCoverWhereThatPacks() {
        Assumptions.assumeTrue(Solvers.nativeAvailable(), "OR-Tools natives");
        int planned = 0;
        for (Graph graph : graphs()) {
            Graph g = graph.withSetting(ALL);
            long mr = Budgets.minimumRequired(g);
            Schedule order = Schedule.defaultOrder(g);
            for (long budget = mr; budget <= mr + 3; budget++) {
                String at = g.name() + " at " + budget;
                Plan from = new Plan(g.name(), ALL, budget, order, Map.of(), null, null);
                Plan plain = OrderCover.of(g, from, budget, Limits.DEFAULT);
                OrderCover.Covered c = OrderCover.cover(g, from, from, budget, Limits.DEFAULT, true);
                if (plain == null) {
                    continue;
                }
                planned++;
                assertEquals(plain.traffic(), c.plan().traffic(), at);
                assertTrue(PlanChecker.check(g, c.plan()).valid(), at);
                assertEquals(order, c.plan().schedule(), at);
            }
        }
        assertTrue(planned > 0);
    }

    /**
     * The program with a margin ({@link OrderProgram#of(Graph, int[], long, long)}) against the exhaustive oracle:
     * where the budget less the margin is at least every operator's own bytes, its optimum is the oracle's least
     * traffic of the order at the budget less the margin (every row is that budget's); with a margin that leaves
     * some operator's own bytes above it, its optimum is at least the oracle's at the budget, and its solution is a
     * plan within the budget.
     */
    @Test
    void aMarginsProgramIsTheOrdersOptimumAtTheBudgetLessTheMargin() {
        Assumptions.assumeTrue(Solvers.nativeAvailable(), "OR-Tools natives");
        int tight = 0;
        for (Graph graph : graphs()) {
            Graph g = graph.withSetting(ALL);
            long mr = Budgets.minimumRequired(g);
            Schedule order = Schedule.defaultOrder(g);
            int[] firsts = order.resolve(g);
            for (long budget = mr; budget <= mr + 3; budget++) {
                for (long margin = 1; margin <= 3; margin++) {
                    String at = g.name() + " at " + budget + " less " + margin;
                    OrderProgram program = OrderProgram.of(g, firsts, budget, margin);
                    SolverResult r = Solvers.create(Backend.CPSAT).solve(program.model(), Limits.DEFAULT);
                    if (!r.hasSolution()) {
                        continue;
                    }
                    long value = Math.round(r.objective()) * program.unit();
                    if (budget - margin >= mr) {
                        assertEquals(BruteForceAccess.minTraffic(graph, ALL, budget - margin, order), value, at);
                    } else {
                        tight++;
                        assertTrue(value >= BruteForceAccess.minTraffic(graph, ALL, budget, order), at);
                        Plan loose = new Plan(g.name(), ALL, budget, order, program.segments(g, r), null, null);
                        long peak = dev.memplan.baselines.allocation.Portfolio.minimize(
                                dev.memplan.model.PlanBuffers.toBufferSet(g, loose), Limits.DEFAULT).lowerBound();
                        assertTrue(peak <= budget, at + ": " + peak + " bytes live at once");
                    }
                }
            }
        }
        assertTrue(tight > 0);
    }

    @Test
    void someOrdersPlanIsBelowTheSchemesInThatOrder() {
        Assumptions.assumeTrue(Solvers.nativeAvailable(), "OR-Tools natives");
        int lower = 0;
        for (Graph graph : graphs()) {
            Graph g = graph.withSetting(ALL);
            long mr = Budgets.minimumRequired(g);
            for (long budget = mr; budget <= mr + 3; budget++) {
                Plan scheme;
                try {
                    scheme = Schemes.byName("default/greedy/tflite").plan(graph, ALL, budget, Limits.DEFAULT);
                } catch (RuntimeException e) {
                    continue;
                }
                Plan p = OrderCover.of(g, scheme, budget, Limits.DEFAULT);
                if (p != null) {
                    assertEquals(scheme.schedule(), p.schedule());
                    assertTrue(p.traffic().nonCompulsory() <= scheme.traffic().nonCompulsory(), g.name());
                    if (p.traffic().nonCompulsory() < scheme.traffic().nonCompulsory()) {
                        lower++;
                    }
                }
            }
        }
        assertTrue(lower > 0, "no case where the exact cover beats the scheme's plan in its order");
    }

    /**
     * On a training step the default order's cover pays traffic where the levelled order's pays none: the lowest
     * of the covers is the levelled order's, named so; one order given twice is covered once, and on a graph that is
     * not a training step the orders given are all that is covered.
     */
    @Test
    void theLowestCoverOfTheOrdersGivenAndTheLevelledOne() {
        Assumptions.assumeTrue(Solvers.nativeAvailable(), "OR-Tools natives");
        Graph g = LevelledStartsTest.miniStep().withSetting(TensorSetting.ACTIVATIONS);
        Plan from = new Plan(g.name(), TensorSetting.ACTIVATIONS, 13, Schedule.defaultOrder(g), Map.of(), null, null);
        Plan own = OrderCover.of(g, from, 13, Limits.DEFAULT);
        assertTrue(own.traffic().nonCompulsory() > 0);
        OrderCover.Covered best = OrderCover.best(g, java.util.Arrays.asList(from, null, from),
                List.of("spill-only", "none", "again"), 13, Limits.DEFAULT);
        assertEquals(OrderCover.LEVELLED, best.source());
        assertEquals(0, best.plan().traffic().nonCompulsory());
        assertTrue(PlanChecker.check(g, best.plan()).valid());

        Graph other = tiny(3, 5).withSetting(ALL);
        long mr = Budgets.minimumRequired(other);
        Plan plain = new Plan(other.name(), ALL, mr, Schedule.defaultOrder(other), Map.of(), null, null);
        OrderCover.Covered only = OrderCover.best(other, List.of(plain), List.of("spill-only"), mr, Limits.DEFAULT);
        assertEquals("spill-only, " + OrderCover.SOURCE, only.source());
        assertEquals(OrderCover.of(other, plain, mr, Limits.DEFAULT).traffic(), only.plan().traffic());
    }

    /**
     * The plan given is the program's start (its segments as a hint): on r2plus1d18:train halfway between M_R and the
     * default order's peak, with a hundredth of a work unit, too little for CP-SAT to reach the order's optimum, the
     * cover started from the cover found with two units pays at most that plan (211,104,544; without the start it
     * ended at 214,502,400).
     */
    @Test
    void aCoverStartedFromAPlanNeverEndsAboveIt() {
        Assumptions.assumeTrue(Solvers.nativeAvailable(), "OR-Tools natives");
        Graph graph = dev.memplan.datasets.TrainingGraphs.of(dev.memplan.datasets.zoo.Zoo.graph("r2plus1d18"),
                dev.memplan.datasets.TrainingGraphs.Step.BACKWARD);
        TensorSetting act = TensorSetting.ACTIVATIONS;
        Graph g = graph.withSetting(act);
        long mh = Budgets.halfway(Budgets.minimumRequired(g), Budgets.footprint(g, Schedule.defaultOrder(g)));
        Plan scheme = Schemes.byName("default/belady/tflite").plan(graph, act, mh, Limits.DEFAULT);
        Plan good = OrderCover.of(g, scheme, mh, Limits.DEFAULT.withBudget(Budget.ofWork(2, null)));
        long start = good.traffic().nonCompulsory();
        Plan p = OrderCover.of(g, good, mh, Limits.DEFAULT.withBudget(Budget.ofWork(0.01, null)));
        org.junit.jupiter.api.Assertions.assertNotNull(p);
        assertTrue(p.traffic().nonCompulsory() <= start, p.traffic().nonCompulsory() + " > " + start);
    }

    @Test
    void aPlanThatRecomputesGivesNothing() {
        Assumptions.assumeTrue(Solvers.nativeAvailable(), "OR-Tools natives");
        Graph g = tiny(3, 5).withSetting(ALL);
        long mr = Budgets.minimumRequired(g);
        List<String> twice = new ArrayList<>(Schedule.defaultOrder(g).operators());
        twice.add(twice.get(0));
        Plan recomputing = new Plan(g.name(), ALL, mr, new Schedule(twice), Map.of(), null, null);
        assertNull(OrderCover.of(g, recomputing, mr, Limits.DEFAULT));
    }

    /**
     * Spent limits give nothing and build nothing, where the same order with limits gives a plan: the step ran
     * with its limit spent on a training step of 13,423 operators and built 5 GB of model before its solve read the
     * clock.
     */
    @Test
    void spentLimitsGiveNothing() {
        Assumptions.assumeTrue(Solvers.nativeAvailable(), "OR-Tools natives");
        Graph g = tiny(3, 5).withSetting(ALL);
        long mr = Budgets.minimumRequired(g);
        Plan from = new Plan(g.name(), ALL, mr, Schedule.defaultOrder(g), Map.of(), null, null);
        org.junit.jupiter.api.Assertions.assertNotNull(OrderCover.of(g, from, mr, Limits.DEFAULT));
        Limits spent = Limits.DEFAULT.withBudget(dev.memplan.model.Budget.ofWork(0, java.time.Duration.ofSeconds(60)));
        assertNull(OrderCover.of(g, from, mr, spent));
    }
}
