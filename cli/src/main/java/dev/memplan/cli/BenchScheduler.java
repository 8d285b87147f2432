package dev.memplan.cli;

import dev.memplan.model.TensorSetting;
import dev.memplan.sweeps.bench.SchedulerBench;
import dev.memplan.sweeps.figures.TextTable;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code memplan bench scheduler}: the minimum-peak scheduler at pinned beam widths ({@link SchedulerBench}). */
@Command(name = "scheduler", mixinStandardHelpOptions = true,
        description = {"Times the minimum-peak scheduler at pinned beam widths: peak, bound, status, a hash of the",
            "order and the median time; prints a table and writes a CSV."})
final class BenchScheduler extends CommandBase.Bench {
    @Option(names = "--graphs", split = ",", paramLabel = "G1,...",
            defaultValue = "gen:cells:400:3,gen:cells:1000,amoebanet,nasnet,pnasnet,gen:cells:5000",
            description = "graphs (default: ${DEFAULT-VALUE})")
    List<String> graphs;

    @Option(names = "--widths", split = ",", paramLabel = "W1,...", defaultValue = "1,16,256,4096",
            description = "pinned beam widths (default: ${DEFAULT-VALUE})")
    List<Integer> widths;

    @Mixin
    SettingOption setting;

    @Option(names = "--repeats", defaultValue = "3", description = "timed runs per case (default: ${DEFAULT-VALUE})")
    int repeats;

    @Override
    List<String> inputs() {
        return graphs;
    }

    @Override
    Integer run(Path csv, PrintWriter out) {
        SchedulerBench.Spec spec = new SchedulerBench.Spec(graphs, widths, setting.or(TensorSetting.ACTIVATIONS), repeats);
        TextTable table = new TextTable(SchedulerBench.HEADER);
        SchedulerBench.run(spec, table.sink(csv, null, null), err());
        table.print(out);
        out.println("wrote " + csv);
        return 0;
    }
}
