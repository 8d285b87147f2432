package dev.memplan.model;

import java.util.Arrays;

/**
 * For a schedule, the timesteps each tensor must be resident when nothing is spilled: from its creation (or,
 * for a host tensor, its first use) to its last use; a tensor no operator reads lives only at its producer's
 * timestep. Unused host tensors have first = last = -1.
 */
public final class Lifetimes {
    private final int[] first;
    private final int[] last;
    private final int[] position;

    private Lifetimes(int[] first, int[] last, int[] position) {
        this.first = first;
        this.last = last;
        this.position = position;
    }

    /** @throws IllegalArgumentException when the schedule is not a topological order of the graph */
    public static Lifetimes of(Graph graph, Schedule schedule) {
        int[] order = schedule.resolve(graph);
        int[] position = new int[order.length];
        for (int t = 0; t < order.length; t++) {
            position[order[t]] = t;
        }
        int nt = graph.tensorCount();
        int[] first = new int[nt];
        int[] last = new int[nt];
        Arrays.fill(first, -1);
        Arrays.fill(last, -1);
        for (int t = 0; t < nt; t++) {
            int p = graph.producer(t);
            if (p >= 0) {
                first[t] = position[p];
                last[t] = position[p];
            }
            for (int c : graph.consumers(t)) {
                int at = position[c];
                first[t] = first[t] < 0 ? at : Math.min(first[t], at);
                last[t] = Math.max(last[t], at);
            }
        }
        return new Lifetimes(first, last, position);
    }

    /** First resident timestep, or -1 for an unused host tensor. */
    public int first(int tensor) {
        return first[tensor];
    }

    /** Last resident timestep (the last use), or -1 for an unused host tensor. */
    public int last(int tensor) {
        return last[tensor];
    }

    /** Timestep of an operator. */
    public int position(int operator) {
        return position[operator];
    }
}
