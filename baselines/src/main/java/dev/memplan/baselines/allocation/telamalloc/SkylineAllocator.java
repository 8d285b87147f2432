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
 * {@link SolveStatus#UNKNOWN}: it is quadratic, a minute on 100,000 buffers.
 *
 * <p>Time O(n (n + s)) for n buffers and s distinct time slots (each step places a buffer or raises a gap, and
 * there are O(n) of each), plus O(f) per fit test with f fixed buffers.
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
        Placement placement = new Packing(buffers, axis).run(deadline);
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
     * (the heuristic is quadratic: on 100,000 buffers it takes a minute).
     */
    public Placement pack(BufferSet buffers, long deadlineNanos) {
        TimeAxis axis = TimeAxis.of(buffers);
        String conflict = axis.fixedConflict(buffers, Long.MAX_VALUE);
        if (conflict != null) {
            throw new IllegalArgumentException("no packing exists: " + conflict);
        }
        Placement placement = new Packing(buffers, axis).run(deadlineNanos);
        if (placement != null) {
            BufferChecker.requireValid(placement, Long.MAX_VALUE, name());
        }
        return placement;
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

        /** Section 3.1: highest contention first; ties by alignment, size * lifetime^2, lifetime. */
        private List<Integer> priorityOrder() {
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
                double life = lifetime(i);
                return set.get(i).size() * life * life;
            });
            Comparator<Integer> byLifetime = Comparator.comparingLong(this::lifetime);
            order.sort(byContention.reversed().thenComparing(byAlignment.reversed()).thenComparing(byWeight.reversed())
                    .thenComparing(byLifetime.reversed()).thenComparing(Comparator.naturalOrder()));
            return order;
        }

        private long lifetime(int i) {
            return set.get(i).upper() - set.get(i).lower();
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
