package dev.memplan.baselines.allocation.minimalloc;

import dev.memplan.baselines.allocation.minimalloc.MiniMallocOptions.Technique;
import java.util.Arrays;

/**
 * One thread's depth-first search for a packing at a fixed capacity: the MINI-MALLOC procedure of Moffitt
 * (ASPLOS 2023, section 7) with the inference of sections 6.1-6.3.
 *
 * <p>A node is a partial solution. Every unallocated buffer has a viable offset: the highest top of the
 * allocated buffers it overlaps in time, rounded up to its alignment (its fixed offset if it has one; a
 * fixed buffer pushed above its address kills the node). A child places one unallocated buffer at its viable
 * offset, so every buffer rests on something; any legal packing can be pushed down into such a form without
 * moving its fixed buffers, so nothing is lost. State is kept incrementally and undone on backtrack through a
 * trail: viable offsets, section floors and unallocated totals.
 *
 * <p>Exponential in the worst case; the cost of a node: {@link MiniMallocAllocator}.
 *
 * <p>Not thread-safe: each racing thread owns one instance over a shared {@link Sweep}.
 */
final class Search {
    /** A packing of the current (sub-)problem was found; its offsets are in {@link #solution}. */
    static final int FOUND = 0;
    /** The complete search of the (sub-)problem found nothing: proven infeasible under the allocated buffers. */
    static final int NOT_FOUND = 1;
    /** The node budget of this run (a restart) ran out. */
    static final int ABORTED = 2;
    /** Time limit, interruption or another thread finished first. */
    static final int STOPPED = 3;
    /** The node limit of this instance, over all its runs, ran out. */
    static final int EXHAUSTED = 4;

    private static final long NONE = -1;
    /** Nodes between two looks at the clock and the stop flag. */
    private static final int POLL_MASK = 255;

    /** A section range {@code [lo, hi)} and its unallocated buffers in preorder; candidates are positions. */
    private record Frame(int lo, int hi, int[] order) {
    }

    /** Told by the racing threads when to give up. */
    interface Stop {
        boolean now();
    }

    private final Sweep sweep;
    private final MiniMallocOptions options;
    private final long capacity;
    private final long[] size;
    private final long[] alignment;
    private final long[] fixed;
    private final long[] lower;
    private final long[] upper;
    private final Stop stop;
    private final long nodeLimit;

    private final long[] minOffset;
    private final long[] offset;
    /** Per section: top of the buffer placed last in it (the highest), 0 while none is. */
    private final long[] floor;
    /** Per section: total size of its unallocated buffers. */
    private final long[] total;
    /**
     * The sweep's section members, each section's unallocated ones first: {@code members[memberStart[s] ..
     * openEnd[s])}. {@code slot[slotStart[b] + s - sectionLo[b]]} is where buffer b sits in section s.
     */
    private final int[] members;
    private final int[] openEnd;
    private final int[] slotStart;
    private final int[] slot;
    private final int[] cuts;
    /** The section that last failed inference (a hint), or -1. */
    private int lastFailure = -1;
    /** Per section: the unallocated buffer that last showed the section fits (a hint, never undone), or -1. */
    private final int[] witness;
    /**
     * Offsets of the last packing found: written for a frame's buffers when the frame is complete, and (with
     * dynamic decomposition, whose sub-frames do not hold the buffers placed before the split) for a buffer
     * whenever it is placed.
     */
    final long[] solution;

    /** Undo log: index {@code i < n} restores {@code minOffset[i]}, {@code n + s} restores {@code floor[s]}. */
    private int[] trailIndex = new int[256];
    private long[] trailValue = new long[256];
    private int trailTop;

    /** Candidate positions of all open nodes, stacked. */
    private int[] candidates = new int[256];
    private int candidateTop;
    private int[] scratch = new int[256];

    private String heuristic;
    private long nodesRemaining;
    private long nodes;

    Search(Sweep sweep, MiniMallocOptions options, long capacity, long[] size, long[] alignment, long[] fixed,
           long[] lower, long[] upper, Stop stop, long nodeLimit) {
        this.sweep = sweep;
        this.options = options;
        this.capacity = capacity;
        this.size = size;
        this.alignment = alignment;
        this.fixed = fixed;
        this.lower = lower;
        this.upper = upper;
        this.stop = stop;
        this.nodeLimit = nodeLimit;
        int n = sweep.n;
        minOffset = new long[n];
        offset = new long[n];
        solution = new long[n];
        Arrays.fill(offset, NONE);
        for (int i = 0; i < n; i++) {
            minOffset[i] = fixed[i] >= 0 ? fixed[i] : 0;
        }
        floor = new long[sweep.sectionCount];
        total = new long[sweep.sectionCount];
        for (int s = 0; s < sweep.sectionCount; s++) {
            long sum = 0;
            for (int m = sweep.memberStart[s]; m < sweep.memberStart[s + 1]; m++) {
                sum += size[sweep.members[m]];
            }
            total[s] = sum;
        }
        cuts = sweep.cuts.clone();
        witness = new int[sweep.sectionCount];
        Arrays.fill(witness, -1);
        members = sweep.members.clone();
        openEnd = Arrays.copyOfRange(sweep.memberStart, 1, sweep.sectionCount + 1);
        slotStart = new int[n + 1];
        for (int i = 0; i < n; i++) {
            slotStart[i + 1] = slotStart[i] + sweep.sectionHi[i] - sweep.sectionLo[i];
        }
        slot = new int[slotStart[n]];
        for (int s = 0; s < sweep.sectionCount; s++) {
            for (int m = sweep.memberStart[s]; m < sweep.memberStart[s + 1]; m++) {
                int j = members[m];
                slot[slotStart[j] + s - sweep.sectionLo[j]] = m;
            }
        }
    }

    /**
     * Searches the whole problem with one preordering heuristic and a node budget; returns {@link #FOUND},
     * {@link #NOT_FOUND} (proven: no packing), {@link #ABORTED} (budget spent), {@link #STOPPED} or
     * {@link #EXHAUSTED}.
     */
    int run(String preordering, long nodeBudget) {
        heuristic = preordering;
        nodesRemaining = nodeBudget;
        for (Sweep.Part part : sweep.partitions) {
            int status = solvePart(part.lo(), part.hi(), part.buffers().clone());
            if (status != FOUND) {
                return status;
            }
        }
        return FOUND;
    }

    private int solvePart(int lo, int hi, int[] buffers) {
        // Placements check only the sections they touch; the frame's first state is checked here in full.
        for (int s = lo; s < hi; s++) {
            if (!fits(s, 0, -1, 0)) {
                return NOT_FOUND;
            }
        }
        if (options.uses(Technique.PREORDERING)) {
            Preordering.sort(buffers, heuristic, sweep, size, lower, upper, total);
        }
        return search(new Frame(lo, hi, buffers), 0, 0);
    }

    /**
     * The recursive step. {@code lastOffset} and {@code lastPosition} are the offset and preorder position of
     * the buffer placed last in this frame: canonical search places nothing before it in (offset, position)
     * order.
     */
    /**
     * The work this search has done over all its runs: per node visited, one plus the buffers it considers (a
     * node's cost grows with them). What a work limit counts.
     */
    long effort() {
        return effort;
    }

    /** The effort after which a run ends as exhausted (a work limit); none by default. */
    long effortLimit = Long.MAX_VALUE;
    private long effort;

    private int search(Frame frame, long lastOffset, int lastPosition) {
        if (--nodesRemaining < 0) {
            return ABORTED;
        }
        if ((++nodes & POLL_MASK) == 0) {
            if (stop.now()) {
                return STOPPED;
            }
            if (nodes >= nodeLimit || effort >= effortLimit) {
                return EXHAUSTED;
            }
        }
        int[] order = frame.order;
        int k = order.length;
        effort += 1 + k;
        int base = candidateTop;
        if (candidates.length < base + k) {
            candidates = Arrays.copyOf(candidates, Math.max(2 * candidates.length, base + k));
        }
        boolean canonical = options.uses(Technique.CANONICAL);
        long minHeight = Long.MAX_VALUE;
        int open = 0;
        int top = base;
        for (int p = 0; p < k; p++) {
            int b = order[p];
            if (offset[b] != NONE) {
                continue;
            }
            open++;
            long o = minOffset[b];
            minHeight = Math.min(minHeight, o + size[b]);
            if (canonical && (o < lastOffset || (o == lastOffset && p < lastPosition))) {
                continue;
            }
            candidates[top++] = p;
        }
        if (open == 0) {
            for (int b : order) {
                solution[b] = offset[b];
            }
            return FOUND;
        }
        // Exclusive bound on useful offsets. Dominance (paper section 6.3): placing b at or above minHeight
        // leaves room below it for the buffer that reaches minHeight, which could be slipped in first.
        long limit = options.uses(Technique.DOMINANCE) ? minHeight : Long.MAX_VALUE;
        if (options.uses(Technique.MONOTONIC_FLOOR) && options.uses(Technique.SECTION_INFERENCE)) {
            // Section inference with the monotonic floor: after a placement at o, nothing goes below o, so
            // every section needs o + its unallocated total <= capacity (placing b at o only moves b's own
            // size from the total onto o + size, so this holds for b's own sections too).
            long largestTotal = 0;
            for (int s = frame.lo; s < frame.hi; s++) {
                largestTotal = Math.max(largestTotal, total[s]);
            }
            limit = Math.min(limit, capacity - largestTotal + 1);
        }
        int kept = base;
        for (int c = base; c < top; c++) {
            if (minOffset[order[candidates[c]]] < limit) {
                candidates[kept++] = candidates[c];
            }
        }
        top = kept;
        if (options.uses(Technique.DYNAMIC_ORDERING) && top - base > 1) {
            if (scratch.length < top - base) {
                scratch = new int[Math.max(2 * scratch.length, top - base)];
            }
            // Candidates are in preorder, and the sort is stable: ties in offset stay in preorder.
            IntSort.sort(candidates, base, top, (x, y) -> Long.compare(minOffset[order[x]], minOffset[order[y]]),
                    scratch);
        }
        candidateTop = top;
        int status = NOT_FOUND;
        for (int c = base; c < top && status == NOT_FOUND; c++) {
            int p = candidates[c];
            status = place(frame, p, order[p]);
        }
        candidateTop = base;
        return status;
    }

    /**
     * Places buffer b (preorder position p) at its viable offset if section inference admits it, searches
     * below, and undoes the placement.
     */
    private int place(Frame frame, int p, int b) {
        long o = minOffset[b];
        long top = o + size[b];
        if (top > capacity || !admits(frame, b, o, top)) {
            return NOT_FOUND;
        }
        int mark = trailTop;
        offset[b] = o;
        for (int s = sweep.sectionLo[b]; s < sweep.sectionHi[b]; s++) {
            push(sweep.n + s, floor[s]);
            floor[s] = top;
            total[s] -= size[b];
            close(b, s);
        }
        int status = NOT_FOUND;
        if (raiseOverlapping(b, top)) {
            status = options.uses(Technique.DECOMPOSITION) ? decompose(frame, p, b, o) : search(frame, o, p);
        }
        for (int s = sweep.sectionLo[b]; s < sweep.sectionHi[b]; s++) {
            total[s] += size[b];
            // b was swapped to the end of the open members; placements below were undone in reverse order.
            openEnd[s]++;
        }
        undo(mark);
        offset[b] = NONE;
        return status;
    }

    /**
     * Raises the viable offset of every unallocated buffer overlapping b to b's top (aligned); false when a
     * fixed buffer is pushed above its address.
     */
    private boolean raiseOverlapping(int b, long top) {
        for (int e = sweep.overlapStart[b]; e < sweep.overlapStart[b + 1]; e++) {
            int j = sweep.overlaps[e];
            if (offset[j] != NONE) {
                continue;
            }
            long raised = alignUp(top, alignment[j]);
            if (raised > minOffset[j]) {
                push(j, minOffset[j]);
                minOffset[j] = raised;
                if (fixed[j] >= 0 && raised > fixed[j]) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Section inference (paper eq. 3 with both strengthenings of section 6.2) for placing b at o, evaluated
     * before anything is changed: in every section of the frame, the unallocated buffers must stack between
     * the section's floor and the capacity. Only the sections b's placement touches (its reach) can change;
     * every other section passed when the previous buffer was placed, and the monotonic floor, now o, was
     * checked against every section's total when b became a candidate.
     */
    private boolean admits(Frame frame, int b, long o, long top) {
        int lo = Math.max(sweep.reachLo[b], frame.lo);
        int hi = Math.min(sweep.reachHi[b], frame.hi);
        long base = options.uses(Technique.MONOTONIC_FLOOR) ? o : 0;
        // Sibling candidates tend to fail on the same section: look there first.
        if (lastFailure >= lo && lastFailure < hi && !fits(lastFailure, base, b, top)) {
            return false;
        }
        for (int s = lo; s < hi; s++) {
            if (s != lastFailure && !fits(s, base, b, top)) {
                lastFailure = s;
                return false;
            }
        }
        return true;
    }

    /**
     * Whether section s passes inference with every placed buffer where it is, b (when {@code b >= 0}) just
     * placed with top {@code top}, and nothing to be placed below {@code base}.
     */
    private boolean fits(int s, long base, int b, long top) {
        boolean own = b >= 0 && s >= sweep.sectionLo[b] && s < sweep.sectionHi[b];
        long rest = own ? total[s] - size[b] : total[s];
        if (rest == 0) {
            // Only placed buffers remain, and each was checked against the capacity when placed.
            return true;
        }
        long stack = options.uses(Technique.SECTION_INFERENCE) ? rest : 0;
        // Every unallocated buffer of s overlaps every placed one there, so it starts above the top one.
        long lowest = own ? top : floor[s];
        if (Math.max(base, lowest) + stack > capacity) {
            return false;
        }
        if (!options.uses(Technique.UNALLOCATED_FLOOR)) {
            return true;
        }
        // The effective height (section 6.2): the lowest viable offset among the unallocated buffers. One
        // buffer low enough is proof the section fits: try the one that proved it last time, then scan.
        long room = capacity - stack;
        int w = witness[s];
        if (w >= 0 && w != b && offset[w] == NONE && Math.max(base, viableAfter(w, b, top)) <= room) {
            return true;
        }
        for (int m = sweep.memberStart[s]; m < openEnd[s]; m++) {
            int j = members[m];
            if (j != b && Math.max(base, viableAfter(j, b, top)) <= room) {
                witness[s] = j;
                return true;
            }
        }
        return false;
    }

    /** The viable offset of unallocated buffer j once b (if {@code b >= 0}) is placed with top {@code top}. */
    private long viableAfter(int j, int b, long top) {
        long viable = minOffset[j];
        if (b >= 0 && lower[j] < upper[b] && lower[b] < upper[j]) {
            viable = Math.max(viable, alignUp(top, alignment[j]));
        }
        return viable;
    }

    /** Moves b, just placed, out of section s's open members by swapping it with the last open one. */
    private void close(int b, int s) {
        int from = slot[slotStart[b] + s - sweep.sectionLo[b]];
        int last = --openEnd[s];
        int other = members[last];
        members[from] = other;
        slot[slotStart[other] + s - sweep.sectionLo[other]] = from;
        members[last] = b;
        slot[slotStart[b] + s - sweep.sectionLo[b]] = last;
    }

    private static long alignUp(long value, long alignment) {
        return alignment == 1 ? value : (value + alignment - 1) / alignment * alignment;
    }

    /**
     * Dynamic temporal decomposition (paper section 7): when placing b leaves a section boundary that no
     * unallocated buffer crosses, the two sides no longer interact and are solved one after the other.
     */
    private int decompose(Frame frame, int p, int b, long o) {
        solution[b] = o;
        int from = sweep.sectionLo[b];
        int to = sweep.sectionHi[b] - 1;
        boolean split = false;
        for (int k = from; k < to; k++) {
            if (--cuts[k] == 0) {
                split = true;
            }
        }
        int status;
        if (!split) {
            status = search(frame, o, p);
        } else {
            status = FOUND;
            int start = frame.lo;
            for (int k = frame.lo; k < frame.hi && status == FOUND; k++) {
                if (k + 1 < frame.hi && cuts[k] != 0) {
                    continue;
                }
                int[] part = unallocatedIn(frame.order, start, k + 1);
                if (part.length > 0) {
                    status = solvePart(start, k + 1, part);
                }
                start = k + 1;
            }
        }
        for (int k = from; k < to; k++) {
            cuts[k]++;
        }
        return status;
    }

    /** The unallocated buffers of {@code order} whose sections lie in {@code [lo, hi)}, in order. */
    private int[] unallocatedIn(int[] order, int lo, int hi) {
        int count = 0;
        for (int b : order) {
            if (offset[b] == NONE && sweep.sectionLo[b] >= lo && sweep.sectionLo[b] < hi) {
                count++;
            }
        }
        int[] part = new int[count];
        count = 0;
        for (int b : order) {
            if (offset[b] == NONE && sweep.sectionLo[b] >= lo && sweep.sectionLo[b] < hi) {
                part[count++] = b;
            }
        }
        return part;
    }

    private void push(int index, long value) {
        if (trailTop == trailIndex.length) {
            trailIndex = Arrays.copyOf(trailIndex, 2 * trailTop);
            trailValue = Arrays.copyOf(trailValue, 2 * trailTop);
        }
        trailIndex[trailTop] = index;
        trailValue[trailTop] = value;
        trailTop++;
    }

    private void undo(int mark) {
        int n = sweep.n;
        while (trailTop > mark) {
            trailTop--;
            int index = trailIndex[trailTop];
            if (index < n) {
                minOffset[index] = trailValue[trailTop];
            } else {
                floor[index - n] = trailValue[trailTop];
            }
        }
    }
}
