package dev.memplan.cli;

import dev.memplan.baselines.scheduling.MinimumPeakScheduler;
import dev.memplan.decomposition.PipelineReport;
import dev.memplan.formulations.cosma.RecomputeBound;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.model.Budget;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Schedule;
import dev.memplan.model.TensorSetting;
import dev.memplan.sweeps.BudgetChoice;
import dev.memplan.sweeps.GraphSources;
import java.util.List;
import java.util.Locale;

/**
 * The recompute bound ({@link RecomputeBound}) of training graphs, alone: per network, budget (resolved as
 * {@code solve --work-limit W} resolves it) and lambda, the bound over every plan with a free schedule and with the
 * default order of first runs, where it is attained and its time. Activations, batch 1. Numbers: BENCHMARKS.md,
 * "A bound over every plan with recomputation".
 *
 * <pre>
 * java -cp cli/target/memplan-cli.jar:cli/target/test-classes dev.memplan.cli.RecomputeBoundBench \
 *   nets=resnet50,r2plus1d18 budgets=M_R,M_H lambdas=0.00390625,1 work=60
 * </pre>
 * With {@code plan=PLAN.json} (a plan written by {@code solve --out}) it splits that plan's gap instead: the bound in
 * the plan's own order of first runs, the free one, and spill-only {@link
 * dev.memplan.formulations.cosma.FixedOrderBound} in that order (its LP, and its integer program within 20 units).
 */
public final class RecomputeBoundBench {

    private RecomputeBoundBench() {
    }

    public static void main(String[] args) {
        List<String> nets = List.of("resnet50");
        List<String> budgets = List.of("M_R", "M_H");
        List<Double> lambdas = List.of(1.0 / 256, 1.0);
        double work = 60;
        String plan = null;
        for (String a : args) {
            String[] kv = a.split("=", 2);
            switch (kv[0]) {
                case "nets" -> nets = List.of(kv[1].split(","));
                case "budgets" -> budgets = List.of(kv[1].split(","));
                case "lambdas" -> lambdas = java.util.Arrays.stream(kv[1].split(",")).map(Double::valueOf).toList();
                case "work" -> work = Double.parseDouble(kv[1]);
                case "plan" -> plan = kv[1];
                default -> throw new IllegalArgumentException("unknown argument " + a);
            }
        }
        TensorSetting s = TensorSetting.ACTIVATIONS;
        if (plan != null) {
            orderOfPlan(plan, lambdas);
            return;
        }
        System.out.println("network | n | budget | lambda | free bound | at (excess bytes) | free, over time | free, a later moment | default-order bound | default order, over time | s");
        for (String net : nets) {
            Graph g = GraphSources.graph(net + ":train").withSetting(s);
            MinimumPeakScheduler mpmf = new MinimumPeakScheduler(MinimumPeakScheduler.DEFAULT_BEAM, Backend.CPSAT);
            for (String budgetName : budgets) {
                long bytes = BudgetChoice.resolve(budgetName, g, s, mpmf,
                        new Limits(1, 0.0, 0L, Budget.ofWork(work, null), null)).bytes();
                for (double lambda : lambdas) {
                    long began = System.nanoTime();
                    RecomputeBound.Result free = RecomputeBound.of(g, bytes, lambda, null);
                    double seconds = (System.nanoTime() - began) / 1e9;
                    RecomputeBound.Result fixed = RecomputeBound.of(g, bytes, lambda,
                            Schedule.defaultOrder(g).resolve(g));
                    System.out.println(String.join(" | ", net + ":train", String.valueOf(g.operatorCount()),
                            budgetName + " " + bytes, String.valueOf(lambda),
                            PipelineReport.lowerBound(free.value()),
                            (free.operator() < 0 ? "-" : g.operator(free.operator()).name()) + " (" + free.excess()
                                    + ")",
                            PipelineReport.lowerBound(free.overTime()),
                            PipelineReport.lowerBound(free.laterMoment()),
                            PipelineReport.lowerBound(fixed.value()),
                            PipelineReport.lowerBound(fixed.overTime()),
                            String.format(Locale.ROOT, "%.2f", seconds)));
                }
            }
        }
    }

    /**
     * The bound in a plan's own order of first runs (valid for plans with that order only), beside the plan's
     * objective: how much of a gap is the order's and how much the bound's.
     */
    private static void orderOfPlan(String file, List<Double> lambdas) {
        dev.memplan.model.Plan p = dev.memplan.model.io.PlanJson.read(java.nio.file.Path.of(file));
        Graph g = GraphSources.graph(p.graph()).withSetting(p.setting());
        int[] firsts = new java.util.LinkedHashSet<>(p.schedule().operators()).stream().mapToInt(g::operatorIndex)
                .toArray();
        System.out.println("plan | budget | lambda | bound in its order (over time alone) | free bound"
                + " | spill-only bound in its order (FixedOrderBound: LP; integer program within 20 units, its bound and"
                + " least value)");
        dev.memplan.formulations.cosma.FixedOrderBound.Exact exact = dev.memplan.formulations.cosma.FixedOrderBound
                .exact(g, firsts, p.budget(), new Limits(1, 0.0, 0L, Budget.ofWork(20, null), null));
        String spillOnly = exact.lp().traffic() + "; " + exact.bound() + ", " + exact.value()
                + (exact.optimal() ? " (optimal)" : "");
        for (double lambda : lambdas) {
            RecomputeBound.Result in = RecomputeBound.of(g, p.budget(), lambda, firsts);
            RecomputeBound.Result free = RecomputeBound.of(g, p.budget(), lambda, null);
            System.out.println(String.join(" | ", file, String.valueOf(p.budget()), String.valueOf(lambda),
                    PipelineReport.lowerBound(in.value()) + " (" + PipelineReport.lowerBound(in.overTime()) + ")",
                    PipelineReport.lowerBound(free.value()), spillOnly));
        }
    }
}
