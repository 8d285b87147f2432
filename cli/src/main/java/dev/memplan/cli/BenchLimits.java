package dev.memplan.cli;

import dev.memplan.sweeps.bench.LimitsBench;
import dev.memplan.sweeps.figures.TextTable;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code memplan bench limits}: whether --time-limit and the default heap hold as a user sees them, each case the
 * real {@code memplan solve} in a child JVM ({@link LimitsBench}). A case whose arguments memplan refused makes it
 * end with exit 2, after the table, which has each failed child's first error line.
 */
@Command(name = "limits", mixinStandardHelpOptions = true,
        description = {"Runs 'memplan solve GRAPH --budget B --time-limit L --out FILE' in a child JVM per case and",
            "measures wall time (JVM start included) against the limit and peak resident memory (VmHWM)."})
final class BenchLimits extends CommandBase.Bench {
    @Option(names = "--graphs", split = ",", paramLabel = "G1,...",
            description = "graphs (default: every zoo network, then gen:layered:2000, gen:layered:5000, gen:layered:20000)")
    List<String> graphs;

    @Option(names = "--limits", split = ",", defaultValue = "5,20,120", paramLabel = "S1,...",
            description = "time limits in seconds (default: ${DEFAULT-VALUE})")
    List<Double> limits;

    @Option(names = "--budget", defaultValue = "M_H", paramLabel = "M_R|M_H|M_P|BYTES",
            description = "budget (default: ${DEFAULT-VALUE})")
    String budget;

    @Option(names = "--java-opts", defaultValue = "-Xmx3g", paramLabel = "OPTS",
            description = "JVM options of each child, as the launcher's default (default: ${DEFAULT-VALUE})")
    String javaOpts;

    @Option(names = "--solve-args", paramLabel = "ARGS", defaultValue = "",
            description = "more arguments for each solve, e.g. '--decompose none' or '--setting all' (default: none)")
    String solveArgs;

    @Override
    List<String> inputs() {
        return graphs;
    }

    @Override
    Integer run(Path csv, PrintWriter out) throws IOException {
        LimitsBench.Spec spec = new LimitsBench.Spec(graphs, limits, budget, javaOpts, solveArgs, Main.class.getName());
        Path dir = Files.createTempDirectory("memplan-bench-limits");
        String[] refused = new String[1];
        try {
            TextTable.live(LimitsBench.HEADER, csv, out, rows -> refused[0] = LimitsBench.run(spec, dir, rows, err()));
        } finally {
            Files.deleteIfExists(dir.resolve("plan.json"));
            Files.deleteIfExists(dir);
        }
        out.println("wrote " + csv);
        if (refused[0] != null) {
            throw new UserException("a case's arguments were refused (exit 2): " + refused[0]);
        }
        return 0;
    }
}
