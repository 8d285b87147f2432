package dev.memplan.cli;

import dev.memplan.sweeps.bench.CheckerBench;
import dev.memplan.sweeps.figures.TextTable;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code memplan bench ...}: reproducible benchmarks that print a table and write it as CSV. */
@Command(name = "bench", mixinStandardHelpOptions = true, description = "Runs a benchmark; prints a table and writes a CSV.",
        subcommands = {BenchCommand.Checker.class, BenchFormulations.class, BenchCompare.class, BenchAllocators.class,
            BenchCosma.class, BenchDnc.class, BenchLimits.class, BenchImport.class, BenchMmap.class, BenchScheduler.class, BenchGaps.class})
final class BenchCommand extends CommandBase.Group {

    /** The plan checker's time on growing plans ({@link CheckerBench}). */
    @Command(name = "checker", mixinStandardHelpOptions = true,
            description = "Times the plan checker on growing random plans (median of repeats).")
    static final class Checker extends CommandBase.Bench {
        @Option(names = "--sizes", split = ",", defaultValue = "1000,4000,16000,64000",
                description = "operator counts (default: ${DEFAULT-VALUE})")
        List<Integer> sizes;

        @Option(names = "--window", defaultValue = "50",
                description = "operators read tensors of the last WINDOW operators: more live tensors (default: ${DEFAULT-VALUE})")
        int window;

        @Option(names = "--repeats", defaultValue = "5", description = "timed runs per size (default: ${DEFAULT-VALUE})")
        int repeats;

        @Option(names = "--seed", defaultValue = "1", description = "random seed (default: ${DEFAULT-VALUE})")
        long seed;

        @Override
        Integer run(Path csv, PrintWriter out) {
            CheckerBench.Spec spec = new CheckerBench.Spec(sizes, window, repeats, seed);
            TextTable table = new TextTable(CheckerBench.HEADER);
            CheckerBench.run(spec, table.sink(csv, null, null));
            table.write(csv, null);
            table.print(out);
            out.println("wrote " + csv);
            return 0;
        }
    }
}
