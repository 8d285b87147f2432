package dev.memplan.cli;

import dev.memplan.baselines.mmap.MmapPlanners;
import dev.memplan.baselines.mmap.MmapRun;
import dev.memplan.datasets.mmap.MmapInstances;
import dev.memplan.model.LimitValues;
import dev.memplan.model.io.MmapJson;
import dev.memplan.model.mmap.Mapping;
import dev.memplan.model.mmap.MappingChecker;
import dev.memplan.model.mmap.MappingPlanner;
import dev.memplan.model.mmap.MappingReport;
import dev.memplan.model.mmap.MappingResult;
import dev.memplan.model.mmap.MappingViolation;
import dev.memplan.model.mmap.MmapInstance;
import dev.memplan.sweeps.figures.TextTable;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code memplan mmap ...}: the two-level memory mapping problem (the MMapGame of the MMap-MuZero paper). */
@Command(name = "mmap", mixinStandardHelpOptions = true,
        description = "Two-level memory mapping (MMapGame): place buffers in fast memory for the most benefit.",
        subcommands = {MmapCommand.Solve.class, MmapCommand.Compare.class, MmapCommand.Export.class,
            MmapCommand.Check.class})
final class MmapCommand extends CommandBase.Group {
    static final String INPUT_HELP = "memplan-mmap/1 instance file, zoo name, graph file or name (derived with the "
            + "cost model), or gen:mmap:N[:SEED] (N buffers)";

    /** The instance named by an argument ({@link MmapInstances#read}), with the capacity replaced when one is given. */
    static MmapInstance instance(String argument, Long capacity) {
        return UserException.of(() -> MmapInstances.read(argument, Inputs::graph, capacity));
    }

    static MappingPlanner planner(String name, int simulations) {
        return UserException.of(() -> MmapPlanners.byName(name, simulations));
    }

    static String describe(MmapInstance in) {
        return MmapPlanners.describe(in);
    }

    /** INSTANCE and --capacity, declared once for every mmap command. */
    static final class Input {
        @Parameters(index = "0", paramLabel = "INSTANCE", description = INPUT_HELP)
        String name;

        @Option(names = "--capacity", paramLabel = "BYTES", description = "fast-memory capacity (default: the instance's)")
        Long capacity;

        MmapInstance read() {
            return instance(name, capacity);
        }
    }

    /** An mmap command on one instance: INSTANCE and --capacity ({@link Input}) declared here once. */
    abstract static class OnInstance extends CommandBase {
        @Mixin
        Input input;
    }

    /** An mmap command that runs planners on its instance, with their limits ({@link Run}). */
    abstract static class Planning extends OnInstance {
        @Mixin
        Run run;

        /** Checks every option and the outputs, then plans on the instance, timed from the command's start. */
        @Override
        public final Integer call() {
            MmapRun limits = run.validate(input);
            checkOutputs();
            return plan(input.read(), limits);
        }

        abstract void checkOutputs();

        abstract Integer plan(MmapInstance in, MmapRun run);
    }

    /** Options shared by solve and compare. */
    static final class Run {
        @Option(names = "--time-limit", paramLabel = "SECONDS",
                description = "wall-time limit of the whole command (default: 60; with --work-limit: none, and when given"
                        + " the outer guard of the work)")
        Double timeLimit;

        @Option(names = "--work-limit", paramLabel = "UNITS",
                description = {"deterministic work limit in units (about a second each on a quiet 2-core machine): MCTS",
                    "counts its simulated moves, CP-SAT its deterministic time, so the same command gives the same",
                    "mapping on any machine and load (default: none)"})
        Double workLimit;

        @Option(names = "--threads", paramLabel = "N", defaultValue = "1", description = "CP-SAT workers (default: ${DEFAULT-VALUE})")
        int threads;

        @Option(names = "--seed", defaultValue = "1", description = "seed of random play and MCTS (default: ${DEFAULT-VALUE})")
        long seed;

        @Option(names = "--simulations", paramLabel = "N", defaultValue = "128",
                description = "MCTS simulations per move, at most (default: ${DEFAULT-VALUE})")
        int simulations;

        /**
         * Checks every value, and the instance's --capacity, before any work (a zero --simulations crashed MCTS
         * after the instance was built).
         */
        MmapRun validate(Input input) {
            long start = System.nanoTime();
            return UserException.of(() -> {
                MmapRun run = MmapRun.of(timeLimit, workLimit, threads, seed, simulations, start);
                MmapInstances.checkCapacity(input.capacity);
                return run;
            });
        }
    }

    @Command(name = "solve", mixinStandardHelpOptions = true,
            description = "Maps one instance with one planner; prints reward, bound and gap; the mapping is checked.")
    static final class Solve extends Planning {
        @Option(names = "--planner", defaultValue = "exact", paramLabel = "exact|greedy|mcts|random",
                description = "exact (CP-SAT from the best of greedy and mcts), greedy (XLA-style), mcts, random (default: ${DEFAULT-VALUE})")
        String planner;

        @Option(names = "--out", paramLabel = "FILE", description = "write the mapping (memplan-mmap-mapping/1)")
        Path out;

        @Override
        void checkOutputs() {
            Outputs.check(out, "--out", false, input.name);
        }

        @Override
        Integer plan(MmapInstance in, MmapRun limits) {
            PrintWriter o = out();
            MappingPlanner p = planner(planner, run.simulations);
            err().println("mmap: " + p.name() + " on " + in.name() + " ...");
            MappingResult r = p.plan(in, limits.limitsOfWhatIsLeft());
            String work = run.workLimit == null ? null : LimitValues.workUsed(limits.work(), run.workLimit);
            MmapPlanners.report(in, r, LimitValues.cut(limits.work()), work).forEach(row ->
                    o.println(String.format(Locale.ROOT, "%-10s%s", row[0], row[1])));
            if (r.mapping() == null) {
                o.println("no mapping found within the limits (" + r.note() + ")");
                return ExitCode.NOT_FOUND.code();
            }
            if (out != null) {
                MmapJson.writeMapping(in, r.mapping(), r.planner(), r.status().name(), r.bound(), out);
                o.println("wrote     " + out);
            }
            return ExitCode.OK.code();
        }
    }

    @Command(name = "compare", mixinStandardHelpOptions = true,
            description = "Runs every planner on one instance; reward as a fraction of the best bound.")
    static final class Compare extends Planning {
        @Option(names = "--planners", split = ",", paramLabel = "P1,...", defaultValue = "greedy,random,mcts,exact",
                description = "planners, in order (default: ${DEFAULT-VALUE})")
        List<String> planners;

        @Option(names = "--csv", paramLabel = "OUT", description = "also write the table as CSV")
        Path csv;

        @Override
        void checkOutputs() {
            Outputs.check(csv, "--csv", false, input.name);
        }

        @Override
        Integer plan(MmapInstance in, MmapRun limits) {
            out().println(describe(in));
            TextTable table = new TextTable(MmapPlanners.HEADER);
            limits.compare(in, planners, err()::println).forEach(table::row);
            table.print(out());
            if (run.workLimit != null) {
                out().println("work: " + LimitValues.workUsed(limits.work(), run.workLimit));
            }
            if (csv != null) {
                table.write(csv, null);
            }
            return ExitCode.OK.code();
        }
    }

    @Command(name = "export", mixinStandardHelpOptions = true,
            description = "Writes an instance (e.g. one derived from a zoo network) as memplan-mmap/1 JSON.")
    static final class Export extends OnInstance {
        @Option(names = "--out", paramLabel = "FILE", required = true, description = "the instance file to write")
        Path out;

        @Override
        public Integer call() {
            Outputs.check(out, "--out", false, input.name);
            MmapInstance in = input.read();
            MmapJson.write(in, out);
            out().println("wrote " + out + ": " + describe(in));
            return ExitCode.OK.code();
        }
    }

    @Command(name = "check", mixinStandardHelpOptions = true,
            description = "Checks a mapping against an instance; exit 0 when valid, 1 when a rule is broken.")
    static final class Check extends OnInstance {
        @Parameters(index = "1", paramLabel = "MAPPING", description = "mapping file (memplan-mmap-mapping/1)")
        Path mapping;

        @Override
        public Integer call() {
            MmapInstance in = input.read();
            Mapping m = MmapJson.readMapping(mapping);
            MappingReport report = MappingChecker.check(in, m);
            PrintWriter o = out();
            if (report.valid()) {
                o.println("valid: reward " + report.reward() + " on " + describe(in));
                Long recorded = MmapJson.recordedReward(mapping);
                if (recorded != null && recorded != report.reward()) {
                    o.println("note: " + mapping + " records reward " + recorded + ", but its decisions earn "
                            + report.reward() + " (the recorded value is informative and wrong)");
                }
                return ExitCode.OK.code();
            }
            o.println("INVALID: " + report.violations().size() + " broken rule(s)");
            for (MappingViolation v : report.violations().subList(0, Math.min(20, report.violations().size()))) {
                o.println("  " + v);
            }
            return ExitCode.NO.code();
        }
    }
}
