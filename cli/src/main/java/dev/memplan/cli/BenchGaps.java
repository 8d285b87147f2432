package dev.memplan.cli;

import dev.memplan.baselines.scheduling.MinimumPeakScheduler;
import dev.memplan.decomposition.CosmaPipeline;
import dev.memplan.formulations.cosma.CosmaObjective;
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
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code memplan bench gaps}: each case's gap split into what its plan's own order leaves and what lies between
 * orders and the free bound. Per case (free schedule, as {@code solve} runs it with the same options): the plan's
 * traffic and the free schedule's bound; the fixed-order caching bound of the plan's order ({@link FixedOrderBound}),
 * its LP and then its integer program ({@link FixedOrderBound#exact}, its own work limit), whose bound joins the
 * order's bound. traffic - order bound is the most a better plan of the same order could save; order bound - free bound is
 * what a better order or a stronger free bound must account for.
 */
@Command(name = "gaps", mixinStandardHelpOptions = true,
        description = {"Each case's gap split by the fixed-order bound of its plan's order: plan vs its order's bound,",
            "order's bound vs the free bound; CSV written as rows finish."})
final class BenchGaps extends CommandBase.Bench {

    @Option(names = "--graphs", split = ",", paramLabel = "G1,...", defaultValue = "nasnet,pnasnet,amoebanet,darts",
            description = "graphs: zoo names, files or gen:... (default: ${DEFAULT-VALUE})")
    List<String> graphs;

    @Option(names = "--budgets", split = ",", defaultValue = "M_R,M_H", paramLabel = "B1,...",
            description = "budgets (default: ${DEFAULT-VALUE})")
    List<String> budgets;

    @Mixin
    SettingOption setting;

    @Option(names = "--order-work", paramLabel = "UNITS", defaultValue = "10",
            description = {"work units of the integer program on each plan's order (no addresses), after its LP; 0: the",
                "LP alone (default: ${DEFAULT-VALUE})"})
    double orderWork;

    @Option(names = "--plans", paramLabel = "DIR",
            description = {"a folder of plans named GRAPH-BUDGET.plan.json: a case whose plan is there is not solved",
                "again (its free bound is the plan's); the others are solved and their plans written there"})
    Path plans;

    @Mixin
    SolverOptions solverOptions;

    @Override
    List<String> inputs() {
        return graphs;
    }

    @Override
    Integer run(Path csv, PrintWriter out) {
        if (!(orderWork >= 0 && Double.isFinite(orderWork))) {
            throw new UserException("--order-work must be a number of work units >= 0, got " + orderWork);
        }
        if (plans != null && !Files.isDirectory(plans)) {
            throw new UserException("--plans: " + plans + " is not a folder");
        }
        Solvers.preload();
        PrintWriter err = err();
        TensorSetting s = setting.or(TensorSetting.ACTIVATIONS);
        String[] header = {"graph", "budget", "bytes", "traffic", "status", "free bound", "gap", "order LP bound",
            "LP covers / intervals", "LP s", "order IP (no addresses)", "order bound", "plan vs order", "order vs free bound", "known orders that could pay less", "plan from"};
        Table table = new Table(header);
        out.println(String.join("  ", header));
        for (String name : graphs) {
            Graph full = Inputs.graph(name);
            Graph g = full.withSetting(s);
            for (String b : budgets) {
                err.println(name + " " + b + " ...");
                err.flush();
                Limits limits = solverOptions.commandLimits();
                MinimumPeakScheduler mpmf = solverOptions.minimumPeak(g);
                BudgetChoice chosen = BudgetChoice.resolve(b, g, s, mpmf, limits);
                Path file = plans == null ? null : plans.resolve(name.replace(':', '_') + "-" + b + ".plan.json");
                Plan plan;
                Long freeBound;
                String from;
                if (file != null && Files.isRegularFile(file)) {
                    plan = PlanJson.read(file);
                    freeBound = plan.solver() == null ? null : plan.solver().bound();
                    from = "plan file";
                } else {
                    CosmaSolver.Options options = solverOptions.cosma(CosmaObjective.TRAFFIC, null, null);
                    CosmaPipeline.Settings settings = CosmaPipeline.Settings.of(options, mpmf);
                    CosmaPipeline.Outcome o = new CosmaPipeline(settings, new Heartbeat(err))
                            .run(full, s, chosen.bytes(), limits, null);
                    PlanResult r = o.result();
                    if (r.plan() == null) {
                        throw new UserException(name + " at " + b + ": no plan within the limits");
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
                if (orderWork > 0 && traffic > orderBound) {
                    Limits work = new Limits(1, 0.0, 0L, Budget.ofWork(orderWork, null), null);
                    FixedOrderBound.Exact e = FixedOrderBound.exact(g, plan.schedule().resolve(g), chosen.bytes(), work);
                    ip = (e.value() == null ? "none" : e.value() + (e.optimal() ? " OPTIMAL" : " FEASIBLE"))
                            + " (bound " + e.bound() + ")";
                    orderBound = Math.max(orderBound, e.bound());
                }
                orderBound = Math.min(orderBound, traffic);
                String others = otherOrders(g, chosen.bytes(), traffic, plan.schedule(), mpmf);
                table.row(g.name(), chosen.name(), Long.toString(chosen.bytes()), Long.toString(traffic),
                        plan.solver() == null ? "-" : plan.solver().status().name(),
                        freeBound == null ? "-" : Long.toString(freeBound), share(traffic - orDefault(freeBound), traffic),
                        Long.toString(lp.traffic()), lp.rows() + " of " + lp.intervals() + " (" + lp.rounds() + " LPs)",
                        String.format(Locale.ROOT, "%.2f", lpSeconds), ip, Long.toString(orderBound),
                        share(traffic - orderBound, traffic),
                        share(orderBound - orDefault(freeBound), traffic), others, from);
                out.println(String.join("  ", table.lastRow()));
                out.flush();
                table.writeCsv(csv);
            }
        }
        out.println();
        table.print(out);
        out.println("every plan checked: VALID; wrote " + csv);
        return 0;
    }

    /**
     * The fixed-order bound as a pruning bound over the orders the pipeline knows (the default order and the
     * minimum-peak beam's at every rung up to the case's width): each whose LP, then integer program, stays below
     * the plan's traffic, with that bound; the others cannot hold a cheaper plan.
     */
    private String otherOrders(Graph g, long budget, long traffic, Schedule own, MinimumPeakScheduler mpmf) {
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
