package dev.memplan.baselines.scheduling;

import dev.memplan.model.Schedule;
import dev.memplan.model.SolveStatus;

/**
 * A schedule with its no-spill peak footprint ({@code Budgets.footprint}) and what is known about it: OPTIMAL
 * when the footprint is proven minimal, HEURISTIC otherwise, with the best lower bound on the minimum known;
 * {@code method} names how it was found.
 */
public record ScheduleResult(Schedule schedule, long peak, long bound, SolveStatus status, String method,
                             double seconds) {
}
