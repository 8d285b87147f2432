package dev.memplan.cli;

import dev.memplan.baselines.replacement.Schemes;
import dev.memplan.datasets.zoo.Zoo;
import dev.memplan.sweeps.PlannerChoice;
import dev.memplan.sweeps.ResultRow;
import dev.memplan.sweeps.SpecBuilder;
import dev.memplan.sweeps.figures.CosmaRows;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code memplan bench cosma}: COSMA on the zoo at M_R, M_H, M_P (issue "COSMA at scale"). Human-designed
 * networks with a free schedule in both tensor settings; NAS networks (activations) with the schedule fixed to
 * the default order and to the minimum-peak order, as the paper's Table II. Each case starts from the best of
 * the paper's schemes (on the same schedule when it is fixed) and gets its own time limit; every plan is
 * checked. It runs the sweep spec {@code bench-cosma} (the schemes are cases too: their best is the "start"
 * column); rows are printed and the CSV and Markdown files rewritten as they finish.
 */
@Command(name = "cosma", mixinStandardHelpOptions = true,
        description = {"COSMA on zoo networks x budgets: status, traffic, bound, gap, time, model size, encoding and",
            "back-end per case; CSV and Markdown written as rows finish. Runs the sweep spec bench-cosma."})
final class BenchCosma extends CommandBase.Bench {
    @Mixin
    ZooAxes axes;

    @Option(names = "--markdown", paramLabel = "OUT.md", description = "also write the table as Markdown")
    Path markdown;

    @Mixin
    SolverOptions solverOptions;

    @Mixin
    BenchSweep sweep;

    @Override
    Integer run(Path csv, PrintWriter out) {
        Outputs.check(markdown, "--markdown", false);
        sweep.check();
        List<String> nets = axes.networks(null);
        List<String> human = nets.stream().filter(n -> !Zoo.entry(n).nas()).toList();
        List<String> nas = nets.stream().filter(n -> Zoo.entry(n).nas()).toList();
        List<PlannerChoice> planners = new ArrayList<>(Schemes.PAPER.stream().map(PlannerChoice::scheme).toList());
        for (String schedule : List.of("free", "default", "mpmf")) {
            planners.add(solverOptions.cosmaPlanner(Map.of("schedule", schedule)));
        }
        SpecBuilder builder = solverOptions.solverAxes(new SpecBuilder("bench-cosma").graphs(nets)
                .settings(axes.settings.contains("activations") ? axes.settings
                        : concat(axes.settings, List.of("activations")))
                .budgets(axes.budgets).planners(planners));
        if (!nas.isEmpty()) {
            builder.exclude(Map.of("graph", nas, "setting", List.of("all")));
            builder.exclude(Map.of("graph", nas, "planner", List.of("cosma")));
        }
        if (!human.isEmpty()) {
            builder.exclude(Map.of("graph", human, "planner", List.of("cosma[*schedule=*")));
            if (!axes.settings.contains("activations")) {
                builder.exclude(Map.of("graph", human, "setting", List.of("activations")));
            }
        }
        String[] header = CosmaRows.header();
        out.println(String.join("  ", header));
        CosmaRows lines = new CosmaRows(solverOptions.encodingLabel());
        Table progressive = new Table(header);
        Map<String, ResultRow> rows = sweep.run(builder.build(), err(), r -> {
            for (String[] line : lines.add(r)) {
                progressive.row(line);
                out.println(String.join("  ", line));
                out.flush();
                progressive.writeCsv(csv);
                if (markdown != null) {
                    progressive.writeMarkdown(markdown);
                }
            }
        });
        Table table = new Table(header);
        lines.lines(List.copyOf(rows.values()), nets, axes.settings, axes.budgets).forEach(table::row);
        table.writeCsv(csv);
        if (markdown != null) {
            table.writeMarkdown(markdown);
        }
        out.println();
        table.print(out);
        out.println("every plan checked: VALID; wrote " + csv + (markdown == null ? "" : " and " + markdown));
        return 0;
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }
}
