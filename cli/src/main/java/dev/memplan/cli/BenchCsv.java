package dev.memplan.cli;

import java.nio.file.Path;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The {@code --csv} option of every bench command, declared once: the table as CSV, by default
 * {@code bench-COMMAND.csv} in the working folder, checked writable before any work.
 */
final class BenchCsv {
    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    @Option(names = "--csv", paramLabel = "OUT",
            description = "where to write the table as CSV (default: bench-${COMMAND-NAME}.csv)")
    Path csv;

    /** The CSV file (the command's default when none was given), checked writable now, before any work. */
    Path checked() {
        Path p = csv != null ? csv : Path.of("bench-" + mixee.name() + ".csv");
        Outputs.check(p, "--csv", false);
        return p;
    }
}
