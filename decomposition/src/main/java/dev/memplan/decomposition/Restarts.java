package dev.memplan.decomposition;

import dev.memplan.baselines.replacement.AddressRule;
import dev.memplan.baselines.replacement.BeladyReplacement;
import dev.memplan.baselines.replacement.GreedyReplacement;
import dev.memplan.baselines.replacement.ReplacementPolicy;
import dev.memplan.baselines.replacement.Scheme;
import dev.memplan.baselines.scheduling.GivenOrderScheduler;
import dev.memplan.baselines.scheduling.MinimumPeakScheduler;
import dev.memplan.formulations.cosma.CosmaResult;
import dev.memplan.formulations.cosma.CosmaSolver;
import dev.memplan.formulations.cosma.Technique;
import dev.memplan.model.Budget;
import dev.memplan.model.CheckReport;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Plan;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.PlanResult;
import dev.memplan.model.Schedule;
import dev.memplan.model.Shares;
import dev.memplan.model.SolveStatus;
import dev.memplan.model.SolverInfo;
import dev.memplan.model.TensorSetting;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The restarts ({@link Technique#RESTARTS}): starting plans of the COSMA pipeline from the minimum-peak beam at
 * narrower widths than the case's. Not to be confused with divide and conquer's reruns of its window search from
 * these plans ({@link WindowSearch#reruns}). Cost: one beam search per rung, two schemes per order, and at most
 * {@link Shares#RESTART_FIXED_ORDERS} fixed-schedule programs. Measured reasons: BENCHMARKS.md, "Deterministic work
 * limits".
 */
final class Restarts {
    private final MinimumPeakScheduler mpmf;
    private final CosmaSolver.Options cosma;
    private final Consumer<String> progress;

    Restarts(MinimumPeakScheduler mpmf, CosmaSolver.Options cosma, Consumer<String> progress) {
        this.mpmf = mpmf;
        this.cosma = cosma;
        this.progress = progress;
    }

    /**
     * More starting orders: the minimum-peak beam at each narrower width of its ladder
     * ({@link MinimumPeakScheduler#rungs}, below the case's width), with Belady and greedy replacement, each order
     * that differs from those already tried. A narrower beam finds a higher peak but often far less traffic. They
     * start the whole graph's program; divide and conquer takes them as alternatives at its end, not as the order it
     * cuts and improves, from which its search gained less. The widths are fixed by the graph's size, so the starts
     * are the same on every machine; every plan is checked. Named {@code mpmf@W/policy/tflite}. Each runs only while
     * the time left allows it, like the schemes.
     */
    List<Plan> plans(Graph full, TensorSetting s, long budget, Limits limits) {
        if (mpmf == null || !cosma.uses(Technique.RESTARTS)) {
            return List.of();
        }
        Graph g = full.withSetting(s);
        int top = mpmf.pinnedWidth() > 0 ? mpmf.pinnedWidth() : MinimumPeakScheduler.DEFAULT_BEAM;
        int widest = Math.min(top, MinimumPeakScheduler.sizedWidth(g.operatorCount()));
        long needs = limits.budget().schemeNeeds(full.operatorCount());
        Set<Schedule> tried = new HashSet<>();
        List<Plan> plans = new ArrayList<>();
        List<OrderStart> programs = new ArrayList<>();
        for (int w : MinimumPeakScheduler.rungs(widest)) {
            if (w >= top || limits.budget().left() < needs) {
                continue;
            }
            if (tried.isEmpty()) {
                // The case's own order (already made by the mpmf schemes: the scheduler keeps it).
                tried.add(mpmf.schedule(g, limits).schedule());
            }
            Schedule order = MinimumPeakScheduler.pinnedOrder(w, mpmf.backend()).schedule(g, limits).schedule();
            if (!tried.add(order)) {
                continue;
            }
            List<Plan> onOrder = new ArrayList<>();
            for (ReplacementPolicy policy : List.of(new BeladyReplacement(), new GreedyReplacement())) {
                Scheme scheme = new Scheme(new GivenOrderScheduler(order, "mpmf@" + w), policy, AddressRule.TFLITE);
                PlanResult r = scheme.solve(full, s, budget, limits);
                if (r.planned()) {
                    onOrder.add(r.plan());
                }
            }
            plans.addAll(onOrder);
            Plan better = CosmaPipeline.best(onOrder);
            if (better != null) {
                programs.add(new OrderStart(order, better, "mpmf@" + w));
            }
        }
        // The fixed-schedule program on the orders whose schemes paid least (ties: the narrower first), not on every
        // order: on a network the whole program proves in seconds each one costs a sixtieth of the limit for nothing.
        programs.sort(Comparator.comparingLong(o -> o.start().traffic().nonCompulsory()));
        for (OrderStart o : programs.subList(0, Math.min(Shares.RESTART_FIXED_ORDERS, programs.size()))) {
            Plan fs = fixedOnOrder(full, s, budget, o, limits);
            if (fs != null) {
                plans.add(fs);
            }
        }
        Plan best = CosmaPipeline.best(plans);
        if (best != null) {
            progress.accept("restarts: " + plans.size() + " plans from narrower minimum-peak orders, the best "
                    + best.solver().name() + " traffic " + best.traffic().nonCompulsory());
        }
        return plans;
    }

    /**
     * The fixed-schedule program on a restart's order, started from its schemes' best plan, with 1/{@link
     * Shares#RESTART_FIXED_DIVISOR} of what is left, {@link Shares#RESTART_FIXED_MOST} at most (graphs up to
     * {@link DivideAndConquer#WHOLE_GRAPH_LIMIT} operators, under a limit only): the schemes replace along the order
     * but the program chooses what to spill. Null when it found nothing
     * better than its start or had no time; the plan is labelled {@code FS(mpmf@W)}.
     */
    private Plan fixedOnOrder(Graph full, TensorSetting s, long budget, OrderStart o, Limits limits) {
        long left = limits.budget().left();
        if (left == Budget.NONE || full.operatorCount() > DivideAndConquer.WHOLE_GRAPH_LIMIT
                || !cosma.decoupled()) {
            return null;
        }
        long share = Math.min(left / Shares.RESTART_FIXED_DIVISOR, Math.round(Shares.RESTART_FIXED_MOST * 1e9));
        // Without the forced-traffic rows: this program only looks for a plan (its bound is the order's and is not
        // kept), and within a unit the rows cost CP-SAT the plan it finds without them.
        Set<Technique> off = EnumSet.of(Technique.FORCED);
        off.addAll(cosma.without());
        CosmaResult r = CosmaSolver.solve(full, s, budget,
                cosma.withSchedule(o.order()).withStart(o.start()).without(off), limits.upTo(share));
        if (r == null || r.plan() == null) {
            return null;
        }
        Graph g = full.withSetting(s);
        CheckReport report = PlanChecker.requireValid(g, r.plan(), "the fixed-schedule program on " + o.label());
        if (report.traffic().nonCompulsory() >= o.start().traffic().nonCompulsory()) {
            return null;
        }
        // Its status and bound are the fixed order's, not the free schedule's: neither is carried over.
        return r.plan().withResult(report.traffic(), new SolverInfo("FS(" + o.label() + ")", SolveStatus.FEASIBLE,
                r.seconds(), null));
    }

    /** A restart's order, the better of its schemes' plans on it, and its label ({@code mpmf@W}). */
    private record OrderStart(Schedule order, Plan start, String label) {
    }
}
