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
import dev.memplan.model.Placement;
import dev.memplan.model.SolveStatus;
import java.util.List;
import java.util.function.Function;

/**
 * The fixed-schedule allocators by name, as {@code memplan allocate --allocator} knows them, and the one thing
 * they do differently in capacity-minimising mode: the exact ones search for the least height and prove it;
 * the heuristics report the height they reach without a capacity.
 */
public final class Allocators {
    /** Exact allocators first, then the heuristics. */
    public static final List<String> NAMES = List.of("minimalloc", "telamalloc", "ilp", "cpsat", "skyline", "tflite",
            "greedy", "bestfit");

    private Allocators() {
    }

    /** The allocator of that name, for packing into a given capacity. */
    public static Allocator byName(String name) {
        return switch (name) {
            case "minimalloc" -> new MiniMallocAllocator();
            case "telamalloc" -> new TelaMallocAllocator();
            case "ilp" -> new PlacementIlp(Backend.SCIP, false);
            case "cpsat" -> new PlacementCpSat(false);
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
     * The least height the allocator finds for {@code buffers}: OPTIMAL when proven (minimalloc, ilp, cpsat),
     * HEURISTIC for the heuristics (the height they reach with no capacity), and for telamalloc, which only
     * answers feasibility, UNKNOWN.
     */
    public static Allocation minimize(String name, BufferSet buffers, Limits limits) {
        long began = System.nanoTime();
        Function<BufferSet, Placement> unbounded = switch (name) {
            case "skyline" -> new SkylineAllocator()::pack;
            case "tflite" -> new TfliteArenaAllocator()::pack;
            case "greedy" -> new GreedyBySizeAllocator()::pack;
            case "bestfit" -> new BestFitAllocator()::pack;
            default -> null;
        };
        if (unbounded != null) {
            Placement p = unbounded.apply(buffers);
            BufferChecker.requireValid(p, p.height(), name);
            return new Allocation(SolveStatus.HEURISTIC, p, (System.nanoTime() - began) / 1e9);
        }
        return switch (name) {
            case "minimalloc" -> new MiniMallocAllocator().minimize(buffers, limits);
            case "ilp" -> PlacementIlp.minimumHeight(Backend.SCIP, buffers, null, limits);
            case "cpsat" -> PlacementCpSat.minimumHeight(buffers, null, limits);
            case "telamalloc" -> new Allocation(SolveStatus.UNKNOWN, null, 0);
            default -> throw new IllegalArgumentException("unknown allocator '" + name + "'; allocators: "
                    + String.join(", ", NAMES));
        };
    }
}
