package dev.memplan.baselines.scheduling;

import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Schedule;

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
        return ScheduleResult.asIs(graph, schedule, "given order", began);
    }
}
