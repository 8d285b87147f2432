package dev.memplan.cli;

import dev.memplan.baselines.mmap.MmapPlanners;
import dev.memplan.sweeps.bench.MmapBench;
import dev.memplan.sweeps.figures.TextTable;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code memplan bench mmap}: every planner of the two-level memory mapping problem on every zoo-derived instance
 * and on generated programs of growing size; each reward as a fraction of the best bound (the exact program's
 * proven optimum, or its bound when the time limit stopped it).
 */
@Command(name = "mmap", mixinStandardHelpOptions = true,
        description = "Two-level memory mapping: reward and gap to the bound per planner per instance.")
final class BenchMmap extends CommandBase.Bench {
    @Option(names = "--networks", split = ",", paramLabel = "N1,...",
            description = "zoo networks (default: all; 'none' for none)")
    List<String> networks;

    @Option(names = "--random", split = ",", paramLabel = "N1,...", defaultValue = "100,1000,10000",
            description = "generated programs of these many buffers (default: ${DEFAULT-VALUE}; 'none' for none)")
    List<String> random;

    @Option(names = "--time-limit", paramLabel = "SECONDS", defaultValue = "30",
            description = "wall time per instance, all planners together (default: ${DEFAULT-VALUE})")
    double timeLimit;

    @Option(names = "--seed", defaultValue = "1", description = "seed of the generated programs and the players (default: ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--simulations", paramLabel = "N", defaultValue = "128", description = "MCTS simulations per move (default: ${DEFAULT-VALUE})")
    int simulations;

    @Option(names = "--markdown", paramLabel = "OUT.md", description = "also write the table as Markdown")
    Path markdown;

    @Override
    Integer run(Path csv, PrintWriter out) {
        MmapBench.Spec spec = MmapBench.Spec.of(networks, random, timeLimit, seed, simulations);
        TextTable table = new TextTable(MmapPlanners.HEADER);
        MmapBench.run(spec, rows -> {
            rows.forEach(table::row);
            table.write(csv, null);
        }, err()::println);
        table.print(out);
        out.println("wrote " + csv);
        if (markdown != null) {
            table.write(csv, markdown);
            out.println("wrote " + markdown);
        }
        return 0;
    }
}
