package dev.memplan.baselines.scheduling;

import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Schedule;

/** The graph's default order: the order a framework runs the operators in (the paper's PyTorch order). */
public final class DefaultScheduler implements Scheduler {

    @Override
    public String name() {
        return "default";
    }

    @Override
    public ScheduleResult schedule(Graph graph, Limits limits) {
        long began = System.nanoTime();
        return ScheduleResult.asIs(graph, Schedule.defaultOrder(graph), "default order", began);
    }
}
