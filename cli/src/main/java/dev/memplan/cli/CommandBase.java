package dev.memplan.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** A command: picocli injects its spec; {@link #out()} and {@link #err()} are the streams it prints to. */
abstract class CommandBase implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    PrintWriter out() {
        return spec.commandLine().getOut();
    }

    PrintWriter err() {
        return spec.commandLine().getErr();
    }

    /**
     * A bench command: it writes its table as CSV ({@link BenchCsv}, declared here once), checked writable before
     * the bench runs.
     */
    abstract static class Bench extends CommandBase {
        @Mixin
        BenchCsv csvOption;

        @Override
        public final Integer call() throws Exception {
            return run(csvOption.checked(inputs()), out());
        }

        /** The files the bench reads, which its CSV must not replace (names that are no files are skipped). */
        List<String> inputs() {
            return List.of();
        }

        /** Runs the bench; its table goes to {@code out} and to {@code csv}. */
        abstract Integer run(Path csv, PrintWriter out) throws Exception;
    }

    /**
     * A bench over cases the pipeline solves (bench dnc, gaps): --graphs (the four NAS networks by default), --setting
     * and the solver options, declared here once.
     */
    abstract static class PipelineBench extends Bench {
        @picocli.CommandLine.Option(names = "--graphs", split = ",", paramLabel = "G1,...",
                defaultValue = "nasnet,pnasnet,amoebanet,darts",
                description = "graphs: zoo names, files or gen:... (default: ${DEFAULT-VALUE})")
        List<String> graphs;

        @Mixin
        SettingOption setting;

        @Mixin
        SolverOptions solverOptions;

        @Override
        List<String> inputs() {
            return graphs;
        }
    }

    /**
     * A command on one planning case run through the pipeline (solve, compare): GRAPH, --budget and --setting, the
     * recompute weight, the solver and the divide-and-conquer options, declared here once.
     */
    abstract static class CaseCommand extends CommandBase {
        @Mixin
        GraphInput input;

        @Mixin
        CaseOptions problem;

        @Mixin
        RecomputeOption recompute;

        @Mixin
        SolverOptions solverOptions;

        @Mixin
        DecomposeOptions decomposeOptions;

        /** This command line's case, every value checked ({@link SolverOptions#solveCase}). */
        dev.memplan.sweeps.SolveCase solveCase() {
            return solverOptions.solveCase(problem.setting.or(dev.memplan.model.TensorSetting.ACTIVATIONS),
                    problem.budget, recompute.weight, decomposeOptions);
        }

        /**
         * Reads the case under the command's clock ({@link dev.memplan.sweeps.SolveCase#read}); {@code ticker} (when
         * not null) says when its budget is computed.
         */
        dev.memplan.sweeps.SolveCase.Read read(dev.memplan.sweeps.SolveCase c, dev.memplan.model.Limits limits,
                dev.memplan.decomposition.Ticker ticker,
                java.util.function.Consumer<dev.memplan.baselines.scheduling.MinimumPeakScheduler> first) {
            return c.read(input::read, limits, first, stage -> {
                if (ticker != null) {
                    ticker.stage(stage);
                }
            });
        }
    }

    /** A command that only groups subcommands: run alone, it prints its usage. */
    abstract static class Group implements Runnable {
        @Spec
        CommandSpec spec;

        @Override
        public void run() {
            spec.commandLine().usage(spec.commandLine().getOut());
        }
    }
}
