package dev.memplan.formulations.cosma;

import dev.memplan.model.Graph;
import dev.memplan.model.Schedule;

/**
 * The windows of a {@link RecomputeFormulation} (its class comment: first runs, reruns, residency, and which two
 * tensors get eq. 10's pair), computed without building the program, so that {@link ModelEstimate#ofRecompute}
 * can size it first. Time O(n + m) plus the operator windows; {@link #addressPairs()} O(m^2).
 */
final class RecomputeWindows {
    final Graph graph;
    final int n;
    final int m;
    /** T = n + k: the run slots. */
    final int slots;
    final boolean prune;
    /** The fixed schedule's order of first runs, null for a free schedule. */
    final int[] fixedOrder;
    final OperatorWindows windows;
    /** again[o]: o may run more than once. */
    final boolean[] again;
    /** o's first run lies in [firstLo[o], firstHi[o]]; any run in [firstLo[o], runHi[o]]. */
    final int[] firstLo;
    final int[] firstHi;
    final int[] runHi;
    /** Tensor a can be resident at slots [resLo[a], resHi[a]]. */
    final int[] resLo;
    final int[] resHi;

    /** The arguments as {@link RecomputeFormulation}'s (the graph in its tensor setting). */
    RecomputeWindows(Graph graph, int extraRuns, double lambda, Schedule schedule, Reruns reruns, boolean prune) {
        this.graph = graph;
        this.n = graph.operatorCount();
        this.m = graph.tensorCount();
        this.slots = n + extraRuns;
        this.prune = prune;
        this.fixedOrder = schedule == null ? null : schedule.resolve(graph);
        this.windows = schedule == null ? OperatorWindows.free(graph, prune) : OperatorWindows.fixed(graph, schedule,
                prune);
        this.again = reruns.of(graph, lambda);
        this.firstLo = new int[n];
        this.firstHi = new int[n];
        this.runHi = new int[n];
        this.resLo = new int[m];
        this.resHi = new int[m];
        compute(extraRuns);
    }

    /** The windows of the class comment. A useless rerun right is dropped (an operator whose outputs no one reads). */
    private void compute(int k) {
        for (int o = 0; o < n; o++) {
            boolean read = false;
            for (int a : graph.outputs(o)) {
                read |= graph.consumers(a).length > 0;
            }
            again[o] &= read && k > 0;
            if (fixedOrder != null) {
                continue;
            }
            firstLo[o] = prune ? windows.earliest(o) : 0;
            firstHi[o] = prune ? windows.latest(o) + k : slots - 1;
        }
        if (fixedOrder != null) {
            for (int i = 0; i < n; i++) {
                firstLo[fixedOrder[i]] = i;
                firstHi[fixedOrder[i]] = i + k;
            }
        }
        // Readers come after their producers in the graph's operator order (a topological order): last first.
        for (int o = n - 1; o >= 0; o--) {
            runHi[o] = firstHi[o];
            if (!again[o]) {
                continue;
            }
            int lastRead = -1;
            for (int a : graph.outputs(o)) {
                for (int c : graph.consumers(a)) {
                    lastRead = Math.max(lastRead, runHi[c]);
                }
            }
            runHi[o] = prune ? Math.max(firstHi[o], Math.min(slots - 1, lastRead - 1)) : slots - 1;
        }
        for (int a = 0; a < m; a++) {
            int p = graph.producer(a);
            int[] readers = graph.consumers(a);
            int lo = p >= 0 ? firstLo[p] : Integer.MAX_VALUE;
            int hi = p >= 0 ? runHi[p] : -1;
            for (int c : readers) {
                if (p < 0) {
                    lo = Math.min(lo, firstLo[c]);
                }
                hi = Math.max(hi, runHi[c]);
            }
            resLo[a] = p < 0 && readers.length == 0 ? 0 : prune ? lo : 0;
            resHi[a] = p < 0 && readers.length == 0 ? -1 : prune ? hi : slots - 1;
        }
    }

    boolean mayRun(int o, int t) {
        return firstLo[o] <= t && t <= runHi[o];
    }

    boolean mayRunFirst(int o, int t) {
        return firstLo[o] <= t && t <= firstHi[o];
    }

    boolean inWindow(int a, int t) {
        return resLo[a] <= t && t <= resHi[a];
    }

    /** Whether tensors a and b get eq. 10's pair: their windows meet and neither is dead before the other exists. */
    boolean mayPair(int a, int b) {
        return Math.max(resLo[a], resLo[b]) <= Math.min(resHi[a], resHi[b])
                && !(prune && (deadBefore(a, b) || deadBefore(b, a)));
    }

    /** The number of eq. 10 pairs (tensor, tensor, slot) of the program with addresses: O(m^2). */
    long addressPairs() {
        return addressPairs(Long.MAX_VALUE);
    }

    /**
     * The number of eq. 10 pairs, or a number above {@code cap} as soon as the count passes it: where the program is
     * not built above a cap, the count stops there (21,846 tensors: seconds for all m^2 / 2 pairs).
     */
    long addressPairs(long cap) {
        long count = 0;
        for (int a = 0; a < m && count <= cap; a++) {
            for (int b = a + 1; b < m; b++) {
                if (mayPair(a, b)) {
                    count += Math.min(resHi[a], resHi[b]) - Math.max(resLo[a], resLo[b]) + 1;
                }
            }
        }
        return count;
    }

    /** Whether a's first run precedes b's in every plan of the program. */
    private boolean precedes(int x, int y) {
        return fixedOrder != null ? firstLo[x] < firstLo[y] : windows.isAncestor(x, y) || firstHi[x] < firstLo[y];
    }

    /**
     * Tensor a is never resident once b exists: a's readers, none of which runs again, all run first before b's
     * producer (COSMA section III-F); a tensor no one reads is only resident when its producer runs.
     */
    private boolean deadBefore(int a, int b) {
        int pb = graph.producer(b);
        if (pb < 0) {
            return false;
        }
        int[] readers = graph.consumers(a);
        if (readers.length == 0) {
            int pa = graph.producer(a);
            return pa >= 0 && !again[pa] && precedes(pa, pb);
        }
        for (int c : readers) {
            if (again[c] || !precedes(c, pb)) {
                return false;
            }
        }
        return true;
    }
}
