package dev.memplan.cli;

import dev.memplan.sweeps.BudgetChoice;
import dev.memplan.baselines.replacement.PackingFailedException;
import dev.memplan.baselines.replacement.Scheme;
import dev.memplan.baselines.scheduling.MinimumPeakScheduler;
import dev.memplan.decomposition.CosmaPipeline;
import dev.memplan.decomposition.DncResult;
import dev.memplan.formulations.cosma.CosmaObjective;
import dev.memplan.formulations.cosma.CosmaResult;
import dev.memplan.formulations.cosma.CosmaSolver;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.formulations.milp.Solvers;
import dev.memplan.model.Budgets;
import dev.memplan.model.Deadline;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.PlanResult;
import dev.memplan.model.Schedule;
import dev.memplan.model.TensorSetting;
import dev.memplan.model.io.PlanJson;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.function.Consumer;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code memplan solve}: the COSMA program on an open-source solver, as a checked plan. */
@Command(name = "solve", mixinStandardHelpOptions = true,
        description = {"Finds the plan with the least non-compulsory off-chip traffic (COSMA eq. 1-12; eq. 16-17 with",
            "--schedule FILE) or the least peak footprint without spills (eq. 13-15), checks it and prints",
            "status, traffic, bound, gap, time and model size. Exit code 1 when no plan was found."})
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
    static final class ObjectiveConverter implements picocli.CommandLine.ITypeConverter<CosmaObjective> {
        @Override
        public CosmaObjective convert(String value) {
            for (CosmaObjective o : CosmaObjective.values()) {
                if (o.name().equalsIgnoreCase(value.trim())) {
                    return o;
                }
            }
            throw new picocli.CommandLine.TypeConversionException("unknown objective '" + value
                    + "': use 'traffic' or 'peak'");
        }
    }

    @Option(names = "--schedule", paramLabel = "default|FILE",
            description = "fix the schedule: the default order, or a file (a plan JSON, or one operator name per line)")
    String schedule;

    @Option(names = "--out", paramLabel = "PLAN",
            description = "write the plan (memplan-plan/1); '-': to standard output (the report goes to standard error)")
    Path out;

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
        PrintWriter out = Outputs.report(this.out, spec.commandLine());
        Graph full = input.read();
        TensorSetting s = problem.setting();
        Graph g = full.withSetting(s);
        Limits limits = solverOptions.commandLimits();
        MinimumPeakScheduler mpmf = solverOptions.minimumPeak(g);
        ticker.stage("computing the budget " + problem.budget);
        BudgetChoice chosen = BudgetChoice.resolve(problem.budget, g, s, mpmf, limits);
        CosmaObjective obj = objective;
        if (noPrune) {
            solverOptions.without = solverOptions.without == null ? new ArrayList<>() : new ArrayList<>(solverOptions.without);
            solverOptions.without.add(dev.memplan.formulations.cosma.Technique.PRUNE);
        }
        Schedule fixed = schedule == null ? null : readSchedule(g, schedule);
        CosmaSolver.Options options = solverOptions.cosma(obj, fixed, null);
        CosmaPipeline.Settings settings = decomposeOptions.settings(g, options, mpmf);
        PrintWriter err = spec.commandLine().getErr();
        CosmaPipeline.Outcome o = new CosmaPipeline(settings, progress(ticker, err)).run(full, s, chosen.bytes(), limits,
                null);
        if (o.dnc() != null) {
            return divideAndConquer(g, s, chosen, o, limits);
        }
        CosmaResult r = o.whole();
        Table t = new Table("", "");
        t.row("graph", g.name() + " (" + g.operatorCount() + " operators, " + g.tensorCount() + " tensors, setting "
                + s.fileName() + ")");
        t.row("budget", chosen.describe());
        t.row("objective", obj.name().toLowerCase() + (fixed == null ? ", free schedule" : ", fixed schedule"));
        t.row("solver", r.backend() + ", " + solverOptions.describe());
        t.row("model", r.pruned() == null ? (r.plan() == null ? "none built" : r.notes().isEmpty()
                ? "none built: the starting plan meets the lower bound" : "none built (see the notes)")
                : r.pruned() + (!solverOptions.pruned() ? " (no pruning)" : r.unpruned() == null ? ""
                        : " (before pruning: " + r.unpruned() + ")"));
        t.row("status", r.status().name() + (r.startingPlanOnly() ? " (the starting plan; the solver found nothing better)" : ""));
        String what = obj == CosmaObjective.TRAFFIC ? "non-compulsory traffic" : "peak footprint";
        t.row(what, r.objective() == null ? "-" : Long.toString(r.objective()));
        t.row("bound", r.bound() == null ? "-" : Long.toString(r.bound()));
        t.row("gap", r.gap() == null ? "-" : String.format("%.2f%%", 100 * r.gap()));
        t.row("time", String.format("%.2f s", r.seconds()));
        solverOptions.workRow(t, limits);
        if (r.check() != null) {
            t.row("compulsory traffic", Long.toString(r.check().traffic().compulsory()));
            t.row("peak footprint", Long.toString(r.check().peakFootprint()));
            t.row("peak address", Long.toString(r.check().peakAddress()));
        }
        for (String note : r.notes()) {
            t.row("note", note);
        }
        t.printWithoutHeader(out);
        if (r.plan() == null) {
            out.println("no plan: " + (r.status().name().equals("INFEASIBLE") ? "proven infeasible"
                    : "none found within the limits"));
            if (Deadline.interrupted() && this.out != null) {
                err.println("memplan: interrupted: no plan; " + this.out + " left as it was");
            }
            return Main.INVALID;
        }
        out.println("plan checked: VALID");
        if (this.out != null) {
            Outputs.write(this.out, PlanJson.toJson(r.plan()), spec.commandLine().getOut());
            if (!Outputs.isStdout(this.out)) {
                out.println("wrote " + this.out);
            }
            if (Deadline.interrupted()) {
                err.println("memplan: interrupted: wrote the best checked plan so far (" + r.status()
                        + (r.gap() == null ? "" : String.format(", gap %.2f%%", 100 * r.gap())) + ") to " + this.out);
            }
        }
        return 0;
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

    private int divideAndConquer(Graph g, TensorSetting s, BudgetChoice chosen, CosmaPipeline.Outcome o,
                                 Limits limits) {
        PrintWriter out = Outputs.report(this.out, spec.commandLine());
        PlanResult r = o.result();
        Table t = new Table("", "");
        t.row("graph", g.name() + " (" + g.operatorCount() + " operators, " + g.tensorCount() + " tensors, setting "
                + s.fileName() + ")");
        t.row("budget", chosen.describe());
        t.row("objective", "traffic, free schedule, divide and conquer (" + decomposeOptions.describe(o.dncOptions())
                + ")");
        t.row("solver", r.plan().solver().name() + ", " + solverOptions.describe());
        if (o.whole() != null) {
            t.row("whole graph first", o.whole().status() + ", traffic " + orDash(o.whole().objective())
                    + String.format(Locale.ROOT, ", %.2f s (--decompose auto)", o.whole().seconds()));
        }
        describe(t, o);
        solverOptions.workRow(t, limits);
        t.printWithoutHeader(out);
        out.println("plan checked: VALID");
        if (this.out != null) {
            Outputs.write(this.out, PlanJson.toJson(r.plan()), spec.commandLine().getOut());
            if (!Outputs.isStdout(this.out)) {
                out.println("wrote " + this.out);
            }
        }
        return 0;
    }

    static String orDash(Long value) {
        return value == null ? "-" : Long.toString(value);
    }

    /** The rows solve prints for a divide-and-conquer result. */
    private static void describe(Table t, CosmaPipeline.Outcome o) {
        DncResult r = o.dnc();
        t.row("status", r.status().name());
        t.row("non-compulsory traffic", Long.toString(r.traffic()));
        t.row("bound", r.bound() == null ? "- (the forced bound was not computed in time)"
                : r.bound() + " (whole graph, free schedule: forced traffic and live bytes)");
        t.row("gap", r.gap() == null ? "-" : String.format(Locale.ROOT, "%.2f%%", 100 * r.gap()));
        t.row("time", String.format(Locale.ROOT, "%.2f s (divide and conquer %.2f s after the starting plans)",
                o.result().seconds(), r.seconds()));
        t.row("parts", r.partition().size() + " (largest " + r.partition().largestPart() + " operators; "
                + r.partition().totalCutBytes() + " bytes cross the cuts)");
        t.row("stages", r.spillAtCut() == null ? (r.bound() != null && r.traffic() <= r.bound()
                ? "none: a starting plan meets the lower bound" : "none: the time was up before the parts were solved")
                : "spill at cut " + r.spillAtCut() + ", state handed over " + orDash(r.handover())
                + ", fixed-schedule optimum of the stitched order " + orDash(r.polished())
                + ", windows " + r.windowsAccepted() + " of " + r.windowsTried() + " improved");
        if (o.fsDefault() != null) {
            t.row("FS(default)", o.fsDefault().objective() + " (" + o.fsDefault().status() + ")");
        }
        if (o.fsMpmf() != null) {
            t.row("FS(MPMF)", o.fsMpmf().objective() + " (" + o.fsMpmf().status() + ")");
        }
        if (o.bestStart() != null) {
            t.row("best start", o.bestStart().traffic().nonCompulsory() + " (" + o.bestStart().solver().name() + ")");
        }
        t.row("plan from", r.source());
        t.row("compulsory traffic", Long.toString(r.check().traffic().compulsory()));
        t.row("peak footprint", Long.toString(r.check().peakFootprint()));
        t.row("peak address", Long.toString(r.check().peakAddress()));
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
