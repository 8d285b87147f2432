package dev.memplan.cli;

import dev.memplan.formulations.milp.NativeSolversUnavailableException;
import dev.memplan.model.Budget;
import dev.memplan.model.InvalidGraphException;
import dev.memplan.model.io.FormatException;
import dev.memplan.sweeps.SweepException;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine.Command;
import picocli.CommandLine;

/** The {@code memplan} command. Its exit codes, one meaning each for every command, are {@link ExitCode}. */
@Command(name = "memplan", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = "Plans how a DNN uses an accelerator's scratchpad: operator schedule, tensor addresses and "
                + "off-chip spills, solved exactly and checked against the memory model.",
        subcommands = {SolveCommand.class, CompareCommand.class, AllocateCommand.class, CheckCommand.class, TraceCommand.class, BudgetsCommand.class, ConvertCommand.class, ImportCommand.class, ZooCommand.class,
            BenchCommand.class, PlotCommand.class, SweepCommand.class, MmapCommand.class,
            CommandLine.HelpCommand.class})
public final class Main implements Runnable {
    /** What a user can still run when OR-Tools' natives cannot load: the steps that run no OR-Tools solver. */
    static final String WITHOUT_NATIVES = "without them these still work: check, trace, convert, import, zoo, plot,"
            + " sweep export, compare --no-cosma, budgets --mp-beam N, allocate with minimalloc, telamalloc, skyline,"
            + " tflite, greedy or bestfit, mmap solve|compare with greedy, mcts or random, and --solver ojalgo with"
            + " --time-limit (it counts no work)";

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        Interrupts.install();
        // The command started with the JVM: its start-up counts against --time-limit.
        long uptime = java.lang.management.ManagementFactory.getRuntimeMXBean().getUptime();
        int code = run(System.nanoTime() - uptime * 1_000_000, new PrintWriter(System.out, true),
                new PrintWriter(System.err, true), args);
        System.exit(Budget.interrupted() && code != ExitCode.USER_ERROR.code() && code != ExitCode.INTERNAL_ERROR.code()
                ? ExitCode.INTERRUPTED.code() : code);
    }

    /** When the running command started ({@link System#nanoTime()}): where its --time-limit is counted from. */
    private static volatile long started = System.nanoTime();

    /** Runs the command with the given streams; returns the exit code. */
    static int run(PrintWriter out, PrintWriter err, String... args) {
        return run(System.nanoTime(), out, err, args);
    }

    static long started() {
        return started;
    }

    private static int run(long startedAt, PrintWriter out, PrintWriter err, String... args) {
        started = startedAt;
        CommandLine cl = new CommandLine(new Main());
        HelpText.apply(cl);
        cl.setOut(out);
        cl.setErr(err);
        // The library prints nothing; its notices (a back-end's quirk, a fallback) go to standard error here.
        dev.memplan.model.Notices.listen(notice -> {
            synchronized (err) {
                err.println("memplan: " + notice);
                err.flush();
            }
        });
        cl.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            NativeSolversUnavailableException natives = NativeSolversUnavailableException.in(e);
            if (natives != null) {
                commandLine.getErr().println("memplan: error: " + natives.getMessage() + "; " + WITHOUT_NATIVES);
                return ExitCode.USER_ERROR.code();
            }
            if (e instanceof dev.memplan.model.ClockGuard.TimeUpException up) {
                // Before any result exists (the graph or the buffers not yet read or built): nothing was written.
                commandLine.getErr().println("memplan: " + up.getMessage() + ": nothing within the limits, no file"
                        + " written");
                return ExitCode.NOT_FOUND.code();
            }
            if (isUserMistake(e)) {
                commandLine.getErr().println("memplan: error: " + dev.memplan.model.io.PrintableText.clean(e.getMessage()));
                return ExitCode.USER_ERROR.code();
            }
            commandLine.getErr().println("memplan: internal error (a bug in memplan; please report it):");
            e.printStackTrace(commandLine.getErr());
            return ExitCode.INTERNAL_ERROR.code();
        });
        cl.setParameterExceptionHandler((e, a) -> {
            CommandLine c = e.getCommandLine();
            String unknown = unknownCommand(e);
            c.getErr().println("memplan: error: " + (unknown != null ? unknown : dev.memplan.model.io.PrintableText.clean(e.getMessage())));
            c.getErr().println("Try '" + c.getCommandSpec().qualifiedName() + " --help'.");
            return ExitCode.USER_ERROR.code();
        });
        int code;
        try {
            code = cl.execute(args);
        } catch (OutOfMemoryError e) {
            // Writers go through temporary files, so whatever was being written is not left half-done.
            err.println("memplan: error: out of memory (the heap is " + (Runtime.getRuntime().maxMemory() >> 20)
                    + " MB; set a larger one with MEMPLAN_JAVA_OPTS=-Xmx8g). Nothing was half-written. This is a "
                    + "bug: memplan should have skipped the work that did not fit; please report it");
            code = ExitCode.INTERNAL_ERROR.code();
        }
        out.flush();
        err.flush();
        return code;
    }

    /**
     * "unknown command 'foo'" with the commands there are, when the first word after a command that has
     * subcommands is none of them (picocli says "Unmatched argument at index 0"); null otherwise.
     */
    private static String unknownCommand(CommandLine.ParameterException e) {
        if (!(e instanceof CommandLine.UnmatchedArgumentException u) || u.getUnmatched().isEmpty()) {
            return null;
        }
        CommandLine c = e.getCommandLine();
        String word = u.getUnmatched().get(0);
        if (c.getSubcommands().isEmpty() || word.startsWith("-")) {
            return null;
        }
        return "unknown command '" + dev.memplan.model.io.PrintableText.clean(word) + "' for '" + c.getCommandSpec().qualifiedName()
                + "'; commands: " + String.join(", ", c.getSubcommands().keySet());
    }

    private static boolean isUserMistake(Exception e) {
        // I/O failures (a missing file, a directory without write access) are the user's environment, not bugs.
        return e instanceof UserException || e instanceof SweepException || e instanceof FormatException || e instanceof InvalidGraphException
                || e instanceof UncheckedIOException || e instanceof IOException;
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** The version from the build. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() throws IOException {
            Properties p = new Properties();
            try (InputStream in = Main.class.getResourceAsStream("/dev/memplan/cli/version.properties")) {
                if (in != null) {
                    p.load(in);
                }
            }
            return new String[] {"memplan " + p.getProperty("version", "unknown"),
                "Java " + System.getProperty("java.version")};
        }
    }
}
