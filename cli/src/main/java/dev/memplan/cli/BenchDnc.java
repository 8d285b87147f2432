package dev.memplan.cli;

import dev.memplan.decomposition.DivideAndConquer;
import dev.memplan.decomposition.Heartbeat;
import dev.memplan.formulations.cosma.CosmaObjective;
import dev.memplan.model.TensorSetting;
import dev.memplan.sweeps.SolveCase;
import dev.memplan.sweeps.bench.DncBench;
import dev.memplan.sweeps.figures.TextTable;
import java.io.PrintWriter;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code memplan bench dnc}: divide and conquer on graphs x budgets ({@link DncBench}); rows printed as they finish. */
@Command(name = "dnc", mixinStandardHelpOptions = true,
        description = {"Divide and conquer on graphs x budgets (free schedule): FS(default), FS(MPMF), each stage,",
            "final traffic, bound, gap, time, peak heap; CSV written as rows finish."})
final class BenchDnc extends CommandBase.PipelineBench {
    @Mixin
    BudgetsOption budgets;

    @Option(names = "--max-part", paramLabel = "N", defaultValue = "" + DivideAndConquer.DEFAULT_MAX_PART,
            description = "most operators per part (default: ${DEFAULT-VALUE})")
    int maxPart;

    @Option(names = "--large-beam", paramLabel = "W", defaultValue = "256",
            description = {"minimum-peak beam width (for M_P, M_H) on graphs above "
                + DivideAndConquer.WHOLE_GRAPH_LIMIT + " operators; the default 4,096", "takes minutes at 5,000 "
                + "operators (default: ${DEFAULT-VALUE})"})
    int largeBeam;

    @Override
    Integer run(Path csv, PrintWriter out) {
        SolveCase c = solverOptions.solveCase();
        DncBench.Spec spec = new DncBench.Spec(graphs, budgets.list, setting.or(TensorSetting.ACTIVATIONS), maxPart,
                largeBeam, c.cosma(CosmaObjective.TRAFFIC, null, null), c.backend(), c::limits);
        TextTable.live(DncBench.HEADER, csv, out, rows -> DncBench.run(spec, rows, err(), new Heartbeat(err())));
        out.println("every plan checked: VALID; wrote " + csv + "; process peak RSS " + DncBench.peakRssMb() + " MB");
        return 0;
    }
}
