package dev.memplan.sweeps;

import dev.memplan.baselines.scheduling.MinimumPeakScheduler;
import dev.memplan.baselines.scheduling.ScheduleResult;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.model.Budgets;
import dev.memplan.model.BudgetSpec;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.SolveStatus;
import dev.memplan.model.Shares;
import dev.memplan.model.TensorSetting;

/**
 * A budget as written ({@link BudgetSpec}) resolved to bytes on a graph, M_P by the minimum-peak order of
 * {@link MinimumPeakScheduler} (exact when it proves it, else the best known with its lower bound); below M_R is
 * an error.
 *
 * @param mp the minimum-peak order, null when the budget did not need it
 */
public record BudgetChoice(String name, long bytes, long mr, ScheduleResult mp) {

    /** Resolves with a minimum-peak scheduler of its own (its program, for small graphs, on {@code backend}). */
    public static BudgetChoice resolve(String argument, Graph g, TensorSetting setting, Backend backend, Limits limits) {
        return resolve(argument, g, setting, new MinimumPeakScheduler(MinimumPeakScheduler.DEFAULT_BEAM, backend),
                limits);
    }

    /**
     * With a given minimum-peak scheduler: it remembers its order per graph, so the schemes that share it do not
     * compute the order again (a beam search of seconds on the NAS networks).
     *
     * @param g the graph in its tensor setting
     * @throws SweepException when the text is no budget ({@link BudgetSpec#parse}) or the bytes are below M_R
     */
    public static BudgetChoice resolve(String argument, Graph g, TensorSetting setting, MinimumPeakScheduler scheduler,
                                       Limits limits) {
        BudgetSpec spec;
        try {
            spec = BudgetSpec.parse(argument);
        } catch (IllegalArgumentException e) {
            throw new SweepException(e.getMessage());
        }
        long mr = Budgets.minimumRequired(g);
        ScheduleResult mp = spec.needsMinimumPeak() ? minimumPeak(scheduler, g, limits) : null;
        long bytes = spec.bytes(mr, mp == null ? 0 : mp.peak());
        if (bytes < mr) {
            throw new SweepException("budget " + bytes + " is below M_R = " + mr + " for graph '" + g.name()
                    + "' (setting " + setting.fileName() + "): no plan exists below M_R");
        }
        return new BudgetChoice(spec.name(), bytes, mr, mp);
    }

    /**
     * The minimum-peak order (M_P) with its share of the budget ({@link Shares#MINIMUM_PEAK_DIVISOR}): the budget is only the first step of a command
     * or a case. The scheduler remembers it, so later calls for the same graph return it at once.
     */
    public static ScheduleResult minimumPeak(MinimumPeakScheduler scheduler, Graph g, Limits limits) {
        return scheduler.schedule(g, limits.budget().limited() ? limits.part(Shares.MINIMUM_PEAK_DIVISOR) : limits);
    }

    /** "bytes (name; M_R = ..., M_P = ...)", with M_P's lower bound when it is not proven. */
    public String describe() {
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
                sb.append(" (").append(mp.method()).append(", heuristic, lower bound ").append(mp.bound()).append(')');
            }
        }
        return sb.append(")").toString();
    }
}
