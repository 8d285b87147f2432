package dev.memplan.baselines.allocation.telamalloc;

import dev.memplan.model.Allocation;
import dev.memplan.model.Allocator;
import dev.memplan.model.Buffer;
import dev.memplan.model.BufferChecker;
import dev.memplan.model.BufferSet;
import dev.memplan.model.HeapRoom;
import dev.memplan.model.Limits;
import dev.memplan.model.Placement;
import dev.memplan.model.SolveStatus;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * TelaMalloc (Maas, Beaugnon, Chauhan, Ilbeyi: "TelaMalloc: Efficient On-Chip Memory Allocation for Production
 * Machine Learning Accelerators", ASPLOS 2023, section 5): a search that places one buffer at a time, chosen by
 * domain heuristics and checked by constraint propagation after every step.
 *
 * <ul>
 *   <li>Candidates (section 5.1): at every decision point the buffers picked by three heuristics, longest
 *       lifetime, largest size and largest size x lifetime, tried in that order.</li>
 *   <li>Solver-guided placement (5.2): a candidate goes to the lowest position the constraints still allow.</li>
 *   <li>Contention-based grouping (5.3, {@link Phases}): parts of the time line that share no buffer are packed
 *       independently; within a part, phases of high contention come first and candidates are taken from the
 *       phase of the previous buffer before the others.</li>
 *   <li>Smart backtracking (5.4, {@link TelaSearch}): minor backtracks to the next candidate when propagation
 *       fails; major backtracks, when a point has no candidate left, to the latest placement in the conflict
 *       (conflict-directed backjumping), carrying the abandoned candidates along; the stuck detector.</li>
 *   <li>Alignment (5.5) is part of the model; fixed offsets are placements made before the search.</li>
 * </ul>
 *
 * <p>The paper's solver is CP-SAT behind the unpublished Telamon wrapper. This class uses none: the ranges of
 * positions and the conflict explanations come from our own interval reasoning ({@link Domains}): exact
 * against placed buffers, CP-style bounds propagation between unplaced ones. The learned backtracking policy of
 * section 6 is not implemented.
 *
 * <p>Results: {@link SolveStatus#FEASIBLE} with a checked placement (a search for any packing below the
 * capacity: there is no objective to be optimal for); {@link SolveStatus#INFEASIBLE} only with a
 * proof, which the default search gives only before it makes any choice (fixed buffers that collide, a moment
 * whose live buffers add up to more than the capacity, or propagation failing with nothing placed); the search
 * itself is incomplete (heuristic candidates, backjumping, the stuck detector), so running out of choices is
 * {@link SolveStatus#UNKNOWN}. With {@link TelaMallocOptions#exhaustive()} the search is complete and running
 * out of choices proves infeasibility. the end of its budget ({@link dev.memplan.model.Budget#stopped()}) gives {@link SolveStatus#UNKNOWN}; threads
 * and the seed are not used (the search is sequential and deterministic).
 */
public final class TelaMallocAllocator implements Allocator {
    private final TelaMallocOptions options;

    public TelaMallocAllocator() {
        this(TelaMallocOptions.DEFAULT);
    }

    public TelaMallocAllocator(TelaMallocOptions options) {
        this.options = Objects.requireNonNull(options, "options");
    }

    @Override
    public String name() {
        return "telamalloc";
    }

    public TelaMallocOptions options() {
        return options;
    }

    @Override
    public Allocation allocate(BufferSet buffers, long capacity, Limits limits) {
        return run(buffers, capacity, limits).allocation();
    }

    /** An allocation with the search's counters, summed over the independent parts. */
    record Run(Allocation allocation, long steps, long minorBacktracks, long majorBacktracks, long stuckJumps,
            int deepest, int mostBoundsHeld) {
    }

    Run run(BufferSet buffers, long capacity, Limits limits) {
        long start = System.nanoTime();
        if (capacity < 0) {
            throw new IllegalArgumentException("capacity must be >= 0, got " + capacity);
        }
        long budget = budgetNanos(limits);
        TimeAxis axis = TimeAxis.of(buffers);
        if (axis.fixedConflict(buffers, capacity) != null || axis.peak() > capacity) {
            return new Run(new Allocation(SolveStatus.INFEASIBLE, null, seconds(start)), 0, 0, 0, 0, 0, 0);
        }
        Placement skyline = null;
        if (options.heuristicFirst()) {
            skyline = new SkylineAllocator().pack(buffers, deadline(start, limits));
            if (skyline == null && limits.workMode()) {
                limits.budget().markWallStop();
            }
            if (skyline != null && skyline.height() <= capacity) {
                return new Run(packed(skyline, capacity, start, "its skyline start packed them (tried first)"),
                        0, 0, 0, 0, 0, 0);
            }
        }
        List<int[]> parts = options.contentionGrouping() ? Phases.components(axis) : List.of(all(buffers.size()));
        int largest = parts.stream().mapToInt(p -> p.length).max().orElse(0);
        long need = estimateBytes(largest, 0);
        if (!HeapRoom.fits(need, limits)) {
            String why = HeapRoom.shortfall("TelaMalloc's search of a part of " + largest + " buffers", need, limits);
            return new Run(skyline != null ? notPacked(skyline, capacity, start, why)
                    : fallback(buffers, capacity, limits, start, why), 0, 0, 0, 0, 0, 0);
        }
        try (HeapRoom.Hold hold = HeapRoom.reserve(need, limits)) {
            if (hold == null) {
                limits.budget().markWallStop();
                return new Run(new Allocation(SolveStatus.UNKNOWN, null, seconds(start),
                        "stopped while waiting for the heap other jobs hold"), 0, 0, 0, 0, 0, 0);
            }
            return searchParts(buffers, axis, parts, capacity, limits, start, budget);
        }
    }

    /** The searches of the parts, holding their room ({@link HeapRoom#reserve}). */
    private Run searchParts(BufferSet buffers, TimeAxis axis, List<int[]> parts, long capacity, Limits limits,
                            long start, long budget) {
        List<TelaSearch> searches = new ArrayList<>();
        for (int[] part : parts) {
            TelaSearch search = search(buffers, axis, part, capacity, start, budget, limits.budget());
            if (search.failsAtRoot()) {
                return new Run(new Allocation(SolveStatus.INFEASIBLE, null, seconds(start)), 0, 0, 0, 0, 0, 0);
            }
            searches.add(search);
        }
        long[] offsets = new long[buffers.size()];
        SolveStatus status = SolveStatus.FEASIBLE;
        String note = null;
        // Under a work limit the parts draw on one budget of effort (the clock is only the outer guard): a step
        // propagates over the part, so it costs the part's size.
        long effortLeft = limits.workMode() ? effortBudget(limits) : Long.MAX_VALUE;
        for (int k = 0; k < parts.size() && status == SolveStatus.FEASIBLE; k++) {
            TelaSearch part = searches.get(k);
            long stepCost = Math.max(1, parts.get(k).length);
            part.stepLimit = effortLeft == Long.MAX_VALUE ? Long.MAX_VALUE : Math.max(1, effortLeft / stepCost);
            TelaSearch.Outcome outcome = part.run();
            if (limits.workMode()) {
                long spent = (part.steps + part.majorBacktracks) * stepCost;
                effortLeft -= spent;
                limits.budget().charge((double) spent / EFFORT_PER_UNIT);
                if (outcome == TelaSearch.Outcome.TIME_LIMIT || outcome == TelaSearch.Outcome.STOPPED) {
                    limits.budget().markWallStop();
                }
            }
            switch (outcome) {
                case SOLVED -> {
                    long[] local = searches.get(k).offsets();
                    for (int i = 0; i < local.length; i++) {
                        offsets[parts.get(k)[i]] = local[i];
                    }
                }
                case INFEASIBLE -> status = SolveStatus.INFEASIBLE;
                case GAVE_UP -> {
                    status = SolveStatus.UNKNOWN;
                    note = "the search ran out of choices to backtrack to (its search is not exhaustive)";
                }
                case TIME_LIMIT -> {
                    status = SolveStatus.UNKNOWN;
                    note = "the time limit was reached";
                }
                case WORK_LIMIT -> {
                    status = SolveStatus.UNKNOWN;
                    note = "the work limit was reached";
                }
                case STOPPED -> {
                    status = SolveStatus.UNKNOWN;
                    note = "the search was stopped: " + limits.budget().whyStopped();
                }
            }
        }
        Placement placement = null;
        if (status == SolveStatus.FEASIBLE) {
            placement = new Placement(buffers, offsets);
            BufferChecker.requireValid(placement, capacity, name());
        }
        long steps = 0;
        long minor = 0;
        long major = 0;
        long stuck = 0;
        int deepest = 0;
        int held = 0;
        for (TelaSearch s : searches) {
            steps += s.steps;
            minor += s.minorBacktracks;
            major += s.majorBacktracks;
            stuck += s.stuckJumps;
            deepest = Math.max(deepest, s.deepest);
            held = Math.max(held, s.mostBoundsHeld);
        }
        return new Run(new Allocation(status, placement, seconds(start), note), steps, minor, major, stuck, deepest,
                held);
    }

    /**
     * When the search would not fit: the skyline heuristic TelaMalloc starts from, within the time limit; its
     * packing when it fits the capacity (FEASIBLE), UNKNOWN otherwise, with the reason as the note.
     */
    private Allocation fallback(BufferSet buffers, long capacity, Limits limits, long start, String why) {
        Placement p = new SkylineAllocator().pack(buffers, deadline(start, limits));
        if (p == null) {
            return new Allocation(SolveStatus.UNKNOWN, null, seconds(start), why + "; its skyline start ran out of time");
        }
        return p.height() > capacity ? notPacked(p, capacity, start, why) : packed(p, capacity, start, why
                + "; its skyline start packed them");
    }

    /** The skyline start's packing, checked, as the answer: FEASIBLE, as a packing the search finds. */
    private Allocation packed(Placement p, long capacity, long start, String note) {
        BufferChecker.requireValid(p, capacity, name());
        return new Allocation(SolveStatus.FEASIBLE, p, seconds(start), note);
    }

    /** No answer: the skyline start is above the capacity and the search cannot run. */
    private static Allocation notPacked(Placement p, long capacity, long start, String why) {
        return new Allocation(SolveStatus.UNKNOWN, null, seconds(start), why + "; its skyline start reaches height "
                + p.height() + " > " + capacity);
    }

    /** The wall deadline of the call in {@link System#nanoTime()} terms (none: Long.MAX_VALUE). */
    private static long deadline(long start, Limits limits) {
        long budget = budgetNanos(limits);
        return budget == Long.MAX_VALUE ? Long.MAX_VALUE : start + budget;
    }

    /** The search over one part, with buffers renumbered 0..m-1 in the order of {@code part}. */
    private TelaSearch search(BufferSet buffers, TimeAxis axis, int[] part, long capacity, long start,
            long budget, dev.memplan.model.Budget stop) {
        int m = part.length;
        long[] size = new long[m];
        long[] alignment = new long[m];
        long[] lifetime = new long[m];
        long[] fixed = new long[m];
        int[] local = new int[buffers.size()];
        boolean[] grouped = new boolean[buffers.size()];
        for (int i = 0; i < m; i++) {
            Buffer b = buffers.get(part[i]);
            local[part[i]] = i;
            size[i] = b.size();
            alignment[i] = b.alignment();
            lifetime[i] = b.upper() - b.lower();
            fixed[i] = b.fixedOffset() == null ? -1 : b.fixedOffset();
            grouped[part[i]] = b.fixedOffset() != null;
        }
        int[][] neighbours = neighbours(axis, part);
        List<int[]> phases = new ArrayList<>();
        List<int[]> global = options.contentionGrouping()
                ? Phases.group(axis, part, grouped, capacity, options.phaseStep())
                : List.of(freeOf(buffers, part));
        for (int[] phase : global) {
            int[] mapped = new int[phase.length];
            for (int k = 0; k < phase.length; k++) {
                mapped[k] = local[phase[k]];
            }
            phases.add(mapped);
        }
        return new TelaSearch(capacity, size, alignment, lifetime, fixed, neighbours, phases, options, start, budget,
                stop);
    }

    /**
     * For each buffer of the part (local numbering), the others live with it, by a sweep over first slots:
     * O(m log m + p) for p overlapping pairs, primitive arrays.
     */
    static int[][] neighbours(TimeAxis axis, int[] part) {
        int m = part.length;
        long[] key = new long[m];
        for (int i = 0; i < m; i++) {
            key[i] = ((long) axis.first[part[i]] << 32) | i;
        }
        Arrays.sort(key);
        int[] degree = new int[m];
        for (int x = 0; x < m; x++) {
            int a = (int) key[x];
            for (int y = x + 1; y < m && (int) (key[y] >>> 32) < axis.end[part[a]]; y++) {
                degree[a]++;
                degree[(int) key[y]]++;
            }
        }
        int[][] lists = new int[m][];
        for (int i = 0; i < m; i++) {
            lists[i] = new int[degree[i]];
            degree[i] = 0;
        }
        for (int x = 0; x < m; x++) {
            int a = (int) key[x];
            for (int y = x + 1; y < m && (int) (key[y] >>> 32) < axis.end[part[a]]; y++) {
                int b = (int) key[y];
                lists[a][degree[a]++] = b;
                lists[b][degree[b]++] = a;
            }
        }
        for (int[] list : lists) {
            Arrays.sort(list);
        }
        return lists;
    }

    /**
     * Bytes the search over a part of m buffers needs at worst: one set of propagated bounds and their reasons
     * (a bit set over the part per bound), and per point of the search path (as deep as the part has free
     * buffers) the bit sets of its tried candidates and its conflict; plus the neighbour lists. Against the
     * measured memory: BENCHMARKS.md, "obstacles in the indexed skyline, TelaMalloc's memory".
     */
    static long estimateBytes(int m, long pairs) {
        return m / 2 * (long) m + 8 * pairs + 512L * m;
    }

    /**
     * Effort per work unit under a work limit, where a search step (a candidate placement tried, or a major
     * backtrack) costs the size of its part, since each propagates over the part: about a wall second of search
     * on the reference machine (calibration: BENCHMARKS.md, "Allocation at production scale").
     */
    static final long EFFORT_PER_UNIT = 3_000_000L;

    private static long effortBudget(Limits limits) {
        double units = limits.budget().workLeft();
        return units * EFFORT_PER_UNIT >= Long.MAX_VALUE ? Long.MAX_VALUE : Math.max(1, (long) (units * EFFORT_PER_UNIT));
    }

    /** The wall time left (under a work limit: to the command's wall end, the outer guard). */
    private static long budgetNanos(Limits limits) {
        java.time.Duration wall = limits.budget().wallLeft();
        return wall == null ? Long.MAX_VALUE : wall.toNanos();
    }

    private static int[] all(int n) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = i;
        }
        return a;
    }

    private static int[] freeOf(BufferSet buffers, int[] part) {
        return Arrays.stream(part).filter(i -> buffers.get(i).fixedOffset() == null).toArray();
    }

    private static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }
}
