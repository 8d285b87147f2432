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
 */
public final class RecomputeBoundBench {

    private RecomputeBoundBench() {
    }

    public static void main(String[] args) {
        List<String> nets = List.of("resnet50");
        List<String> budgets = List.of("M_R", "M_H");
        List<Double> lambdas = List.of(1.0 / 256, 1.0);
        double work = 60;
        for (String a : args) {
            String[] kv = a.split("=", 2);
            switch (kv[0]) {
                case "nets" -> nets = List.of(kv[1].split(","));
                case "budgets" -> budgets = List.of(kv[1].split(","));
                case "lambdas" -> lambdas = java.util.Arrays.stream(kv[1].split(",")).map(Double::valueOf).toList();
                case "work" -> work = Double.parseDouble(kv[1]);
                default -> throw new IllegalArgumentException("unknown argument " + a);
            }
        }
        TensorSetting s = TensorSetting.ACTIVATIONS;
        System.out.println("network | n | budget | lambda | free bound | at (excess bytes) | default-order bound | s");
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
                            PipelineReport.lowerBound(fixed.value()),
                            String.format(Locale.ROOT, "%.2f", seconds)));
                }
            }
        }
    }
}
