package dev.memplan.formulations.cosma;

import dev.memplan.model.Graph;
import dev.memplan.model.Schedule;
import java.util.BitSet;

/**
 * The lifetime-window analysis that shrinks the COSMA model without losing optimality: the earliest and latest
 * timestep at which each operator can run (its number of ancestors, and n - 1 minus its number of
 * descendants, in any topological order), the timesteps at which each tensor can be resident, and whether two
 * tensors can ever be resident together. With a fixed schedule every window is the operator's own timestep.
 *
 * <p>Two tensors a and b can never be resident together when every reader of a is an ancestor of b's producer
 * (a is dead before b exists; COSMA section III-F), or the other way round. Ancestor sets are bitsets: time and
 * space O(n^2 / 64) for n operators.
 */
public final class OperatorWindows {
    private final Graph graph;
    private final int[] earliest;
    private final int[] latest;
    private final BitSet[] ancestors;
    private final int[] tensorFirst;
    private final int[] tensorLast;
    private final boolean pruned;

    private OperatorWindows(Graph graph, int[] earliest, int[] latest, BitSet[] ancestors, boolean pruned) {
        this.graph = graph;
        this.earliest = earliest;
        this.latest = latest;
        this.ancestors = ancestors;
        this.pruned = pruned;
        int nt = graph.tensorCount();
        tensorFirst = new int[nt];
        tensorLast = new int[nt];
        for (int a = 0; a < nt; a++) {
            int p = graph.producer(a);
            int[] readers = graph.consumers(a);
            if (p < 0 && readers.length == 0) {
                tensorFirst[a] = 0;
                tensorLast[a] = -1;
                continue;
            }
            int first = Integer.MAX_VALUE;
            int last = -1;
            if (p >= 0) {
                first = earliest[p];
                last = latest[p];
            }
            for (int c : readers) {
                first = Math.min(first, earliest[c]);
                last = Math.max(last, latest[c]);
            }
            // Without pruning, a tensor may be resident anywhere (variables over the whole horizon).
            tensorFirst[a] = pruned ? first : 0;
            tensorLast[a] = pruned ? last : graph.operatorCount() - 1;
        }
    }

    /**
     * Windows for a free schedule; {@code prune = false} gives every operator the whole horizon (the
     * unreduced model, for comparison).
     */
    public static OperatorWindows free(Graph graph, boolean prune) {
        int n = graph.operatorCount();
        BitSet[] anc = ancestors(graph);
        int[] earliest = new int[n];
        int[] latest = new int[n];
        int[] descendants = prune ? descendantCounts(graph) : null;
        for (int o = 0; o < n; o++) {
            earliest[o] = prune ? anc[o].cardinality() : 0;
            latest[o] = prune ? n - 1 - descendants[o] : n - 1;
        }
        return new OperatorWindows(graph, earliest, latest, anc, prune);
    }

    /**
     * Each operator's number of descendants, from descendant sets built backwards (the operators are indexed in a
     * topological order): word operations, O(n / 64) per edge, rather than one step per (ancestor, operator) pair,
     * O(n^2) on a long training step.
     */
    private static int[] descendantCounts(Graph graph) {
        int n = graph.operatorCount();
        BitSet[] desc = new BitSet[n];
        int[] counts = new int[n];
        for (int o = n - 1; o >= 0; o--) {
            dev.memplan.model.ClockGuard.poll(o, "counting the operators' descendants");
            desc[o] = new BitSet(n);
            for (int t : graph.outputs(o)) {
                for (int c : graph.consumers(t)) {
                    desc[o].set(c);
                    desc[o].or(desc[c]);
                }
            }
            counts[o] = desc[o].cardinality();
        }
        return counts;
    }

    /** Windows of a fixed schedule, or of a free one when {@code schedule} is null. */
    public static OperatorWindows of(Graph graph, Schedule schedule, boolean prune) {
        return schedule != null ? fixed(graph, schedule, prune) : free(graph, prune);
    }

    /**
     * Windows of a fixed schedule: each operator at its own timestep; {@code prune = false} still lets tensors
     * be resident at any timestep (the unreduced model).
     */
    public static OperatorWindows fixed(Graph graph, Schedule schedule, boolean prune) {
        int[] order = schedule.resolve(graph);
        int n = order.length;
        int[] at = new int[n];
        for (int t = 0; t < n; t++) {
            at[order[t]] = t;
        }
        return new OperatorWindows(graph, at, at.clone(), ancestors(graph), prune);
    }

    private static BitSet[] ancestors(Graph graph) {
        int n = graph.operatorCount();
        BitSet[] anc = new BitSet[n];
        for (int o = 0; o < n; o++) {
            // n^2 bits in all, O(n^2) time (BENCHMARKS.md, "Figures moved out of the Javadoc, continued"): a command's clock is polled.
            dev.memplan.model.ClockGuard.poll(o, "computing the operators' ancestor sets");
            anc[o] = new BitSet(n);
            for (int t : graph.inputs(o)) {
                int p = graph.producer(t);
                if (p >= 0) {
                    anc[o].set(p);
                    anc[o].or(anc[p]);
                }
            }
        }
        return anc;
    }

    public int earliest(int operator) {
        return earliest[operator];
    }

    public int latest(int operator) {
        return latest[operator];
    }

    public boolean canRun(int operator, int t) {
        return earliest[operator] <= t && t <= latest[operator];
    }

    /** First timestep at which the tensor can be resident. */
    public int tensorFirst(int tensor) {
        return tensorFirst[tensor];
    }

    /** Last timestep at which the tensor can be resident; below {@link #tensorFirst} for an unused host tensor. */
    public int tensorLast(int tensor) {
        return tensorLast[tensor];
    }

    public boolean canBeResident(int tensor, int t) {
        return tensorFirst[tensor] <= t && t <= tensorLast[tensor];
    }

    /** Whether operator x is an ancestor of operator y. */
    public boolean isAncestor(int x, int y) {
        return ancestors[y].get(x);
    }

    /** The number of ancestors of the operator. */
    public int ancestorCount(int operator) {
        return ancestors[operator].cardinality();
    }

    /**
     * Whether operator x runs before operator y in every schedule allowed here: x is an ancestor of y, or x's
     * window ends before y's begins (with a fixed schedule: x comes first).
     */
    public boolean precedes(int x, int y) {
        return isAncestor(x, y) || latest[x] < earliest[y];
    }

    /** Whether tensors a and b can ever be resident at the same timestep t. */
    public boolean canCoexist(int a, int b, int t) {
        if (!canBeResident(a, t) || !canBeResident(b, t)) {
            return false;
        }
        return !pruned || (!deadBefore(a, b) && !deadBefore(b, a));
    }

    /** Every reader of a runs before b's producer, so a is never resident once b exists. */
    private boolean deadBefore(int a, int b) {
        int p = graph.producer(b);
        int[] readers = graph.consumers(a);
        if (p < 0) {
            return false;
        }
        if (readers.length == 0) {
            int pa = graph.producer(a);
            return pa >= 0 && isAncestor(pa, p);
        }
        for (int c : readers) {
            if (!isAncestor(c, p)) {
                return false;
            }
        }
        return true;
    }
}
