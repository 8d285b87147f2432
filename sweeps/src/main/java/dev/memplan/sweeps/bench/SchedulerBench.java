package dev.memplan.sweeps.bench;

import dev.memplan.baselines.scheduling.MinimumPeakScheduler;
import dev.memplan.baselines.scheduling.ScheduleResult;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.TensorSetting;
import dev.memplan.sweeps.GraphSources;
import java.io.PrintWriter;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * The minimum-peak scheduler at pinned beam widths (the orders the mpmf schemes and the restarts use): the peak,
 * the bound with its proof, the status, a hash of the order (the same hash, the same order: a speed-up must not
 * change it) and the median time of fresh schedulers (the first run in this JVM is untimed, for the JIT).
 */
public final class SchedulerBench {
    public static final String[] HEADER = {"graph", "operators", "width", "peak", "bound", "status", "order hash",
        "median s"};

    /** The graphs (files or names), the pinned beam widths, the tensor setting and the timed runs per case. */
    public record Spec(List<String> graphs, List<Integer> widths, TensorSetting setting, int repeats) {
        public Spec {
            Bounds.check(repeats, 1, Bounds.MAX_REPEATS, "--repeats", "");
            widths = Bounds.each(widths, 1, Bounds.MAX_BEAM, "--widths", "beam widths ");
            graphs = List.copyOf(graphs);
        }
    }

    private SchedulerBench() {
    }

    /** Hands a row per graph and width to {@code rows}; says on {@code err} which case starts. */
    public static void run(Spec spec, Consumer<String[]> rows, PrintWriter err) {
        for (String name : spec.graphs()) {
            Graph g = GraphSources.graph(name).withSetting(spec.setting());
            for (int w : spec.widths()) {
                err.println(name + " width " + w + " ...");
                err.flush();
                ScheduleResult r = MinimumPeakScheduler.pinned(w, Backend.CPSAT).schedule(g, Limits.DEFAULT);
                double[] seconds = new double[spec.repeats()];
                for (int k = 0; k < spec.repeats(); k++) {
                    long began = System.nanoTime();
                    ScheduleResult again = MinimumPeakScheduler.pinned(w, Backend.CPSAT).schedule(g, Limits.DEFAULT);
                    seconds[k] = (System.nanoTime() - began) / 1e9;
                    if (!again.schedule().equals(r.schedule()) || again.bound() != r.bound()) {
                        throw new IllegalStateException("bug: the scheduler at width " + w + " gave another order"
                                + " or bound on " + name + " in a second run");
                    }
                }
                Arrays.sort(seconds);
                rows.accept(new String[] {name, Integer.toString(g.operatorCount()), Integer.toString(w),
                    Long.toString(r.peak()), Long.toString(r.bound()), r.status().toString(),
                    String.format("%08x", r.schedule().operators().hashCode()),
                    String.format("%.3f", seconds[spec.repeats() / 2])});
            }
        }
    }
}
