package dev.memplan.sweeps.bench;

import dev.memplan.datasets.Examples;
import dev.memplan.datasets.RandomGraphs;
import dev.memplan.formulations.cosma.CosmaResult;
import dev.memplan.formulations.cosma.CosmaSolver;
import dev.memplan.formulations.cosma.MinimumPeak;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.model.Budgets;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.SolveStatus;
import dev.memplan.model.TensorSetting;
import dev.memplan.sweeps.SweepException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * COSMA per graph (the examples and seeded random layered graphs), budget (M_R, M_H, M_P) and back-end: model
 * size before and after the lifetime-window pruning, status, objective, bound and time. A status with "*" is the
 * starting plan's; a budget "M_P~" is M_P not proven (the best known value).
 */
public final class FormulationsBench {
    public static final String[] HEADER = {"graph", "setting", "budget", "bytes", "backend", "vars before",
        "cons before", "vars after", "cons after", "status", "traffic", "bound", "gap", "seconds"};

    /** The back-ends (ids), the operator counts of the random graphs, the tensor setting, the limit of each solve. */
    public record Spec(List<Backend> backends, List<Integer> random, TensorSetting setting, Duration limit) {
        public Spec {
            random = Bounds.each(random, 1, 1000, "--random", "operator counts ");
            backends = List.copyOf(backends);
        }

        /** The back-ends of these ids. */
        public static List<Backend> backends(List<String> ids) {
            try {
                return ids.stream().map(Backend::parse).toList();
            } catch (IllegalArgumentException e) {
                throw new SweepException(e.getMessage(), e);
            }
        }
    }

    private FormulationsBench() {
    }

    /** Hands a row per graph, budget and back-end to {@code rows}. */
    public static void run(Spec spec, Consumer<String[]> rows) {
        TensorSetting s = spec.setting();
        List<Graph> graphs = new ArrayList<>();
        Examples.names().forEach(n -> graphs.add(Examples.graph(n)));
        for (int size : spec.random()) {
            graphs.add(RandomGraphs.layered(size, size, 3, 4, 64, true));
        }
        for (Graph full : graphs) {
            Graph g = full.withSetting(s);
            long mr = Budgets.minimumRequired(g);
            MinimumPeak.Result mp = MinimumPeak.solve(g, s, Backend.SCIP, Limits.ofWall(spec.limit()));
            String[][] budgets = {{"M_R", Long.toString(mr)}, {"M_H", Long.toString(Budgets.halfway(mr, mp.value()))},
                {"M_P" + (mp.status() != SolveStatus.OPTIMAL ? "~" : ""), Long.toString(mp.value())}};
            for (String[] budget : budgets) {
                for (Backend backend : spec.backends()) {
                    CosmaResult r = CosmaSolver.solve(g, s, Long.parseLong(budget[1]),
                            CosmaSolver.Options.traffic(backend), Limits.ofWall(spec.limit()));
                    rows.accept(new String[] {g.name(), s.fileName(), budget[0], budget[1], backend.id(),
                        count(r.unpruned() == null ? null : r.unpruned().variables()),
                        count(r.unpruned() == null ? null : r.unpruned().constraints()),
                        count(r.pruned() == null ? null : r.pruned().variables()),
                        count(r.pruned() == null ? null : r.pruned().constraints()),
                        r.status().name() + (r.startingPlanOnly() ? "*" : ""),
                        r.objective() == null ? "-" : Long.toString(r.objective()),
                        r.bound() == null ? "-" : Long.toString(r.bound()),
                        r.gap() == null ? "-" : String.format("%.3f", r.gap()), String.format("%.2f", r.seconds())});
                }
            }
        }
    }

    private static String count(Integer value) {
        return value == null ? "-" : value.toString();
    }
}
