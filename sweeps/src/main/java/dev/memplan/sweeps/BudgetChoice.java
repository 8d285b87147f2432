package dev.memplan.sweeps;

import dev.memplan.baselines.scheduling.MinimumPeakScheduler;
import dev.memplan.baselines.scheduling.ScheduleResult;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.model.Budgets;
import dev.memplan.model.ByteRange;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.SolveStatus;
import dev.memplan.model.Shares;
import dev.memplan.model.TensorSetting;
import java.time.Duration;
import java.util.regex.Pattern;

/**
 * A budget as written resolved to bytes: {@code M_R}, {@code M_H}, {@code M_P} (the minimum-peak order of
 * {@link MinimumPeakScheduler}: exact when it proves it, else the best known with its lower bound), a fraction
 * {@code f} in [0, 1] written with a decimal point (M_R + floor(f * (M_P - M_R)), so 0.0 is M_R and 1.0 is M_P), or
 * a number of bytes; below M_R is an error.
 *
 * @param mp the minimum-peak order, null when the budget did not need it
 */
public record BudgetChoice(String name, long bytes, long mr, ScheduleResult mp) {
    private static final Pattern FRACTION = Pattern.compile("(0|1)?\\.\\d+|[01]\\.");

    /** Whether the text is a budget this class understands (M_R, M_H, M_P, a fraction, bytes). */
    public static boolean isWellFormed(String text) {
        String upper = text.toUpperCase();
        if (upper.matches("M_?[RHP]")) {
            return true;
        }
        if (FRACTION.matcher(text).matches()) {
            return Double.parseDouble(text) <= 1.0;
        }
        return text.replace("_", "").matches("\\d{1,18}");
    }

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
     * @throws SweepException when the text is no budget or the bytes are below M_R
     */
    public static BudgetChoice resolve(String argument, Graph g, TensorSetting setting, MinimumPeakScheduler scheduler,
                                       Limits limits) {
        long mr = Budgets.minimumRequired(g);
        String upper = argument.toUpperCase();
        if (upper.equals("M_R") || upper.equals("MR")) {
            return new BudgetChoice("M_R", mr, mr, null);
        }
        boolean fraction = FRACTION.matcher(argument).matches();
        if (upper.equals("M_P") || upper.equals("MP") || upper.equals("M_H") || upper.equals("MH") || fraction) {
            ScheduleResult mp = minimumPeak(scheduler, g, limits);
            if (fraction) {
                double f = Double.parseDouble(argument);
                if (f > 1.0) {
                    throw new SweepException("budget fraction " + argument + " must be between 0 and 1 (M_R to M_P)");
                }
                return new BudgetChoice(argument, mr + (long) Math.floor(f * (mp.peak() - mr)), mr, mp);
            }
            boolean half = upper.contains("H");
            long bytes = half ? Budgets.halfway(mr, mp.peak()) : mp.peak();
            return new BudgetChoice(half ? "M_H" : "M_P", bytes, mr, mp);
        }
        long bytes;
        try {
            bytes = Long.parseLong(argument.replace("_", ""));
        } catch (NumberFormatException e) {
            if (argument.replace("_", "").matches("\\d+")) {
                throw new SweepException("the budget is " + argument + ", above 2^53 = " + dev.memplan.model.ByteRange.MAX
                        + ", the largest byte count memplan supports");
            }
            throw new SweepException("a budget is M_R, M_H, M_P, a fraction between M_R and M_P such as 0.25, or a "
                    + "number of bytes; got '" + argument + "'");
        }
        if (ByteRange.problem(bytes, "the budget") != null) {
            throw new SweepException(ByteRange.problem(bytes, "the budget"));
        }
        if (bytes < mr) {
            throw new SweepException("budget " + bytes + " is below M_R = " + mr + " for graph '" + g.name()
                    + "' (setting " + setting.fileName() + "): no plan exists below M_R");
        }
        return new BudgetChoice(Long.toString(bytes), bytes, mr, null);
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
