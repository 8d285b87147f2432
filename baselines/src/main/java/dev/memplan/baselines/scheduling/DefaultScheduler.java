package dev.memplan.baselines.scheduling;

import dev.memplan.model.Budgets;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Schedule;
import dev.memplan.model.SolveStatus;

/** The graph's default order: the order a framework runs the operators in (the paper's PyTorch order). */
public final class DefaultScheduler implements Scheduler {

    @Override
    public String name() {
        return "default";
    }

    @Override
    public ScheduleResult schedule(Graph graph, Limits limits) {
        long began = System.nanoTime();
        Schedule s = Schedule.defaultOrder(graph);
        long peak = Budgets.footprint(graph, s);
        return new ScheduleResult(s, peak, Budgets.minimumRequired(graph), SolveStatus.HEURISTIC, "default order",
                (System.nanoTime() - began) / 1e9);
    }
}
