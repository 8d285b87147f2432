package dev.memplan.cli;

import dev.memplan.model.LimitValues;
import dev.memplan.sweeps.bench.AllocatorsBench;
import dev.memplan.sweeps.bench.ScaleBench;
import dev.memplan.sweeps.figures.TextTable;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code memplan bench allocators}: every allocator on MiniMalloc's challenging instances and seeded random sets
 * ({@link AllocatorsBench}), or with --scale on generated traces, each run in its own JVM ({@link ScaleBench}).
 * Rows are printed and the CSV rewritten as they finish.
 */
@Command(name = "allocators", mixinStandardHelpOptions = true,
        description = {"Runs the allocators on MiniMalloc's challenging suite and seeded random buffer sets; prints",
            "status, time and height per instance and writes a CSV as it goes."})
final class BenchAllocators extends CommandBase.Bench {
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

    @Override
    Integer run(Path csv, PrintWriter out) {
        AllocatorsBench.Spec spec = new AllocatorsBench.Spec(allocators, instances, random,
                UserException.of(() -> LimitValues.wall(timeLimit, "--time-limit")),
                UserException.of(() -> LimitValues.threads(threads, "--threads")), ablations);
        if (scale) {
            ScaleBench.Spec scaled = new ScaleBench.Spec(spec.allocators(), sizes, timeLimit, Main.class.getName());
            TextTable t = new TextTable(ScaleBench.HEADER);
            ScaleBench.run(scaled, t.sink(csv, null, out), line -> {
                out.println(line);
                out.flush();
            });
            out.println();
            t.print(out);
            out.println("wrote " + csv);
            return 0;
        }
        TextTable.live(AllocatorsBench.HEADER, csv, out, rows -> AllocatorsBench.run(spec, rows));
        out.println("every placement checked; wrote " + csv);
        return 0;
    }
}
