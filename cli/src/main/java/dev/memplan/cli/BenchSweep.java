package dev.memplan.cli;

import dev.memplan.sweeps.ResultRow;
import dev.memplan.sweeps.ResultsDb;
import dev.memplan.sweeps.SweepCase;
import dev.memplan.sweeps.SweepEngine;
import dev.memplan.sweeps.SweepRun;
import dev.memplan.sweeps.SweepSpec;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import picocli.CommandLine.Option;

/**
 * What {@code bench compare} and {@code bench cosma} share: they write a sweep spec from their options and run it
 * through the sweep machinery (the same cases, rows and checks as {@code memplan sweep}), then lay the rows out as
 * their tables. With {@code --db} the rows persist and a re-run resumes.
 */
final class BenchSweep {
    @Option(names = "--db", paramLabel = "FILE",
            description = "keep the rows in this results database (DuckDB); a re-run skips the cases in it (default: "
                    + "in memory)")
    Path db;

    @Option(names = "--jobs", defaultValue = "1", paramLabel = "N", description = "cases side by side (default: ${DEFAULT-VALUE})")
    int jobs;

    /** YAML flow list of the names, each quoted. */
    static String list(List<String> names) {
        return names.stream().map(n -> "\"" + n.replace("\"", "\\\"") + "\"").collect(Collectors.joining(", ", "[", "]"));
    }

    /** The COSMA planner entry of a spec for these solver options, with extra options (e.g. "schedule: mpmf"). */
    static String cosma(SolverOptions o, String extra) {
        StringBuilder sb = new StringBuilder("{name: cosma, encoding: ").append(o.encoding);
        if (o.without != null && !o.without.isEmpty()) {
            sb.append(", without: ").append(list(o.without.stream().map(dev.memplan.formulations.cosma.Technique::id).toList()));
        }
        if (extra != null) {
            sb.append(", ").append(extra);
        }
        return sb.append("}").toString();
    }

    /** The axes the solver options fix: solver, time limit (and work limit), threads. */
    static String solverAxes(SolverOptions o) {
        o.limits();
        o.techniquesOff();
        return "solvers: [" + o.backend().id() + "]\ntime_limits: [" + (o.limit.timeLimit == null ? "none"
                : java.math.BigDecimal.valueOf(o.limit.timeLimit).toPlainString()) + "]\n"
                + (o.limit.workLimit == null ? "" : "work_limits: [" + SolverOptions.units(o.limit.workLimit) + "]\n")
                + "threads: [" + o.limit.threads + "]\n";
    }

    /**
     * Runs the spec; {@code onRow} sees each row as it is stored. Returns the rows by case key (all of the spec's
     * cases, including those found in the database).
     */
    Map<String, ResultRow> run(String specText, Path plans, PrintWriter err, Consumer<ResultRow> onRow) {
        if (jobs < 1) {
            throw new UserException("--jobs must be >= 1, got " + jobs);
        }
        SweepSpec spec = SweepSpec.parse(specText, "bench.yaml", Path.of("").toAbsolutePath());
        try (ResultsDb results = ResultsDb.open(db)) {
            SweepRun.run(spec, results, plans, SweepEngine.byName("local"), new SweepEngine.Options(jobs, null), err,
                    onRow);
            Map<String, ResultRow> byKey = new HashMap<>();
            for (ResultRow r : results.rows()) {
                byKey.put(r.caseKey(), r);
            }
            Map<String, ResultRow> mine = new HashMap<>();
            for (SweepCase c : spec.cases()) {
                mine.put(c.key(), byKey.get(c.key()));
            }
            return mine;
        }
    }

    /** A nullable number as text, "-" for none. */
    static String text(Long value) {
        return value == null ? "-" : Long.toString(value);
    }
}
