package dev.memplan.cli;

import dev.memplan.sweeps.BudgetChoice;
import dev.memplan.baselines.replacement.PackingFailedException;
import dev.memplan.baselines.replacement.Scheme;
import dev.memplan.baselines.scheduling.MinimumPeakScheduler;
import dev.memplan.decomposition.DivideAndConquer;
import dev.memplan.formulations.cosma.CosmaObjective;
import dev.memplan.formulations.cosma.CosmaResult;
import dev.memplan.formulations.cosma.CosmaSolver;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.formulations.milp.Solvers;
import dev.memplan.model.Budgets;
import dev.memplan.model.Deadline;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Plan;
import dev.memplan.model.Schedule;
import dev.memplan.model.TensorSetting;
import dev.memplan.model.io.PlanJson;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
    /** What a Belady scheme takes per operator (about 2 s on 20,000 operators on the bench machine under load). */
    private static final long SCHEME_NANOS_PER_OPERATOR = 100_000;
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "GRAPH", description = "graph file (memplan-graph/1, COSMA DAG JSON or .onnx), example name or zoo name")
    String graph;

    @Mixin
    OnnxOptions onnx;

    @Option(names = "--budget", required = true, paramLabel = "M_R|M_H|M_P|BYTES", description = "scratchpad budget")
    String budget;

    @Option(names = "--setting", paramLabel = "activations|all", defaultValue = "activations",
            description = "tensor setting (default: ${DEFAULT-VALUE})")
    String setting;

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
        long began = System.nanoTime();
        Outputs.check(this.out, "--out", true, graph, schedule);
        PrintWriter out = Outputs.report(this.out, spec.commandLine());
        Graph full = Inputs.graph(graph, onnx);
        TensorSetting s = Inputs.setting(setting);
        Graph g = full.withSetting(s);
        Backend backend = solverOptions.backend();
        Limits limits = solverOptions.commandLimits();
        MinimumPeakScheduler mpmf = solverOptions.minimumPeak();
        ticker.stage("computing the budget " + budget);
        BudgetChoice chosen = BudgetChoice.resolve(budget, g, s, mpmf, limits);
        CosmaObjective obj = objective;
        if (noPrune) {
            solverOptions.without = solverOptions.without == null ? new ArrayList<>() : new ArrayList<>(solverOptions.without);
            solverOptions.without.add(dev.memplan.formulations.cosma.Technique.PRUNE);
        }
        Schedule fixed = schedule == null ? null : readSchedule(g, schedule);
        ticker.stage("the starting plans (the paper's schemes)");
        Plan start = fixed == null && obj == CosmaObjective.TRAFFIC
                ? bestScheme(full, s, chosen, mpmf, limits) : null;
        ticker.stage("solving at budget " + chosen.bytes());
        CosmaSolver.Options options = solverOptions.cosma(obj, fixed, start);
        // Below the least aligned budget no plan exists: COSMA proves INFEASIBLE at once, without the parts.
        PrintWriter err = spec.commandLine().getErr();
        CosmaResult whole = null;
        if (obj == CosmaObjective.TRAFFIC && fixed == null && chosen.bytes() >= Budgets.minimumFeasible(g)) {
            DivideAndConquer.Options dnc = decomposeOptions.choose(g, options);
            if (dnc != null) {
                whole = decomposeOptions.wholeFirst(full, s, chosen.bytes(), options, limits, err);
                if (whole == null || DecomposeOptions.decomposeAfter(whole, limits)) {
                    List<Plan> starts = new ArrayList<>();
                    if (whole != null && whole.plan() != null) {
                        starts.add(whole.plan());
                    }
                    if (start != null) {
                        starts.add(start);
                    }
                    // Divide and conquer prints its own progress (a line per stage, parts every few seconds).
                    ticker.close();
                    return divideAndConquer(full, s, chosen, dnc, limits, mpmf, starts, whole, began);
                }
            }
        }
        CosmaResult r = whole;
        if (r == null) {
            err.println("solving at budget " + chosen.bytes() + " (Ctrl-C stops and keeps the best checked plan so far) ...");
            err.flush();
            ticker.touch();
            r = CosmaSolver.solve(full, s, chosen.bytes(), options, limits);
        }
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
     * The starting plan: the best of the Belady schemes whose order is known (the default order, and the
     * minimum-peak order when the budget computed it), each run only while the time left allows it (about 0.1 ms
     * per operator, twice over). A scheme spills far less than the just-in-time plan (a 20,000-operator graph:
     * 0.65 MB against 111 MB), so a tight limit that leaves no time for a program still returns a good plan. Null
     * when none ran or packed: COSMA then starts from the just-in-time plan.
     */
    private static Plan bestScheme(Graph full, TensorSetting s, BudgetChoice chosen, MinimumPeakScheduler mpmf,
                                   Limits limits) {
        // The paper's four schemes, as compare runs them, so that solve and compare start COSMA from the same plan
        // (and under a work limit print the same traffic).
        List<String> names = dev.memplan.baselines.replacement.Schemes.PAPER;
        if (chosen.bytes() < Budgets.minimumFeasible(full.withSetting(s))) {
            return null; // no aligned plan exists: COSMA says INFEASIBLE (proven)
        }
        Duration needs = Duration.ofNanos(2 * SCHEME_NANOS_PER_OPERATOR * full.operatorCount());
        Plan best = null;
        for (Scheme scheme : Inputs.schemes(names, mpmf)) {
            Duration left = limits.timeLimit();
            if (left != null && left.compareTo(needs) < 0) {
                break;
            }
            try {
                Plan p = scheme.plan(full, s, chosen.bytes(), limits);
                if (best == null || p.traffic().nonCompulsory() < best.traffic().nonCompulsory()) {
                    best = p;
                }
            } catch (PackingFailedException e) {
                // The arena allocator found no packing at this budget: this scheme has no plan to offer.
            }
        }
        return best;
    }

    private int divideAndConquer(Graph full, TensorSetting s, BudgetChoice chosen, DivideAndConquer.Options dnc,
                                 Limits limits, MinimumPeakScheduler mpmf, List<Plan> starts, CosmaResult whole,
                                 long began) {
        PrintWriter out = Outputs.report(this.out, spec.commandLine());
        Graph g = full.withSetting(s);
        // The whole graph's plan and its starting plan (the best scheme) are starts too: the result is never worse.
        DncRun.Outcome o = DncRun.run(full, s, chosen.bytes(), dnc, limits, mpmf, starts, began,
                spec.commandLine().getErr());
        Table t = new Table("", "");
        t.row("graph", g.name() + " (" + g.operatorCount() + " operators, " + g.tensorCount() + " tensors, setting "
                + s.fileName() + ")");
        t.row("budget", chosen.describe());
        t.row("objective", "traffic, free schedule, divide and conquer (" + decomposeOptions.describe(dnc) + ")");
        t.row("solver", o.result().plan().solver().name() + ", " + solverOptions.describe());
        if (whole != null) {
            t.row("whole graph first", whole.status() + ", traffic " + DncRun.orDash(whole.objective())
                    + String.format(Locale.ROOT, ", %.2f s (--decompose auto)", whole.seconds()));
        }
        DncRun.describe(t, o);
        solverOptions.workRow(t, limits);
        t.printWithoutHeader(out);
        out.println("plan checked: VALID");
        if (this.out != null) {
            Outputs.write(this.out, PlanJson.toJson(o.result().plan()), spec.commandLine().getOut());
            if (!Outputs.isStdout(this.out)) {
                out.println("wrote " + this.out);
            }
        }
        return 0;
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
        Schedule schedule;
        if (text.stripLeading().startsWith("{")) {
            schedule = PlanJson.read(text, file.toString()).schedule();
        } else {
            List<String> names = new ArrayList<>();
            for (String line : text.split("\\R")) {
                if (!line.isBlank() && !line.strip().startsWith("#")) {
                    names.add(line.strip());
                }
            }
            schedule = new Schedule(names);
        }
        try {
            schedule.validate(g);
        } catch (IllegalArgumentException e) {
            throw new UserException(file + ": not a schedule of graph '" + g.name() + "': " + e.getMessage());
        }
        return schedule;
    }
}
