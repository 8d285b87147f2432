package dev.memplan.decomposition;

import dev.memplan.baselines.replacement.AddressRule;
import dev.memplan.baselines.replacement.BeladyReplacement;
import dev.memplan.baselines.replacement.Scheme;
import dev.memplan.baselines.scheduling.GivenOrderScheduler;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Plan;
import dev.memplan.model.PlanResult;
import dev.memplan.model.TensorSetting;
import dev.memplan.model.Schedule;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Whole-graph plans from the stems {@link StemBound} proved (issue 35, item 3: the stem's best plans as starting
 * plans of divide and conquer): each proven stem's least-traffic order, extended to the whole graph by the order of
 * a plan the run already has ({@link StemBound#extend}: the stem's operators in the stem's order, each after its
 * ancestors, then the rest in that plan's order), planned by Belady's replacement with TFLite's addresses, checked and
 * offered to the run's best plan. Where the stem holds the whole graph's pressure, this meets the stem's bound (NASNet
 * at M_H: BENCHMARKS.md, "Plans from the stem"). Cost: one Belady plan and one check per stem and reference order.
 */
final class StemPlans {

    private StemPlans() {
    }

    /**
     * Offers the plans of every proven stem order of {@code growth}, extended by the orders of the run's best plan,
     * its starts and its alternatives (each distinct order once), to the run's best.
     */
    static void offer(DncRun run, StemBound.Growth growth) {
        Set<Schedule> references = new LinkedHashSet<>();
        if (run.best.plan() != null) {
            references.add(run.best.plan().schedule());
        }
        run.starts.forEach(p -> references.add(p.schedule()));
        run.alternatives.forEach(p -> references.add(p.schedule()));
        long before = run.best.traffic();
        List<Plan> plans = plans(run.g, run.setting, run.budget, growth.orders(), references, run.shares.limits());
        plans.forEach(p -> run.best.offer(p, "the stem's order, belady"));
        run.progress.accept(String.format(Locale.ROOT, "dnc: %d plans from %d proven stem orders, best traffic %d "
                + "(before %d)", plans.size(), growth.orders().size(), run.best.traffic(), before));
    }

    /**
     * The Belady plans (TFLite addresses) of each stem order extended by each reference order, each distinct whole
     * order once; unchecked (the caller checks them).
     *
     * @param g the graph in its tensor setting
     */
    static List<Plan> plans(Graph g, TensorSetting setting, long budget, List<int[]> stemOrders,
                            Collection<Schedule> references, Limits limits) {
        Set<Schedule> orders = new LinkedHashSet<>();
        for (int[] stemOrder : stemOrders) {
            for (Schedule reference : references) {
                orders.add(StemBound.extend(g, stemOrder, reference.resolve(g)));
            }
        }
        List<Plan> plans = new ArrayList<>();
        for (Schedule order : orders) {
            PlanResult r = new Scheme(new GivenOrderScheduler(order, "stem"), new BeladyReplacement(),
                    AddressRule.TFLITE).solve(g, setting, budget, limits);
            if (r.planned()) {
                plans.add(r.plan());
            }
        }
        return plans;
    }
}
