package dev.memplan.cli;

import dev.memplan.baselines.scheduling.MinimumPeakScheduler;
import dev.memplan.baselines.scheduling.ScheduleResult;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.TensorSetting;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code memplan bench scheduler}: the minimum-peak scheduler at pinned beam widths (the orders the mpmf schemes and
 * the restarts use): the peak, the bound with its proof, the status, a hash of the order (the same hash, the same
 * order: a speed-up must not change it) and the median time of fresh schedulers (the first run in this JVM is
 * untimed, for the JIT).
 */
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
        if (repeats < 1) {
            throw new UserException("--repeats must be >= 1 (a median needs a run), got " + repeats);
        }
        for (int w : widths) {
            if (w < 1) {
                throw new UserException("--widths must be beam widths >= 1, got " + w);
            }
        }
        TensorSetting s = setting.or(TensorSetting.ACTIVATIONS);
        PrintWriter err = err();
        Table table = new Table("graph", "operators", "width", "peak", "bound", "status", "order hash", "median s");
        for (String name : graphs) {
            Graph g = Inputs.graph(name).withSetting(s);
            for (int w : widths) {
                err.println(name + " width " + w + " ...");
                err.flush();
                ScheduleResult r = MinimumPeakScheduler.pinned(w, Backend.CPSAT).schedule(g, Limits.DEFAULT);
                double[] seconds = new double[repeats];
                for (int k = 0; k < repeats; k++) {
                    long began = System.nanoTime();
                    ScheduleResult again = MinimumPeakScheduler.pinned(w, Backend.CPSAT).schedule(g, Limits.DEFAULT);
                    seconds[k] = (System.nanoTime() - began) / 1e9;
                    if (!again.schedule().equals(r.schedule()) || again.bound() != r.bound()) {
                        throw new IllegalStateException("bug: the scheduler at width " + w + " gave another order"
                                + " or bound on " + name + " in a second run");
                    }
                }
                Arrays.sort(seconds);
                table.row(name, Integer.toString(g.operatorCount()), Integer.toString(w), Long.toString(r.peak()),
                        Long.toString(r.bound()), r.status().toString(),
                        String.format("%08x", r.schedule().operators().hashCode()),
                        String.format("%.3f", seconds[repeats / 2]));
                table.writeCsv(csv);
            }
        }
        table.print(out);
        out.println("wrote " + csv);
        return 0;
    }
}
