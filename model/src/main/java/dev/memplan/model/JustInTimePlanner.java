package dev.memplan.model;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The plan that always exists at B >= M_R: at each timestep the operator's inputs are loaded and its outputs
 * created, packed upwards from address 0, and everything is evicted right after (every reuse is a reload).
 * The most traffic any sensible plan has; the starting solution an optimiser can always be given, and the
 * reference point of memory-model.md's "for B >= M_R a plan always exists".
 *
 * <p>With alignment A > 1 the packed tensors take their sizes rounded up to A, so a budget of exactly M_R
 * may not be enough; the planner then says what it needs.
 */
public final class JustInTimePlanner implements Planner {
    private final Schedule schedule;

    /** Just in time over the graph's default order. */
    public JustInTimePlanner() {
        this(null);
    }

    /** Just in time over a given schedule (null for the default order). */
    public JustInTimePlanner(Schedule schedule) {
        this.schedule = schedule;
    }

    @Override
    public String name() {
        return "just-in-time";
    }

    @Override
    public Plan plan(Graph graph, TensorSetting setting, long budget, Limits limits) {
        long began = System.nanoTime();
        Graph g = graph.withSetting(setting);
        Schedule order = schedule == null ? Schedule.defaultOrder(g) : schedule;
        int[] ops = order.resolve(g);
        Map<String, List<Segment>> segments = new LinkedHashMap<>();
        for (int t = 0; t < ops.length; t++) {
            long next = 0;
            long top = 0;
            for (int[] group : new int[][] {g.inputs(ops[t]), g.outputs(ops[t])}) {
                for (int tensor : group) {
                    Origin origin = group == g.inputs(ops[t]) ? Origin.LOADED : Origin.CREATED;
                    segments.computeIfAbsent(g.tensor(tensor).name(), k -> new ArrayList<>())
                            .add(new Segment(t, t, next, origin));
                    top = next + g.size(tensor);
                    next = Math.floorDiv(top + g.alignment() - 1, g.alignment()) * g.alignment();
                }
            }
            if (top > budget) {
                throw new IllegalArgumentException("budget " + budget + " is too small: operator '"
                        + g.operator(ops[t]).name() + "' needs " + top + " bytes packed at alignment " + g.alignment()
                        + " (M_R = " + Budgets.minimumRequired(g) + ")");
            }
        }
        Plan plan = new Plan(g.name(), setting, budget, order, segments, null, null);
        CheckReport report = PlanChecker.requireValid(g, plan, name());
        double seconds = Duration.ofNanos(System.nanoTime() - began).toNanos() / 1e9;
        return plan.withResult(report.traffic(), new SolverInfo(name(), SolveStatus.HEURISTIC, seconds, null));
    }
}
