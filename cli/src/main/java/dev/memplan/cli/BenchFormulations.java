package dev.memplan.cli;

import dev.memplan.model.LimitValues;
import dev.memplan.model.TensorSetting;
import dev.memplan.sweeps.bench.FormulationsBench;
import dev.memplan.sweeps.figures.TextTable;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code memplan bench formulations}: COSMA per graph, budget and back-end ({@link FormulationsBench}). Each
 * finished case is in the CSV at once (an interrupted run keeps what it finished) and reported on stderr.
 */
@Command(name = "formulations", mixinStandardHelpOptions = true,
        description = "Runs COSMA on the examples and seeded random graphs at M_R, M_H and M_P with each back-end.")
final class BenchFormulations extends CommandBase.Bench {
    @Option(names = "--backends", split = ",", defaultValue = "scip,cpsat,cbc,highs",
            description = "back-ends (default: ${DEFAULT-VALUE})")
    List<String> backends;

    @Option(names = "--random", split = ",", defaultValue = "10,16,24",
            description = "operator counts of seeded random layered graphs (default: ${DEFAULT-VALUE})")
    List<Integer> random;

    @Mixin
    SettingOption setting;

    @Option(names = "--time-limit", defaultValue = "60", description = "seconds per case (default: ${DEFAULT-VALUE})")
    double timeLimit;

    @Override
    Integer run(Path csv, PrintWriter out) {
        // Per solve: each gets its own budget of the limit.
        FormulationsBench.Spec spec = new FormulationsBench.Spec(FormulationsBench.Spec.backends(backends), random,
                setting.or(TensorSetting.ALL), UserException.of(() -> LimitValues.wall(timeLimit, "--time-limit")));
        TextTable table = new TextTable(FormulationsBench.HEADER);
        table.write(csv, null);
        FormulationsBench.run(spec, table.sink(csv, null, null).andThen(row -> {
            err().println("bench: " + String.join(" ", row));
            err().flush();
        }));
        table.print(out);
        out.println("(* = the starting plan; ~ = M_P not proven, best known value)");
        out.println("wrote " + csv);
        return 0;
    }
}
