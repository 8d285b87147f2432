package dev.memplan.cli;

import dev.memplan.model.io.AtomicFiles;
import java.io.PrintWriter;
import java.nio.file.Path;

/**
 * Where commands write, checked before any work so that a long run does not end in "cannot write": an output
 * that is one of the command's inputs (a plan written over its own graph), a folder, or a file in a folder
 * that is missing or read-only is refused at once (exit 2). {@code -} names standard output where a command
 * allows it; files are written whole or not at all ({@link AtomicFiles}).
 */
final class Outputs {
    static final String STDOUT = "-";

    private Outputs() {
    }

    /** Whether {@code out} is {@code -}, standard output. */
    static boolean isStdout(Path out) {
        return out != null && out.toString().equals(STDOUT);
    }

    /**
     * Fails unless {@code out} (given as {@code option}; null: not asked for) can be written and is none of
     * {@code inputs} ({@link AtomicFiles#whyNotOutput}). {@code -} is accepted only when {@code stdoutAllowed}.
     */
    static void check(Path out, String option, boolean stdoutAllowed, String... inputs) {
        if (isStdout(out) && !stdoutAllowed) {
            throw new UserException(option + " -: standard output is not supported here; name a file");
        }
        String why = isStdout(out) ? null : AtomicFiles.whyNotOutput(out, option, inputs);
        if (why != null) {
            throw new UserException(why);
        }
    }

    /** A folder that files will be written into: created now if missing ({@link AtomicFiles#whyNotOutputFolder}). */
    static void checkFolder(Path dir, String option) {
        String why = AtomicFiles.whyNotOutputFolder(dir, option);
        if (why != null) {
            throw new UserException(why);
        }
    }

    /** Writes {@code text} to standard output ({@code -}) or to the file. */
    static void write(Path out, String text, PrintWriter stdout) {
        if (isStdout(out)) {
            stdout.print(text);
            stdout.flush();
        } else {
            AtomicFiles.write(out, text);
        }
    }

    /** Where a command's report goes: standard error when standard output carries the written file. */
    static PrintWriter report(Path out, picocli.CommandLine commandLine) {
        return isStdout(out) ? commandLine.getErr() : commandLine.getOut();
    }
}
