package dev.memplan.baselines.allocation.heuristics;

import dev.memplan.datasets.MiniMallocSuite;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.formulations.placement.PlacementCpSat;
import dev.memplan.formulations.placement.PlacementIlp;
import dev.memplan.model.Allocation;
import dev.memplan.model.BufferSet;
import dev.memplan.model.Limits;
import dev.memplan.model.Placement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * Measures the compiler heuristics, the TelaMalloc placement ILP (SCIP) and the CP-SAT NoOverlap2D model on
 * MiniMalloc's eleven challenging instances at their capacity 1,048,576: status, wall time, height. Not a test;
 * run by hand:
 * <pre>
 *   java -cp ... dev.memplan.baselines.allocation.heuristics.ChallengingMeasureMain [seconds] [--min | --height] [--address-cumulative] [A B ...]
 * </pre>
 * {@code seconds}: time limit per exact solve (default 60); {@code --min}: the exact models minimise the height
 * below the capacity instead of looking for any packing; {@code --height}: the exact models minimise the height
 * with no capacity, starting from the lowest heuristic packing (which bounds the search and is the hint);
 * {@code --address-cumulative}: CP-SAT gets its redundant address-axis cumulative constraint; instance names
 * restrict the run (default all).
 * Heights of the heuristics are those they reach with unbounded capacity. One thread, seed 0.
 */
public final class ChallengingMeasureMain {

    private ChallengingMeasureMain() {
    }

    public static void main(String[] args) {
        double seconds = 60;
        boolean minimize = false;
        boolean addressCumulative = false;
        boolean height = false;
        List<String> names = new ArrayList<>();
        for (String arg : args) {
            if (arg.equals("--min")) {
                minimize = true;
            } else if (arg.equals("--height")) {
                height = true;
            } else if (arg.equals("--address-cumulative")) {
                addressCumulative = true;
            } else if (arg.matches("[0-9.]+")) {
                seconds = Double.parseDouble(arg);
            } else {
                names.add(arg);
            }
        }
        if (names.isEmpty()) {
            names.addAll(MiniMallocSuite.challengingNames());
        }
        Limits limits = new Limits(Duration.ofMillis((long) (seconds * 1000)), 1, 0.0, 0);
        long capacity = MiniMallocSuite.CHALLENGING_CAPACITY;
        System.out.printf(Locale.ROOT, "%-4s %-9s %-11s %9s %9s%n", "inst", "allocator", "status", "seconds", "height");
        TfliteArenaAllocator tflite = new TfliteArenaAllocator();
        GreedyBySizeAllocator greedy = new GreedyBySizeAllocator();
        BestFitAllocator bestFit = new BestFitAllocator();
        for (String name : names) {
            BufferSet set = MiniMallocSuite.challenging(name);
            heuristic(name, "tflite", set, capacity, tflite::pack, tflite.allocate(set, capacity, limits));
            heuristic(name, "greedy", set, capacity, greedy::pack, greedy.allocate(set, capacity, limits));
            heuristic(name, "bestfit", set, capacity, bestFit::pack, bestFit.allocate(set, capacity, limits));
            if (height) {
                Placement start = lowest(tflite.pack(set), greedy.pack(set), bestFit.pack(set));
                report(name, "ilp-scip", PlacementIlp.minimumHeight(Backend.SCIP, set, start, limits));
                report(name, "cpsat", new PlacementCpSat(true, addressCumulative)
                        .allocate(set, start.height(), limits, start));
            } else {
                report(name, "ilp-scip", new PlacementIlp(Backend.SCIP, minimize).allocate(set, capacity, limits));
                report(name, "cpsat", new PlacementCpSat(minimize, addressCumulative).allocate(set, capacity, limits));
            }
        }
    }

    private static Placement lowest(Placement... packings) {
        Placement best = packings[0];
        for (Placement p : packings) {
            if (p.height() < best.height()) {
                best = p;
            }
        }
        return best;
    }

    private static void heuristic(String name, String label, BufferSet set, long capacity,
                                  Function<BufferSet, Placement> pack, Allocation atCapacity) {
        long start = System.nanoTime();
        long height = pack.apply(set).height();
        double packSeconds = (System.nanoTime() - start) / 1e9;
        System.out.printf(Locale.ROOT, "%-4s %-9s %-11s %9.3f %9d%s%n", name, label, atCapacity.status(), packSeconds,
                height, height > capacity ? "  (over by " + (height - capacity) + ")" : "");
    }

    private static void report(String name, String label, Allocation a) {
        System.out.printf(Locale.ROOT, "%-4s %-9s %-11s %9.3f %9s%n", name, label, a.status(), a.seconds(),
                a.solved() ? Long.toString(a.placement().height()) : "-");
    }
}
