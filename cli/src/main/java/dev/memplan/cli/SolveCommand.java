package dev.memplan.cli;

import dev.memplan.decomposition.Heartbeat;

import dev.memplan.sweeps.BudgetChoice;
import dev.memplan.baselines.scheduling.MinimumPeakScheduler;
import dev.memplan.decomposition.CosmaPipeline;
import dev.memplan.decomposition.PipelineReport;
import dev.memplan.formulations.cosma.CosmaObjective;
import dev.memplan.formulations.cosma.CosmaSolver;
import dev.memplan.formulations.milp.Solvers;
import dev.memplan.model.Budget;
import dev.memplan.model.ClockGuard;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.PlanResult;
import dev.memplan.model.Schedule;
import dev.memplan.model.SolveStatus;
import dev.memplan.model.TensorSetting;
import dev.memplan.model.io.PlanJson;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.function.Consumer;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code memplan solve}: the COSMA program on an open-source solver, as a checked plan. */
@Command(name = "solve", mixinStandardHelpOptions = true,
        description = {"Finds the plan with the least non-compulsory off-chip traffic (COSMA eq. 1-12; eq. 16-17 with",
            "--schedule FILE) or the least peak footprint without spills (eq. 13-15), checks it and prints",
            "status, traffic, bound, gap, time and model size."})
final class SolveCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    GraphInput input;

    @Mixin
    CaseOptions problem;

    @Option(names = "--objective", paramLabel = "traffic|peak", defaultValue = "traffic",
            converter = ObjectiveConverter.class, description = "what to minimise (default: ${DEFAULT-VALUE})")
    CosmaObjective objective;

    /** --objective's values, any case. */
    static final class ObjectiveConverter extends SolverOptions.Parsing<CosmaObjective> {
        ObjectiveConverter() {
            super(value -> named(CosmaObjective.values(), value, "unknown objective '" + value
                    + "': use 'traffic' or 'peak'"));
        }
    }

    @Option(names = "--schedule", paramLabel = "default|FILE",
            description = "fix the schedule: the default order, or a file (a plan JSON, or one operator name per line)")
    String schedule;

    @Option(names = "--out", paramLabel = "PLAN",
            description = {"write the plan (memplan-plan/1; memplan-plan/2 when it recomputes); '-': to standard",
                "output (the report goes to standard error)"})
    Path out;

    @Mixin
    RecomputeOption recompute;

    /** The older spelling of --without prune, kept so scripts keep working. */
    @Option(names = "--no-prune", hidden = true, description = "the same as --without prune")
    boolean noPrune;

    @Mixin
    SolverOptions solverOptions;

    @Mixin
    DecomposeOptions decomposeOptions;

    @Override
    public Integer call() {
        try (Ticker ticker = new Ticker(spec.commandLine().getErr(), "reading the graph")) {
            return solve(ticker);
        }
    }

    private Integer solve(Ticker ticker) {
        // The solver libraries load while the graph and the budget are computed, not inside the first solve.
        Solvers.preload();
        Outputs.check(this.out, "--out", true, input.name, schedule);
        Double lambda = recompute.lambda();
        if (lambda != null && objective != CosmaObjective.TRAFFIC) {
            throw new UserException("--recompute-weight weighs recomputes against traffic: it needs --objective "
                    + "traffic, not " + objective.name().toLowerCase());
        }
        PrintWriter out = Outputs.report(this.out, spec.commandLine());
        Limits limits = solverOptions.commandLimits();
        solverOptions.requireSolver();
        Graph full;
        Graph g;
        TensorSetting s = problem.setting();
        MinimumPeakScheduler mpmf;
        BudgetChoice chosen;
        // The time limit covers reading the graph and its budget too: they poll the command's clock.
        try (ClockGuard guard = ClockGuard.until(limits.budget())) {
            full = input.read();
            g = full.withSetting(s);
            mpmf = solverOptions.minimumPeak(g);
            ticker.stage("computing the budget " + problem.budget);
            chosen = BudgetChoice.resolve(problem.budget, g, s, mpmf, limits);
        }
        CosmaObjective obj = objective;
        if (noPrune) {
            solverOptions.without = solverOptions.without == null ? new ArrayList<>() : new ArrayList<>(solverOptions.without);
            solverOptions.without.add(dev.memplan.formulations.cosma.Technique.PRUNE);
        }
        Schedule fixed = schedule == null ? null : readSchedule(g, schedule);
        CosmaSolver.Options options = solverOptions.cosma(obj, fixed, null);
        CosmaPipeline.Settings settings = decomposeOptions.settings(g, options, mpmf).withRecomputeWeight(lambda);
        PrintWriter err = spec.commandLine().getErr();
        CosmaPipeline.Outcome o = new CosmaPipeline(settings, progress(ticker, err)).run(full, s, chosen.bytes(), limits,
                null);
        return report(g, s, chosen, o, limits, fixed);
    }

    /** The report of the run ({@link PipelineReport}), then the plan written when --out asks for it. */
    private int report(Graph g, TensorSetting s, BudgetChoice chosen, CosmaPipeline.Outcome o, Limits limits,
                       Schedule fixed) {
        PrintWriter out = Outputs.report(this.out, spec.commandLine());
        PrintWriter err = spec.commandLine().getErr();
        Table t = new Table("", "");
        t.row("graph", g.name() + " (" + g.operatorCount() + " operators, " + g.tensorCount() + " tensors, setting "
                + s.fileName() + ")");
        t.row("budget", chosen.describe());
        String what = o.recompute() == null ? objective.name().toLowerCase()
                : "traffic + " + RecomputeOption.describe(o.recompute().lambda()) + " x recompute cost";
        t.row("objective", o.dnc() != null
                ? what + ", free schedule, divide and conquer (" + decomposeOptions.describe(o.dncOptions()) + ")"
                : what + (fixed == null ? ", free schedule" : ", fixed schedule"));
        t.row("solver", PipelineReport.solver(o) + ", " + solverOptions.describe());
        PipelineReport.result(o, objective, solverOptions.pruned()).forEach(r -> t.row(r.label(), r.value()));
        solverOptions.workRow(t, limits);
        PipelineReport.details(o).forEach(r -> t.row(r.label(), r.value()));
        t.printWithoutHeader(out);
        PlanResult r = o.result();
        if (r.plan() == null) {
            out.println("no plan: " + (r.status() == SolveStatus.INFEASIBLE ? "proven infeasible"
                    : "none found within the limits"));
            if (Budget.interrupted() && this.out != null) {
                err.println("memplan: interrupted: no plan; " + this.out + " left as it was");
            }
            return (r.status() == SolveStatus.INFEASIBLE ? ExitCode.NO : ExitCode.NOT_FOUND).code();
        }
        out.println("plan checked: VALID");
        if (this.out != null) {
            Outputs.write(this.out, PlanJson.toJson(r.plan()), spec.commandLine().getOut());
            if (!Outputs.isStdout(this.out)) {
                out.println("wrote " + this.out);
            }
            if (Budget.interrupted()) {
                err.println("memplan: interrupted: wrote the best checked plan so far (" + r.status()
                        + (r.gap() == null ? "" : String.format(", gap %.2f%%", 100 * r.gap())) + ") to " + this.out);
            }
        }
        return ExitCode.OK.code();
    }

    /**
     * The progress listener of a solve: the pipeline's lines on standard error (divide and conquer's part and window
     * lines through a {@link Heartbeat}), each one a new stage of the ticker.
     */
    static Consumer<String> progress(Ticker ticker, PrintWriter err) {
        Heartbeat beat = new Heartbeat(err);
        return line -> {
            beat.accept(line);
            if (Heartbeat.routine(line)) {
                ticker.touch();
            } else {
                ticker.stage(line.endsWith(" ...") ? line.substring(0, line.length() - 4) : line);
            }
        };
    }

    static Schedule readSchedule(Graph g, String argument) {
        if (argument.equals("default")) {
            return Schedule.defaultOrder(g);
        }
        Path file = Path.of(argument);
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new UserException("cannot read schedule file " + file + ": " + dev.memplan.model.io.AtomicFiles.reason(e));
        }
        Schedule schedule = dev.memplan.model.io.OperatorLists.schedule(text, file.toString());
        try {
            schedule.validate(g);
        } catch (IllegalArgumentException e) {
            throw new UserException(file + ": not a schedule of graph '" + g.name() + "': " + e.getMessage());
        }
        return schedule;
    }
}
