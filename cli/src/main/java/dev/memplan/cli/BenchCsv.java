package dev.memplan.cli;

import java.nio.file.Path;
import java.util.List;
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

    /**
     * The CSV file (the command's default when none was given), checked writable now, before any work, and refused
     * when it is one of {@code inputs} (the command's graph or model arguments; names that are not files are
     * skipped).
     */
    Path checked(List<String> inputs) {
        Path p = csv != null ? csv : Path.of("bench-" + mixee.name() + ".csv");
        Outputs.check(p, "--csv", false, inputs == null ? new String[0] : inputs.toArray(String[]::new));
        return p;
    }

    /** {@link #checked(List)} for a command that reads no file. */
    Path checked() {
        return checked(List.of());
    }
}
