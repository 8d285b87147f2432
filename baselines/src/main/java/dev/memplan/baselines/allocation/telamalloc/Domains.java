package dev.memplan.baselines.allocation.telamalloc;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;

/**
 * The constraint reasoning that TelaMalloc asks its CP solver for (Maas et al., ASPLOS 2023, sections 4, 5.1,
 * 5.2 and 5.5), done here with our own interval reasoning instead of CP-SAT behind the unpublished Telamon
 * wrapper. The model is the paper's CP encoding: a position per buffer, aligned, inside {@code [0, capacity -
 * size]}, and for every two buffers live at once, one lies wholly below the other.
 *
 * <p>{@link #propagate} takes the buffers placed so far and computes, for every unplaced buffer, the range
 * {@code [lb, ub]} of positions the constraints still allow, or reports that some range is empty:
 * <ul>
 *   <li>against placed buffers the reasoning is exact: {@code lb} is the lowest aligned position that crosses no
 *       placed buffer live at the same time (the jump over each blocking buffer is what bounds propagation of
 *       the disjunction does, repeated to the fixpoint), {@code ub} the highest;</li>
 *   <li>between two unplaced buffers X and Y live at once it propagates bounds as a CP solver does on the
 *       disjunction: when X cannot lie below Y ({@code lb(X) + size(X) > ub(Y)}), Y must lie below X, so
 *       {@code lb(X) >= lb(Y) + size(Y)} and {@code ub(Y) <= ub(X) - size(Y)}, to the fixpoint, each new bound
 *       moved again to the nearest position that crosses no placed buffer.</li>
 * </ul>
 * Every bound carries its reason, the set of placed buffers it follows from (fixed buffers are never part of a
 * reason: they are not decisions). An empty range yields a conflict: the union of the reasons of its two
 * bounds, the "conflicting variable assignments" that section 5.4 backjumps on. All of it is sound: a position
 * is removed only if no packing that extends the placed buffers uses it.
 *
 * <p>Cost per call: O(n log n + p log p) to sort the placed buffers by offset and the blockers of each unplaced
 * buffer, for n buffers and p (placed, unplaced) overlapping pairs, plus O(d) per bound change of a buffer with
 * d neighbours; in practice a few passes over the overlap graph.
 */
final class Domains {
    private final long capacity;
    private final long[] size;
    private final long[] alignment;
    private final int[][] neighbours;

    /** For each unplaced buffer in the last propagation: the placed buffers live with it, by offset. */
    private final int[][] blockers;
    /** The placed buffers and their rank by offset in the last propagation. */
    private int[] placedByOffset;
    private final int[] rank;
    private long[] offset;
    private boolean[] decided;

    /** The outcome of the last {@link #propagate} call. */
    private long[] lb;
    private long[] ub;
    private BitSet[] lbWhy;
    private BitSet[] ubWhy;
    private BitSet conflict;

    /**
     * @param neighbours for each buffer, the buffers live at the same time as it
     */
    Domains(long capacity, long[] size, long[] alignment, int[][] neighbours) {
        this.capacity = capacity;
        this.size = size;
        this.alignment = alignment;
        this.neighbours = neighbours;
        int n = size.length;
        this.blockers = new int[n][];
        this.rank = new int[n];
    }

    /** Lower bounds and their reasons for every unplaced buffer after a successful propagation. */
    record Lower(long[] bound, BitSet[] why) {
    }

    /**
     * Propagates the placement {@code offset} (-1 = unplaced); {@code decided[i]} says whether placed buffer i
     * is a search decision (and so may appear in reasons). Returns false on a conflict, see {@link #conflict()}.
     * Placed offsets must be legal among themselves.
     */
    boolean propagate(long[] offset, boolean[] decided) {
        int n = size.length;
        lb = new long[n];
        ub = new long[n];
        lbWhy = new BitSet[n];
        ubWhy = new BitSet[n];
        conflict = null;
        rankPlaced(offset, decided);
        for (int y = 0; y < n; y++) {
            if (offset[y] >= 0) {
                continue;
            }
            collectBlockers(y);
            lbWhy[y] = new BitSet();
            ubWhy[y] = new BitSet();
            lb[y] = raise(y, 0, lbWhy[y]);
            if (lb[y] > capacity - size[y]) {
                conflict = lbWhy[y];
                return false;
            }
            ub[y] = lower(y, capacity - size[y], ubWhy[y]);
        }
        return pairwise(offset);
    }

    /** The reason of the last conflict: placed decision buffers that together leave some range empty. */
    BitSet conflict() {
        return conflict;
    }

    /** The lower bounds of the last successful propagation (arrays owned by the caller from now on). */
    Lower lower() {
        return new Lower(lb, lbWhy);
    }

    /**
     * The lowest aligned position >= {@code from} at which unplaced buffer y crosses no buffer placed in
     * {@code offset}; the placed decisions it had to jump over are added to {@code why}.
     */
    long lowestFrom(int y, long from, long[] offset, boolean[] decided, BitSet why) {
        rankPlaced(offset, decided);
        collectBlockers(y);
        return raise(y, from, why);
    }

    private void rankPlaced(long[] offset, boolean[] decided) {
        this.offset = offset;
        this.decided = decided;
        List<Integer> placed = new ArrayList<>();
        for (int x = 0; x < offset.length; x++) {
            if (offset[x] >= 0) {
                placed.add(x);
            }
        }
        placed.sort((a, b) -> Long.compare(offset[a], offset[b]));
        placedByOffset = new int[placed.size()];
        for (int r = 0; r < placedByOffset.length; r++) {
            placedByOffset[r] = placed.get(r);
            rank[placedByOffset[r]] = r;
        }
    }

    /** The placed buffers live with y, in offset order (ranks are unique ints, so a primitive sort does it). */
    private void collectBlockers(int y) {
        int count = 0;
        for (int x : neighbours[y]) {
            if (offset[x] >= 0) {
                count++;
            }
        }
        int[] ranks = new int[count];
        int k = 0;
        for (int x : neighbours[y]) {
            if (offset[x] >= 0) {
                ranks[k++] = rank[x];
            }
        }
        Arrays.sort(ranks);
        for (int i = 0; i < count; i++) {
            ranks[i] = placedByOffset[ranks[i]];
        }
        blockers[y] = ranks;
    }

    /*
     * y at p crosses placed x exactly when p lies in [offset(x) - size(y) + 1, offset(x) + size(x) - 1]: the
     * blocked range of x for y. Blockers in offset order are blocked ranges in order of their start, which is
     * what both sweeps below need: a range passed over can never hold a later position, upwards because its end
     * was below the position then, downwards because the position only ever drops below a start no greater than
     * its own.
     */

    /** Lowest aligned position >= from outside every blocked range of y; jumped-over decisions go to why. */
    private long raise(int y, long from, BitSet why) {
        long p = TimeAxis.alignUp(Math.max(from, 0), alignment[y]);
        for (int x : blockers[y]) {
            if (offset[x] - size[y] + 1 > p) {
                break;
            }
            long end = offset[x] + size[x] - 1;
            if (end >= p) {
                p = TimeAxis.alignUp(end + 1, alignment[y]);
                if (decided[x]) {
                    why.set(x);
                }
            }
        }
        return p;
    }

    /** Highest aligned position <= from outside every blocked range of y; jumped-over decisions go to why. */
    private long lower(int y, long from, BitSet why) {
        long p = TimeAxis.alignDown(from, alignment[y]);
        int[] by = blockers[y];
        for (int i = by.length - 1; i >= 0; i--) {
            int x = by[i];
            long start = offset[x] - size[y] + 1;
            if (start <= p && offset[x] + size[x] - 1 >= p) {
                p = TimeAxis.alignDown(start - 1, alignment[y]);
                if (decided[x]) {
                    why.set(x);
                }
            }
        }
        return p;
    }

    /** Bounds propagation of the disjunctions between unplaced buffers, to the fixpoint. */
    private boolean pairwise(long[] offset) {
        int n = size.length;
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        boolean[] queued = new boolean[n];
        for (int y = 0; y < n; y++) {
            if (offset[y] < 0) {
                queue.add(y);
                queued[y] = true;
            }
        }
        while (!queue.isEmpty()) {
            int y = queue.poll();
            queued[y] = false;
            for (int x : neighbours[y]) {
                if (offset[x] >= 0) {
                    continue;
                }
                boolean xBelowY = lb[x] + size[x] <= ub[y];
                boolean yBelowX = lb[y] + size[y] <= ub[x];
                if (!xBelowY && !yBelowX) {
                    conflict = union(lbWhy[x], ubWhy[y], lbWhy[y], ubWhy[x]);
                    return false;
                }
                if (!xBelowY && !order(y, x, queue, queued)) {
                    return false;
                }
                if (!yBelowX && !order(x, y, queue, queued)) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Enforces "below lies under above", known because above cannot lie under below ({@code lb(above) +
     * size(above) > ub(below)}, whose reason is lbWhy(above) and ubWhy(below)).
     */
    private boolean order(int below, int above, ArrayDeque<Integer> queue, boolean[] queued) {
        BitSet ordered = union(lbWhy[above], ubWhy[below]);
        long newLb = lb[below] + size[below];
        if (newLb > lb[above]) {
            BitSet why = union(ordered, lbWhy[below]);
            lb[above] = raise(above, newLb, why);
            lbWhy[above] = why;
            if (!stillOpen(above, queue, queued)) {
                return false;
            }
        }
        long newUb = ub[above] - size[below];
        if (newUb < ub[below]) {
            BitSet why = union(ordered, ubWhy[above]);
            ub[below] = lower(below, newUb, why);
            ubWhy[below] = why;
            return stillOpen(below, queue, queued);
        }
        return true;
    }

    private boolean stillOpen(int y, ArrayDeque<Integer> queue, boolean[] queued) {
        if (lb[y] > ub[y]) {
            conflict = union(lbWhy[y], ubWhy[y]);
            return false;
        }
        if (!queued[y]) {
            queue.add(y);
            queued[y] = true;
        }
        return true;
    }

    private static BitSet union(BitSet... sets) {
        BitSet u = new BitSet();
        for (BitSet s : sets) {
            u.or(s);
        }
        return u;
    }
}
