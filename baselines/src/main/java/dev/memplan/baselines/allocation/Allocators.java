package dev.memplan.baselines.allocation;

import dev.memplan.baselines.allocation.heuristics.BestFitAllocator;
import dev.memplan.baselines.allocation.heuristics.GreedyBySizeAllocator;
import dev.memplan.baselines.allocation.heuristics.TfliteArenaAllocator;
import dev.memplan.baselines.allocation.minimalloc.MiniMallocAllocator;
import dev.memplan.baselines.allocation.telamalloc.SkylineAllocator;
import dev.memplan.baselines.allocation.telamalloc.TelaMallocAllocator;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.formulations.placement.PlacementCpSat;
import dev.memplan.formulations.placement.PlacementIlp;
import dev.memplan.model.Allocation;
import dev.memplan.model.Allocator;
import dev.memplan.model.BufferChecker;
import dev.memplan.model.BufferSet;
import dev.memplan.model.Limits;
import dev.memplan.model.LoadBound;
import dev.memplan.model.Placement;
import dev.memplan.model.SolveStatus;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;

/**
 * The fixed-schedule allocators by name, as {@code memplan allocate --allocator} knows them, and the one thing
 * they do differently in capacity-minimising mode: the exact ones search for the least height and prove it;
 * the heuristics report the height they reach without a capacity.
 */
public final class Allocators {
    /** The portfolio (the default), the exact allocators, then the heuristics. */
    public static final List<String> NAMES = List.of(Portfolio.NAME, "minimalloc", "telamalloc", "ilp", "cpsat", "skyline",
            "tflite", "greedy", "bestfit");

    private Allocators() {
    }

    /** The allocator of that name, for packing into a given capacity. */
    public static Allocator byName(String name) {
        return switch (name) {
            case Portfolio.NAME -> new Allocator() {
                @Override
                public String name() {
                    return Portfolio.NAME;
                }

                @Override
                public Allocation allocate(BufferSet buffers, long capacity, Limits limits) {
                    return Portfolio.allocate(buffers, capacity, limits).allocation();
                }
            };
            case "minimalloc" -> MiniMallocAllocator.counted();
            case "telamalloc" -> new TelaMallocAllocator();
            case "ilp" -> new PlacementIlp(Backend.SCIP, false);
            case "cpsat" -> new PlacementCpSat(false).calibrated();
            case "skyline" -> new SkylineAllocator();
            case "tflite" -> new TfliteArenaAllocator();
            case "greedy" -> new GreedyBySizeAllocator();
            case "bestfit" -> new BestFitAllocator();
            default -> throw new IllegalArgumentException("unknown allocator '" + name + "'; allocators: "
                    + String.join(", ", NAMES));
        };
    }

    /** Whether the allocator is a heuristic (it never proves infeasibility or a minimum). */
    public static boolean heuristic(String name) {
        byName(name);
        return List.of("skyline", "tflite", "greedy", "bestfit").contains(name);
    }

    /**
     * The least height the allocator finds for {@code buffers}. A height equal to the max-load lower bound
     * ({@link LoadBound}) is OPTIMAL whoever found it. Otherwise: HEURISTIC for the heuristics (the height they
     * reach with no capacity); for the exact ones (minimalloc, ilp, cpsat) OPTIMAL when proven, else FEASIBLE,
     * each started from the best of the fast heuristics (greedy, bestfit, tflite) as upper bound and hint, so
     * never above it; {@code auto} is the {@link Portfolio}.
     *
     * @throws IllegalArgumentException for telamalloc, which answers feasibility only, and unknown names
     */
    public static Allocation minimize(String name, BufferSet buffers, Limits limits) {
        long began = System.nanoTime();
        if (name.equals(Portfolio.NAME)) {
            return Portfolio.minimize(buffers, limits).allocation();
        }
        Duration wall = limits.budget().wallLeft();
        long deadline = wall == null || wall.toDays() > 36_500 ? Long.MAX_VALUE : began + wall.toNanos();
        Function<BufferSet, Placement> unbounded = switch (name) {
            case "skyline" -> b -> new SkylineAllocator().pack(b, deadline);
            case "tflite" -> b -> new TfliteArenaAllocator().pack(b, deadline);
            case "greedy" -> b -> new GreedyBySizeAllocator().pack(b, deadline);
            case "bestfit" -> b -> new BestFitAllocator().pack(b, deadline);
            default -> null;
        };
        long bound = LoadBound.of(buffers);
        if (unbounded != null) {
            Placement p = unbounded.apply(buffers);
            if (p == null) {
                return new Allocation(SolveStatus.UNKNOWN, null, (System.nanoTime() - began) / 1e9,
                        "the time limit was reached");
            }
            BufferChecker.requireValid(p, p.height(), name);
            return new Allocation(p.height() == bound ? SolveStatus.OPTIMAL : SolveStatus.HEURISTIC, p,
                    (System.nanoTime() - began) / 1e9);
        }
        if (name.equals("telamalloc")) {
            throw new IllegalArgumentException("telamalloc answers feasibility only: minimise with auto or minimalloc");
        }
        if (!NAMES.contains(name)) {
            throw new IllegalArgumentException("unknown allocator '" + name + "'; allocators: " + String.join(", ", NAMES));
        }
        Placement start = bestFastHeuristic(buffers, deadline);
        if (start == null) {
            return new Allocation(SolveStatus.UNKNOWN, null, (System.nanoTime() - began) / 1e9,
                    "the time limit was reached before a starting packing");
        }
        // The budget's clock has run since the call began: the search gets what is left of it.
        Limits rest = limits;
        Allocation a = switch (name) {
            case "minimalloc" -> new MiniMallocAllocator().minimize(buffers, rest, start);
            case "ilp" -> PlacementIlp.minimumHeight(Backend.SCIP, buffers, start, rest);
            default -> PlacementCpSat.minimumHeightCalibrated(buffers, start, rest);
        };
        double seconds = (System.nanoTime() - began) / 1e9;
        if (!a.solved() || a.placement().height() > start.height()) {
            String why = a.note() != null ? a.note() : "the search found nothing better in time";
            return new Allocation(start.height() == bound ? SolveStatus.OPTIMAL : SolveStatus.FEASIBLE, start, seconds,
                    why + "; the starting packing (best fast heuristic) is kept");
        }
        SolveStatus status = a.placement().height() == bound ? SolveStatus.OPTIMAL : a.status();
        return new Allocation(status, a.placement(), seconds, a.note());
    }

    /**
     * The lowest packing of greedy by size, best fit, TFLite's arena and the skyline (each O(n log n); the skyline
     * plus a tree descent per buffer set aside at a fixed-offset buffer), checked.
     */
    public static Placement bestFastHeuristic(BufferSet buffers) {
        return bestFastHeuristic(buffers, Long.MAX_VALUE);
    }

    /**
     * As {@link #bestFastHeuristic(BufferSet)}, of the heuristics done by {@code deadlineNanos}
     * ({@link System#nanoTime()} terms, Long.MAX_VALUE: none); null when none is. Sets of fewer than
     * {@link dev.memplan.model.ClockGuard#EVERY} buffers, which every heuristic packs in milliseconds, are packed
     * whatever the clock says, so that a search always starts from the best of them there.
     */
    public static Placement bestFastHeuristic(BufferSet buffers, long deadlineNanos) {
        long deadline = buffers.size() < dev.memplan.model.ClockGuard.EVERY ? Long.MAX_VALUE : deadlineNanos;
        Placement best = null;
        for (Function<BufferSet, Placement> h : List.<Function<BufferSet, Placement>>of(
                b -> new GreedyBySizeAllocator().pack(b, deadline),
                b -> new BestFitAllocator().pack(b, deadline),
                b -> new TfliteArenaAllocator().pack(b, deadline),
                b -> new SkylineAllocator().pack(b, deadline))) {
            Placement p = h.apply(buffers);
            if (p != null && (best == null || p.height() < best.height())) {
                best = p;
            }
        }
        return best;
    }
}
