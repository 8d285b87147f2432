package dev.memplan.baselines.allocation.telamalloc;

import dev.memplan.model.Allocation;
import dev.memplan.model.Allocator;
import dev.memplan.model.Buffer;
import dev.memplan.model.BufferChecker;
import dev.memplan.model.BufferSet;
import dev.memplan.model.ByteRange;
import dev.memplan.model.Limits;
import dev.memplan.model.Placement;
import dev.memplan.model.SolveStatus;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * The contention-ordered skyline heuristic that TelaMalloc starts from and falls back to (Maas, Beaugnon,
 * Chauhan, Ilbeyi: "TelaMalloc: Efficient On-Chip Memory Allocation for Production Machine Learning
 * Accelerators", ASPLOS 2023, section 3.1 and Figure 4).
 *
 * <p>The contention of a time slot is the total size of the buffers live in it; the contention of a buffer is
 * the highest contention of a slot in which it is live. The heuristic keeps the skyline, the highest address in
 * use in every slot, and fills it bottom-up like Tetris: the current row is the lowest skyline level; among the
 * unplaced buffers whose whole lifetime lies on a flat stretch of that row (a gap), it places the best one at the
 * row (rounded up to its alignment). Best means highest contention, then largest alignment, then largest
 * {@code size * lifetime^2}, then longest lifetime, then input order. When no buffer fits into any gap of the
 * row, every gap is raised to its lower neighbour (the row is full) and the next row begins.
 *
 * <p>Fixed-offset buffers ({@link Buffer#fixedOffset()}) are not chosen; they are obstacles: a buffer is not
 * placed where it would cross one, and a slot whose skyline reaches the bottom of an obstacle jumps to its top.
 *
 * <p>The heuristic ignores the capacity: {@link #pack(BufferSet)} returns the placement it builds, whatever its
 * height, so that a benchmark can report the height reached. {@link #allocate} returns it as
 * {@link SolveStatus#HEURISTIC} when it fits and {@link SolveStatus#UNKNOWN} otherwise; a heuristic proves
 * nothing, so it never answers {@link SolveStatus#INFEASIBLE}. It stops at {@link Limits#timeLimit()} with
 * {@link SolveStatus#UNKNOWN}.
 *
 * <p>Without fixed-offset buffers the indexed packing runs ({@link FastPacking}): O(n log n) for n buffers
 * (0.9 s on 100,000). With them the plain loop runs, O(n (n + s)) for s distinct time slots, plus O(f) per fit
 * test with f fixed buffers; both give the same offsets.
 */
public final class SkylineAllocator implements Allocator {

    @Override
    public String name() {
        return "skyline";
    }

    @Override
    public Allocation allocate(BufferSet buffers, long capacity, Limits limits) {
        long start = System.nanoTime();
        TimeAxis axis = TimeAxis.of(buffers);
        String conflict = axis.fixedConflict(buffers, capacity);
        if (conflict != null) {
            return new Allocation(SolveStatus.UNKNOWN, null, seconds(start), conflict);
        }
        if (buffers.buffers().stream().anyMatch(b -> b.size() > capacity)) {
            // A buffer above the capacity never fits (and its top could overflow the skyline's heights).
            return new Allocation(SolveStatus.UNKNOWN, null, seconds(start));
        }
        long deadline = limits.timeLimit() == null ? Long.MAX_VALUE
                : start + Math.min(limits.timeLimit().toNanos(), Long.MAX_VALUE / 4);
        Placement placement = run(buffers, axis, deadline);
        if (placement == null) {
            return new Allocation(SolveStatus.UNKNOWN, null, seconds(start), "the time limit was reached");
        }
        if (placement.height() > capacity) {
            return Allocation.exceedsCapacity(placement.height(), capacity, seconds(start));
        }
        BufferChecker.requireValid(placement, capacity, name());
        return new Allocation(SolveStatus.HEURISTIC, placement, seconds(start));
    }

    /**
     * The skyline packing of {@code buffers} with no capacity: legal in every rule but the capacity, and its
     * {@link Placement#height()} is the height the heuristic reaches.
     *
     * @throws IllegalArgumentException when the fixed-offset buffers alone overlap or are misaligned
     */
    public Placement pack(BufferSet buffers) {
        return pack(buffers, Long.MAX_VALUE);
    }

    /**
     * As {@link #pack(BufferSet)}, or null when {@link System#nanoTime()} passes {@code deadlineNanos} first
     * (about a second on 100,000 buffers; with fixed-offset buffers the plain loop runs, quadratic).
     */
    public Placement pack(BufferSet buffers, long deadlineNanos) {
        TimeAxis axis = TimeAxis.of(buffers);
        String conflict = axis.fixedConflict(buffers, Long.MAX_VALUE);
        if (conflict != null) {
            throw new IllegalArgumentException("no packing exists: " + conflict);
        }
        Placement placement = run(buffers, axis, deadlineNanos);
        if (placement != null) {
            BufferChecker.requireValid(placement, Long.MAX_VALUE, name());
        }
        return placement;
    }

    /**
     * The packing: the indexed one ({@link FastPacking}, O(n log n) steps) when no buffer has a fixed offset,
     * else the plain loop ({@link Packing}), which also steps around the obstacles. Both place every buffer at
     * the same address (SkylineReferenceTest).
     */
    private static Placement run(BufferSet buffers, TimeAxis axis, long deadlineNanos) {
        boolean fixed = buffers.buffers().stream().anyMatch(b -> b.fixedOffset() != null);
        return fixed ? new Packing(buffers, axis).run(deadlineNanos) : new FastPacking(buffers, axis).run(deadlineNanos);
    }

    /** The plain loop, for tests: the reference the indexed packing is compared with. */
    static Placement reference(BufferSet buffers) {
        return new Packing(buffers, TimeAxis.of(buffers)).run(Long.MAX_VALUE);
    }

    private static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    /** One run of the heuristic over one buffer set. */
    private static final class Packing {
        private final BufferSet set;
        private final TimeAxis axis;
        private final long[] height;
        private final long[] offset;
        /** Fixed buffers live in each slot: the obstacles a slot's skyline may run into. */
        private final List<List<Integer>> obstacles;

        Packing(BufferSet set, TimeAxis axis) {
            this.set = set;
            this.axis = axis;
            this.height = new long[axis.slots];
            this.offset = new long[set.size()];
            this.obstacles = new ArrayList<>();
            for (int s = 0; s < axis.slots; s++) {
                obstacles.add(new ArrayList<>());
            }
            for (int i = 0; i < set.size(); i++) {
                Long f = set.get(i).fixedOffset();
                if (f != null) {
                    offset[i] = f;
                    for (int s = axis.first[i]; s < axis.end[i]; s++) {
                        obstacles.get(s).add(i);
                    }
                }
            }
        }

        /** The packing, or null when the deadline passes first. */
        Placement run(long deadlineNanos) {
            List<Integer> order = priorityOrder();
            boolean[] placed = new boolean[set.size()];
            int remaining = order.size();
            for (int s = 0; s < axis.slots; s++) {
                climbObstacles(s);
            }
            int[] gap = new int[axis.slots];
            long steps = 0;
            while (remaining > 0) {
                if ((++steps & 63) == 0 && System.nanoTime() - deadlineNanos > 0) {
                    return null;
                }
                long row = Arrays.stream(height).min().orElseThrow();
                labelGaps(row, gap);
                int chosen = -1;
                for (int i : order) {
                    if (!placed[i] && gap[axis.first[i]] >= 0 && gap[axis.first[i]] == gap[axis.end[i] - 1]
                            && !hitsObstacle(i, TimeAxis.alignUp(row, set.get(i).alignment()))) {
                        chosen = i;
                        break;
                    }
                }
                if (chosen >= 0) {
                    place(chosen, TimeAxis.alignUp(row, set.get(chosen).alignment()));
                    placed[chosen] = true;
                    remaining--;
                } else {
                    raiseRow(row, gap);
                }
            }
            return new Placement(set, offset);
        }

        private List<Integer> priorityOrder() {
            return SkylineAllocator.priorityOrder(set, axis);
        }

        /** gap[s] = index of the maximal run of slots at height {@code row} that holds s, or -1. */
        private void labelGaps(long row, int[] gap) {
            int label = -1;
            for (int s = 0; s < axis.slots; s++) {
                if (height[s] != row) {
                    gap[s] = -1;
                } else {
                    if (s == 0 || height[s - 1] != row) {
                        label++;
                    }
                    gap[s] = label;
                }
            }
        }

        private boolean hitsObstacle(int i, long at) {
            long top = ByteRange.add(at, set.get(i).size());
            for (int s = axis.first[i]; s < axis.end[i]; s++) {
                for (int f : obstacles.get(s)) {
                    if (offset[f] < top && at < ByteRange.add(offset[f], set.get(f).size())) {
                        return true;
                    }
                }
            }
            return false;
        }

        private void place(int i, long at) {
            offset[i] = at;
            for (int s = axis.first[i]; s < axis.end[i]; s++) {
                height[s] = ByteRange.add(at, set.get(i).size());
                climbObstacles(s);
            }
        }

        /**
         * Raises every gap of the row to the next height at which something can change: its lower neighbour, or
         * the bottom of an obstacle above the row (a buffer blocked by it can only go on top of it).
         */
        private void raiseRow(long row, int[] gap) {
            int s = 0;
            while (s < axis.slots) {
                if (gap[s] < 0) {
                    s++;
                    continue;
                }
                int from = s;
                while (s < axis.slots && gap[s] == gap[from]) {
                    s++;
                }
                long next = Long.MAX_VALUE;
                if (from > 0) {
                    next = Math.min(next, height[from - 1]);
                }
                if (s < axis.slots) {
                    next = Math.min(next, height[s]);
                }
                for (int t = from; t < s; t++) {
                    for (int f : obstacles.get(t)) {
                        if (offset[f] > row) {
                            next = Math.min(next, offset[f]);
                        }
                    }
                }
                if (next == Long.MAX_VALUE) {
                    throw new IllegalStateException("bug: skyline row " + row + " cannot rise, yet buffers remain");
                }
                for (int t = from; t < s; t++) {
                    height[t] = next;
                    climbObstacles(t);
                }
            }
        }

        /** Keeps the skyline of slot s off every obstacle: a level inside one jumps to its top, repeatedly. */
        private void climbObstacles(int s) {
            boolean moved = true;
            while (moved) {
                moved = false;
                for (int f : obstacles.get(s)) {
                    long bottom = offset[f];
                    long top = ByteRange.add(bottom, set.get(f).size());
                    if (bottom <= height[s] && height[s] < top) {
                        height[s] = top;
                        moved = true;
                    }
                }
            }
        }
    }

    /**
     * The same heuristic without a scan per step, for sets without fixed offsets. The skyline is kept as its
     * maximal runs of equal height (segments, with their neighbours in O(1)); a queue by height gives the next
     * row. Each gap of the row is asked once, when it appears, for its best buffer: the unplaced buffer of
     * lowest rank in the priority order whose slots lie inside the gap, found in a segment tree over the buffers
     * sorted by first slot that keeps each node's lowest rank and earliest end (a node ending past the gap or
     * ranking no better than the best found is skipped). The row takes the best of its gaps' answers, as the
     * loop does; placing a buffer changes only its own gap (the parts left of and right of it are asked again),
     * and a row where no gap has an answer is raised, each gap to its lower neighbour, merging with it. There
     * are O(n) placements and O(n) raises, each with O(1) queries and queue operations.
     */
    private static final class FastPacking {
        private static final int NONE = Integer.MAX_VALUE;
        private final BufferSet set;
        private final TimeAxis axis;
        private final int slots;
        /** Per segment start: its end slot (-1 when the slot starts no segment) and its height. */
        private final int[] segEnd;
        private final long[] segHeight;
        /** Per end slot: the start of the segment ending there. */
        private final int[] startByEnd;
        /** Segments by height, lazily: an entry is stale when its segment no longer has that end and height. */
        private final PriorityQueue<long[]> byHeight = new PriorityQueue<>(
                Comparator.<long[]>comparingLong(e -> e[0]).thenComparingLong(e -> e[1]));
        /** Free buffers by first slot (leaf order), their ranks and ends; the tree over the leaves. */
        private final int[] leafBuffer;
        private final int[] leafFirst;
        private final int leaves;
        private final int[] minRank;
        private final int[] minEnd;
        private final int[] rankOf;
        private final int[] byRank;
        private final int[] leafOf;

        FastPacking(BufferSet set, TimeAxis axis) {
            this.set = set;
            this.axis = axis;
            this.slots = axis.slots;
            this.segEnd = new int[slots + 1];
            this.segHeight = new long[slots + 1];
            this.startByEnd = new int[slots + 1];
            Arrays.fill(segEnd, -1);
            List<Integer> order = priorityOrder(set, axis);
            int m = order.size();
            rankOf = new int[set.size()];
            byRank = new int[m];
            for (int r = 0; r < m; r++) {
                rankOf[order.get(r)] = r;
                byRank[r] = order.get(r);
            }
            Integer[] sorted = order.toArray(new Integer[0]);
            Arrays.sort(sorted, Comparator.<Integer>comparingInt(i -> axis.first[i]).thenComparingInt(i -> rankOf[i]));
            leafBuffer = new int[m];
            leafFirst = new int[m];
            leafOf = new int[set.size()];
            for (int k = 0; k < m; k++) {
                leafBuffer[k] = sorted[k];
                leafFirst[k] = axis.first[sorted[k]];
                leafOf[sorted[k]] = k;
            }
            int size = 1;
            while (size < Math.max(1, m)) {
                size <<= 1;
            }
            leaves = size;
            minRank = new int[2 * size];
            minEnd = new int[2 * size];
            Arrays.fill(minRank, NONE);
            Arrays.fill(minEnd, NONE);
            for (int k = 0; k < m; k++) {
                minRank[size + k] = rankOf[leafBuffer[k]];
                minEnd[size + k] = axis.end[leafBuffer[k]];
            }
            for (int v = size - 1; v >= 1; v--) {
                minRank[v] = Math.min(minRank[2 * v], minRank[2 * v + 1]);
                minEnd[v] = Math.min(minEnd[2 * v], minEnd[2 * v + 1]);
            }
        }

        /** The packing, or null when the deadline passes first. */
        Placement run(long deadlineNanos) {
            long[] offset = new long[set.size()];
            int remaining = byRank.length;
            if (remaining == 0 || slots == 0) {
                return new Placement(set, offset);
            }
            write(0, slots, 0);
            merge(0);
            // The gaps of the current row with an answer, best rank first ({rank, start}); those without one.
            PriorityQueue<int[]> answered = new PriorityQueue<>(Comparator.comparingInt(a -> a[0]));
            List<Integer> blocked = new ArrayList<>();
            long row = -1;
            long steps = 0;
            while (remaining > 0) {
                if ((++steps & 63) == 0 && System.nanoTime() - deadlineNanos > 0) {
                    return null;
                }
                if (answered.isEmpty() && blocked.isEmpty()) {
                    row = nextRow(answered, blocked);
                    continue;
                }
                if (answered.isEmpty()) {
                    for (int start : blocked) {
                        raise(start);
                    }
                    blocked.clear();
                    continue;
                }
                int[] best = answered.poll();
                int i = byRank[best[0]];
                int a = best[1];
                int b = segEnd[a];
                long at = TimeAxis.alignUp(row, set.get(i).alignment());
                offset[i] = at;
                remove(i);
                remaining--;
                int f = axis.first[i];
                int e = axis.end[i];
                // The parts of the gap left and right of the buffer stay at the row; its own slots rise.
                if (a < f) {
                    write(a, f, row);
                }
                if (e < b) {
                    write(e, b, row);
                }
                write(f, e, ByteRange.add(at, set.get(i).size()));
                merge(f);
                if (a < f) {
                    ask(a, answered, blocked);
                }
                if (e < b) {
                    ask(e, answered, blocked);
                }
            }
            return new Placement(set, offset);
        }

        /** The lowest height of the skyline; every segment at it becomes a gap of the row and is asked. */
        private long nextRow(PriorityQueue<int[]> answered, List<Integer> blocked) {
            long row = -1;
            while (!byHeight.isEmpty()) {
                long[] top = byHeight.peek();
                int start = (int) top[1];
                if (segEnd[start] != (int) top[2] || segHeight[start] != top[0]) {
                    byHeight.poll();
                    continue;
                }
                if (row >= 0 && top[0] != row) {
                    break;
                }
                byHeight.poll();
                row = top[0];
                ask(start, answered, blocked);
            }
            if (row < 0) {
                throw new IllegalStateException("bug: no skyline segment left, yet buffers remain");
            }
            return row;
        }

        /** Finds the gap's best buffer and files the gap under answered or blocked. */
        private void ask(int start, PriorityQueue<int[]> answered, List<Integer> blocked) {
            int rank = best(start, segEnd[start]);
            if (rank == NONE) {
                blocked.add(start);
            } else {
                answered.add(new int[] {rank, start});
            }
        }

        /** The lowest rank of an unplaced buffer living inside slots [a, b), or NONE. */
        private int best(int a, int b) {
            int from = dev.memplan.model.SortedLongs.countBelow(leafFirst, a);
            int to = dev.memplan.model.SortedLongs.countBelow(leafFirst, b);
            if (from >= to) {
                return NONE;
            }
            return best(1, 0, leaves, from, to, b, NONE);
        }

        private int best(int v, int lo, int hi, int from, int to, int b, int bound) {
            if (hi <= from || to <= lo || minEnd[v] > b || minRank[v] >= bound) {
                return bound;
            }
            if (hi - lo == 1) {
                return minRank[v];
            }
            int mid = (lo + hi) >>> 1;
            // The child with the better rank first: its answer prunes the other.
            if (minRank[2 * v] <= minRank[2 * v + 1]) {
                bound = best(2 * v, lo, mid, from, to, b, bound);
                return best(2 * v + 1, mid, hi, from, to, b, bound);
            }
            bound = best(2 * v + 1, mid, hi, from, to, b, bound);
            return best(2 * v, lo, mid, from, to, b, bound);
        }

        private void remove(int i) {
            int v = leaves + leafOf[i];
            minRank[v] = NONE;
            minEnd[v] = NONE;
            for (v >>= 1; v >= 1; v >>= 1) {
                minRank[v] = Math.min(minRank[2 * v], minRank[2 * v + 1]);
                minEnd[v] = Math.min(minEnd[2 * v], minEnd[2 * v + 1]);
            }
        }

        /** Raises a gap to its lower neighbour (the row is full there), merging with it. */
        private void raise(int start) {
            int end = segEnd[start];
            long next = Long.MAX_VALUE;
            if (start > 0) {
                next = Math.min(next, segHeight[startByEnd[start]]);
            }
            if (end < slots) {
                next = Math.min(next, segHeight[end]);
            }
            if (next == Long.MAX_VALUE) {
                throw new IllegalStateException("bug: skyline row cannot rise, yet buffers remain");
            }
            write(start, end, next);
            merge(start);
        }

        /** Makes slots [a, b) one segment at height h (its neighbours must be segments already). */
        private void write(int a, int b, long h) {
            segEnd[a] = b;
            segHeight[a] = h;
            startByEnd[b] = a;
        }

        /** Merges the segment starting at a with equal neighbours and files the result by height. */
        private void merge(int a) {
            int b = segEnd[a];
            long h = segHeight[a];
            if (a > 0) {
                int left = startByEnd[a];
                if (segHeight[left] == h) {
                    segEnd[a] = -1;
                    segEnd[left] = b;
                    startByEnd[b] = left;
                    a = left;
                }
            }
            if (b < slots && segHeight[b] == h) {
                int right = segEnd[b];
                segEnd[b] = -1;
                segEnd[a] = right;
                startByEnd[right] = a;
                b = right;
            }
            byHeight.add(new long[] {h, a, b});
        }
    }

    /** Section 3.1: highest contention first; ties by alignment, size * lifetime^2, lifetime. Free buffers only. */
    private static List<Integer> priorityOrder(BufferSet set, TimeAxis axis) {
        int n = set.size();
        long[] contention = new long[n];
        List<Integer> order = new ArrayList<>();
        RangeMax max = new RangeMax(axis.contention);
        for (int i = 0; i < n; i++) {
            contention[i] = axis.end[i] > axis.first[i] ? max.of(axis.first[i], axis.end[i]) : 0;
            if (set.get(i).fixedOffset() == null) {
                order.add(i);
            }
        }
        Comparator<Integer> byContention = Comparator.comparingLong(i -> contention[i]);
        Comparator<Integer> byAlignment = Comparator.comparingLong(i -> set.get(i).alignment());
        Comparator<Integer> byWeight = Comparator.comparingDouble(i -> {
            double life = set.get(i).upper() - set.get(i).lower();
            return set.get(i).size() * life * life;
        });
        Comparator<Integer> byLifetime = Comparator.comparingLong(i -> set.get(i).upper() - set.get(i).lower());
        order.sort(byContention.reversed().thenComparing(byAlignment.reversed()).thenComparing(byWeight.reversed())
                .thenComparing(byLifetime.reversed()).thenComparing(Comparator.naturalOrder()));
        return order;
    }

    /** Maximum over a range of a fixed array in O(1) after O(s log s) preparation (a sparse table). */
    private static final class RangeMax {
        private final long[][] table;

        RangeMax(long[] values) {
            int s = values.length;
            int levels = 1;
            while ((1 << levels) <= s) {
                levels++;
            }
            table = new long[levels][];
            table[0] = values.clone();
            for (int k = 1; k < levels; k++) {
                int width = 1 << k;
                table[k] = new long[Math.max(0, s - width + 1)];
                for (int i = 0; i + width <= s; i++) {
                    table[k][i] = Math.max(table[k - 1][i], table[k - 1][i + width / 2]);
                }
            }
        }

        /** Max of values[from .. to), from < to. */
        long of(int from, int to) {
            int k = 31 - Integer.numberOfLeadingZeros(to - from);
            return Math.max(table[k][from], table[k][to - (1 << k)]);
        }
    }
}
