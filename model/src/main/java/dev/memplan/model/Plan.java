package dev.memplan.model;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A complete answer for one graph, tensor setting and budget: the schedule and every tensor's segments
 * (memory-model.md, "Residency: segments"). A plan is only data; the {@link PlanChecker} decides whether it
 * is valid and computes its traffic. {@code traffic} and {@code solver} are what the maker recorded (either
 * may be null); checked figures come from the checker.
 *
 * @param segments tensor name to its segments, in the order the plan lists tensors; tensors without segments
 *     may be absent
 */
public record Plan(String graph, TensorSetting setting, long budget, Schedule schedule,
                   Map<String, List<Segment>> segments, Traffic traffic, SolverInfo solver) {

    public Plan {
        Objects.requireNonNull(graph, "graph");
        Objects.requireNonNull(setting, "setting");
        Objects.requireNonNull(schedule, "schedule");
        Map<String, List<Segment>> copy = new LinkedHashMap<>();
        segments.forEach((k, v) -> copy.put(k, List.copyOf(v)));
        segments = Collections.unmodifiableMap(copy);
    }

    /** The segments of one tensor, empty when the plan has none. */
    public List<Segment> segmentsOf(String tensor) {
        return segments.getOrDefault(tensor, List.of());
    }

    /** This plan with recorded traffic and solver information replaced. */
    public Plan withResult(Traffic newTraffic, SolverInfo newSolver) {
        return new Plan(graph, setting, budget, schedule, segments, newTraffic, newSolver);
    }

    /** This plan with other segments. */
    public Plan withSegments(Map<String, List<Segment>> newSegments) {
        return new Plan(graph, setting, budget, schedule, newSegments, traffic, solver);
    }

    /** Total number of segments. */
    public int segmentCount() {
        return segments.values().stream().mapToInt(List::size).sum();
    }
}
