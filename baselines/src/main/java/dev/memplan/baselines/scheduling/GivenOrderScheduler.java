package dev.memplan.baselines.scheduling;

import dev.memplan.model.Budgets;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Schedule;
import dev.memplan.model.SolveStatus;

/**
 * A schedule given by the user (a fixed-schedule run): the schemes on it are the starting plans of COSMA's
 * fixed-schedule program (eq. 16-17), whatever order it is.
 */
public final class GivenOrderScheduler implements Scheduler {
    private final Schedule schedule;

    public GivenOrderScheduler(Schedule schedule) {
        this.schedule = schedule;
    }

    @Override
    public String name() {
        return "given";
    }

    @Override
    public ScheduleResult schedule(Graph graph, Limits limits) {
        long began = System.nanoTime();
        schedule.validate(graph);
        return new ScheduleResult(schedule, Budgets.footprint(graph, schedule), Budgets.minimumRequired(graph),
                SolveStatus.HEURISTIC, "given order", (System.nanoTime() - began) / 1e9);
    }
}
