package dev.memplan.decomposition;

import dev.memplan.model.CheckReport;
import dev.memplan.model.Graph;
import dev.memplan.model.Operator;
import dev.memplan.model.Origin;
import dev.memplan.model.Plan;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.Schedule;
import dev.memplan.model.Segment;
import dev.memplan.model.Tensor;
import dev.memplan.model.TensorSetting;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A plan with recomputes (memory-model.md, "Recomputation") unrolled into a graph whose operators each run once: every
 * run of the plan is an operator of its own, every copy of a tensor (its created segment and each recompute's) a
 * tensor of its own, each read going to the copy the plan reads it from (the latest run of its producer at or before
 * the read). So the spill-only planners (the fixed-schedule program, divide and conquer) re-plan the order, the spills
 * and the addresses of a plan while keeping its recomputes, and a plan of the unrolled graph maps back to a plan of
 * the graph with recomputed segments ({@link #back}).
 *
 * <p>The unrolled traffic is at least the mapped plan's: a copy loaded again is charged its own spill, where the
 * graph's tensor is written out once. A plan of the unrolled graph whose order moves a run before a read of the
 * previous copy, or a recompute before the first run, maps to a plan the checker rejects, and {@link #back} says so
 * with null. Time O(plan size x copies per tensor), space O(plan size).
 *
 * @param graph the unrolled graph: the plan's runs in its order (its default order), activations only where the
 *     graph's setting has them
 * @param plan the plan as a plan of the unrolled graph (every operator once, no recomputed segment)
 * @param source the graph (in its setting) the plan was made for
 * @param runOf for each operator of the unrolled graph, the operator of the graph it runs
 * @param copyOf for each tensor of the unrolled graph, the tensor of the graph it is a copy of
 * @param recomputedCopy for each tensor of the unrolled graph, whether it is the copy a recompute makes
 */
record RunGraph(Graph graph, Plan plan, Graph source, int[] runOf, int[] copyOf, boolean[] recomputedCopy) {

    /**
     * The unrolled graph of a valid plan of {@code g} (in its setting).
     *
     * @throws IllegalArgumentException naming the first violation when the plan's own unrolling fails the checker on
     *     the unrolled graph
     */
    static RunGraph of(Graph g, Plan p) {
        return unroll(g, p, true);
    }

    /**
     * The unrolled graph of a sequence of runs of {@code g} (in {@code setting}; a later run of an operator is a
     * recompute), with a plan of it that has the runs' order and no segments, for a planner that keeps only the order
     * ({@link OrderCover}); {@link #back} checks what comes of it.
     */
    static RunGraph ofRuns(Graph g, Schedule runs, TensorSetting setting, long budget) {
        return unroll(g, new Plan(g.name(), setting, budget, runs, Map.of(), null, null), false);
    }

    /** The unrolled graph of {@code p}'s runs, its segments moved to the copies and checked when {@code check}. */
    private static RunGraph unroll(Graph g, Plan p, boolean check) {
        List<String> schedule = p.schedule().operators();
        int runs = schedule.size();
        Set<String> taken = new HashSet<>();
        g.operators().forEach(o -> taken.add(o.name()));
        g.tensors().forEach(x -> taken.add(x.name()));
        int[] runsSoFar = new int[g.operatorCount()];
        // The current copy of each tensor of the graph: its name in the unrolled graph (host tensors keep theirs).
        String[] current = new String[g.tensorCount()];
        for (int x = 0; x < g.tensorCount(); x++) {
            current[x] = g.tensor(x).name();
        }
        List<Operator> operators = new ArrayList<>();
        int[] runOf = new int[runs];
        Copies copies = new Copies();
        for (int x = 0; x < g.tensorCount(); x++) {
            if (g.producer(x) < 0) {
                copies.add(g.tensor(x), x, false);
            }
        }
        // Per tensor of the graph, its copies in run order: a segment belongs to the latest one made at or before it.
        List<List<int[]>> copiesAt = new ArrayList<>();
        for (int x = 0; x < g.tensorCount(); x++) {
            copiesAt.add(new ArrayList<>());
        }
        for (int t = 0; t < runs; t++) {
            int o = g.operatorIndex(schedule.get(t));
            Operator op = g.operator(o);
            int r = runsSoFar[o]++;
            runOf[t] = o;
            List<String> inputs = new ArrayList<>();
            for (int x : g.inputs(o)) {
                inputs.add(current[x]);
            }
            List<String> outputs = new ArrayList<>();
            for (int x : g.outputs(o)) {
                String name = r == 0 ? g.tensor(x).name() : fresh(taken, g.tensor(x).name() + "@" + r);
                current[x] = name;
                copiesAt.get(x).add(new int[] {t, copies.add(r == 0 ? g.tensor(x) : Tensor.activation(name, g.size(x)),
                        x, r > 0)});
                outputs.add(name);
            }
            String name = r == 0 ? op.name() : fresh(taken, op.name() + "@" + r);
            operators.add(new Operator(name, op.type(), inputs, outputs, g.cost(o)));
        }
        Graph unrolled = new Graph(g.name() + "/runs", g.alignment(), copies.tensors, operators, g.outputs());
        Plan plan = new Plan(unrolled.name(), p.setting(), p.budget(), Schedule.defaultOrder(unrolled),
                segments(g, p, unrolled, copies, copiesAt), null, null);
        CheckReport report = check ? PlanChecker.check(unrolled, plan) : null;
        if (report != null && !report.valid()) {
            throw new IllegalArgumentException("the plan does not unroll into runs: " + report.violations().get(0));
        }
        boolean[] made = new boolean[copies.recomputed.size()];
        for (int i = 0; i < made.length; i++) {
            made[i] = copies.recomputed.get(i);
        }
        return new RunGraph(unrolled, plan, g, runOf, copies.copyOf.stream().mapToInt(Integer::intValue).toArray(),
                made);
    }

    /** The tensors of the unrolled graph as they are made: each a copy of a tensor of the graph. */
    private static final class Copies {
        final List<Tensor> tensors = new ArrayList<>();
        final List<Integer> copyOf = new ArrayList<>();
        final List<Boolean> recomputed = new ArrayList<>();
        final Map<String, Integer> index = new HashMap<>();

        /** Adds {@code t}, a copy of the graph's tensor {@code x} (made by a recompute or not); its index. */
        int add(Tensor t, int x, boolean byRecompute) {
            index.put(t.name(), tensors.size());
            tensors.add(t);
            copyOf.add(x);
            recomputed.add(byRecompute);
            return tensors.size() - 1;
        }
    }

    /**
     * The plan's segments moved to the copies of the unrolled graph: each segment belongs to the latest copy made at
     * or before its start (a host tensor's own copy when none was made).
     */
    private static Map<String, List<Segment>> segments(Graph g, Plan p, Graph unrolled, Copies copies,
                                                       List<List<int[]>> copiesAt) {
        Map<String, List<Segment>> segments = new LinkedHashMap<>();
        p.segments().forEach((name, list) -> {
            int x = g.tensorIndex(name);
            for (Segment s : list) {
                int copy = g.producer(x) < 0 ? copies.index.get(name) : -1;
                for (int[] made : copiesAt.get(x)) {
                    if (made[0] <= s.start()) {
                        copy = made[1];
                    }
                }
                // A copy's reads end where the next copy's begin: what the plan kept past them is cut, and a load
                // with no read left is dropped (both only lower the footprint and the traffic).
                int end = Math.min(s.end(), lastRead(unrolled, copy));
                if (end >= s.start()) {
                    segments.computeIfAbsent(copies.tensors.get(copy).name(), k -> new ArrayList<>()).add(new Segment(
                            s.start(), end, s.offset(), s.origin() == Origin.RECOMPUTED ? Origin.CREATED : s.origin()));
                }
            }
        });
        return segments;
    }

    /** The timestep of the last read of a tensor of the unrolled graph (its producer's when none reads it). */
    private static int lastRead(Graph unrolled, int tensor) {
        int last = unrolled.producer(tensor);
        for (int c : unrolled.consumers(tensor)) {
            last = Math.max(last, c);
        }
        return last;
    }

    /** A name no operator or tensor has yet, taken. */
    private static String fresh(Set<String> taken, String name) {
        String n = name;
        for (int k = 1; taken.contains(n); k++) {
            n = name + "." + k;
        }
        taken.add(n);
        return n;
    }

    /**
     * A plan of the unrolled graph as a plan of the graph: each run names its operator, the created segment of a
     * recompute's copy becomes a recomputed segment of the tensor. Null when the result fails the checker.
     */
    Plan back(Plan unrolledPlan) {
        List<String> schedule = new ArrayList<>();
        for (String run : unrolledPlan.schedule().operators()) {
            schedule.add(source.operator(runOf[graph.operatorIndex(run)]).name());
        }
        Map<String, List<Segment>> segments = new LinkedHashMap<>();
        unrolledPlan.segments().forEach((name, list) -> {
            int copy = graph.tensorIndex(name);
            String tensor = source.tensor(copyOf[copy]).name();
            List<Segment> target = segments.computeIfAbsent(tensor, k -> new ArrayList<>());
            for (Segment s : list) {
                target.add(recomputedCopy[copy] && s.origin() == Origin.CREATED
                        ? Segment.recomputed(s.start(), s.end(), s.offset()) : s);
            }
        });
        segments.values().forEach(list -> list.sort(Comparator.comparingInt(Segment::start)));
        Plan mapped = new Plan(source.name(), unrolledPlan.setting(), unrolledPlan.budget(), new Schedule(schedule),
                segments, null, unrolledPlan.solver());
        CheckReport report = PlanChecker.check(source, mapped);
        return report.valid() ? mapped.withResult(report.traffic(), unrolledPlan.solver()) : null;
    }

    /** Whether a plan of the unrolled graph maps back to a valid plan of the graph. */
    boolean admits(Plan unrolledPlan) {
        return back(unrolledPlan) != null;
    }
}
