package dev.memplan.cli;

import dev.memplan.sweeps.ResultRow;
import dev.memplan.sweeps.bench.ZooSpecs;
import dev.memplan.sweeps.figures.CosmaRows;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code memplan bench cosma}: COSMA on the zoo at M_R, M_H, M_P (issue "COSMA at scale"), as the paper's Table II:
 * the sweep spec {@code bench-cosma} ({@link ZooSpecs#cosma}); each case starts from the best of the paper's
 * schemes (the "start" column) and gets its own time limit; every plan is checked. Rows are printed and the CSV and
 * Markdown files rewritten as they finish.
 */
@Command(name = "cosma", mixinStandardHelpOptions = true,
        description = {"COSMA on zoo networks x budgets: status, traffic, bound, gap, time, model size, encoding and",
            "back-end per case; CSV and Markdown written as rows finish. Runs the sweep spec bench-cosma."})
final class BenchCosma extends CommandBase.Bench {
    @Option(names = "--markdown", paramLabel = "OUT.md", description = "also write the table as Markdown")
    Path markdown;

    @Mixin
    BenchSweep sweep;

    @Override
    Integer run(Path csv, PrintWriter out) {
        Outputs.check(markdown, "--markdown", false);
        sweep.check();
        ZooAxes axes = sweep.axes;
        List<String> nets = axes.networks(null);
        CosmaRows lines = new CosmaRows(sweep.solverOptions.solveCase().encodingLabel());
        Map<String, ResultRow> rows = sweep.run(ZooSpecs.cosma(nets, axes.settings, axes.budgets.list,
                schedule -> sweep.solverOptions.solveCase().planner(Map.of("schedule", schedule))), CosmaRows.header(),
                lines::add, csv, markdown, out, err());
        BenchSweep.finish(CosmaRows.header(), lines.lines(List.copyOf(rows.values()), nets, axes.settings,
                axes.budgets.list), csv, markdown, out);
        return 0;
    }
}
