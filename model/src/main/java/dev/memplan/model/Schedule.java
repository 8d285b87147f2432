package dev.memplan.model;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A sequence of runs: the operator at position t runs at timestep t (memory-model.md, "Time"). With
 * recomputation ("Recomputation") an operator may be named more than once: its first run creates its outputs,
 * each later run is a recompute, and the schedule has T >= n timesteps. A schedule is only names; whether it is
 * a topological permutation of a graph's operators is decided by {@link #validate(Graph)}, whether it is a
 * valid sequence of runs by the {@link PlanChecker}.
 */
public record Schedule(List<String> operators) {

    public Schedule {
        operators = List.copyOf(operators);
    }

    /** The graph's default order. */
    public static Schedule defaultOrder(Graph graph) {
        return new Schedule(graph.operators().stream().map(Operator::name).collect(Collectors.toList()));
    }

    /** A schedule from operator indices of the graph. */
    public static Schedule of(Graph graph, int[] order) {
        return new Schedule(java.util.Arrays.stream(order).mapToObj(o -> graph.operator(o).name())
                .collect(Collectors.toList()));
    }

    /** The number of timesteps T (n when every operator runs once). */
    public int length() {
        return operators.size();
    }

    /** The runs beyond the first of each operator named: 0 for a schedule without recomputes. */
    public int recomputes() {
        return operators.size() - (int) operators.stream().distinct().count();
    }

    /** For each timestep, whether it is a recompute: its operator is named at an earlier timestep. */
    public boolean[] recomputeRuns() {
        boolean[] later = new boolean[operators.size()];
        Set<String> seen = new HashSet<>();
        for (int t = 0; t < later.length; t++) {
            later[t] = !seen.add(operators.get(t));
        }
        return later;
    }

    /**
     * The schedule as operator indices of the graph, in run order.
     *
     * @throws IllegalArgumentException when the schedule is not a topological permutation of the graph's
     *     operators (a schedule with recomputes is not), naming the first problem
     */
    public int[] resolve(Graph graph) {
        List<String> problems = PlanChecker.scheduleProblems(graph, this, 1);
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(problems.get(0));
        }
        int[] order = new int[operators.size()];
        for (int t = 0; t < order.length; t++) {
            order[t] = graph.operatorIndex(operators.get(t));
        }
        return order;
    }

    /** Fails with the first problem unless this is a topological permutation of the graph's operators. */
    public void validate(Graph graph) {
        resolve(graph);
    }
}
