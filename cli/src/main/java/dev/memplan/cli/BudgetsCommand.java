package dev.memplan.cli;

import dev.memplan.baselines.scheduling.SettingBudgets;
import dev.memplan.decomposition.Ticker;
import dev.memplan.model.Budgets;
import dev.memplan.model.ClockGuard;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.TensorKind;
import dev.memplan.model.TensorSetting;
import dev.memplan.sweeps.SolveCase;
import dev.memplan.sweeps.figures.TextTable;
import java.io.PrintWriter;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code memplan budgets GRAPH}: the budgets of memory-model.md for each tensor setting. */
@Command(name = "budgets", mixinStandardHelpOptions = true,
        description = {"Prints the budgets of a graph in bytes, per tensor setting: M_R (no plan exists below it),",
            "M_P (the minimum peak footprint over all schedules without spills: exact DP over sets of finished operators,",
            "else a beam search and the program of COSMA eq. 13-15), M_H = (M_R + M_P) / 2",
            "and the peak footprint of the default order without spills. An M_P not proven optimal within the",
            "limits is the best known value, shown with its lower bound and the beam width that found it",
            "(reproduce it anywhere with --mp-beam WIDTH)."})
final class BudgetsCommand extends CommandBase {
    @Mixin
    GraphInput input;

    @Mixin
    SettingOption setting;

    @Mixin
    RecomputeOption recompute;

    @Mixin
    SolverOptions solverOptions;

    @Override
    public Integer call() {
        try (Ticker ticker = new Ticker(err(), "reading the graph")) {
            return budgets(ticker);
        }
    }

    private Integer budgets(Ticker ticker) {
        PrintWriter out = out();
        // --time-limit bounds the whole command (graph built, every setting), not each setting's M_P.
        SolveCase c = solverOptions.solveCase(null, null, recompute.weight, null);
        Limits limits = c.commandLimits(Main.started());
        Double lambda = c.recomputeWeight();
        try (ClockGuard guard = ClockGuard.until(limits.budget())) {
            return budgets(ticker, out, limits, input.read(), lambda, c);
        }
    }

    private Integer budgets(Ticker ticker, PrintWriter out, Limits limits, Graph g, Double lambda, SolveCase c) {
        long parameters = g.tensors().stream().filter(t -> t.kind() == TensorKind.PARAMETER).count();
        out.println("graph " + g.name() + ": " + g.operatorCount() + " operators, " + g.tensorCount() + " tensors ("
                + parameters + " parameters), alignment " + g.alignment());
        List<TensorSetting> settings = setting.given() ? List.of(setting.or(null)) : List.of(TensorSetting.values());
        TextTable t = new TextTable("setting", "M_R", "M_P", "M_H", "default-order footprint", "M_P status");
        for (SettingBudgets b : SettingBudgets.of(g, settings, c::minimumPeak, limits,
                s -> ticker.stage("the minimum-peak order (M_P) of setting " + s.fileName()))) {
            t.row(b.setting().fileName(), Long.toString(b.mr()), Long.toString(b.mp().peak()), Long.toString(b.mh()),
                    Long.toString(b.defaultFootprint()), b.mpStatus());
        }
        t.print(out);
        if (lambda != null) {
            SettingBudgets.recomputation(g, dev.memplan.model.Objective.number(lambda)).forEach(out::println);
        }
        if (g.alignment() > 1) {
            for (TensorSetting s : settings) {
                Graph gs = g.withSetting(s);
                out.println("least aligned budget (" + s.fileName() + "): " + Budgets.minimumFeasible(gs)
                        + " (each operator's tensors at multiples of " + g.alignment() + "; below it no plan exists)");
            }
        }
        return ExitCode.OK.code();
    }
}
