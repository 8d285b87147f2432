package dev.memplan.cli;

import dev.memplan.sweeps.ResultRow;
import dev.memplan.sweeps.SpecBuilder;
import dev.memplan.sweeps.SweepSpec;
import dev.memplan.sweeps.figures.TextTable;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * What {@code bench compare} and {@code bench cosma} share: they build a sweep spec from their options
 * ({@code sweeps.bench.ZooSpecs}) and run it through the sweep machinery (the same cases, rows and checks as
 * {@code memplan sweep}), then lay the rows out as their tables. With {@code --db} the rows persist and a re-run
 * resumes.
 */
final class BenchSweep {
    @Mixin
    ZooAxes axes;

    @Mixin
    SolverOptions solverOptions;

    @Option(names = "--db", paramLabel = "FILE",
            description = "keep the rows in this results database (DuckDB); a re-run skips the cases in it (default: "
                    + "in memory)")
    Path db;

    @Option(names = "--jobs", defaultValue = "1", paramLabel = "N", description = "cases side by side (default: ${DEFAULT-VALUE})")
    int jobs;

    @Option(names = "--plans", paramLabel = "DIR",
            description = "also write each plan (memplan-plan/1) as DIR/NETWORK-SETTING-BUDGET-PLANNER-KEY.json, to "
                    + "check with 'memplan check NETWORK PLAN'")
    Path plans;

    /** Checks --jobs and --plans before any work. */
    void check() {
        Outputs.checkFolder(plans, "--plans");
        if (jobs < 1) {
            throw new UserException("--jobs must be >= 1, got " + jobs);
        }
    }

    /**
     * Runs the spec (with this command line's solver axes), printing {@code header} first and then each line that
     * {@code lines} makes of a stored row, as it comes, the CSV (and the Markdown, unless null) rewritten then;
     * returns the rows of all its cases by case key.
     */
    Map<String, ResultRow> run(SpecBuilder spec, String[] header, Function<ResultRow, List<String[]>> lines, Path csv,
            Path markdown, PrintWriter out, PrintWriter err) {
        SweepSpec built = solverOptions.solveCase().solverAxes(spec).build();
        out.println(String.join("  ", header));
        Consumer<String[]> sink = new TextTable(header).sink(csv, markdown, out);
        return SpecBuilder.run(built, db, plans, jobs, err, r -> lines.apply(r).forEach(sink));
    }

    /** The whole table, written (CSV, Markdown unless null) and printed after a blank line, every plan checked. */
    static void finish(String[] header, List<String[]> lines, Path csv, Path markdown, PrintWriter out) {
        TextTable table = new TextTable(header);
        lines.forEach(table::row);
        table.write(csv, markdown);
        out.println();
        table.print(out);
        out.println("every plan checked: VALID; wrote " + csv + (markdown == null ? "" : " and " + markdown));
    }
}
