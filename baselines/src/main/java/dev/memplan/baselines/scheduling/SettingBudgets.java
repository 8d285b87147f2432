package dev.memplan.baselines.scheduling;

import dev.memplan.model.Budgets;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Schedule;
import dev.memplan.model.SolveStatus;
import dev.memplan.model.TensorSetting;
import dev.memplan.model.TrainingStep;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The budgets of a graph in one tensor setting (memory-model.md, "Budgets"): M_R, M_P from the minimum-peak
 * scheduler, M_H halfway between them, and the peak footprint of the default order without spills.
 *
 * @param mp the minimum-peak order's result: M_P is its peak, proven when OPTIMAL
 */
public record SettingBudgets(TensorSetting setting, long mr, ScheduleResult mp, long mh, long defaultFootprint) {

    /**
     * The budgets of {@code g} in each of {@code settings}, in order, M_P by {@code scheduler} of the graph in the
     * setting; each setting left gets an equal share of what is left of {@code limits}. {@code starting} hears each
     * setting before its M_P is computed.
     */
    public static List<SettingBudgets> of(Graph g, List<TensorSetting> settings,
                                          Function<Graph, MinimumPeakScheduler> scheduler, Limits limits,
                                          Consumer<TensorSetting> starting) {
        List<SettingBudgets> rows = new ArrayList<>();
        for (int i = 0; i < settings.size(); i++) {
            TensorSetting s = settings.get(i);
            Graph gs = g.withSetting(s);
            long mr = Budgets.minimumRequired(gs);
            long left = limits.budget().left();
            Limits share = limits.budget().limited() ? limits.upTo(left / (settings.size() - i)) : limits;
            starting.accept(s);
            ScheduleResult mp = scheduler.apply(gs).schedule(gs, share);
            rows.add(new SettingBudgets(s, mr, mp, Budgets.halfway(mr, mp.peak()),
                    Budgets.footprint(gs, Schedule.defaultOrder(gs))));
        }
        return rows;
    }

    /** How M_P was found: "optimal (T s), METHOD", or the method, "heuristic" and the lower bound. */
    public String mpStatus() {
        return mp.status() == SolveStatus.OPTIMAL
                ? String.format("optimal (%.2f s), %s", mp.seconds(), mp.method())
                : String.format("%s, heuristic, lower bound %d (%.2f s)", mp.method(), mp.bound(), mp.seconds());
    }

    /**
     * What the budgets mean when operators may run again at weight {@code lambda} (docs/recomputation.md, "Budgets"),
     * in two lines: none of them depends on lambda. M_R stays the least budget (a recompute, like a first run, needs its
     * operator's tensors on chip); M_P and M_H are spill-only figures. Then which operators a training step reruns.
     */
    public static List<String> recomputation(Graph g, String lambda) {
        int forward = TrainingStep.forwardCount(g);
        return List.of("with recomputation (lambda " + lambda + " bytes per cost unit): M_R is the same (every run,"
                + " first or again, needs its operator's tensors on chip); M_P and M_H are spill-only (below M_P a plan"
                + " may recompute instead of moving bytes)", forward >= 0 ? "training step: operators 0 .. "
                + (forward - 1) + " are the forward pass (" + forward + " of " + g.operatorCount() + "), the ones"
                + " checkpointing and the joint program rerun" : "not a training step (no " + TrainingStep.LOSS
                + " operator): any operator may run again");
    }
}
