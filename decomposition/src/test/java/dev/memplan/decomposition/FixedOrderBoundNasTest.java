package dev.memplan.decomposition;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.memplan.baselines.replacement.AddressRule;
import dev.memplan.baselines.replacement.BeladyReplacement;
import dev.memplan.baselines.replacement.Scheme;
import dev.memplan.baselines.scheduling.GivenOrderScheduler;
import dev.memplan.baselines.scheduling.MinimumPeakScheduler;
import dev.memplan.datasets.zoo.Zoo;
import dev.memplan.formulations.cosma.FixedOrderBound;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.model.Budgets;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.PlanResult;
import dev.memplan.model.Schedule;
import dev.memplan.model.TensorSetting;
import org.junit.jupiter.api.Test;

/** The fixed-order caching bound on the order of NASNet's best plan at M_R (BENCHMARKS.md, issue 35). */
class FixedOrderBoundNasTest {

    @Test
    void nasnetsBestPlanAtMrIsTheOptimumOfItsOrder() {
        // The restart mpmf@1/belady/tflite is the best plan of `solve nasnet --budget M_R --work-limit 60`
        // (310,464 B); the fixed-schedule program proved it optimal for its order in session 13, the bound alone
        // proves it now.
        Graph g = Zoo.graph("nasnet").withSetting(TensorSetting.ACTIVATIONS);
        long mr = Budgets.minimumRequired(g);
        Schedule order = MinimumPeakScheduler.pinnedOrder(1, Backend.CPSAT).schedule(g, Limits.DEFAULT).schedule();
        PlanResult belady = new Scheme(new GivenOrderScheduler(order, "mpmf@1"), new BeladyReplacement(),
                AddressRule.TFLITE).solve(g, TensorSetting.ACTIVATIONS, mr, Limits.DEFAULT);
        long traffic = PlanChecker.requireValid(g, belady.plan(), "belady").traffic().nonCompulsory();
        assertEquals(310_464, traffic);
        assertEquals(traffic, FixedOrderBound.of(g, order.resolve(g), mr).traffic());
    }
}
