package dev.memplan.baselines.scheduling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.baselines.replacement.AddressRule;
import dev.memplan.baselines.replacement.BeladyReplacement;
import dev.memplan.baselines.replacement.Scheme;
import dev.memplan.datasets.RandomGraphs;
import dev.memplan.datasets.TrainingGraphs;
import dev.memplan.datasets.zoo.Zoo;
import dev.memplan.model.Budget;
import dev.memplan.model.Budgets;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.MiniTrainingStep;
import dev.memplan.model.PlanResult;
import dev.memplan.model.Schedule;
import dev.memplan.model.TensorSetting;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class LeximaxSchedulerTest {

    @Test
    void theWeightGradientLeavesThePeakAndBeladyThenSpillsNothingWhereTheDefaultOrderMust() {
        Graph g = MiniTrainingStep.weightGradientOnThePeak();
        ScheduleResult r = new LeximaxScheduler().schedule(g, Limits.DEFAULT);
        r.schedule().validate(g);
        assertEquals(22, Budgets.footprint(g, Schedule.defaultOrder(g)));
        assertEquals(13, r.peak());
        List<String> order = r.schedule().operators();
        assertTrue(order.indexOf("wg") > order.indexOf("ig"),
                "the weight gradient runs after x2's last reader: " + order);
        // At 13 bytes the levelled order needs no spill; the default order must send x2 (10 bytes) off and back.
        long budget = 13;
        PlanResult levelled = new Scheme(new GivenOrderScheduler(r.schedule(), "leximax"), new BeladyReplacement(),
                AddressRule.TFLITE).solve(g, TensorSetting.ACTIVATIONS, budget, Limits.DEFAULT);
        PlanResult byDefault = new Scheme(new DefaultScheduler(), new BeladyReplacement(), AddressRule.TFLITE)
                .solve(g, TensorSetting.ACTIVATIONS, budget, Limits.DEFAULT);
        assertEquals(0, levelled.plan().traffic().nonCompulsory());
        assertEquals(20, byDefault.plan().traffic().nonCompulsory(), "x2 spilled and loaded again");
    }

    @Test
    void onRandomGraphsAndTheirTrainingStepsTheOrderIsTopologicalNoWorseThanTheDefaultAndTheSameTwice() {
        for (long seed = 1; seed <= 12; seed++) {
            Graph forward = RandomGraphs.layered(seed, 8 + (int) seed, 2, 3, 64, true);
            for (Graph g : List.of(forward, TrainingGraphs.of(forward, TrainingGraphs.Step.BACKWARD))) {
                Graph a = g.withSetting(TensorSetting.ACTIVATIONS);
                ScheduleResult r = new LeximaxScheduler().schedule(a, Limits.DEFAULT);
                r.schedule().validate(a);
                assertTrue(r.peak() <= Budgets.footprint(a, Schedule.defaultOrder(a)), g.name());
                assertEquals(r.schedule(), new LeximaxScheduler().schedule(a, Limits.DEFAULT).schedule());
            }
        }
    }

    /** resnet50's training step: its weight gradients (up to 2.4 MB) make the default order's peaks. */
    static Graph resnet50Step() {
        return TrainingGraphs.of(Zoo.graph("resnet50"), TrainingGraphs.Step.BACKWARD)
                .withSetting(TensorSetting.ACTIVATIONS);
    }

    @Test
    void onResnet50sTrainingStepThePeakFallsAndBeladyOnTheOrderSpillsLessThanOnTheDefaultOrder() {
        Graph g = resnet50Step();
        ScheduleResult r = new LeximaxScheduler().schedule(g, Limits.DEFAULT);
        r.schedule().validate(g);
        long dflt = Budgets.footprint(g, Schedule.defaultOrder(g));
        assertTrue(r.peak() < dflt, r.peak() + " vs the default order's " + dflt);
        long budget = Budgets.halfway(Budgets.minimumRequired(g), r.peak());
        PlanResult levelled = new Scheme(new GivenOrderScheduler(r.schedule(), "leximax"), new BeladyReplacement(),
                AddressRule.TFLITE).solve(g, TensorSetting.ACTIVATIONS, budget, Limits.DEFAULT);
        PlanResult byDefault = new Scheme(new DefaultScheduler(), new BeladyReplacement(), AddressRule.TFLITE)
                .solve(g, TensorSetting.ACTIVATIONS, budget, Limits.DEFAULT);
        assertTrue(levelled.plan().traffic().nonCompulsory() < byDefault.plan().traffic().nonCompulsory(),
                levelled.plan().traffic().nonCompulsory() + " vs " + byDefault.plan().traffic().nonCompulsory());
    }

    @Test
    void underAWorkLimitItStopsWithinItAtATopologicalOrderTheSameOnEveryRun() {
        Graph g = resnet50Step();
        double units = 2000.0 / LeximaxScheduler.PROFILES_PER_UNIT;
        Schedule first = null;
        for (int run = 0; run < 2; run++) {
            Limits limits = Limits.DEFAULT.withBudget(Budget.ofWork(units, Duration.ofSeconds(60)));
            ScheduleResult r = new LeximaxScheduler().schedule(g, limits);
            r.schedule().validate(g);
            // The meter charges in batches of 1024 profiles: at most one batch past the limit.
            double used = limits.budget().workUsed();
            assertTrue(used >= units && used <= units + 1024.0 / LeximaxScheduler.PROFILES_PER_UNIT, "work " + used);
            if (first != null) {
                assertEquals(first, r.schedule());
            }
            first = r.schedule();
        }
        assertTrue(Budgets.footprint(g, first) <= Budgets.footprint(g, Schedule.defaultOrder(g)));
        assertTrue(!first.equals(new LeximaxScheduler().schedule(g, Limits.DEFAULT).schedule()),
                "the limit stopped the search before its end");
    }

    /**
     * Under a time limit alone (no work limit) the search stops when the clock runs out: on nasnet:train (1533
     * operators) the whole search takes over a minute, and {@code solve --time-limit 5} ran 76 s before the clock
     * was read inside it. The order it stops at is still topological and no higher than the default order.
     */
    @Test
    void underATimeLimitAloneItStopsWhenTheClockRunsOut() {
        Graph g = TrainingGraphs.of(Zoo.graph("nasnet"), TrainingGraphs.Step.BACKWARD)
                .withSetting(TensorSetting.ACTIVATIONS);
        Limits limits = Limits.ofWall(Duration.ofMillis(300));
        long began = System.nanoTime();
        ScheduleResult r = new LeximaxScheduler().schedule(g, limits);
        double seconds = (System.nanoTime() - began) / 1e9;
        r.schedule().validate(g);
        assertTrue(limits.budget().wallOver(), "the clock ran out");
        assertTrue(seconds < 10, seconds + " s for a 0.3 s limit");
        assertTrue(Budgets.footprint(g, r.schedule()) <= Budgets.footprint(g, Schedule.defaultOrder(g)));
    }
}
