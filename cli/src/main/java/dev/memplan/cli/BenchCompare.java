package dev.memplan.cli;

import dev.memplan.sweeps.bench.ZooSpecs;
import dev.memplan.sweeps.figures.ComparisonRows;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code memplan bench compare}: the paper's comparison (Fig. 3) over zoo networks x budgets x tensor settings: the
 * non-compulsory traffic of each scheme and of COSMA (started from the best scheme, time-limited), every plan
 * checked. It runs the sweep spec {@code bench-compare} ({@link ZooSpecs#compare}) and prints a row per network,
 * setting and budget as soon as its cases are done; the CSV is rewritten then, so an interrupted run keeps them
 * ({@code --db} keeps every case and resumes).
 */
@Command(name = "compare", mixinStandardHelpOptions = true,
        description = {"COSMA against the comparison schemes over zoo networks x budgets (M_R, M_H, M_P) x settings;",
            "prints a row per case as it finishes and writes them to a CSV as it goes. Runs the sweep spec",
            "bench-compare ('memplan sweep --builtin bench-compare --print-spec')."})
final class BenchCompare extends CommandBase.Bench {
    @Mixin
    PlannerOptions choice;

    @Mixin
    BenchSweep sweep;

    @Override
    Integer run(Path csv, PrintWriter out) {
        sweep.check();
        ZooAxes axes = sweep.axes;
        List<String> nets = axes.networks(false);
        List<String> schemes = choice.schemeNames();
        Inputs.schemes(schemes, new dev.memplan.baselines.scheduling.MinimumPeakScheduler());
        ComparisonRows table = new ComparisonRows(nets, axes.settings, axes.budgets.list, schemes, !choice.noCosma);
        // A line is printed when all the planners of its network, setting and budget are done.
        sweep.run(ZooSpecs.compare(nets, axes.settings, axes.budgets.list, schemes, choice.noCosma ? null
                : sweep.solverOptions.solveCase().planner(Map.of())), table.header(), r -> {
                    String[] line = table.add(r);
                    return line == null ? List.of() : List.<String[]>of(line);
                }, csv, null, out, err()).values().forEach(table::add);
        BenchSweep.finish(table.header(), table.lines(), csv, null, out);
        return 0;
    }
}
