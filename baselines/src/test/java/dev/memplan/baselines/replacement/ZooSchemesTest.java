package dev.memplan.baselines.replacement;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.baselines.scheduling.DefaultScheduler;
import dev.memplan.baselines.scheduling.MinimumPeakScheduler;
import dev.memplan.baselines.scheduling.ScheduleResult;
import dev.memplan.baselines.scheduling.Scheduler;
import dev.memplan.datasets.zoo.Zoo;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.model.Budgets;
import dev.memplan.model.CheckReport;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Plan;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.TensorSetting;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every paper scheme on every zoo network, both settings, at M_R, M_H and M_P: a plan the checker accepts. The
 * minimum-peak order is computed once per graph with a narrow beam (fast; the schemes' validity does not depend
 * on how good the order is), and M_P is that order's peak.
 */
class ZooSchemesTest {

    /** A scheduler that hands out one precomputed result. */
    private record Fixed(ScheduleResult result) implements Scheduler {
        @Override
        public String name() {
            return "mpmf";
        }

        @Override
        public ScheduleResult schedule(Graph graph, Limits limits) {
            return result;
        }
    }

    @Test
    void everyPaperSchemeGivesACheckedPlanOnEveryZooNetwork() {
        for (String name : Zoo.names()) {
            Graph full = Zoo.graph(name);
            for (TensorSetting s : TensorSetting.values()) {
                Graph g = full.withSetting(s);
                ScheduleResult mpmf = new MinimumPeakScheduler(64, Backend.CPSAT).schedule(g, Limits.DEFAULT);
                long mr = Budgets.minimumFeasible(g);
                long mp = Math.max(mr, mpmf.peak());
                for (long b : List.of(mr, Budgets.halfway(mr, mp), mp)) {
                    for (Scheduler scheduler : List.of(new DefaultScheduler(), new Fixed(mpmf))) {
                        for (ReplacementPolicy policy : List.of(new BeladyReplacement(), new GreedyReplacement())) {
                            Scheme scheme = new Scheme(scheduler, policy, AddressRule.TFLITE);
                            Plan p = scheme.plan(full, s, b, Limits.DEFAULT);
                            CheckReport r = PlanChecker.check(g, p);
                            assertTrue(r.valid(), name + " " + s + " " + scheme.name() + " at " + b + ": "
                                    + r.violations().stream().limit(3).toList());
                        }
                    }
                }
            }
        }
    }
}
