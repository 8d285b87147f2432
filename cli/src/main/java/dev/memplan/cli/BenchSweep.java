package dev.memplan.cli;

import dev.memplan.sweeps.ResultRow;
import dev.memplan.sweeps.SpecBuilder;
import dev.memplan.sweeps.SweepSpec;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Consumer;
import picocli.CommandLine.Option;

/**
 * What {@code bench compare} and {@code bench cosma} share: they build a sweep spec from their options
 * ({@link SpecBuilder}) and run it through the sweep machinery (the same cases, rows and checks as
 * {@code memplan sweep}), then lay the rows out as their tables. With {@code --db} the rows persist and a re-run
 * resumes.
 */
final class BenchSweep {
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

    /** Runs the spec; {@code onRow} sees each row as it is stored; the rows of all its cases by case key. */
    Map<String, ResultRow> run(SweepSpec spec, PrintWriter err, Consumer<ResultRow> onRow) {
        return SpecBuilder.run(spec, db, plans, jobs, err, onRow);
    }
}
