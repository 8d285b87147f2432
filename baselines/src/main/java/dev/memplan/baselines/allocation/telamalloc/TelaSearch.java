package dev.memplan.baselines.allocation.telamalloc;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * TelaMalloc's search over one independent part of the time line (Maas et al., ASPLOS 2023, sections 5.1-5.4 and
 * Figure 7). Buffers are indexed 0..n-1 within the part.
 *
 * <p>The search tree: a decision point holds an ordered list of candidate buffers; choosing one places it at the
 * lowest position the {@link Domains} still allow and propagates. A failed propagation is a minor backtrack (try
 * the next candidate); a point whose candidates are all used up causes a major backtrack, to the latest
 * placement in its conflict set (conflict-directed backjumping as in Prosser, "Hybrid algorithms for the
 * constraint satisfaction problem", Computational Intelligence 1993: the conflict sets of all failures below a
 * point are merged into it), with the abandoned point's candidates put first at the point returned to.
 * The stuck detector counts the backtracks below each decision since it was made and abandons the deepest
 * decision whose count exceeds the threshold; the count of the abandoned subtree is taken off its ancestors so
 * that they are not abandoned for the same backtracks one after the other.
 *
 * <p>Candidates at a point: for the phase of the buffer placed last, then for every other phase in order, the
 * pick of each enabled heuristic (longest lifetime, largest size, largest area), without repeats, capped at
 * {@code maxCandidates}. With {@link TelaMallocOptions#exhaustive()} every unplaced buffer follows, nothing is
 * capped or skipped, and running out of candidates at the root is a proof: for every packing, the branch that
 * places buffers in increasing order of their offset in it never puts a buffer above its offset there (each
 * lowest position is at most that offset), so sound propagation never prunes it.
 *
 * <p>Each step costs one propagation (see {@link Domains}); the tree is exponential in the worst case.
 */
final class TelaSearch {

    /** How a search ended. */
    enum Outcome { SOLVED, INFEASIBLE, GAVE_UP, TIME_LIMIT, WORK_LIMIT, STOPPED }

    private static final int LONGEST_LIFETIME = 0;
    private static final int LARGEST_SIZE = 1;
    private static final int LARGEST_AREA = 2;

    private final long capacity;
    private final long[] size;
    private final long[] lifetime;
    private final int[][] neighbours;
    private final List<int[]> phases;
    private final int[] phaseOf;
    private final int[] heuristics;
    private final TelaMallocOptions options;
    private final long startNanos;
    private final long budgetNanos;
    /** The run's budget, whose stop flag (a cancel, Ctrl-C) the search polls as well as its own deadline. */
    private final dev.memplan.model.Budget stop;
    private final Domains domains;

    private final long[] offset;
    private final boolean[] decided;
    private final int[] level;
    private final int free;
    private int placed;
    private final List<Point> stack = new ArrayList<>();

    long steps;
    /** The steps (candidate placements tried, plus major backtracks) after which the search stops: work. */
    long stepLimit = Long.MAX_VALUE;
    long minorBacktracks;
    long majorBacktracks;
    long stuckJumps;
    int deepest;
    /** Points holding their propagated bounds now, and the most at once (1: the path keeps one set). */
    private int boundsHeld;
    int mostBoundsHeld;

    /**
     * @param fixed     the fixed offset of each buffer, -1 for a free one; fixed buffers must be legal among
     *                  themselves and inside the capacity
     * @param startNanos  the {@link System#nanoTime()} at which the time budget started
     * @param budgetNanos the time after which the search stops, {@link Long#MAX_VALUE} for none
     * @param stop        the run's budget: the search stops once it is stopped by request
     */
    TelaSearch(long capacity, long[] size, long[] alignment, long[] lifetime, long[] fixed, int[][] neighbours,
            List<int[]> phases, TelaMallocOptions options, long startNanos, long budgetNanos,
            dev.memplan.model.Budget stop) {
        this.capacity = capacity;
        this.size = size;
        this.lifetime = lifetime;
        this.neighbours = neighbours;
        this.phases = phases;
        this.options = options;
        this.startNanos = startNanos;
        this.budgetNanos = budgetNanos;
        this.stop = stop;
        this.domains = new Domains(capacity, size, alignment, neighbours);
        int n = size.length;
        this.phaseOf = new int[n];
        for (int p = 0; p < phases.size(); p++) {
            for (int i : phases.get(p)) {
                phaseOf[i] = p;
            }
        }
        List<Integer> enabled = new ArrayList<>();
        if (options.longestLifetime()) {
            enabled.add(LONGEST_LIFETIME);
        }
        if (options.largestSize()) {
            enabled.add(LARGEST_SIZE);
        }
        if (options.largestArea()) {
            enabled.add(LARGEST_AREA);
        }
        this.heuristics = enabled.stream().mapToInt(Integer::intValue).toArray();
        this.offset = fixed.clone();
        this.decided = new boolean[n];
        this.level = new int[n];
        int count = 0;
        for (long f : fixed) {
            if (f < 0) {
                count++;
            }
        }
        this.free = count;
    }

    /** A node of the search tree at which a buffer is to be chosen. */
    private static final class Point {
        final int depth;
        /**
         * Propagated lower bounds at this node and their reasons, while the point is the deepest; dropped when
         * a point is pushed below it and recomputed when the search comes back (so the path holds one set of
         * bounds, not one per point: O(n) memory instead of O(n^2)).
         */
        Domains.Lower lower;
        final List<Integer> candidates;
        /** Index of the next candidate to try. */
        int next;
        final BitSet tried = new BitSet();
        int chosen = -1;
        BitSet chosenWhy;
        /** Placed buffers (all above this point) that the failures below this point follow from. */
        final BitSet conflict = new BitSet();
        /** Backtracks below the current choice since it was made. */
        long backtracks;

        Point(int depth, Domains.Lower lower, List<Integer> candidates) {
            this.depth = depth;
            this.lower = lower;
            this.candidates = candidates;
        }
    }

    /** The offsets found (valid after {@link Outcome#SOLVED}). */
    long[] offsets() {
        return offset.clone();
    }

    /** Whether propagation fails before any choice: a proof that the part cannot be packed. */
    boolean failsAtRoot() {
        return !domains.propagate(offset, decided);
    }

    Outcome run() {
        if (failsAtRoot()) {
            return Outcome.INFEASIBLE;
        }
        if (free == 0) {
            return Outcome.SOLVED;
        }
        stack.add(new Point(0, domains.lower(), candidates(-1)));
        holdBounds(1);
        while (true) {
            if (System.nanoTime() - startNanos > budgetNanos) {
                return Outcome.TIME_LIMIT;
            }
            if (stop.requested()) {
                return Outcome.STOPPED;
            }
            if (steps + majorBacktracks >= stepLimit) {
                return Outcome.WORK_LIMIT;
            }
            Point p = stack.get(stack.size() - 1);
            if (p.lower == null) {
                // Back at p after a backtrack: the placed buffers are those of p's creation again.
                if (!domains.propagate(offset, decided)) {
                    throw new IllegalStateException("bug: propagation at depth " + p.depth + " failed on return");
                }
                p.lower = domains.lower();
                holdBounds(1);
            }
            int c = nextCandidate(p);
            if (c < 0) {
                Outcome end = majorBacktrack(p);
                if (end != null) {
                    return end;
                }
                continue;
            }
            steps++;
            BitSet why = new BitSet();
            long at = position(p, c, why);
            if (at > capacity - size[c]) {
                minorBacktrack(p, why);
                continue;
            }
            offset[c] = at;
            decided[c] = true;
            level[c] = p.depth;
            if (domains.propagate(offset, decided)) {
                p.chosen = c;
                p.chosenWhy = why;
                placed++;
                if (placed == free) {
                    return Outcome.SOLVED;
                }
                p.lower = null;
                holdBounds(-1);
                stack.add(new Point(p.depth + 1, domains.lower(), candidates(c)));
                holdBounds(1);
                deepest = Math.max(deepest, p.depth + 1);
            } else {
                BitSet reason = explain(domains.conflict(), c, why);
                offset[c] = -1;
                decided[c] = false;
                minorBacktrack(p, reason);
            }
        }
    }

    /**
     * Where candidate c goes (section 5.2): the lowest position of its propagated range, or with solver guidance
     * off the lowest free position on top of the placed buffers live with it (Figure 8a). Adds to {@code why}
     * the placed buffers that put it there.
     */
    private long position(Point p, int c, BitSet why) {
        why.or(p.lower.why()[c]);
        if (options.solverGuidedPlacement()) {
            return p.lower.bound()[c];
        }
        long skyline = 0;
        for (int x : neighbours[c]) {
            if (decided[x] && offset[x] + size[x] > skyline) {
                skyline = offset[x] + size[x];
                why.set(x);
            }
        }
        return domains.lowestFrom(c, Math.max(skyline, p.lower.bound()[c]), offset, decided, why);
    }

    /**
     * A conflict seen from the point that placed c: c itself is replaced by the reason c sat where it sat, so
     * that the result names only earlier decisions.
     */
    private static BitSet explain(BitSet conflict, int c, BitSet cWhy) {
        BitSet e = (BitSet) conflict.clone();
        if (c >= 0 && e.get(c)) {
            e.clear(c);
            e.or(cWhy);
        }
        return e;
    }

    private int nextCandidate(Point p) {
        while (p.next < p.candidates.size()) {
            int c = p.candidates.get(p.next++);
            if (!p.tried.get(c) && offset[c] < 0) {
                p.tried.set(c);
                return c;
            }
        }
        return -1;
    }

    private void minorBacktrack(Point p, BitSet reason) {
        minorBacktracks++;
        p.conflict.or(reason);
        countBacktrack(p.depth);
        stuckCheck();
    }

    /** Returns how the search ends, or null when it goes on from an earlier point. */
    private Outcome majorBacktrack(Point p) {
        if (!options.backtracking()) {
            return Outcome.GAVE_UP;
        }
        if (p.depth == 0) {
            return options.exhaustive() ? Outcome.INFEASIBLE : Outcome.GAVE_UP;
        }
        majorBacktracks++;
        int target = p.depth - 1;
        if (options.backjumping() && !options.exhaustive() && !p.conflict.isEmpty()) {
            // the latest conflicting placement above this point: "the second-to-last conflicting placement" of
            // section 5.4, the last one being this point's own candidate, which the minor backtrack undid
            target = 0;
            for (int b = p.conflict.nextSetBit(0); b >= 0; b = p.conflict.nextSetBit(b + 1)) {
                target = Math.max(target, level[b]);
            }
        }
        countBacktrack(p.depth);
        Point t = undoTo(target);
        t.conflict.or(explain(p.conflict, t.chosen, t.chosenWhy));
        unchoose(t);
        if (options.prependCandidates()) {
            prepend(t, p.candidates);
        }
        stuckCheck();
        return null;
    }

    private void holdBounds(int change) {
        boundsHeld += change;
        mostBoundsHeld = Math.max(mostBoundsHeld, boundsHeld);
    }

    /** Pops the points below {@code depth}, undoing their placements, and returns the point at it. */
    private Point undoTo(int depth) {
        while (stack.size() > depth + 1) {
            Point q = stack.remove(stack.size() - 1);
            if (q.lower != null) {
                holdBounds(-1);
            }
            if (q.chosen >= 0) {
                unplace(q.chosen);
            }
        }
        return stack.get(depth);
    }

    private void unchoose(Point t) {
        unplace(t.chosen);
        t.chosen = -1;
        t.chosenWhy = null;
        t.backtracks = 0;
    }

    private void unplace(int c) {
        offset[c] = -1;
        decided[c] = false;
        placed--;
    }

    /** Section 5.4: the abandoned point's candidates go first at t, within the cap. */
    private void prepend(Point t, List<Integer> carried) {
        List<Integer> remaining = new ArrayList<>();
        BitSet seen = new BitSet();
        for (int c : carried) {
            if (!t.tried.get(c) && offset[c] < 0 && !seen.get(c)) {
                remaining.add(c);
                seen.set(c);
            }
        }
        for (int i = t.next; i < t.candidates.size(); i++) {
            int c = t.candidates.get(i);
            if (!seen.get(c)) {
                remaining.add(c);
                seen.set(c);
            }
        }
        if (!options.exhaustive() && remaining.size() > options.maxCandidates()) {
            remaining = remaining.subList(0, options.maxCandidates());
        }
        List<Integer> list = t.candidates;
        list.subList(t.next, list.size()).clear();
        list.addAll(remaining);
    }

    /** A backtrack happened at depth d: it lies below the current choice of every point above d. */
    private void countBacktrack(int d) {
        for (int j = 0; j < d; j++) {
            stack.get(j).backtracks++;
        }
    }

    private void stuckCheck() {
        if (options.stuckThreshold() == 0 || options.exhaustive()) {
            return;
        }
        for (int k = stack.size() - 2; k >= 0; k--) {
            Point q = stack.get(k);
            if (q.backtracks > options.stuckThreshold()) {
                stuckJumps++;
                for (int j = 0; j < k; j++) {
                    stack.get(j).backtracks -= q.backtracks;
                }
                unchoose(undoTo(k));
                return;
            }
        }
    }

    /** Section 5.1 and 5.3: the heuristics' picks, phase of the last placed buffer first, then phase order. */
    private List<Integer> candidates(int last) {
        List<Integer> list = new ArrayList<>();
        BitSet in = new BitSet();
        int current = last >= 0 ? phaseOf[last] : 0;
        List<Integer> order = new ArrayList<>();
        order.add(current);
        for (int p = 0; p < phases.size(); p++) {
            if (p != current) {
                order.add(p);
            }
        }
        for (int p : order) {
            if (!options.exhaustive() && list.size() >= options.maxCandidates()) {
                break;
            }
            for (int h : heuristics) {
                int c = pick(phases.get(p), h);
                if (c >= 0 && !in.get(c)) {
                    list.add(c);
                    in.set(c);
                }
            }
        }
        if (options.exhaustive()) {
            for (int p : order) {
                for (int c : phases.get(p)) {
                    if (offset[c] < 0 && !in.get(c)) {
                        list.add(c);
                        in.set(c);
                    }
                }
            }
        } else if (list.size() > options.maxCandidates()) {
            list.subList(options.maxCandidates(), list.size()).clear();
        }
        return list;
    }

    /** The unplaced buffer of the phase that heuristic h ranks first, or -1. */
    private int pick(int[] phase, int h) {
        int best = -1;
        for (int c : phase) {
            if (offset[c] < 0 && (best < 0 || better(c, best, h))) {
                best = c;
            }
        }
        return best;
    }

    private boolean better(int a, int b, int h) {
        int cmp = switch (h) {
            case LONGEST_LIFETIME -> Long.compare(lifetime[a], lifetime[b]);
            case LARGEST_SIZE -> Long.compare(size[a], size[b]);
            default -> compareProducts(size[a], lifetime[a], size[b], lifetime[b]);
        };
        if (cmp == 0) {
            cmp = h == LONGEST_LIFETIME ? Long.compare(size[a], size[b]) : Long.compare(lifetime[a], lifetime[b]);
        }
        return cmp > 0 || (cmp == 0 && a < b);
    }

    /** Compares a1 * a2 with b1 * b2 for non-negative factors, without overflow. */
    private static int compareProducts(long a1, long a2, long b1, long b2) {
        int high = Long.compare(Math.multiplyHigh(a1, a2), Math.multiplyHigh(b1, b2));
        return high != 0 ? high : Long.compareUnsigned(a1 * a2, b1 * b2);
    }
}
