package dev.memplan.model.mmap;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A two-level memory mapping problem (MMap-MuZero paper, Section 4.1 and Appendix A): a program of {@code T}
 * instructions (logical times {@code 0..T-1}), each with a copy supply, its buffers listed in the order the
 * game visits them (by time), and the fast memory's capacity in bytes. Immutable and validated on construction.
 *
 * <p>Supply and demand: a copy of an input buffer runs over the steps {@code [start, time)} before its use, a
 * copy of an output buffer over {@code (time, end]} after it; the supply of those steps must cover the buffer's
 * demand (Eq. 5) and no two copies share a step (Eq. 6: one copy at a time, at full bandwidth).
 */
public final class MmapInstance {
    private final String name;
    private final long capacity;
    private final long[] supply;
    private final List<MmapBuffer> buffers;
    private final long[] supplyPrefix;
    private final int[][] aliasGroup;
    private final int[][] earlierOfTensor;

    /**
     * @throws InvalidInstanceException naming the culprit: a capacity or supply below 0, no instruction, a size
     *     &lt;= 0, a negative demand or benefit, a time or live range outside the program or not around the time,
     *     buffers out of time order, a negative tensor id
     */
    public MmapInstance(String name, long capacity, long[] supply, List<MmapBuffer> buffers) {
        this.name = name == null || name.isEmpty() ? "program" : name;
        this.capacity = capacity;
        this.supply = supply.clone();
        this.buffers = List.copyOf(buffers);
        if (capacity < 0) {
            throw new InvalidInstanceException("capacity", "capacity must be >= 0, got " + capacity);
        }
        // The 2^53 rule of every byte count in memplan (docs/memory-model.md, "Value range"): CP-SAT and the players sum
        // these, and a capacity of 2^63 - 1 made CP-SAT reject the model.
        tooLarge("capacity", capacity, "capacity");
        if (this.supply.length == 0) {
            throw new InvalidInstanceException("supply", "a program needs at least one instruction (one supply value)");
        }
        supplyPrefix = new long[this.supply.length + 1];
        for (int t = 0; t < this.supply.length; t++) {
            if (this.supply[t] < 0) {
                throw new InvalidInstanceException("supply[" + t + "]", "supply must be >= 0, got " + this.supply[t]);
            }
            tooLarge("supply[" + t + "]", this.supply[t], "supply");
            supplyPrefix[t + 1] = supplyPrefix[t] + this.supply[t];
            tooLarge("supply[" + t + "]", supplyPrefix[t + 1], "the total supply up to this instruction");
        }
        for (int i = 0; i < this.buffers.size(); i++) {
            validate(i, this.buffers.get(i));
        }
        aliasGroup = groups();
        earlierOfTensor = earlierOfTensor();
    }

    private static void tooLarge(String where, long value, String what) {
        String problem = dev.memplan.model.ByteRange.problem(value, what);
        if (problem != null) {
            throw new InvalidInstanceException(where, problem);
        }
    }

    private void validate(int i, MmapBuffer b) {
        Objects.requireNonNull(b, "buffer");
        String where = "buffers[" + i + "]";
        int last = supply.length - 1;
        if (b.size() <= 0) {
            throw new InvalidInstanceException(where + ".size", "size must be positive, got " + b.size());
        }
        if (b.tensor() < 0) {
            throw new InvalidInstanceException(where + ".tensor", "tensor must be >= 0, got " + b.tensor());
        }
        if (b.demand() < 0) {
            throw new InvalidInstanceException(where + ".demand", "demand must be >= 0, got " + b.demand());
        }
        if (b.benefit() < 0) {
            throw new InvalidInstanceException(where + ".benefit", "benefit must be >= 0, got " + b.benefit());
        }
        tooLarge(where + ".size", b.size(), "size");
        tooLarge(where + ".demand", b.demand(), "demand");
        tooLarge(where + ".benefit", b.benefit(), "benefit");
        if (b.time() >= 0 && b.liveFirst() >= 0 && b.liveFirst() <= b.time() && b.time() <= b.liveLast()
                && b.liveLast() > last) {
            // A buffer consistent in itself that reaches past the last instruction: the supply list is what ends
            // too soon (one value per instruction), not the buffer's live range.
            throw new InvalidInstanceException("supply", "supply has " + supply.length + " value"
                    + (supply.length == 1 ? "" : "s") + " (instructions 0.." + last + "), but " + where + " (time "
                    + b.time() + ", live [" + b.liveFirst() + ", " + b.liveLast() + "]) reaches instruction "
                    + b.liveLast() + ": give one supply value per instruction, or correct that buffer's times");
        }
        if (b.time() < 0 || b.time() > last) {
            throw new InvalidInstanceException(where + ".time", "time " + b.time() + " is outside the program's 0.."
                    + last);
        }
        if (b.liveFirst() < 0 || b.liveFirst() > b.time() || b.liveLast() < b.time() || b.liveLast() > last) {
            throw new InvalidInstanceException(where + ".live", "live range [" + b.liveFirst() + ", " + b.liveLast()
                    + "] must contain the time " + b.time() + " and lie within 0.." + last);
        }
        if (i > 0 && buffers.get(i - 1).time() > b.time()) {
            throw new InvalidInstanceException(where + ".time", "buffers must be listed by time (the game's order): "
                    + "time " + b.time() + " follows time " + buffers.get(i - 1).time());
        }
    }

    private int[][] groups() {
        Map<Integer, List<Integer>> byAlias = new HashMap<>();
        for (int i = 0; i < buffers.size(); i++) {
            int a = buffers.get(i).alias();
            if (a >= 0) {
                byAlias.computeIfAbsent(a, k -> new ArrayList<>()).add(i);
            }
        }
        int[][] groups = new int[buffers.size()][];
        for (int i = 0; i < buffers.size(); i++) {
            int a = buffers.get(i).alias();
            groups[i] = a < 0 ? new int[] {i} : byAlias.get(a).stream().mapToInt(Integer::intValue).toArray();
        }
        return groups;
    }

    private int[][] earlierOfTensor() {
        Map<Integer, List<Integer>> seen = new HashMap<>();
        int[][] earlier = new int[buffers.size()][];
        for (int i = 0; i < buffers.size(); i++) {
            List<Integer> before = seen.computeIfAbsent(buffers.get(i).tensor(), k -> new ArrayList<>());
            earlier[i] = before.stream().mapToInt(Integer::intValue).toArray();
            before.add(i);
        }
        return earlier;
    }

    public String name() {
        return name;
    }

    /** Fast-memory bytes. */
    public long capacity() {
        return capacity;
    }

    /** The number of instructions T. */
    public int instructions() {
        return supply.length;
    }

    /** The number of buffers. */
    public int size() {
        return buffers.size();
    }

    public MmapBuffer buffer(int i) {
        return buffers.get(i);
    }

    public List<MmapBuffer> buffers() {
        return buffers;
    }

    public long supply(int t) {
        return supply[t];
    }

    /** A copy of the supply per instruction. */
    public long[] supply() {
        return supply.clone();
    }

    /** The supply of the steps {@code from..to} (inclusive); 0 when empty. */
    public long supplySum(int from, int to) {
        return to < from ? 0 : supplyPrefix[to + 1] - supplyPrefix[from];
    }

    /** The buffers of i's alias group (i alone when it has none), in order; shared, do not modify. */
    public int[] aliasGroup(int i) {
        return aliasGroup[i];
    }

    /** The buffers of i's tensor listed before i; shared, do not modify. */
    public int[] earlierOfTensor(int i) {
        return earlierOfTensor[i];
    }

    /**
     * For an input: the latest start s (not before its live range) whose copy steps {@code [s, time)} supply its
     * demand (Eq. 5); -1 when none does. Copies of other buffers are not considered.
     */
    public int latestCopyStart(int i) {
        MmapBuffer b = buffers.get(i);
        int lo = b.liveFirst();
        if (supplySum(lo, b.time() - 1) < b.demand()) {
            return -1;
        }
        int hi = b.time();
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (supplySum(mid, b.time() - 1) >= b.demand()) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    /**
     * For an output: the earliest end e (not past its live range) whose copy steps {@code (time, e]} supply its
     * demand (Eq. 5); -1 when none does.
     */
    public int earliestCopyEnd(int i) {
        MmapBuffer b = buffers.get(i);
        int hi = b.liveLast();
        if (supplySum(b.time() + 1, hi) < b.demand()) {
            return -1;
        }
        int lo = b.time();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (supplySum(b.time() + 1, mid) >= b.demand()) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return lo;
    }

    /** The same program with another fast-memory capacity. */
    public MmapInstance withCapacity(long bytes) {
        return new MmapInstance(name, bytes, supply, buffers);
    }

    /** The sum of all benefits of buffers that fit the capacity: a trivial upper bound on the reward. */
    public long benefitBound() {
        long sum = 0;
        for (MmapBuffer b : buffers) {
            if (b.size() <= capacity) {
                sum += b.benefit();
            }
        }
        return sum;
    }
}
