package dev.memplan.cli;

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
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code memplan bench allocators}: every allocator on MiniMalloc's eleven challenging instances (capacity
 * 1,048,576) and on seeded random sets, with a per-instance time limit. Exact allocators report solved /
 * infeasible / gave up and the time; heuristics report the height they reach (with no capacity). Each
 * placement is checked. Rows are printed and the CSV rewritten as they finish.
 */
@Command(name = "allocators", mixinStandardHelpOptions = true,
        description = {"Runs the allocators on MiniMalloc's challenging suite and seeded random buffer sets; prints",
            "status, time and height per instance and writes a CSV as it goes."})
final class BenchAllocators implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--allocators", split = ",", paramLabel = "A1,...", description = "allocators (default: all)")
    List<String> allocators;

    @Option(names = "--instances", split = ",", paramLabel = "A,B,...",
            description = "challenging instances (default: A..K)")
    List<String> instances;

    @Option(names = "--random", defaultValue = "5", paramLabel = "N",
            description = "seeded random sets (200 buffers, zero slack) (default: ${DEFAULT-VALUE})")
    int random;

    @Option(names = "--time-limit", defaultValue = "60", paramLabel = "SECONDS",
            description = "per allocator and instance (default: ${DEFAULT-VALUE})")
    double timeLimit;

    @Option(names = "--threads", defaultValue = "1", paramLabel = "N", description = "threads (default: ${DEFAULT-VALUE})")
    int threads;

    @Option(names = "--ablations", description = {"also run MiniMalloc with each technique of MiniMallocOptions turned off,",
        "one at a time (rows minimalloc-no-<technique>), to show what each buys"})
    boolean ablations;

    @Option(names = "--scale", description = {"instead: each allocator minimising the height of generated training-step",
        "traces (gen:trace:N) of --sizes buffers, each run in its own JVM (3 GB heap) so that its peak RSS is its own;",
        "prints height / L, wall time and peak RSS"})
    boolean scale;

    @Option(names = "--sizes", split = ",", paramLabel = "N1,...", defaultValue = "10000,50000,100000",
            description = "trace sizes for --scale (default: ${DEFAULT-VALUE})")
    List<Integer> sizes;

    @Mixin
    BenchCsv csvOption;

    @Override
    public Integer call() {
        Path csv = csvOption.checked();
        PrintWriter out = spec.commandLine().getOut();
        List<String> names = allocators == null ? Allocators.NAMES : allocators;
        for (String n : names) {
            if (!Allocators.NAMES.contains(n)) {
                throw new UserException("unknown allocator '" + n + "'; allocators: " + String.join(", ", Allocators.NAMES));
            }
        }
        Duration limit = Inputs.timeLimit(timeLimit, "--time-limit");
        Inputs.threads(threads, "--threads");
        if (random < 0) {
            throw new UserException("--random must be a number of random sets >= 0, got " + random);
        }
        if (scale) {
            return new BenchScale(out, csv, names, sizes, timeLimit).run();
        }
        Map<String, BufferSet> sets = new LinkedHashMap<>();
        for (String i : instances == null ? MiniMallocSuite.challengingNames() : instances) {
            try {
                sets.put(i, MiniMallocSuite.challenging(i));
            } catch (IllegalArgumentException e) {
                throw new UserException(e.getMessage());
            }
        }
        for (int seed = 1; seed <= random; seed++) {
            sets.put("random-" + seed, RandomBuffers.generate(seed, 200, 2000, 200, 4096, 1, 0.0));
        }
        Table t = new Table("instance", "buffers", "capacity", "allocator", "result", "seconds", "height");
        out.println(String.join("  ", List.of("instance", "buffers", "capacity", "allocator", "result", "seconds", "height")));
        Map<String, Allocator> variants = new LinkedHashMap<>();
        for (String name : names) {
            variants.put(name, Allocators.byName(name));
        }
        if (ablations) {
            MiniMallocOptions on = MiniMallocOptions.DEFAULT;
            variants.put("minimalloc-no-canonical", new MiniMallocAllocator(on.withCanonicalOnly(false)));
            variants.put("minimalloc-no-section-inference", new MiniMallocAllocator(on.withSectionInference(false)));
            variants.put("minimalloc-no-monotonic-floor", new MiniMallocAllocator(on.withMonotonicFloor(false)));
            variants.put("minimalloc-no-unallocated-floor", new MiniMallocAllocator(on.withUnallocatedFloor(false)));
            variants.put("minimalloc-no-dominance", new MiniMallocAllocator(on.withDominance(false)));
            variants.put("minimalloc-no-dynamic-ordering", new MiniMallocAllocator(on.withDynamicOrdering(false)));
            variants.put("minimalloc-no-preordering", new MiniMallocAllocator(on.withStaticPreordering(false)));
            variants.put("minimalloc-no-restarts", new MiniMallocAllocator(on.withRestarts(false)));
            variants.put("minimalloc-no-decomposition", new MiniMallocAllocator(on.withDynamicDecomposition(false)));
        }
        for (Map.Entry<String, BufferSet> e : sets.entrySet()) {
            BufferSet set = e.getValue();
            long capacity = set.capacity();
            for (String name : variants.keySet()) {
                List<String> row = new ArrayList<>(List.of(e.getKey(), Integer.toString(set.size()), Long.toString(capacity),
                        name));
                Allocation a;
                boolean heuristic = Allocators.NAMES.contains(name) && Allocators.heuristic(name);
                if (heuristic) {
                    a = Allocators.minimize(name, set, new Limits(limit, threads, 0.0, 0L));
                    row.add(!a.solved() ? "gave up" : a.placement().height() <= capacity ? "fits" : "exceeds");
                } else {
                    a = variants.get(name).allocate(set, capacity, new Limits(limit, threads, 0.0, 0L));
                    row.add(a.solved() ? "solved" : a.status() == SolveStatus.INFEASIBLE ? "infeasible" : "gave up");
                }
                if (a.solved()) {
                    BufferChecker.requireValid(a.placement(), heuristic ? a.placement().height() : capacity, name);
                }
                row.add(String.format(Locale.ROOT, "%.2f", a.seconds()));
                row.add(a.solved() ? Long.toString(a.placement().height()) : "-");
                t.row(row.toArray(new String[0]));
                out.println(String.join("  ", row));
                out.flush();
                t.writeCsv(csv);
            }
        }
        out.println();
        t.print(out);
        out.println("every placement checked; wrote " + csv);
        return 0;
    }
}
