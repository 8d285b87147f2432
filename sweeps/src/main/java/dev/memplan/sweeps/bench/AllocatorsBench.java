package dev.memplan.sweeps.bench;

import dev.memplan.baselines.allocation.Allocators;
import dev.memplan.baselines.allocation.minimalloc.MiniMallocAllocator;
import dev.memplan.baselines.allocation.minimalloc.MiniMallocOptions;
import dev.memplan.datasets.MiniMallocSuite;
import dev.memplan.datasets.RandomBuffers;
import dev.memplan.model.Allocation;
import dev.memplan.model.Allocator;
import dev.memplan.model.BufferChecker;
import dev.memplan.model.BufferSet;
import dev.memplan.model.Limits;
import dev.memplan.model.SolveStatus;
import dev.memplan.sweeps.SweepException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Every allocator on MiniMalloc's eleven challenging instances (capacity 1,048,576) and on seeded random sets, with
 * a per-instance time limit. Exact allocators report solved / infeasible / gave up and the time; heuristics report
 * the height they reach (with no capacity). Each placement is checked.
 */
public final class AllocatorsBench {
    public static final String[] HEADER = {"instance", "buffers", "capacity", "allocator", "result", "seconds",
        "height"};

    /**
     * The allocators (null: all), the challenging instances (null: A..K), how many seeded random sets of 200
     * buffers, the limit and threads of each run, and whether MiniMalloc also runs with each technique off.
     */
    public record Spec(List<String> allocators, List<String> instances, int random, Duration limit, int threads,
                       boolean ablations) {
        public Spec {
            allocators = allocators == null ? Allocators.NAMES : List.copyOf(allocators);
            for (String n : allocators) {
                if (!Allocators.NAMES.contains(n)) {
                    throw new SweepException("unknown allocator '" + n + "'; allocators: "
                            + String.join(", ", Allocators.NAMES));
                }
            }
            Bounds.check(random, 0, 1000, "--random", "a number of random sets ");
            if (instances != null) {
                instances = List.copyOf(instances);
                instances.forEach(AllocatorsBench::challenging);
            }
        }
    }

    private AllocatorsBench() {
    }

    /** MiniMalloc's challenging instance of that name; an unknown name is a user mistake. */
    private static BufferSet challenging(String name) {
        try {
            return MiniMallocSuite.challenging(name);
        } catch (IllegalArgumentException e) {
            throw new SweepException(e.getMessage(), e);
        }
    }

    /** Hands a row per instance and allocator to {@code rows}; every placement found is checked. */
    public static void run(Spec spec, Consumer<String[]> rows) {
        Map<String, BufferSet> sets = new LinkedHashMap<>();
        for (String i : spec.instances() == null ? MiniMallocSuite.challengingNames() : spec.instances()) {
            sets.put(i, challenging(i));
        }
        for (int seed = 1; seed <= spec.random(); seed++) {
            sets.put("random-" + seed, RandomBuffers.generate(seed, 200, 2000, 200, 4096, 1, 0.0));
        }
        Map<String, Allocator> variants = new LinkedHashMap<>();
        for (String name : spec.allocators()) {
            variants.put(name, Allocators.byName(name));
        }
        if (spec.ablations()) {
            for (MiniMallocOptions.Technique off : MiniMallocOptions.Technique.values()) {
                variants.put("minimalloc-no-" + off.id(), new MiniMallocAllocator(MiniMallocOptions.DEFAULT.without(off)));
            }
        }
        for (Map.Entry<String, BufferSet> e : sets.entrySet()) {
            BufferSet set = e.getValue();
            long capacity = set.capacity();
            for (String name : variants.keySet()) {
                Limits limits = new Limits(spec.limit(), spec.threads(), 0.0, 0L);
                boolean heuristic = Allocators.NAMES.contains(name) && Allocators.heuristic(name);
                Allocation a = heuristic ? Allocators.minimize(name, set, limits)
                        : variants.get(name).allocate(set, capacity, limits);
                String result;
                if (heuristic) {
                    result = !a.solved() ? "gave up" : a.placement().height() <= capacity ? "fits" : "exceeds";
                } else {
                    result = a.solved() ? "solved" : a.status() == SolveStatus.INFEASIBLE ? "infeasible" : "gave up";
                }
                if (a.solved()) {
                    BufferChecker.requireValid(a.placement(), heuristic ? a.placement().height() : capacity, name);
                }
                rows.accept(new String[] {e.getKey(), Integer.toString(set.size()), Long.toString(capacity), name,
                    result, String.format(Locale.ROOT, "%.2f", a.seconds()),
                    a.solved() ? Long.toString(a.placement().height()) : "-"});
            }
        }
    }
}
