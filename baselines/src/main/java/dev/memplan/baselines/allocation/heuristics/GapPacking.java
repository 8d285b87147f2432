package dev.memplan.baselines.allocation.heuristics;

import dev.memplan.model.Allocation;
import dev.memplan.model.Buffer;
import dev.memplan.model.BufferChecker;
import dev.memplan.model.BufferSet;
import dev.memplan.model.Placement;
import dev.memplan.model.SolveStatus;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;

/**
 * The loop the compiler heuristics share: buffers with a fixed offset go first, at their address; every other
 * buffer, in the heuristic's order, goes into one of the free gaps left by the placed buffers it shares a
 * moment with (the gap below the lowest included, the unbounded space above the highest last), at its
 * alignment. The heuristics differ only in the order and in which gap they take ({@link Fit}).
 *
 * <p>Time O(n^2 log n) for n buffers: each buffer sorts the placed buffers it overlaps by offset.
 */
final class GapPacking {

    /** Which free gap a buffer takes. */
    enum Fit {
        /** The lowest gap it fits in (tflite-micro's greedy planner). */
        FIRST,
        /**
         * The smallest bounded gap it fits in, the lowest of equals; above everything only when no bounded gap
         * fits (TFLite's arena planner, XLA's best-fit heap).
         */
        BEST
    }

    private GapPacking() {
    }

    /**
     * The packing with unbounded capacity.
     *
     * @param order the order in which buffers without a fixed offset are placed (over buffer indices)
     * @throws IllegalArgumentException when the fixed offsets alone are illegal (negative, misaligned or
     *                                  colliding): then no packing exists at any capacity
     */
    static Placement pack(BufferSet set, Comparator<Integer> order, Fit fit, String maker) {
        String conflict = fixedOffsetConflict(set);
        if (conflict != null) {
            throw new IllegalArgumentException(conflict);
        }
        int n = set.size();
        long[] offsets = new long[n];
        List<Integer> placed = new ArrayList<>(n);
        List<Integer> free = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            Long fixed = set.get(i).fixedOffset();
            if (fixed != null) {
                offsets[i] = fixed;
                placed.add(i);
            } else {
                free.add(i);
            }
        }
        free.sort(order);
        for (int i : free) {
            offsets[i] = choose(set, i, placed, offsets, fit);
            placed.add(i);
        }
        Placement placement = new Placement(set, offsets);
        BufferChecker.requireValid(placement, Long.MAX_VALUE, maker);
        return placement;
    }

    /** The offset buffer {@code i} gets among the {@code placed} buffers. */
    private static long choose(BufferSet set, int i, List<Integer> placed, long[] offsets, Fit fit) {
        Buffer b = set.get(i);
        List<Integer> neighbours = new ArrayList<>();
        for (int j : placed) {
            Buffer other = set.get(j);
            if (other.lower() < b.upper() && b.lower() < other.upper()) {
                neighbours.add(j);
            }
        }
        neighbours.sort(Comparator.comparingLong((Integer j) -> offsets[j]));
        long gapStart = 0;
        long best = -1;
        long bestLength = Long.MAX_VALUE;
        for (int j : neighbours) {
            long gapEnd = offsets[j];
            long start = alignUp(gapStart, b.alignment());
            if (dev.memplan.model.ByteRange.add(start, b.size()) <= gapEnd) {
                if (fit == Fit.FIRST) {
                    return start;
                }
                // Strictly smaller: among equal gaps the lowest wins.
                if (gapEnd - gapStart < bestLength) {
                    best = start;
                    bestLength = gapEnd - gapStart;
                }
            }
            gapStart = Math.max(gapStart, dev.memplan.model.ByteRange.add(offsets[j], set.get(j).size()));
        }
        return best >= 0 ? best : alignUp(gapStart, b.alignment());
    }

    static long alignUp(long offset, long alignment) {
        long rest = offset % alignment;
        return rest == 0 ? offset : offset + alignment - rest;
    }

    /**
     * Why the fixed offsets alone admit no packing (a negative or misaligned fixed offset, two fixed buffers
     * sharing a moment and an address), or null when they are legal.
     */
    static String fixedOffsetConflict(BufferSet set) {
        List<Integer> fixed = new ArrayList<>();
        for (int i = 0; i < set.size(); i++) {
            Buffer b = set.get(i);
            if (b.fixedOffset() == null) {
                continue;
            }
            if (b.fixedOffset() < 0 || b.fixedOffset() % b.alignment() != 0) {
                return "buffer '" + b.id() + "': fixed offset " + b.fixedOffset() + " is negative or not a multiple"
                        + " of its alignment " + b.alignment();
            }
            for (int j : fixed) {
                Buffer other = set.get(j);
                boolean sameTime = other.lower() < b.upper() && b.lower() < other.upper();
                boolean sameAddress = other.fixedOffset() < b.fixedOffset() + b.size()
                        && b.fixedOffset() < other.fixedOffset() + other.size();
                if (sameTime && sameAddress) {
                    return "buffers '" + other.id() + "' and '" + b.id() + "' have fixed offsets that collide";
                }
            }
            fixed.add(i);
        }
        return null;
    }

    /**
     * What a heuristic's {@code allocate} returns: HEURISTIC with the packing when it fits below
     * {@code capacity}, UNKNOWN otherwise (a heuristic that fails proves nothing, so never INFEASIBLE).
     *
     * @param packer the heuristic's {@code pack}
     * @param startNanos when the call began, for the wall time
     */
    static Allocation allocate(BufferSet set, long capacity, Function<BufferSet, Placement> packer,
                               String maker, long startNanos) {
        String conflict = fixedOffsetConflict(set);
        if (conflict != null) {
            return new Allocation(SolveStatus.UNKNOWN, null, seconds(startNanos), conflict);
        }
        Placement placement = packer.apply(set);
        if (placement.height() > capacity) {
            return Allocation.exceedsCapacity(placement.height(), capacity, seconds(startNanos));
        }
        BufferChecker.requireValid(placement, capacity, maker);
        return new Allocation(SolveStatus.HEURISTIC, placement, seconds(startNanos));
    }

    private static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }
}
