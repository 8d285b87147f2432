package dev.memplan.baselines.allocation.minimalloc;

import dev.memplan.model.Allocation;
import dev.memplan.model.Allocator;
import dev.memplan.model.BufferChecker;
import dev.memplan.model.BufferSet;
import dev.memplan.model.HeapRoom;
import dev.memplan.model.Limits;
import dev.memplan.model.Placement;
import dev.memplan.model.SolveStatus;
import java.util.Objects;

/**
 * MiniMalloc: exact packing of fixed-schedule buffers by depth-first search over canonical solutions, after
 * M. D. Moffitt, "MiniMalloc: A Lightweight Memory Allocator for Hardware-Accelerated Machine Learning",
 * ASPLOS 2023 (sections 5-7).
 *
 * <p>{@link #allocate} decides whether the buffers pack below a capacity. The search places one buffer at a
 * time, each at its lowest viable offset (on top of the placed buffers it overlaps in time), and explores
 * only canonical solutions: buffers placed in non-decreasing offset order, ties in a fixed preorder (section
 * 6.1). It prunes with cross-section inference (section 6.2: in every cross section the unallocated buffers
 * must stack between the section's floor and the capacity, the floor raised to the last placed offset and to
 * the lowest viable offset of the section's unallocated buffers) and with dominance (section 6.3: never place
 * a buffer at or above the height some unallocated buffer could reach, as that buffer could fill the gap
 * below). It splits off independent sub-problems whenever no unallocated buffer crosses a moment (dynamic
 * temporal decomposition), and orders candidates by lowest viable offset, then by a static preorder; several
 * preorders are tried round-robin with doubling node budgets, and with {@link Limits#threads()} &gt; 1 they
 * race in parallel (section 7 and the reference program google/minimalloc). Each technique is a switch in
 * {@link MiniMallocOptions}. Buffer alignment and fixed offsets are honoured.
 *
 * <p>Statuses of {@link #allocate}: FEASIBLE with a packing (the problem is a decision problem: any packing
 * below the capacity is as good as any other, so there is no objective to be optimal in), INFEASIBLE when the
 * complete search found none (proven), UNKNOWN at the time limit or on interruption. {@link #minimize} finds
 * the smallest capacity and returns OPTIMAL when it is proven. Every returned placement has passed
 * {@link BufferChecker#requireValid}.
 *
 * <p>Worst-case time is exponential (O(n!) nodes for n buffers, as the paper states); each node costs
 * O(n + s) for s cross sections plus the incremental updates of one placement. Memory O(n + p + m) for p
 * overlapping pairs and m (buffer, section) memberships, per thread: a search that would not fit the heap is not
 * run, and one that fits holds its estimate of the room while it runs ({@link HeapRoom#reserve}).
 */
public final class MiniMallocAllocator implements Allocator {
    /** Node limit of a capacity probe in the first bisection pass of {@link #minimize}, at least. */
    private static final long MIN_PROBE_NODES = 4096;

    /**
     * Search effort per work unit under a work limit ({@link Limits#workMode()}): the budget that replaces the
     * clock, charged to the command's work. A node costs one plus the buffers it considers
     * ({@link Search#effort()}); a unit is about a wall second of search on the reference machine, on small and
     * large sets alike (calibration: BENCHMARKS.md, "Allocation at production scale", {@code allocate --work-limit}).
     */
    static final long EFFORT_PER_UNIT = 40_000_000L;

    /**
     * Beyond 2^61 the search's sums could overflow. memplan's readers keep sizes and alignments within 2^53 in
     * total (ByteRange), so only a caller of this class with its own buffers meets this.
     */
    private static final String TOO_LARGE = "MiniMalloc needs the buffers' sizes and alignments to sum to less than"
            + " 2^61, or a capacity below 2^61";

    /**
     * Search nodes per work unit of a packing inside COSMA's decoupled program or a scheme ({@link #allocate}
     * of an instance not made by {@link #counted()}): a node budget that replaces the clock, not charged to the
     * work (docs/time-limits.md, "Not counted (yet)"). Deterministic, but not calibrated.
     */
    static final long PACKER_NODES_PER_UNIT = 2_000_000L;

    private final MiniMallocOptions options;
    /** Whether {@link #allocate} under a work limit counts its effort and charges it (the allocate command). */
    private final boolean counted;

    /** With every technique on ({@link MiniMallocOptions#DEFAULT}). */
    public MiniMallocAllocator() {
        this(MiniMallocOptions.DEFAULT);
    }

    public MiniMallocAllocator(MiniMallocOptions options) {
        this(options, false);
    }

    private MiniMallocAllocator(MiniMallocOptions options, boolean counted) {
        this.options = Objects.requireNonNull(options, "options");
        this.counted = counted;
    }

    /**
     * The allocator as {@code memplan allocate} runs it: under a work limit, {@link #allocate} spends calibrated
     * effort ({@link #EFFORT_PER_UNIT}) and charges it. As a packer inside a plan's solve, MiniMalloc keeps its
     * uncharged node budget: charged there, the packings eat the work of the windows that follow (BENCHMARKS.md,
     * "Figures moved out of the Javadoc"). {@link #minimize} always counts.
     */
    public static MiniMallocAllocator counted() {
        return new MiniMallocAllocator(MiniMallocOptions.DEFAULT, true);
    }

    public MiniMallocOptions options() {
        return options;
    }

    @Override
    public String name() {
        return "minimalloc";
    }

    /**
     * Packs the buffers below {@code capacity} (the set's own capacity is not consulted): FEASIBLE with a
     * packing, INFEASIBLE when none exists (proven), UNKNOWN at the end of its budget ({@link dev.memplan.model.Budget#stopped()}) or when the calling
     * thread is interrupted (its interrupt flag stays set). Up to {@link Limits#threads()} threads race.
     */
    @Override
    public Allocation allocate(BufferSet buffers, long capacity, Limits limits) {
        long start = System.nanoTime();
        long deadline = deadline(start, limits);
        long bytes = Instance.estimateBytes(buffers, limits.threads());
        String tooBig = tooBig(buffers, bytes, limits);
        if (tooBig != null) {
            return new Allocation(SolveStatus.UNKNOWN, null, (System.nanoTime() - start) / 1e9, tooBig);
        }
        try (HeapRoom.Hold hold = HeapRoom.reserve(bytes, limits)) {
            return hold == null ? stoppedWaiting(buffers, limits, start, null)
                    : decide(buffers, capacity, limits, start, deadline);
        }
    }

    /** {@link #allocate}'s search, holding its room. */
    private Allocation decide(BufferSet buffers, long capacity, Limits limits, long start, long deadline) {
        Instance instance = new Instance(buffers);
        Race.Verdict verdict = quickVerdict(instance, capacity);
        if (verdict == null && instance.huge && capacity >= Instance.MAX_ROOM) {
            throw new IllegalArgumentException(TOO_LARGE);
        }
        long[] offsets = null;
        if (verdict == null) {
            long nodeLimit = Long.MAX_VALUE;
            long effortLimit = Long.MAX_VALUE;
            int threads = limits.threads();
            if (limits.workMode()) {
                // Under a work limit: a budget from the step's work instead of the clock, one thread (racing
                // threads finish in an order the machine decides), the command's wall deadline as the outer guard.
                if (counted) {
                    effortLimit = nodeBudget(limits);
                } else {
                    double units = limits.budget().workLeft();
                    nodeLimit = units * PACKER_NODES_PER_UNIT >= Long.MAX_VALUE ? Long.MAX_VALUE
                            : Math.max(MIN_PROBE_NODES, (long) (units * PACKER_NODES_PER_UNIT));
                }
                threads = 1;
            }
            Race.Result result = Race.decide(instance, options, Math.min(capacity, instance.room), deadline,
                    threads, nodeLimit, effortLimit, limits.budget());
            verdict = result.verdict();
            offsets = result.offsets();
            if (limits.workMode() && counted) {
                limits.budget().charge((double) result.effort() / EFFORT_PER_UNIT);
                if (verdict == Race.Verdict.STOPPED) {
                    limits.budget().markWallStop();
                }
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        switch (verdict) {
            case PACKED:
                return new Allocation(SolveStatus.FEASIBLE, checked(buffers, offsets, capacity), seconds);
            case INFEASIBLE:
                return new Allocation(SolveStatus.INFEASIBLE, null, seconds);
            default:
                return new Allocation(SolveStatus.UNKNOWN, null, seconds);
        }
    }

    /**
     * The smallest capacity the buffers pack into (the set's own capacity is not consulted). Starts from a
     * greedy packing as upper bound and the largest live total (or fixed buffer top) as lower bound, tries the
     * lower bound first, then bisects, each step a decision as in {@link #allocate} with a node limit that
     * doubles with every pass; a packing at capacity c moves the upper bound to its height, a proof of
     * infeasibility moves the lower bound to c + 1, an undecided probe moves the next probes up. OPTIMAL
     * when the bounds meet; FEASIBLE with the best packing so far at the time limit, on interruption, or once
     * the gap {@code (upper - lower) / upper} is within {@link Limits#relativeGap()}; INFEASIBLE only when
     * fixed offsets rule out every capacity. {@link Limits#seed()} is not used: the search is deterministic.
     */
    public Allocation minimize(BufferSet buffers, Limits limits) {
        return minimize(buffers, limits, null);
    }

    /**
     * As {@link #minimize(BufferSet, Limits)}, starting from {@code upper} (a legal placement, e.g. the best
     * heuristic's; null: MiniMalloc's own greedy packing) when it is lower than the greedy packing: the answer is
     * never higher than {@code upper}. When the search would not fit in the heap ({@link HeapRoom}), the answer
     * is {@code upper} as FEASIBLE with a note saying so, or UNKNOWN when there is none.
     */
    public Allocation minimize(BufferSet buffers, Limits limits, Placement upper) {
        long start = System.nanoTime();
        long deadline = deadline(start, limits);
        long bytes = Instance.estimateBytes(buffers, limits.threads());
        String tooBig = tooBig(buffers, bytes, limits);
        if (tooBig != null) {
            double s = (System.nanoTime() - start) / 1e9;
            return upper == null ? new Allocation(SolveStatus.UNKNOWN, null, s, tooBig)
                    : new Allocation(SolveStatus.FEASIBLE, checked(buffers, upper.offsets(), upper.height()), s,
                            tooBig + "; kept the starting packing");
        }
        try (HeapRoom.Hold hold = HeapRoom.reserve(bytes, limits)) {
            return hold == null ? stoppedWaiting(buffers, limits, start, upper)
                    : bisect(buffers, limits, upper, start, deadline);
        }
    }

    /** {@link #minimize(BufferSet, Limits, Placement)}'s search, holding its room. */
    private Allocation bisect(BufferSet buffers, Limits limits, Placement upper, long start, long deadline) {
        Instance instance = new Instance(buffers);
        if (instance.huge) {
            throw new IllegalArgumentException(TOO_LARGE);
        }
        if (instance.hopeless != null) {
            return new Allocation(SolveStatus.INFEASIBLE, null, (System.nanoTime() - start) / 1e9);
        }
        long[] best = instance.greedy(deadline);
        if (best == null) {
            // The clock ran out in the greedy packing (thousands of buffers live at once): the start is the answer.
            if (limits.workMode()) {
                limits.budget().markWallStop();
            }
            double s = (System.nanoTime() - start) / 1e9;
            return upper == null ? new Allocation(SolveStatus.UNKNOWN, null, s, "the time limit was reached")
                    : new Allocation(SolveStatus.FEASIBLE, checked(buffers, upper.offsets(), upper.height()), s,
                            "the time limit was reached before the search; kept the starting packing");
        }
        long high = height(instance, best);
        if (upper != null && upper.height() < high) {
            best = upper.offsets();
            high = upper.height();
        }
        long lowerBound = Math.max(instance.maxLive, instance.maxFixedTop);
        long low = lowerBound;
        // Under a work limit: the probes draw on one node budget from the step's work, on one thread, and only
        // the command's wall deadline (the outer guard) stops them by the clock.
        boolean work = limits.workMode();
        long budget = Long.MAX_VALUE;
        int threads = limits.threads();
        if (work) {
            budget = nodeBudget(limits);
            threads = 1;
        }
        long used = 0;
        // Bisection in passes: each probe gets a node limit, and a probe left undecided sends the next ones
        // higher (below it, capacities are only harder); when a pass runs out of room between the undecided
        // floor and the best height, the next pass starts over from the proven bound with twice the nodes.
        long nodeLimit = Math.max(MIN_PROBE_NODES, 16L * instance.n);
        long floor = low;
        boolean stopped = false;
        // Limits.relativeGap lets the caller settle for a packing within that fraction of the lower bound.
        while (low < high && !stopped && high - low > limits.relativeGap() * high) {
            if (floor >= high) {
                floor = low;
                nodeLimit = nodeLimit > Long.MAX_VALUE / 2 ? Long.MAX_VALUE : 2 * nodeLimit;
            }
            long probe = floor + (high - floor) / 2;
            if (floor == low && low == lowerBound) {
                // Most real sets pack at their largest live total: try it first.
                probe = low;
            }
            if (used >= budget) {
                break;
            }
            Race.Result result = Race.decide(instance, options, probe, deadline, threads, nodeLimit, budget - used,
                    limits.budget());
            used += result.effort();
            switch (result.verdict()) {
                case PACKED:
                    best = result.offsets();
                    high = height(instance, best);
                    break;
                case INFEASIBLE:
                    low = probe + 1;
                    floor = Math.max(floor, low);
                    break;
                case UNDECIDED:
                    floor = probe + 1;
                    break;
                default:
                    stopped = true;
                    if (work) {
                        limits.budget().markWallStop();
                    }
            }
        }
        if (work) {
            limits.budget().charge((double) used / EFFORT_PER_UNIT);
        }
        Placement placement = checked(buffers, best, high);
        return new Allocation(low >= high ? SolveStatus.OPTIMAL : SolveStatus.FEASIBLE, placement,
                (System.nanoTime() - start) / 1e9);
    }

    /** The search effort a work-limited step may spend: its work left times {@link #EFFORT_PER_UNIT}. */
    private static long nodeBudget(Limits limits) {
        double units = limits.budget().workLeft();
        return units * EFFORT_PER_UNIT >= Long.MAX_VALUE ? Long.MAX_VALUE
                : Math.max(MIN_PROBE_NODES, (long) (units * EFFORT_PER_UNIT));
    }

    /** Why the search, of about {@code bytes}, would not fit in the heap, or null when it fits. */
    private static String tooBig(BufferSet buffers, long bytes, Limits limits) {
        return HeapRoom.fits(bytes, limits) ? null
                : HeapRoom.shortfall("MiniMalloc's search of " + buffers.size() + " buffers", bytes, limits);
    }

    /**
     * The answer when a stop came while the search waited for the room other jobs hold ({@link HeapRoom#reserve}):
     * {@code upper} (FEASIBLE) when there is one, else UNKNOWN.
     */
    private Allocation stoppedWaiting(BufferSet buffers, Limits limits, long start, Placement upper) {
        limits.budget().markWallStop();
        String note = "stopped while waiting for the heap other jobs hold";
        double s = (System.nanoTime() - start) / 1e9;
        return upper == null ? new Allocation(SolveStatus.UNKNOWN, null, s, note)
                : new Allocation(SolveStatus.FEASIBLE, checked(buffers, upper.offsets(), upper.height()), s,
                        note + "; kept the starting packing");
    }

    /** A verdict that needs no search, or null. */
    private static Race.Verdict quickVerdict(Instance instance, long capacity) {
        if (instance.hopeless != null || instance.maxLive > capacity || instance.maxFixedTop > capacity) {
            return instance.n == 0 ? Race.Verdict.PACKED : Race.Verdict.INFEASIBLE;
        }
        return instance.n == 0 ? Race.Verdict.PACKED : null;
    }

    private static long height(Instance instance, long[] offsets) {
        long h = 0;
        for (int i = 0; i < instance.n; i++) {
            h = Math.max(h, offsets[i] + instance.size[i]);
        }
        return h;
    }

    private Placement checked(BufferSet buffers, long[] offsets, long capacity) {
        Placement placement = new Placement(buffers, offsets == null ? new long[0] : offsets);
        BufferChecker.requireValid(placement, capacity, name());
        return placement;
    }

    /** When the search must stop by the clock: the budget's wall end (the outer guard under a work limit). */
    private static long deadline(long start, Limits limits) {
        java.time.Duration wall = limits.budget().wallLeft();
        return wall == null ? Long.MAX_VALUE : start + Math.min(wall.toNanos(), Long.MAX_VALUE / 4);
    }
}
