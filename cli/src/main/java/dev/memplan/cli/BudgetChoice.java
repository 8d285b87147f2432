package dev.memplan.cli;

import dev.memplan.baselines.scheduling.MinimumPeakScheduler;
import dev.memplan.baselines.scheduling.ScheduleResult;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.model.Budgets;
import dev.memplan.model.ByteRange;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.SolveStatus;
import dev.memplan.model.TensorSetting;
import java.time.Duration;

/**
 * A --budget argument resolved to bytes: M_R, M_H, M_P (the minimum-peak order of {@link MinimumPeakScheduler}: exact
 * when it proves it, else the best known with its lower bound) or a number; below M_R is an error.
 */
record BudgetChoice(String name, long bytes, long mr, ScheduleResult mp) {
    /** M_P (and so M_H) may take 1/n of the time left. */
    private static final int BUDGET_SHARE = 4;

    static BudgetChoice resolve(String argument, Graph g, TensorSetting setting, Backend backend, Limits limits) {
        return resolve(argument, g, setting, new MinimumPeakScheduler(MinimumPeakScheduler.DEFAULT_BEAM, backend),
                limits);
    }

    /**
     * With a given minimum-peak scheduler: it remembers its order per graph, so the schemes that share it do not
     * compute the order again (a 10-25 s beam search on the NAS networks).
     */
    static BudgetChoice resolve(String argument, Graph g, TensorSetting setting, MinimumPeakScheduler scheduler,
                                Limits limits) {
        long mr = Budgets.minimumRequired(g);
        String upper = argument.toUpperCase();
        if (upper.equals("M_R") || upper.equals("MR")) {
            return new BudgetChoice("M_R", mr, mr, null);
        }
        if (upper.equals("M_P") || upper.equals("MP") || upper.equals("M_H") || upper.equals("MH")) {
            // M_P gets a share of the time: the budget is only the first step of the command.
            Duration left = limits.timeLimit();
            ScheduleResult mp = scheduler.schedule(g, left == null ? limits : limits.withTimeLimit(left.dividedBy(BUDGET_SHARE)));
            boolean half = upper.contains("H");
            long bytes = half ? Budgets.halfway(mr, mp.peak()) : mp.peak();
            return new BudgetChoice(half ? "M_H" : "M_P", bytes, mr, mp);
        }
        long bytes;
        try {
            bytes = Long.parseLong(argument.replace("_", ""));
        } catch (NumberFormatException e) {
            throw new UserException("--budget must be M_R, M_H, M_P or a number of bytes, got '" + argument + "'");
        }
        if (ByteRange.problem(bytes, "--budget") != null) {
            throw new UserException(ByteRange.problem(bytes, "--budget"));
        }
        if (bytes < mr) {
            throw new UserException("budget " + bytes + " is below M_R = " + mr + " for graph '" + g.name()
                    + "' (setting " + setting.fileName() + "): no plan exists below M_R");
        }
        return new BudgetChoice(Long.toString(bytes), bytes, mr, null);
    }

    String describe() {
        StringBuilder sb = new StringBuilder(Long.toString(bytes));
        if (!name.equals(Long.toString(bytes))) {
            sb.append(" (").append(name);
        } else {
            sb.append(" (bytes");
        }
        sb.append("; M_R = ").append(mr);
        if (mp != null) {
            sb.append(", M_P = ").append(mp.peak());
            if (mp.status() != SolveStatus.OPTIMAL) {
                sb.append(" best known, lower bound ").append(mp.bound());
            }
        }
        return sb.append(")").toString();
    }
}
