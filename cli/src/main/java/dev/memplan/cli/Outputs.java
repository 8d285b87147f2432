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
     * {@code inputs} (command-line arguments; those that name no file are skipped). {@code -} is accepted only
     * when {@code stdoutAllowed}.
     */
    static void check(Path out, String option, boolean stdoutAllowed, String... inputs) {
        if (out == null) {
            return;
        }
        if (out.toString().isEmpty()) {
            // Path.of("") is the working folder: "cannot write: it is a folder" would blame the wrong thing.
            throw new UserException(option + " is empty: name a file");
        }
        if (isStdout(out)) {
            if (!stdoutAllowed) {
                throw new UserException(option + " -: standard output is not supported here; name a file");
            }
            return;
        }
        for (String input : inputs) {
            if (input != null && AtomicFiles.sameFile(out, input)) {
                throw new UserException(option + " " + out + " is the input file " + input
                        + "; writing would replace it: name another file");
            }
        }
        String why = AtomicFiles.whyNotWritable(out);
        if (why != null) {
            throw new UserException(option + " " + out + ": cannot write: " + why);
        }
    }

    /** A folder that files will be written into: created now if missing, so a bad path fails before the run. */
    static void checkFolder(Path dir, String option) {
        if (dir == null) {
            return;
        }
        if (dir.toString().isEmpty()) {
            // Path.of("") is the working folder: an empty argument must not write there unasked.
            throw new UserException(option + " is empty: name a folder ('.' for this one)");
        }
        if (java.nio.file.Files.exists(dir) && !java.nio.file.Files.isDirectory(dir)) {
            throw new UserException(option + " " + dir + " is a file, not a folder");
        }
        String why = AtomicFiles.whyNoFolder(dir);
        if (why != null) {
            throw new UserException(option + " " + dir + ": " + why);
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
