package dev.memplan.model;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
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
 * may not be enough: the planner needs {@link Budgets#minimumFeasible(Graph)} and says so below it.
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
    public PlanResult solve(Graph graph, TensorSetting setting, long budget, Limits limits) {
        long began = System.nanoTime();
        Graph g = graph.withSetting(setting);
        if (budget < Budgets.minimumFeasible(g)) {
            return PlanResult.none(name(), SolveStatus.INFEASIBLE, (System.nanoTime() - began) / 1e9,
                    "below " + Budgets.minimumFeasible(g) + " bytes no plan exists");
        }
        Plan p = plan(graph, setting, budget, limits);
        return PlanResult.heuristic(name(), g, p, p.solver().seconds());
    }

    /** The just-in-time plan, checked; throws below {@link Budgets#minimumFeasible}. */
    public Plan plan(Graph graph, TensorSetting setting, long budget, Limits limits) {
        long began = System.nanoTime();
        Graph g = graph.withSetting(setting);
        Schedule order = schedule == null ? Schedule.defaultOrder(g) : schedule;
        int[] ops = order.resolve(g);
        long needed = Budgets.minimumFeasible(g);
        if (budget < needed) {
            throw new IllegalArgumentException("budget " + budget + " is below " + (g.alignment() == 1
                    ? "M_R = " + needed : needed + ", what the busiest operator needs at alignment " + g.alignment()
                    + " (M_R = " + Budgets.minimumRequired(g) + ")"));
        }
        Map<String, List<Segment>> segments = new LinkedHashMap<>();
        for (int t = 0; t < ops.length; t++) {
            for (Map.Entry<Integer, Long> e : packedFromZero(g, ops[t]).entrySet()) {
                int tensor = e.getKey();
                Origin origin = g.producer(tensor) == ops[t] ? Origin.CREATED : Origin.LOADED;
                segments.computeIfAbsent(g.tensor(tensor).name(), k -> new ArrayList<>())
                        .add(new Segment(t, t, e.getValue(), origin));
            }
        }
        Plan plan = new Plan(g.name(), setting, budget, order, segments, null, null);
        CheckReport report = PlanChecker.requireValid(g, plan, name());
        double seconds = Duration.ofNanos(System.nanoTime() - began).toNanos() / 1e9;
        return plan.withResult(report.traffic(), new SolverInfo(name(), SolveStatus.HEURISTIC, seconds, null));
    }

    /**
     * The addresses of an operator's tensors (inputs, then outputs) packed upwards from 0, each at a multiple of
     * the alignment, the tensor that wastes most to alignment on top, where it needs no rounding: they fit in
     * {@link Budgets#minimumFeasible}. Tensor index to offset, in address order.
     */
    public static Map<Integer, Long> packedFromZero(Graph g, int operator) {
        List<Integer> tensors = new ArrayList<>();
        for (int tensor : g.inputs(operator)) {
            tensors.add(tensor);
        }
        for (int tensor : g.outputs(operator)) {
            tensors.add(tensor);
        }
        int top = tensors.stream().max(Comparator.comparingLong(x -> Budgets.roundUp(g.size(x), g.alignment())
                - g.size(x))).orElseThrow();
        tensors.remove(Integer.valueOf(top));
        tensors.add(top);
        Map<Integer, Long> offsets = new LinkedHashMap<>();
        long next = 0;
        for (int tensor : tensors) {
            offsets.put(tensor, next);
            next = Budgets.roundUp(next + g.size(tensor), g.alignment());
        }
        return offsets;
    }
}
