package dev.memplan.cli;

import dev.memplan.model.Budgets;
import dev.memplan.model.Graph;
import dev.memplan.model.Schedule;
import dev.memplan.model.TensorKind;
import dev.memplan.model.TensorSetting;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code memplan budgets GRAPH}: the budgets of memory-model.md for each tensor setting. */
@Command(name = "budgets", mixinStandardHelpOptions = true,
        description = {"Prints the budgets of a graph in bytes, per tensor setting:",
            "M_R (no plan exists below it) and the peak footprint of the default order when nothing is spilled."})
final class BudgetsCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "GRAPH", description = "graph file (memplan-graph/1 or COSMA DAG JSON) or example name")
    String graph;

    @Option(names = "--setting", paramLabel = "activations|all", description = "only this tensor setting (default: both)")
    String setting;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        Graph g = Inputs.graph(graph);
        long parameters = g.tensors().stream().filter(t -> t.kind() == TensorKind.PARAMETER).count();
        out.println("graph " + g.name() + ": " + g.operatorCount() + " operators, " + g.tensorCount() + " tensors ("
                + parameters + " parameters), alignment " + g.alignment());
        List<TensorSetting> settings = setting == null ? List.of(TensorSetting.values()) : List.of(Inputs.setting(setting));
        Table t = new Table("setting", "M_R", "default-order footprint");
        for (TensorSetting s : settings) {
            Graph gs = g.withSetting(s);
            t.row(s.fileName(), Long.toString(Budgets.minimumRequired(gs)),
                    Long.toString(Budgets.footprint(gs, Schedule.defaultOrder(gs))));
        }
        t.print(out);
        return 0;
    }
}
