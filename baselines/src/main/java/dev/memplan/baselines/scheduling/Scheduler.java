package dev.memplan.baselines.scheduling;

import dev.memplan.model.Graph;
import dev.memplan.model.Limits;

/** Chooses the operator order of a scheme (COSMA paper, Section 5: "operator scheduling"). */
public interface Scheduler {

    /** A short name used in scheme names: {@code default}, {@code mpmf}. */
    String name();

    /** A schedule of {@code graph} (already in its tensor setting). */
    ScheduleResult schedule(Graph graph, Limits limits);
}
