package dev.memplan.decomposition;

import dev.memplan.formulations.cosma.FixedOrderBound;
import dev.memplan.model.Budgets;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import java.util.TreeSet;

/**
 * An order of first runs improved one operator's move at a time, each order judged by its spill-only caching LP ({@link
 * FixedOrderBound#of}: a lower bound on the traffic of every plan of that order, on the training graphs at lambda 1
 * equal or close to the order's least traffic). A move takes one operator to another place between its last producer
 * and its first reader: the ends of that window, the middles between them and its place, one step either way and, for a
 * sink, the places beside the other readers of its inputs ({@link #besideReaders}). The first move that lowers the LP
 * is kept, then the next operator is tried; passes follow while one lowers it, at most {@link #MAX_PROGRAMS} programs
 * in all (a count, so the same order on every machine; the run's wall end or Ctrl-C stops it earlier, keeping what it
 * has).
 *
 * <p>Why: the orders {@link OrderCover} covers come from schedulers that do not look at the budget's tight moments
 * after the loss. On deeplabv3_resnet50:train at M_R the best of them (the minimum-peak order of width 1024) is
 * covered to its optimum, 45,547,168, while three moves (a weight gradient of the auxiliary head run right after its
 * gradient instead of at the end, that of the pooling branch likewise, two neighbours of layer4.2 swapped) give an
 * order whose LP is 44,338,848 (BENCHMARKS.md, "An order moved operator by operator").
 *
 * <p>A heuristic only: the order it returns is covered exactly and checked like any other; the LP's value is not
 * reported as a bound of anything but that order.
 */
final class OrderMoves {

    /** Most programs solved in one search. */
    static final int MAX_PROGRAMS = 2048;

    private OrderMoves() {
    }

    /**
     * The order reached and its LP, or null when no move lowered the start's LP (or the graph has fewer than two
     * operators).
     *
     * @param order the order of first runs (every operator once, topological)
     * @param lp the order's LP ({@link FixedOrderBound#of}) in bytes
     * @param whole the last order on the way whose LP rounded to whole tensors ({@link
     *     FixedOrderBound.Result#rounded}, the cost of a real plan of it) rose at no move kept since the start, or null
     *     when that is the start; the same array as {@code order} when no rounding rose
     * @param wholeLp that order's LP
     */
    record Moved(int[] order, long lp, int[] whole, long wholeLp) {
    }

    /**
     * @param g the graph in its tensor setting
     * @param start a topological order of every operator once
     * @param budget the budget in bytes (at least M_R)
     * @param limits whose stop (wall end or Ctrl-C) ends the search
     */
    static Moved of(Graph g, int[] start, long budget, Limits limits) {
        int n = start.length;
        if (n < 2) {
            return null;
        }
        int[] order = start.clone();
        FixedOrderBound.Result at = FixedOrderBound.of(g, order, budget);
        long first = at.traffic();
        long best = first;
        long rounded = at.rounded();
        int[] whole = null;
        long wholeLp = first;
        int programs = 1;
        boolean improved = true;
        while (improved && programs < MAX_PROGRAMS && !limits.stopped()) {
            improved = false;
            for (int i = 0; i < n && programs < MAX_PROGRAMS && !limits.stopped(); i++) {
                int[] pos = new int[n];
                for (int k = 0; k < n; k++) {
                    pos[order[k]] = k;
                }
                int o = order[i];
                int lo = 0;
                int hi = n - 1;
                for (int x : g.inputs(o)) {
                    if (g.producer(x) >= 0) {
                        lo = Math.max(lo, pos[g.producer(x)] + 1);
                    }
                }
                for (int y : g.outputs(o)) {
                    for (int c : g.consumers(y)) {
                        hi = Math.min(hi, pos[c] - 1);
                    }
                }
                TreeSet<Integer> targets = new TreeSet<>(java.util.List.of(lo, hi, (lo + i) / 2, (i + hi) / 2,
                        i - 1, i + 1));
                targets.addAll(besideReaders(g, order, pos, i));
                for (int t : targets) {
                    if (t < lo || t > hi || t == i || programs >= MAX_PROGRAMS || limits.stopped()) {
                        continue;
                    }
                    int[] moved = move(order, i, t);
                    FixedOrderBound.Result r = FixedOrderBound.of(g, moved, budget);
                    long v = r.traffic();
                    programs++;
                    if (v < best) {
                        best = v;
                        order = moved;
                        improved = true;
                        if (r.rounded() <= rounded) {
                            rounded = r.rounded();
                            whole = moved;
                            wholeLp = v;
                        }
                        break;
                    }
                }
            }
        }
        return best < first ? new Moved(order, best, whole, wholeLp) : null;
    }

    /**
     * The places beside the other readers of a sink's inputs: for the operator at place i whose outputs nobody reads
     * (a weight gradient), and each other reader c of one of its inputs, the places that put it right before and
     * right after c (places of {@link #move}); none for any other operator. Why: a sink run beside another reader of
     * its input reads that input in one stay on chip. On resnet50:train at M_R the plan runs
     * {@code layer4.0.conv1/grad_weight} at timestep 88, where only 536 bytes are free, and the other weight gradient
     * of {@code layer3.5.add}, {@code layer4.0.downsample/grad_weight}, at the end, for which that tensor is spilled
     * and loaded anyway; run just before it, that order has a plan paying 17,210,368 (its LP 17,187,792) where the
     * plan's order's least traffic is 17,411,072, and the window's ends and middles do not reach that place
     * (BENCHMARKS.md, "The lambda-1 M_R plans against their bound's moment").
     */
    static TreeSet<Integer> besideReaders(Graph g, int[] order, int[] pos, int i) {
        TreeSet<Integer> out = new TreeSet<>();
        int o = order[i];
        for (int y : g.outputs(o)) {
            if (g.consumers(y).length != 0) {
                return out;
            }
        }
        for (int x : g.inputs(o)) {
            for (int c : g.consumers(x)) {
                if (c == o) {
                    continue;
                }
                int p = pos[c];
                out.add(p > i ? p - 1 : p);
                out.add(p > i ? p : p + 1);
            }
        }
        return out;
    }

    /**
     * The order with its full sinks last: the operators whose outputs nobody reads and whose own tensors (inputs and
     * outputs) take at least the budget, taken to the end in their order (the others keep theirs; a sink precedes
     * nobody, so the order stays topological); the same order when there is none. While such a sink runs every other
     * tensor is off chip; at the end of a training step few others are live. On deeplabv3_resnet50:train at M_R the
     * three 3x3 ASPP weight gradients are such sinks (own bytes exactly M_R): taken last from the order the moves
     * reach, the moves from there reach an order whose least traffic is 43,101,184 (the single moves' 44,338,848).
     */
    static int[] fullSinksLast(Graph g, int[] order, long budget) {
        int[] out = new int[order.length];
        boolean[] last = new boolean[order.length];
        int k = 0;
        for (int i = 0; i < order.length; i++) {
            int o = order[i];
            boolean sink = true;
            for (int y : g.outputs(o)) {
                sink &= g.consumers(y).length == 0;
            }
            last[i] = sink && Budgets.operatorFootprint(g, o) >= budget;
            if (!last[i]) {
                out[k++] = o;
            }
        }
        for (int i = 0; i < order.length; i++) {
            if (last[i]) {
                out[k++] = order[i];
            }
        }
        return out;
    }

    /** The order with the operator at place i taken to place t (the others keep their order). */
    static int[] move(int[] order, int i, int t) {
        int[] out = order.clone();
        int o = order[i];
        if (t < i) {
            System.arraycopy(order, t, out, t + 1, i - t);
        } else {
            System.arraycopy(order, i + 1, out, i, t - i);
        }
        out[t] = o;
        return out;
    }
}
