package dev.memplan.formulations.placement;

import dev.memplan.model.SortedLongs;
import dev.memplan.model.Allocation;
import dev.memplan.model.Buffer;
import dev.memplan.model.BufferChecker;
import dev.memplan.model.BufferSet;
import dev.memplan.model.Placement;
import dev.memplan.model.SolveStatus;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * What both placement models need from a buffer set and a capacity: each buffer's range of aligned offsets,
 * the pairs live at the same time, bounds on the height, and the proofs of infeasibility that need no solver.
 * Offsets are {@code alignment * k} for an integer {@code k}; a buffer with a fixed offset has a single one.
 */
final class PlacementProblem {

    final BufferSet set;
    final long capacity;
    /** Lowest and highest offset of each buffer (both its fixed offset when it has one). */
    final long[] minOffset;
    final long[] maxOffset;

    private PlacementProblem(BufferSet set, long capacity) {
        this.set = set;
        this.capacity = capacity;
        int n = set.size();
        minOffset = new long[n];
        maxOffset = new long[n];
        for (int i = 0; i < n; i++) {
            Buffer b = set.get(i);
            if (b.fixedOffset() != null) {
                minOffset[i] = b.fixedOffset();
                maxOffset[i] = b.fixedOffset();
            } else {
                maxOffset[i] = Math.floorDiv(capacity - b.size(), b.alignment()) * b.alignment();
            }
        }
    }

    /** The problem, or null when {@link #infeasibility} finds a proof that no packing exists. */
    static PlacementProblem of(BufferSet set, long capacity) {
        Objects.requireNonNull(set, "buffers");
        return infeasibility(set, capacity) == null ? new PlacementProblem(set, capacity) : null;
    }

    boolean fixed(int i) {
        return set.get(i).fixedOffset() != null;
    }

    /** Index pairs {i, j}, i < j, of buffers that share a moment, except pairs of two fixed buffers. */
    List<int[]> overlappingPairs() {
        List<int[]> pairs = new ArrayList<>();
        Integer[] byLower = new Integer[set.size()];
        Arrays.setAll(byLower, i -> i);
        Arrays.sort(byLower, (a, b) -> Long.compare(set.get(a).lower(), set.get(b).lower()));
        // Sweep by start: a later buffer meets an earlier one only while that one is still live.
        for (int x = 0; x < byLower.length; x++) {
            int i = byLower[x];
            for (int y = x + 1; y < byLower.length && set.get(byLower[y]).lower() < set.get(i).upper(); y++) {
                int j = byLower[y];
                if (!(fixed(i) && fixed(j))) {
                    pairs.add(new int[] {Math.min(i, j), Math.max(i, j)});
                }
            }
        }
        return pairs;
    }

    /** A lower bound on the height: the largest total size live at one moment, and every fixed buffer's end. */
    long heightLowerBound() {
        long bound = peakLoad(set);
        for (int i = 0; i < set.size(); i++) {
            if (fixed(i)) {
                bound = Math.max(bound, minOffset[i] + set.get(i).size());
            }
        }
        return bound;
    }

    /**
     * Why no packing fits below {@code capacity}, by an argument that needs no search, or null: a buffer
     * larger than the capacity, a fixed offset that is negative, misaligned or ends above the capacity, two fixed
     * buffers that collide, or more bytes live at one moment than the capacity holds.
     */
    static String infeasibility(BufferSet set, long capacity) {
        for (int i = 0; i < set.size(); i++) {
            Buffer b = set.get(i);
            if (b.size() > capacity) {
                return "buffer '" + b.id() + "' (" + b.size() + " bytes) is larger than the capacity " + capacity;
            }
            Long fixed = b.fixedOffset();
            if (fixed != null && (fixed < 0 || fixed % b.alignment() != 0 || fixed + b.size() > capacity)) {
                return "buffer '" + b.id() + "' has fixed offset " + fixed + ": negative, not a multiple of its "
                        + "alignment " + b.alignment() + " or ending above the capacity " + capacity;
            }
            for (int j = 0; j < i && fixed != null; j++) {
                Buffer other = set.get(j);
                Long at = other.fixedOffset();
                if (at != null && other.lower() < b.upper() && b.lower() < other.upper()
                        && at < fixed + b.size() && fixed < at + other.size()) {
                    return "buffers '" + other.id() + "' and '" + b.id() + "' have colliding fixed offsets";
                }
            }
        }
        long peak = peakLoad(set);
        if (peak > capacity) {
            return peak + " bytes are live at one moment, more than the capacity " + capacity;
        }
        return null;
    }

    /** The largest total size of buffers live at one moment; the load only rises where a buffer starts. */
    static long peakLoad(BufferSet set) {
        int n = set.size();
        long[][] events = new long[2 * n][];
        for (int i = 0; i < n; i++) {
            Buffer b = set.get(i);
            events[2 * i] = new long[] {b.lower(), b.size()};
            events[2 * i + 1] = new long[] {b.upper(), -b.size()};
        }
        // Ends before starts at the same moment: ranges are half-open.
        Arrays.sort(events, (a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        long load = 0;
        long peak = 0;
        for (long[] e : events) {
            load += e[1];
            peak = Math.max(peak, load);
        }
        return peak;
    }

    /**
     * The height of a packing that always exists when the fixed offsets are legal: every buffer without a fixed
     * offset stacked, aligned, above the highest fixed buffer. An upper bound on the minimum height.
     */
    static long stackedHeight(BufferSet set) {
        long top = 0;
        for (Buffer b : set.buffers()) {
            if (b.fixedOffset() != null) {
                top = Math.max(top, b.fixedOffset() + b.size());
            }
        }
        for (Buffer b : set.buffers()) {
            if (b.fixedOffset() == null) {
                top = Math.floorDiv(top + b.alignment() - 1, b.alignment()) * b.alignment() + b.size();
            }
        }
        return top;
    }

    /** The capacity {@code minimumHeight} searches below: the start's height, or the stacked height. */
    static long heightSearchCapacity(BufferSet set, Placement start) {
        return start != null ? start.height() : stackedHeight(set);
    }

    /** Throws unless {@code hint} places {@code set} legally below {@code capacity}. */
    static void requireLegalHint(BufferSet set, Placement hint, long capacity) {
        if (hint == null) {
            return;
        }
        if (!hint.buffers().equals(set)) {
            throw new IllegalArgumentException("the hint places another buffer set");
        }
        var violations = BufferChecker.check(hint, capacity);
        if (!violations.isEmpty()) {
            throw new IllegalArgumentException("the hint is not a legal packing below " + capacity + ": "
                    + violations.get(0));
        }
    }

    /** A placement from offsets: checked, then OPTIMAL or FEASIBLE as {@code proven} says. */
    static Allocation placed(BufferSet set, long[] offsets, long capacity, boolean proven, String maker,
                             long startNanos) {
        Placement placement = new Placement(set, offsets);
        BufferChecker.requireValid(placement, capacity, maker);
        return new Allocation(proven ? SolveStatus.OPTIMAL : SolveStatus.FEASIBLE, placement, seconds(startNanos));
    }

    /** No placement: INFEASIBLE (proven) or UNKNOWN. */
    static Allocation none(SolveStatus status, long startNanos) {
        return new Allocation(status, null, seconds(startNanos));
    }

    private static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    /** Native memory a placement model may take: beyond it the model is skipped with a note. */
    static final long NATIVE_BUDGET = 1L << 30;

    /** Pairs of buffers that share a moment, counted in O(n log n) without listing them. */
    static long pairCount(BufferSet set) {
        int n = set.size();
        long[] starts = new long[n];
        for (int i = 0; i < n; i++) {
            starts[i] = set.get(i).lower();
        }
        Arrays.sort(starts);
        long pairs = 0;
        for (int i = 0; i < n; i++) {
            // Buffers starting in [lower, upper) of i, i itself excluded; each pair is counted once from the
            // earlier start (twice for equal starts, an overestimate).
            pairs += SortedLongs.countBelow(starts, set.get(i).upper()) - SortedLongs.countBelow(starts, set.get(i).lower()) - 1;
        }
        return pairs;
    }

    /**
     * Why the model of {@code set} is not built (its estimated size in the solver, {@code perPair} bytes a pair
     * and {@code perBuffer} a buffer, is beyond {@link #NATIVE_BUDGET} or the Java heap left), or null.
     */
    static String tooBig(BufferSet set, String model, long perPair, long perBuffer, dev.memplan.model.Limits limits) {
        long pairs = pairCount(set);
        long bytes = perPair * pairs + perBuffer * set.size();
        if (bytes <= NATIVE_BUDGET && dev.memplan.model.HeapRoom.fits(bytes / 4, limits)) {
            return null;
        }
        return String.format(java.util.Locale.ROOT, "skipped the %s: %,d buffers with %,d pairs live at once would take"
                + " about %,d MB in the solver, above the %,d MB memplan gives a model", model, set.size(), pairs,
                bytes >> 20, NATIVE_BUDGET >> 20);
    }

    /**
     * What a model that is not built returns: with {@code minimize} and a legal {@code start}, that packing
     * (FEASIBLE) with the note; otherwise UNKNOWN with the note.
     */
    static Allocation skipped(BufferSet set, Placement start, boolean minimize, String note, long startNanos) {
        if (minimize && start != null) {
            return new Allocation(SolveStatus.FEASIBLE, start, seconds(startNanos), note + "; kept the starting packing");
        }
        return new Allocation(SolveStatus.UNKNOWN, null, seconds(startNanos), note);
    }
}
