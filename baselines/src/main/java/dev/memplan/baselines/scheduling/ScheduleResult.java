package dev.memplan.baselines.scheduling;

import dev.memplan.model.Budgets;
import dev.memplan.model.Graph;
import dev.memplan.model.Schedule;
import dev.memplan.model.SolveStatus;

/**
 * A schedule with its no-spill peak footprint ({@code Budgets.footprint}) and what is known about it: OPTIMAL
 * when the footprint is proven minimal, HEURISTIC otherwise, with the best lower bound on the minimum known;
 * {@code method} names how it was found.
 */
public record ScheduleResult(Schedule schedule, long peak, long bound, SolveStatus status, String method,
                             double seconds) {

    /**
     * An order that is taken as it is (the default order, a user's order): its footprint, M_R as the bound,
     * HEURISTIC; {@code began} is when the scheduler started ({@link System#nanoTime()}).
     */
    static ScheduleResult asIs(Graph graph, Schedule schedule, String method, long began) {
        return new ScheduleResult(schedule, Budgets.footprint(graph, schedule), Budgets.minimumRequired(graph),
                SolveStatus.HEURISTIC, method, (System.nanoTime() - began) / 1e9);
    }
}
