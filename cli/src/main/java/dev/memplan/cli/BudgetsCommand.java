package dev.memplan.cli;

import dev.memplan.baselines.scheduling.ScheduleResult;
import dev.memplan.model.Budgets;
import dev.memplan.model.ClockGuard;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Schedule;
import dev.memplan.model.SolveStatus;
import dev.memplan.model.TensorKind;
import dev.memplan.model.TensorSetting;
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
        Limits limits = solverOptions.commandLimits();
        try (ClockGuard guard = ClockGuard.until(limits.budget())) {
            return budgets(ticker, out, limits, input.read());
        }
    }

    private Integer budgets(Ticker ticker, PrintWriter out, Limits limits, Graph g) {
        long parameters = g.tensors().stream().filter(t -> t.kind() == TensorKind.PARAMETER).count();
        out.println("graph " + g.name() + ": " + g.operatorCount() + " operators, " + g.tensorCount() + " tensors ("
                + parameters + " parameters), alignment " + g.alignment());
        List<TensorSetting> settings = setting.given() ? List.of(setting.or(null)) : List.of(TensorSetting.values());
        Table t = new Table("setting", "M_R", "M_P", "M_H", "default-order footprint", "M_P status");
        for (int i = 0; i < settings.size(); i++) {
            TensorSetting s = settings.get(i);
            Graph gs = g.withSetting(s);
            long mr = Budgets.minimumRequired(gs);
            // Each setting left gets an equal share of the time left.
            long left = limits.budget().left();
            Limits share = limits.budget().limited() ? limits.upTo(left / (settings.size() - i)) : limits;
            ticker.stage("the minimum-peak order (M_P) of setting " + s.fileName());
            ScheduleResult mp = solverOptions.minimumPeak(gs).schedule(gs, share);
            t.row(s.fileName(), Long.toString(mr), Long.toString(mp.peak()),
                    Long.toString(Budgets.halfway(mr, mp.peak())),
                    Long.toString(Budgets.footprint(gs, Schedule.defaultOrder(gs))),
                    mp.status() == SolveStatus.OPTIMAL
                            ? String.format("optimal (%.2f s), %s", mp.seconds(), mp.method())
                            : String.format("%s, heuristic, lower bound %d (%.2f s)", mp.method(), mp.bound(),
                                    mp.seconds()));
        }
        t.print(out);
        if (g.alignment() > 1) {
            for (TensorSetting s : settings) {
                Graph gs = g.withSetting(s);
                out.println("least aligned budget (" + s.fileName() + "): " + Budgets.minimumFeasible(gs)
                        + " (each operator's tensors at multiples of " + g.alignment() + "; below it no plan exists)");
            }
        }
        return 0;
    }
}
