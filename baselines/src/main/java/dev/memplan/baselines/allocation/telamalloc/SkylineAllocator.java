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
 * nothing, so it never answers {@link SolveStatus#INFEASIBLE}. It stops at the end of its budget ({@link dev.memplan.model.Budget#stopped()}) with
 * {@link SolveStatus#UNKNOWN}.
 *
 * <p>The packing is indexed ({@link FastPacking}): O(n log n) for n buffers; fixed-offset buffers add a tree
 * descent per obstacle near a gap and per buffer set aside at one (times: BENCHMARKS.md, "obstacles in the indexed
 * skyline"). It gives the offsets of the plain loop (a scan of the skyline and of every
 * buffer per step, O(n (n + s)) for s time slots), which the tests keep as the reference.
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
        java.time.Duration wall = limits.budget().wallLeft();
        long deadline = wall == null ? Long.MAX_VALUE : start + Math.min(wall.toNanos(), Long.MAX_VALUE / 4);
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
     * As {@link #pack(BufferSet)}, or null when {@link System#nanoTime()} passes {@code deadlineNanos} first.
     */
    public Placement pack(BufferSet buffers, long deadlineNanos) {
        return pack(buffers, deadlineNanos, null);
    }

    /**
     * Another order for a restart of the skyline: buffer contention in bands of {@code band} times the peak
     * contention (buffers in one band rank as equals, so that the tie-break decides among them; band 0: exact
     * contention), then the larger alignment, then {@code tiebreak}, then the longer lifetime. Section 3.1's
     * order ranks by exact contention first; where contention rises and falls slowly over thousands of live
     * buffers, the exact value decides almost every comparison and a buffer's size and lifetime hardly count
     * (BENCHMARKS.md, "Using the time limit on heap traces").
     */
    public record Variant(double band, Tiebreak tiebreak) {
        public Variant {
            if (!(band >= 0 && band < 1)) {
                throw new IllegalArgumentException("a contention band is a fraction in [0, 1): " + band);
            }
            java.util.Objects.requireNonNull(tiebreak, "tiebreak");
        }
    }

    /** What ranks buffers of one contention band. */
    public enum Tiebreak {
        /** Larger {@code size * lifetime^2} first (section 3.1's tie-break). */
        WEIGHT,
        /** Longer lifetime first. */
        LIFETIME
    }

    /**
     * As {@link #pack(BufferSet, long)} in the order of {@code variant} (null: section 3.1's order).
     */
    public Placement pack(BufferSet buffers, long deadlineNanos, Variant variant) {
        TimeAxis axis = TimeAxis.of(buffers);
        String conflict = axis.fixedConflict(buffers, Long.MAX_VALUE);
        if (conflict != null) {
            throw new IllegalArgumentException("no packing exists: " + conflict);
        }
        // Building the time axis of a million buffers takes seconds: no packing starts past the deadline.
        if (deadlineNanos != Long.MAX_VALUE && System.nanoTime() - deadlineNanos > 0) {
            return null;
        }
        Placement placement = new FastPacking(buffers, axis, variant).run(deadlineNanos);
        if (placement != null) {
            BufferChecker.requireValid(placement, Long.MAX_VALUE, name());
        }
        return placement;
    }

    /**
     * The packing: the indexed one ({@link FastPacking}), which places every buffer where the plain loop
     * ({@link Packing}, kept as the tests' reference) does (SkylineReferenceTest).
     */
    private static Placement run(BufferSet buffers, TimeAxis axis, long deadlineNanos) {
        return new FastPacking(buffers, axis, null).run(deadlineNanos);
    }

    /** The plain loop, for tests: the reference the indexed packing is compared with. */
    static Placement reference(BufferSet buffers) {
        return reference(buffers, null);
    }

    /** As {@link #reference(BufferSet)} in the order of {@code variant} (null: section 3.1's). */
    static Placement reference(BufferSet buffers, Variant variant) {
        return new Packing(buffers, TimeAxis.of(buffers), variant).run(Long.MAX_VALUE);
    }

    private static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    /** One run of the heuristic over one buffer set. */
    private static final class Packing {
        private final BufferSet set;
        private final TimeAxis axis;
        private final Variant variant;
        private final long[] height;
        private final long[] offset;
        /** Fixed buffers live in each slot: the obstacles a slot's skyline may run into. */
        private final List<List<Integer>> obstacles;

        Packing(BufferSet set, TimeAxis axis, Variant variant) {
            this.set = set;
            this.axis = axis;
            this.variant = variant;
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
            return SkylineAllocator.priorityOrder(set, axis, variant);
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
        /** Per tree node, the least size of an unplaced buffer below it. */
        private final long[] minSize;
        /** Whether some free buffer needs an alignment above 1 (it may then jump over an obstacle). */
        private final boolean aligned;
        /** The fixed-offset buffers (obstacles) by first slot: slots [obsFirst, obsEnd), bytes [obsBottom, obsTop). */
        private final int[] obsFirst;
        private final int[] obsEnd;
        private final long[] obsBottom;
        private final long[] obsTop;
        /** The tree over the obstacles (leaf order = by first slot): per node the latest end and the highest top. */
        private final int obsLeaves;
        private final int[] obsMaxEnd;
        private final long[] obsMaxTop;
        /** The answer of {@link #obstacles}, reused. */
        private int[] foundBuffer = new int[16];
        private int found;
        /** The current row. */
        private long row = -1;

        FastPacking(BufferSet set, TimeAxis axis, Variant variant) {
            this.set = set;
            this.axis = axis;
            this.slots = axis.slots;
            this.segEnd = new int[slots + 1];
            this.segHeight = new long[slots + 1];
            this.startByEnd = new int[slots + 1];
            Arrays.fill(segEnd, -1);
            List<Integer> order = priorityOrder(set, axis, variant);
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
            int size = leavesFor(m);
            leaves = size;
            minRank = new int[2 * size];
            minEnd = new int[2 * size];
            Arrays.fill(minRank, NONE);
            Arrays.fill(minEnd, NONE);
            for (int k = 0; k < m; k++) {
                minRank[size + k] = rankOf[leafBuffer[k]];
                minEnd[size + k] = axis.end[leafBuffer[k]];
            }
            minSize = new long[2 * size];
            Arrays.fill(minSize, Long.MAX_VALUE);
            for (int k = 0; k < m; k++) {
                minSize[size + k] = set.get(leafBuffer[k]).size();
            }
            for (int v = size - 1; v >= 1; v--) {
                pull(v);
            }
            aligned = order.stream().anyMatch(i -> set.get(i).alignment() > 1);
            int[] fixed = java.util.stream.IntStream.range(0, set.size()).filter(i -> set.get(i).fixedOffset() != null)
                    .boxed().sorted(Comparator.comparingInt(i -> axis.first[i])).mapToInt(Integer::intValue).toArray();
            obsFirst = new int[fixed.length];
            obsEnd = new int[fixed.length];
            obsBottom = new long[fixed.length];
            obsTop = new long[fixed.length];
            for (int k = 0; k < fixed.length; k++) {
                obsFirst[k] = axis.first[fixed[k]];
                obsEnd[k] = axis.end[fixed[k]];
                obsBottom[k] = set.get(fixed[k]).fixedOffset();
                obsTop[k] = ByteRange.add(obsBottom[k], set.get(fixed[k]).size());
            }
            int obsSize = leavesFor(fixed.length);
            obsLeaves = obsSize;
            obsMaxEnd = new int[2 * obsSize];
            obsMaxTop = new long[2 * obsSize];
            Arrays.fill(obsMaxTop, Long.MIN_VALUE);
            for (int k = 0; k < fixed.length; k++) {
                obsMaxEnd[obsSize + k] = obsEnd[k];
                obsMaxTop[obsSize + k] = obsTop[k];
            }
            for (int v = obsSize - 1; v >= 1; v--) {
                obsMaxEnd[v] = Math.max(obsMaxEnd[2 * v], obsMaxEnd[2 * v + 1]);
                obsMaxTop[v] = Math.max(obsMaxTop[2 * v], obsMaxTop[2 * v + 1]);
            }
        }

        /** The leaves of a complete binary tree over n items: the least power of two >= max(1, n). */
        private static int leavesFor(int n) {
            int leaves = 1;
            while (leaves < n) {
                leaves <<= 1;
            }
            return leaves;
        }

        private void pull(int v) {
            minRank[v] = Math.min(minRank[2 * v], minRank[2 * v + 1]);
            minEnd[v] = Math.min(minEnd[2 * v], minEnd[2 * v + 1]);
            minSize[v] = Math.min(minSize[2 * v], minSize[2 * v + 1]);
        }

        /** The packing, or null when the deadline passes first. */
        Placement run(long deadlineNanos) {
            long[] offset = new long[set.size()];
            for (int i = 0; i < set.size(); i++) {
                if (set.get(i).fixedOffset() != null) {
                    offset[i] = set.get(i).fixedOffset();
                }
            }
            int remaining = byRank.length;
            if (remaining == 0 || slots == 0) {
                return new Placement(set, offset);
            }
            settle(0, slots, 0);
            // The gaps of the current row with an answer, best rank first ({rank, start}); those without one.
            PriorityQueue<int[]> answered = new PriorityQueue<>(Comparator.comparingInt(a -> a[0]));
            List<Integer> blocked = new ArrayList<>();
            long steps = 0;
            while (remaining > 0) {
                if ((++steps & 63) == 0 && System.nanoTime() - deadlineNanos > 0) {
                    return null;
                }
                if (answered.isEmpty() && blocked.isEmpty()) {
                    nextRow(answered, blocked);
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
                settle(f, e, ByteRange.add(at, set.get(i).size()));
                if (a < f) {
                    ask(a, answered, blocked);
                }
                if (e < b) {
                    ask(e, answered, blocked);
                }
            }
            return new Placement(set, offset);
        }

        /** Moves the row to the lowest height of the skyline; every segment at it becomes a gap and is asked. */
        private void nextRow(PriorityQueue<int[]> answered, List<Integer> blocked) {
            row = -1;
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
        }

        /**
         * Finds the gap's best buffer and files the gap under answered or blocked. Under obstacles the best
         * buffers that would cross one are set aside until one fits (or none is left), then put back.
         */
        private void ask(int start, PriorityQueue<int[]> answered, List<Integer> blocked) {
            int a = start;
            int b = segEnd[start];
            int[] above = obstacles(a, b, row);
            int rank;
            if (above.length == 0) {
                rank = best(a, b, Long.MAX_VALUE);
            } else {
                long room = aligned ? Long.MAX_VALUE : room(a, b, above);
                List<Integer> aside = new ArrayList<>();
                while (true) {
                    rank = best(a, b, room);
                    if (rank == NONE || !hits(byRank[rank], above)) {
                        break;
                    }
                    aside.add(byRank[rank]);
                    remove(byRank[rank]);
                }
                for (int i : aside) {
                    restore(i);
                }
            }
            if (rank == NONE) {
                blocked.add(start);
            } else {
                answered.add(new int[] {rank, start});
            }
        }

        /** The lowest rank of an unplaced buffer of at most {@code maxSize} bytes living inside slots [a, b), or NONE. */
        private int best(int a, int b, long maxSize) {
            int from = dev.memplan.model.SortedLongs.countBelow(leafFirst, a);
            int to = dev.memplan.model.SortedLongs.countBelow(leafFirst, b);
            if (from >= to) {
                return NONE;
            }
            return best(1, 0, leaves, from, to, b, maxSize, NONE);
        }

        private int best(int v, int lo, int hi, int from, int to, int b, long maxSize, int bound) {
            if (hi <= from || to <= lo || minEnd[v] > b || minRank[v] >= bound || minSize[v] > maxSize) {
                return bound;
            }
            if (hi - lo == 1) {
                return minRank[v];
            }
            int mid = (lo + hi) >>> 1;
            // The child with the better rank first: its answer prunes the other.
            if (minRank[2 * v] <= minRank[2 * v + 1]) {
                bound = best(2 * v, lo, mid, from, to, b, maxSize, bound);
                return best(2 * v + 1, mid, hi, from, to, b, maxSize, bound);
            }
            bound = best(2 * v + 1, mid, hi, from, to, b, maxSize, bound);
            return best(2 * v, lo, mid, from, to, b, maxSize, bound);
        }

        private void remove(int i) {
            int v = leaves + leafOf[i];
            minRank[v] = NONE;
            minEnd[v] = NONE;
            minSize[v] = Long.MAX_VALUE;
            for (v >>= 1; v >= 1; v >>= 1) {
                pull(v);
            }
        }

        /** Puts a buffer set aside by {@link #ask} back into the tree. */
        private void restore(int i) {
            int v = leaves + leafOf[i];
            minRank[v] = rankOf[i];
            minEnd[v] = axis.end[i];
            minSize[v] = set.get(i).size();
            for (v >>= 1; v >= 1; v >>= 1) {
                pull(v);
            }
        }

        /**
         * The obstacles live in some slot of [a, b) whose top lies above {@code level}, by first slot: a descent of
         * the tree over the obstacles sorted by first slot that skips nodes ending by a or topping out by level.
         * Over a gap at the row these are the obstacles above it (none holds the row: the skyline climbed them).
         */
        private int[] obstacles(int a, int b, long level) {
            int count = dev.memplan.model.SortedLongs.countBelow(obsFirst, b);
            found = 0;
            if (count > 0) {
                collect(1, 0, obsLeaves, count, a, level);
            }
            return Arrays.copyOf(foundBuffer, found);
        }

        private void collect(int v, int lo, int hi, int count, int a, long level) {
            if (lo >= count || obsMaxEnd[v] <= a || obsMaxTop[v] <= level) {
                return;
            }
            if (hi - lo == 1) {
                if (found == foundBuffer.length) {
                    foundBuffer = Arrays.copyOf(foundBuffer, 2 * found);
                }
                foundBuffer[found++] = lo;
                return;
            }
            int mid = (lo + hi) >>> 1;
            collect(2 * v, lo, mid, count, a, level);
            collect(2 * v + 1, mid, hi, count, a, level);
        }

        /** Whether buffer i, placed at the row, crosses one of these obstacles (the loop's test). */
        private boolean hits(int i, int[] obstacles) {
            long at = TimeAxis.alignUp(row, set.get(i).alignment());
            long top = ByteRange.add(at, set.get(i).size());
            for (int k : obstacles) {
                if (obsFirst[k] < axis.end[i] && obsEnd[k] > axis.first[i] && obsBottom[k] < top && at < obsTop[k]) {
                    return true;
                }
            }
            return false;
        }

        /**
         * The most bytes above the row that some slot of [a, b) offers below its lowest obstacle (unbounded when a
         * slot has none above): a larger unaligned buffer crosses an obstacle wherever it goes.
         */
        private long room(int a, int b, int[] above) {
            long[] most = {0};
            sweep(a, b, above, (from, to, live) -> {
                most[0] = live.isEmpty() || most[0] == Long.MAX_VALUE ? Long.MAX_VALUE
                        : Math.max(most[0], live.firstKey() - row);
            });
            return most[0];
        }

        /** What {@link #sweep} reports for each stretch [from, to): the obstacles live there by bottom. */
        private interface Stretch {
            void visit(int from, int to, java.util.TreeMap<Long, Integer> live);
        }

        /**
         * Walks [a, b) stretch by stretch, cut wherever one of {@code obstacles} (given by first slot) begins or
         * ends, with the obstacles live in the stretch keyed by bottom (those live in one slot never overlap).
         */
        private void sweep(int a, int b, int[] obstacles, Stretch visit) {
            Integer[] byEnd = new Integer[obstacles.length];
            int[] cuts = new int[2 * obstacles.length + 2];
            int c = 0;
            cuts[c++] = a;
            cuts[c++] = b;
            for (int j = 0; j < obstacles.length; j++) {
                int k = obstacles[j];
                byEnd[j] = k;
                cuts[c++] = Math.max(a, obsFirst[k]);
                cuts[c++] = Math.min(b, obsEnd[k]);
            }
            Arrays.sort(byEnd, Comparator.comparingInt(k -> obsEnd[k]));
            int[] points = Arrays.stream(cuts, 0, c).sorted().distinct().toArray();
            java.util.TreeMap<Long, Integer> live = new java.util.TreeMap<>();
            int in = 0;
            int out = 0;
            for (int p = 0; p + 1 < points.length; p++) {
                while (out < byEnd.length && obsEnd[byEnd[out]] <= points[p]) {
                    live.remove(obsBottom[byEnd[out++]]);
                }
                while (in < obstacles.length && obsFirst[obstacles[in]] <= points[p]) {
                    int k = obstacles[in++];
                    if (obsEnd[k] > points[p]) {
                        live.put(obsBottom[k], k);
                    }
                }
                visit.visit(points[p], points[p + 1], live);
            }
        }

        /**
         * Makes slots [a, b) the skyline at height h, each slot kept off the obstacles as the loop does (a level
         * inside one jumps to its top, repeatedly), as maximal segments, each merged with equal neighbours and filed.
         */
        private void settle(int a, int b, long h) {
            int[] reached = obstacles(a, b, h);
            if (reached.length == 0) {
                write(a, b, h);
                merge(a);
                return;
            }
            // Every piece is written before any is merged: a merge reads its right neighbour.
            List<long[]> pieces = new ArrayList<>();
            sweep(a, b, reached, (from, to, live) -> {
                long level = h;
                for (var under = live.floorEntry(level); under != null && obsTop[under.getValue()] > level;
                        under = live.floorEntry(level)) {
                    level = obsTop[under.getValue()];
                }
                long[] last = pieces.isEmpty() ? null : pieces.get(pieces.size() - 1);
                if (last != null && last[2] == level) {
                    last[1] = to;
                } else {
                    pieces.add(new long[] {from, to, level});
                }
            });
            for (long[] piece : pieces) {
                write((int) piece[0], (int) piece[1], piece[2]);
            }
            for (long[] piece : pieces) {
                merge((int) piece[0]);
            }
        }

        /**
         * Raises a gap to its lower neighbour (the row is full there), merging with it, or to the bottom of the
         * lowest obstacle above it when that comes first (a buffer it blocks can only go on top of it).
         */
        private void raise(int start) {
            int end = segEnd[start];
            long next = Long.MAX_VALUE;
            if (start > 0) {
                next = Math.min(next, segHeight[startByEnd[start]]);
            }
            if (end < slots) {
                next = Math.min(next, segHeight[end]);
            }
            for (int k : obstacles(start, end, row)) {
                next = Math.min(next, obsBottom[k]);
            }
            if (next == Long.MAX_VALUE) {
                throw new IllegalStateException("bug: skyline row cannot rise, yet buffers remain");
            }
            settle(start, end, next);
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

    /**
     * Section 3.1: highest contention first; ties by alignment, size * lifetime^2, lifetime. Free buffers only.
     * A {@link Variant} (not null) ranks contention in bands and breaks ties its way.
     */
    private static List<Integer> priorityOrder(BufferSet set, TimeAxis axis, Variant variant) {
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
        if (variant == null) {
            order.sort(byContention.reversed().thenComparing(byAlignment.reversed())
                    .thenComparing(byWeight.reversed()).thenComparing(byLifetime.reversed())
                    .thenComparing(Comparator.naturalOrder()));
            return order;
        }
        double width = Math.max(1, variant.band() * axis.peak());
        Comparator<Integer> byBand = Comparator.comparingLong(i -> (long) Math.floor(contention[i] / width));
        Comparator<Integer> tiebreak = variant.tiebreak() == Tiebreak.WEIGHT ? byWeight : byLifetime;
        order.sort(byBand.reversed().thenComparing(byAlignment.reversed()).thenComparing(tiebreak.reversed())
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
