package dev.memplan.sweeps.bench;

import dev.memplan.baselines.scheduling.MinimumPeakScheduler;
import dev.memplan.decomposition.CosmaPipeline;
import dev.memplan.formulations.cosma.CosmaSolver;
import dev.memplan.formulations.cosma.FixedOrderBound;
import dev.memplan.formulations.milp.Solvers;
import dev.memplan.model.Budget;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Plan;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.PlanResult;
import dev.memplan.model.Schedule;
import dev.memplan.model.TensorSetting;
import dev.memplan.model.io.PlanJson;
import dev.memplan.sweeps.BudgetChoice;
import dev.memplan.sweeps.GraphSources;
import dev.memplan.sweeps.SweepException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Each case's gap split into what its plan's own order leaves and what lies between orders and the free bound. Per
 * case (free schedule, as {@code solve} runs it with the same options): the plan's traffic and the free schedule's
 * bound; the fixed-order caching bound of the plan's order ({@link FixedOrderBound}), its LP and then its integer
 * program ({@link FixedOrderBound#exact}, its own work limit), whose bound joins the order's bound. traffic - order
 * bound is the most a better plan of the same order could save; order bound - free bound is what a better order or
 * a stronger free bound must account for.
 */
public final class GapsBench {
    public static final String[] HEADER = {"graph", "budget", "bytes", "traffic", "status", "free bound", "gap", "order LP bound",
        "LP covers / intervals", "LP s", "order IP (no addresses)", "order bound", "plan vs order", "order vs free bound", "known orders that could pay less", "plan from"};

    /**
     * The graphs and budgets, the tensor setting, the work units of each order's integer program (0: its LP alone),
     * the folder of plans read and written (null: none), COSMA's options, each case's limits (a fresh budget each
     * call) and the minimum-peak scheduler of a graph.
     */
    public record Spec(List<String> graphs, List<String> budgets, TensorSetting setting, double orderWork, Path plans,
                       CosmaSolver.Options cosma, Supplier<Limits> limits,
                       Function<Graph, MinimumPeakScheduler> minimumPeak) {
        public Spec {
            if (!(orderWork >= 0 && Double.isFinite(orderWork))) {
                throw new SweepException("--order-work must be a number of work units >= 0, got " + orderWork);
            }
            if (plans != null && !Files.isDirectory(plans)) {
                throw new SweepException("--plans: " + plans + " is not a folder");
            }
            graphs = List.copyOf(graphs);
            budgets = List.copyOf(budgets);
        }
    }

    private GapsBench() {
    }

    /**
     * Hands a row per graph and budget to {@code rows} (every plan checked); says on {@code err} which case starts
     * and gives the pipeline's progress to {@code progress}.
     */
    public static void run(Spec spec, Consumer<String[]> rows, PrintWriter err, Consumer<String> progress) {
        Solvers.preload();
        TensorSetting s = spec.setting();
        for (String name : spec.graphs()) {
            Graph full = GraphSources.graph(name);
            Graph g = full.withSetting(s);
            for (String b : spec.budgets()) {
                err.println(name + " " + b + " ...");
                err.flush();
                Limits limits = spec.limits().get();
                MinimumPeakScheduler mpmf = spec.minimumPeak().apply(g);
                BudgetChoice chosen = BudgetChoice.resolve(b, g, s, mpmf, limits);
                Path file = spec.plans() == null ? null : spec.plans().resolve(name.replace(':', '_') + "-" + b + ".plan.json");
                Plan plan;
                Long freeBound;
                String from;
                if (file != null && Files.isRegularFile(file)) {
                    plan = PlanJson.read(file);
                    freeBound = plan.solver() == null ? null : plan.solver().bound();
                    from = "plan file";
                } else {
                    CosmaPipeline.Settings settings = CosmaPipeline.Settings.of(spec.cosma(), mpmf);
                    CosmaPipeline.Outcome o = new CosmaPipeline(settings, progress)
                            .run(full, s, chosen.bytes(), limits, null);
                    PlanResult r = o.result();
                    if (r.plan() == null) {
                        throw new SweepException(name + " at " + b + ": no plan within the limits");
                    }
                    plan = r.plan();
                    freeBound = r.bound();
                    from = o.dnc() != null ? o.dnc().source() : "whole graph";
                    if (file != null) {
                        PlanJson.write(plan, file);
                    }
                }
                long traffic = PlanChecker.requireValid(g, plan, name + " at " + b).traffic().nonCompulsory();
                long began = System.nanoTime();
                FixedOrderBound.Result lp = FixedOrderBound.of(g, plan.schedule().resolve(g), chosen.bytes());
                double lpSeconds = (System.nanoTime() - began) / 1e9;
                long orderBound = lp.traffic();
                String ip = "-";
                if (spec.orderWork() > 0 && traffic > orderBound) {
                    Limits work = new Limits(1, 0.0, 0L, Budget.ofWork(spec.orderWork(), null), null);
                    FixedOrderBound.Exact e = FixedOrderBound.exact(g, plan.schedule().resolve(g), chosen.bytes(), work);
                    ip = (e.value() == null ? "none" : e.value() + (e.optimal() ? " OPTIMAL" : " FEASIBLE"))
                            + " (bound " + e.bound() + ")";
                    orderBound = Math.max(orderBound, e.bound());
                }
                orderBound = Math.min(orderBound, traffic);
                String others = otherOrders(g, chosen.bytes(), traffic, plan.schedule(), mpmf, spec.orderWork());
                rows.accept(new String[] {g.name(), chosen.name(), Long.toString(chosen.bytes()), Long.toString(traffic),
                        plan.solver() == null ? "-" : plan.solver().status().name(),
                        freeBound == null ? "-" : Long.toString(freeBound), share(traffic - orDefault(freeBound), traffic),
                        Long.toString(lp.traffic()), lp.rows() + " of " + lp.intervals() + " (" + lp.rounds() + " LPs)",
                        String.format(Locale.ROOT, "%.2f", lpSeconds), ip, Long.toString(orderBound),
                        share(traffic - orderBound, traffic),
                        share(orderBound - orDefault(freeBound), traffic), others, from});
            }
        }
    }

    /**
     * The fixed-order bound as a pruning bound over the orders the pipeline knows (the default order and the
     * minimum-peak beam's at every rung up to the case's width): each whose LP, then integer program, stays below
     * the plan's traffic, with that bound; the others cannot hold a cheaper plan.
     */
    private static String otherOrders(Graph g, long budget, long traffic, Schedule own, MinimumPeakScheduler mpmf,
            double orderWork) {
        Map<Schedule, String> orders = new LinkedHashMap<>();
        orders.put(Schedule.defaultOrder(g), "default");
        int top = mpmf.pinnedWidth() > 0 ? mpmf.pinnedWidth() : MinimumPeakScheduler.DEFAULT_BEAM;
        int widest = Math.min(top, MinimumPeakScheduler.sizedWidth(g.operatorCount()));
        for (int w : MinimumPeakScheduler.rungs(widest)) {
            orders.putIfAbsent(MinimumPeakScheduler.pinnedOrder(w, mpmf.backend()).schedule(g, Limits.DEFAULT)
                    .schedule(), "mpmf@" + w);
        }
        orders.putIfAbsent(mpmf.schedule(g, Limits.DEFAULT).schedule(), "mpmf@" + widest);
        orders.remove(own);
        List<String> below = new ArrayList<>();
        for (Map.Entry<Schedule, String> e : orders.entrySet()) {
            int[] order = e.getKey().resolve(g);
            long bound = FixedOrderBound.of(g, order, budget).traffic();
            if (bound < traffic && orderWork > 0) {
                Limits work = new Limits(1, 0.0, 0L, Budget.ofWork(orderWork, null), null);
                bound = FixedOrderBound.exact(g, order, budget, work).bound();
            }
            if (bound < traffic) {
                below.add(e.getValue() + " >= " + bound);
            }
        }
        return (below.isEmpty() ? "none" : String.join("; ", below)) + " (of " + orders.size() + ")";
    }

    private static long orDefault(Long bound) {
        return bound == null ? 0 : bound;
    }

    /** A part of the plan's traffic as a percentage (0 when the plan pays nothing). */
    private static String share(long part, long traffic) {
        return traffic == 0 ? "0.00%" : String.format(Locale.ROOT, "%.2f%%", 100.0 * Math.max(0, part) / traffic);
    }
}
