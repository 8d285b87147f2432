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
    private final String name;

    public GivenOrderScheduler(Schedule schedule) {
        this(schedule, "given");
    }

    /** The order under a name of its own (e.g. {@code mpmf@16}: the minimum-peak beam at width 16). */
    public GivenOrderScheduler(Schedule schedule, String name) {
        this.schedule = schedule;
        this.name = name;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public ScheduleResult schedule(Graph graph, Limits limits) {
        long began = System.nanoTime();
        schedule.validate(graph);
        return ScheduleResult.asIs(graph, schedule, "given order", began);
    }
}
