package dev.memplan.cli;

import dev.memplan.sweeps.PlannerChoice;
import dev.memplan.sweeps.ResultRow;
import dev.memplan.sweeps.SpecBuilder;
import dev.memplan.sweeps.SweepSpec;
import dev.memplan.sweeps.figures.ComparisonRows;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code memplan bench compare}: the paper's comparison (Fig. 3) over zoo networks x axes.budgets x tensor settings:
 * the non-compulsory traffic of each scheme and of COSMA (started from the best scheme, time-limited), every
 * plan checked. It runs the sweep spec {@code bench-compare} (with the axes its options give) and prints a row per
 * network, setting and budget as soon as its cases are done; the CSV is rewritten then, so an interrupted run keeps
 * them ({@code --db} keeps every case and resumes).
 */
@Command(name = "compare", mixinStandardHelpOptions = true,
        description = {"COSMA against the comparison schemes over zoo networks x budgets (M_R, M_H, M_P) x settings;",
            "prints a row per case as it finishes and writes them to a CSV as it goes. Runs the sweep spec",
            "bench-compare ('memplan sweep --builtin bench-compare --print-spec')."})
final class BenchCompare extends CommandBase.Bench {
    @Mixin
    ZooAxes axes;

    @Mixin
    PlannerOptions choice;

    @Mixin
    SolverOptions solverOptions;

    @Mixin
    BenchSweep sweep;

    @Override
    Integer run(Path csv, PrintWriter out) {
        sweep.check();
        List<String> nets = axes.networks(false);
        List<String> schemeNames = choice.schemeNames();
        Inputs.schemes(schemeNames, new dev.memplan.baselines.scheduling.MinimumPeakScheduler());
        List<PlannerChoice> planners = new ArrayList<>(schemeNames.stream().map(PlannerChoice::scheme).toList());
        if (!choice.noCosma) {
            planners.add(solverOptions.cosmaPlanner(Map.<String, String>of()));
        }
        SweepSpec sweepSpec = solverOptions.solverAxes(new SpecBuilder("bench-compare").graphs(nets)
                .settings(axes.settings).budgets(axes.budgets).planners(planners)).build();

        ComparisonRows table = new ComparisonRows(nets, axes.settings, axes.budgets, schemeNames, !choice.noCosma);
        out.println(String.join("  ", table.header()));
        // A line is printed when all the planners of its network, setting and budget are done.
        Table progressive = new Table(table.header());
        Map<String, ResultRow> rows = sweep.run(sweepSpec, err(), r -> {
            String[] line = table.add(r);
            if (line != null) {
                progressive.row(line);
                out.println(String.join("  ", line));
                out.flush();
                progressive.writeCsv(csv);
            }
        });
        rows.values().forEach(table::add);
        Table all = new Table(table.header());
        table.lines().forEach(all::row);
        all.writeCsv(csv);
        out.println();
        all.print(out);
        out.println("every plan checked: VALID; wrote " + csv);
        return 0;
    }
}
