package dev.memplan.model;

import java.util.List;
import java.util.stream.Collectors;

/**
 * An operator order: the operator at position t runs at timestep t (memory-model.md, "Time"). A schedule is
 * only names; whether it is a topological permutation of a graph's operators is decided by
 * {@link #validate(Graph)} and by the {@link PlanChecker}.
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

    public int length() {
        return operators.size();
    }

    /**
     * The schedule as operator indices of the graph, in run order.
     *
     * @throws IllegalArgumentException when the schedule is not a topological permutation of the graph's
     *     operators, naming the first problem
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
