package dev.memplan.cli;

import dev.memplan.sweeps.ResultsDb;
import dev.memplan.sweeps.SweepEngine;
import dev.memplan.sweeps.SweepRun;
import dev.memplan.sweeps.SweepSpec;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code memplan sweep SPEC}: runs a sweep spec's cases into a DuckDB results database, skipping the cases already
 * there, on the local pool or another engine; {@code memplan sweep export DB} writes the table as CSV or Parquet.
 */
@Command(name = "sweep", mixinStandardHelpOptions = true,
        description = {"Runs the cases of a sweep spec (YAML or JSON; docs/sweeps.md) into a results database, one row",
            "per case, every plan written and checked. A re-run skips the cases already in the database, so an",
            "interrupted sweep resumes; progress on stderr."},
        subcommands = {SweepCommand.Export.class})
final class SweepCommand extends CommandBase {
    @Parameters(index = "0", arity = "0..1", paramLabel = "SPEC", description = "the spec file (.yaml, .yml or .json)")
    Path specFile;

    @Option(names = "--builtin", paramLabel = "NAME",
            description = "a spec shipped with memplan instead of a file: bench-compare, bench-cosma, three-networks")
    String builtin;

    @Option(names = "--print-spec", description = "print the spec's text (e.g. of --builtin NAME) and stop")
    boolean printSpec;

    @Option(names = "--db", defaultValue = "results.duckdb", paramLabel = "FILE",
            description = "results database (DuckDB; created when missing; default: ${DEFAULT-VALUE})")
    Path db;

    @Option(names = "--plans", paramLabel = "DIR", description = "where plan files go (default: the database's name "
            + "with -plans, e.g. results-plans)")
    Path plans;

    @Option(names = "--jobs", defaultValue = "1", paramLabel = "N", description = "cases run side by side (default: ${DEFAULT-VALUE})")
    int jobs;

    @Option(names = "--engine", defaultValue = "local", paramLabel = "local|spark",
            description = "where cases run: the local pool, or Spark with the sweeps-spark jar on the classpath "
                    + "(./memplan-spark; default: ${DEFAULT-VALUE})")
    String engine;

    @Option(names = "--master", paramLabel = "URL", description = "Spark master, e.g. local[2] or spark://host:7077 "
            + "(default: spark-submit's, else local[JOBS])")
    String master;

    @Option(names = "--dry-run", description = "list the cases (key, whether finished, parameters) and stop")
    boolean dryRun;

    @Override
    public Integer call() {
        PrintWriter out = out();
        PrintWriter err = err();
        if ((specFile == null) == (builtin == null)) {
            throw new UserException("give a spec file or --builtin NAME (built-in specs: "
                    + String.join(", ", SweepSpec.builtinNames()) + ")");
        }
        if (printSpec) {
            out.print(builtin != null ? SweepSpec.builtinText(builtin) : read(specFile));
            return ExitCode.OK.code();
        }
        if (jobs < 1) {
            throw new UserException("--jobs must be >= 1, got " + jobs);
        }
        SweepSpec sweep = builtin != null ? SweepSpec.builtin(builtin) : SweepSpec.read(specFile);
        if (dryRun) {
            SweepRun.dryRun(sweep, db).forEach(out::println);
            return ExitCode.OK.code();
        }
        SweepEngine chosen = SweepEngine.byName(engine);
        Path plansDir = plans != null ? plans : SweepRun.defaultPlans(db);
        // Before any case runs: the database is one (or a new file), and the plans can be written.
        if (Outputs.isStdout(db)) {
            throw new UserException("--db -: the results database is a file; name one (e.g. results.duckdb)");
        }
        ResultsDb.requireDuckDb(db, true);
        Outputs.checkFolder(plansDir, "--plans");
        SweepRun.Summary s;
        try (ResultsDb results = ResultsDb.open(db)) {
            s = SweepRun.run(sweep, results, plansDir, chosen, new SweepEngine.Options(jobs, master), err, null);
        }
        out.println("sweep " + sweep.name() + ": " + s.total() + " cases; " + s.skipped() + " were already in " + db
                + ", ran " + s.ran() + (s.errors() > 0 ? " (" + s.errors() + " ERROR rows: see the error column)" : "")
                + "; plans in " + plansDir);
        return ExitCode.OK.code();
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (java.io.IOException e) {
            throw new UserException("cannot read " + file + ": " + dev.memplan.model.io.AtomicFiles.reason(e));
        }
    }

    /** {@code memplan sweep export DB --csv OUT | --parquet OUT}. */
    @Command(name = "export", mixinStandardHelpOptions = true,
            description = {"Writes the results table as CSV (header row; the columns of docs/sweeps.md, \"Results\") or Parquet,",
                "for pandas or R; the file is written whole or not at all."})
    static final class Export extends CommandBase {
        @Parameters(index = "0", paramLabel = "DB", description = "the results database")
        Path db;

        @ArgGroup(multiplicity = "1")
        Target target;

        static final class Target {
            @Option(names = "--csv", paramLabel = "OUT", required = true)
            Path csv;

            @Option(names = "--parquet", paramLabel = "OUT", required = true)
            Path parquet;
        }

        @Override
        public Integer call() {
            boolean parquet = target.parquet != null;
            Path out = parquet ? target.parquet : target.csv;
            String option = parquet ? "--parquet" : "--csv";
            if (parquet && Outputs.isStdout(out)) {
                throw new UserException("--parquet -: Parquet is binary and standard output takes CSV only "
                        + "(--csv -); name a file");
            }
            // Before any work: the output is never the database (same file, links included) and can be written.
            Outputs.check(out, option, true, db.toString());
            int rows;
            try (ResultsDb results = ResultsDb.openReadOnly(db)) {
                rows = results.rows().size();
                if (Outputs.isStdout(out)) {
                    results.exportCsv(out());
                } else {
                    results.export(out, parquet);
                }
            }
            Outputs.report(out, spec.commandLine()).println("wrote " + rows + " rows to "
                    + (Outputs.isStdout(out) ? "standard output" : out));
            return ExitCode.OK.code();
        }
    }
}
