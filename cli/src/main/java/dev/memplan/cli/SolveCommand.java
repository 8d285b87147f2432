package dev.memplan.cli;

import dev.memplan.decomposition.CosmaPipeline;
import dev.memplan.decomposition.PipelineReport;
import dev.memplan.decomposition.Ticker;
import dev.memplan.formulations.cosma.CosmaObjective;
import dev.memplan.formulations.milp.Solvers;
import dev.memplan.model.Budget;
import dev.memplan.model.Limits;
import dev.memplan.model.PlanResult;
import dev.memplan.model.Schedule;
import dev.memplan.model.SolveStatus;
import dev.memplan.model.io.OperatorLists;
import dev.memplan.model.io.PlanJson;
import dev.memplan.sweeps.SolveCase;
import dev.memplan.sweeps.figures.TextTable;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code memplan solve}: the COSMA program on an open-source solver, as a checked plan. */
@Command(name = "solve", mixinStandardHelpOptions = true,
        description = {"Finds the plan with the least non-compulsory off-chip traffic (COSMA eq. 1-12; eq. 16-17 with",
            "--schedule FILE) or the least peak footprint without spills (eq. 13-15), checks it and prints",
            "status, traffic, bound, gap, time and model size."})
final class SolveCommand extends CommandBase.CaseCommand {
    @Option(names = "--objective", paramLabel = "traffic|peak", defaultValue = "traffic",
            converter = ObjectiveConverter.class, description = "what to minimise (default: ${DEFAULT-VALUE})")
    CosmaObjective objective;

    /** --objective's values, any case. */
    static final class ObjectiveConverter extends SolverOptions.Parsing<CosmaObjective> {
        ObjectiveConverter() {
            super(CosmaObjective::parse);
        }
    }

    @Option(names = "--schedule", paramLabel = "default|FILE",
            description = "fix the schedule: the default order, or a file (a plan JSON, or one operator name per line)")
    String schedule;

    @Option(names = "--out", paramLabel = "PLAN",
            description = {"write the plan (memplan-plan/1; memplan-plan/2 when it recomputes); '-': to standard",
                "output (the report goes to standard error)"})
    Path out;

    /** The older spelling of --without prune, kept so scripts keep working. */
    @Option(names = "--no-prune", hidden = true, description = "the same as --without prune")
    boolean noPrune;

    @Override
    public Integer call() {
        try (Ticker ticker = new Ticker(err(), "reading the graph")) {
            return solve(ticker);
        }
    }

    private Integer solve(Ticker ticker) {
        // The solver libraries load while the graph and the budget are computed, not inside the first solve.
        Solvers.preload();
        Outputs.check(this.out, "--out", true, input.name, schedule);
        if (noPrune) {
            solverOptions.without = solverOptions.without == null ? new ArrayList<>() : new ArrayList<>(solverOptions.without);
            solverOptions.without.add(dev.memplan.formulations.cosma.Technique.PRUNE);
        }
        SolveCase sc = solveCase();
        if (sc.recomputeWeight() != null && objective != CosmaObjective.TRAFFIC) {
            throw new UserException("--recompute-weight weighs recomputes against traffic: it needs --objective "
                    + "traffic, not " + objective.name().toLowerCase());
        }
        Limits limits = sc.commandLimits(Main.started());
        solverOptions.requireSolver();
        SolveCase.Read c = read(sc, limits, ticker, mpmf -> { });
        Schedule fixed = schedule == null ? null : UserException.of(() -> OperatorLists.schedule(c.g(), schedule));
        CosmaPipeline.Settings settings = UserException.of(() -> sc.pipeline(c.g(), sc.cosma(objective, fixed, null),
                c.mpmf()));
        CosmaPipeline.Outcome o = new CosmaPipeline(settings, ticker.pipelineProgress()).run(c.full(), c.s(),
                c.chosen().bytes(), limits, null);
        return report(sc, c, o, limits, fixed);
    }

    /** The report of the run ({@link PipelineReport}), then the plan written when --out asks for it. */
    private int report(SolveCase sc, SolveCase.Read c, CosmaPipeline.Outcome o, Limits limits, Schedule fixed) {
        PrintWriter out = Outputs.report(this.out, spec.commandLine());
        PrintWriter err = spec.commandLine().getErr();
        TextTable t = new TextTable("", "");
        t.row("graph", c.describe());
        t.row("budget", c.chosen().describe());
        String what = o.recompute() == null ? objective.name().toLowerCase()
                : "traffic + " + dev.memplan.model.Objective.number(o.recompute().lambda()) + " x recompute cost";
        t.row("objective", o.dnc() != null
                ? what + ", free schedule, divide and conquer (" + SolveCase.describe(o.dncOptions()) + ")"
                : what + (fixed == null ? ", free schedule" : ", fixed schedule"));
        t.row("solver", PipelineReport.solver(o) + ", " + sc.describe());
        PipelineReport.result(o, objective, sc.pruned()).forEach(r -> t.row(r.label(), r.value()));
        SolverOptions.limitRows(t, sc, limits);
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
                        + (r.gap() == null ? "" : ", gap " + PipelineReport.gap(r.gap())) + ") to " + this.out);
            }
        }
        return ExitCode.OK.code();
    }
}
