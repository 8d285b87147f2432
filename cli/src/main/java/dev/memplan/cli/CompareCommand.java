package dev.memplan.cli;

import dev.memplan.sweeps.BudgetChoice;
import dev.memplan.sweeps.figures.ComparisonRows;

import dev.memplan.baselines.replacement.PackingFailedException;
import dev.memplan.baselines.replacement.Scheme;
import dev.memplan.baselines.replacement.Schemes;
import dev.memplan.baselines.scheduling.MinimumPeakScheduler;
import dev.memplan.decomposition.CosmaPipeline;
import dev.memplan.decomposition.RecomputeOutcome;
import dev.memplan.formulations.cosma.CosmaObjective;
import dev.memplan.model.Budgets;
import dev.memplan.formulations.milp.Solvers;
import dev.memplan.model.CheckReport;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Objective;
import dev.memplan.model.Plan;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.PlanResult;
import dev.memplan.model.TensorSetting;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code memplan compare}: COSMA against the paper's comparison schemes on one graph and budget. */
@Command(name = "compare", mixinStandardHelpOptions = true,
        description = {"Runs the comparison schemes (schedule x replacement x allocator, COSMA paper Section 5) and COSMA",
            "on one graph and budget, checks every plan and prints per planner: status, non-compulsory traffic, the",
            "reduction COSMA achieves against it, loads, spills, peak address and time. COSMA starts from the best",
            "scheme's plan, so it is never worse than a scheme; OPTIMAL only when the solver proves it.",
            "With --recompute-weight the recompute baselines (checkpointing, DTR) are rows too, and the table adds",
            "recomputes, recompute cost and the objective (traffic + LAMBDA x recompute cost)."})
final class CompareCommand extends CommandBase {
    @Mixin
    GraphInput input;

    @Mixin
    CaseOptions problem;

    @Mixin
    PlannerOptions planners;

    @Option(names = "--csv", paramLabel = "OUT", description = "also write the table as CSV ('-': to standard output, the report to standard error)")
    Path csv;

    @Mixin
    RecomputeOption recompute;

    @Mixin
    SolverOptions solverOptions;

    @Mixin
    DecomposeOptions decomposeOptions;

    @Override
    public Integer call() {
        // The solver libraries load while the graph and the budget are computed, not inside the first solve.
        Solvers.preload();
        Outputs.check(csv, "--csv", true, input.name);
        Double lambda = recompute.lambda();
        PrintWriter out = Outputs.report(csv, spec.commandLine());
        PrintWriter err = err();
        Limits limits = solverOptions.commandLimits();
        if (!planners.noCosma) {
            solverOptions.requireSolver();
        }
        TensorSetting s = problem.setting();
        Graph full;
        Graph g;
        MinimumPeakScheduler mpmf;
        List<Scheme> schemes;
        BudgetChoice chosen;
        // The time limit covers reading the graph and its budget too: they poll the command's clock.
        try (dev.memplan.model.ClockGuard guard = dev.memplan.model.ClockGuard.until(limits.budget())) {
            full = input.read();
            g = full.withSetting(s);
            mpmf = solverOptions.minimumPeak(g);
            schemes = Inputs.schemes(planners.schemeNames(), mpmf);
            chosen = BudgetChoice.resolve(problem.budget, g, s, mpmf, limits);
        }
        // Read and check --decompose before any scheme runs, so that a bad file fails at once.
        CosmaPipeline.Settings settings = planners.noCosma ? null
                : decomposeOptions.settings(g, solverOptions.cosma(CosmaObjective.TRAFFIC, null, null), mpmf)
                        .withRecomputeWeight(lambda);
        out.println("graph " + g.name() + " (" + g.operatorCount() + " operators, " + g.tensorCount() + " tensors, setting "
                + s.fileName() + "), budget " + chosen.describe());
        long feasible = Budgets.minimumFeasible(g);
        if (chosen.bytes() < feasible) {
            out.println("no plan: proven infeasible (alignment " + g.alignment() + ": the busiest operator's tensors,"
                    + " each at a multiple of it, need " + feasible + " bytes)");
            return ExitCode.NO.code();
        }
        List<Row> rows = new ArrayList<>();
        Plan best = null;
        List<Plan> starts = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        for (Scheme scheme : schemes) {
            if (limits.stopped()) {
                notes.add(scheme.name() + " skipped: " + limits.budget().whyStopped());
                continue;
            }
            err.println("running " + scheme.name() + " ...");
            Plan p;
            try {
                p = scheme.plan(full, s, chosen.bytes(), limits);
            } catch (PackingFailedException e) {
                out.println(e.getMessage());
                continue;
            } catch (IllegalArgumentException e) {
                throw new UserException(scheme.name() + ": " + e.getMessage());
            }
            CheckReport r = PlanChecker.requireValid(g, p, scheme.name());
            rows.add(new Row(scheme.name(), "HEURISTIC", r, p.solver().seconds(), scheme.lastSchedule().method()
                    + ", peak " + scheme.lastSchedule().peak()));
            starts.add(p);
            if (best == null || p.traffic().nonCompulsory() < best.traffic().nonCompulsory()) {
                best = p;
            }
        }
        Row cosma = null;
        List<Row> recomputing = new ArrayList<>();
        if (lambda != null && planners.noCosma) {
            for (Scheme scheme : Schemes.recompute(full, lambda)) {
                err.println("running " + scheme.name() + " ...");
                PlanResult p = scheme.solve(full, s, chosen.bytes(), limits);
                if (p.planned()) {
                    recomputing.add(new Row(scheme.name(), p.status().name(), p.check(), p.seconds(), ""));
                } else {
                    notes.add(scheme.name() + ": no plan (" + String.join("; ", p.notes()) + ")");
                }
            }
        }
        if (!planners.noCosma) {
            err.println("running cosma ...");
            // COSMA starts from the scheme rows' plans (the best of them), as solve starts from the paper's schemes.
            CosmaPipeline.Outcome o = new CosmaPipeline(settings, new Heartbeat(err)).run(full, s, chosen.bytes(),
                    limits, starts);
            PlanResult c = o.result();
            c.notes().forEach(n -> notes.add("cosma: " + n));
            if (o.recompute() != null) {
                // The recompute baselines the pipeline ran are rows of their own, beside the spill-only schemes.
                for (RecomputeOutcome.Candidate b : o.recompute().baselines()) {
                    if (b.result().planned()) {
                        recomputing.add(new Row(b.name(), b.result().status().name(), b.result().check(),
                                b.result().seconds(), ""));
                    } else {
                        notes.add(b.name() + ": no plan (" + String.join("; ", b.result().notes()) + ")");
                    }
                }
            }
            if (c.planned() && o.recompute() != null) {
                RecomputeOutcome rc = o.recompute();
                cosma = new Row(c.planner(), c.status().name(), c.check(), c.seconds(), "plan from " + rc.source()
                        + ", bound " + dev.memplan.decomposition.PipelineReport.lowerBound(rc.bound())
                        + String.format(Locale.ROOT, ", gap %.2f%%", 100 * rc.gap()));
            } else if (c.planned()) {
                String note = (o.dnc() == null && o.whole() != null && o.whole().startingPlanOnly()
                        ? "starting plan (best scheme), " : "")
                        + "bound " + dev.memplan.decomposition.PipelineReport.orDash(c.bound()) + (c.gap() == null ? ""
                        : String.format(Locale.ROOT, ", gap %.2f%%", 100 * c.gap()));
                cosma = new Row(c.planner(), c.status().name(), c.check(), c.seconds(), note);
            } else {
                out.println("cosma: " + c.status() + " after " + String.format(Locale.ROOT, "%.2f s", c.seconds())
                        + ", no plan");
            }
        }
        List<Row> all = new ArrayList<>(rows);
        all.addAll(recomputing);
        if (cosma != null) {
            all.add(cosma);
        }
        Table t = lambda == null ? table(all, cosma) : recomputeTable(all, cosma, lambda);
        t.print(out);
        notes.forEach(n -> out.println("note: " + n));
        if (limits.workMode()) {
            out.println("work: " + LimitOptions.workUsed(limits.budget(), solverOptions.limit.workLimit));
        }
        out.println("every plan checked: VALID");
        if (csv != null) {
            Outputs.write(csv, t.csv(), out());
            if (!Outputs.isStdout(csv)) {
                out.println("wrote " + csv);
            }
        }
        return ExitCode.OK.code();
    }

    /** The spill-only table: every planner's traffic and how much less COSMA's is. */
    private static Table table(List<Row> all, Row cosma) {
        Table t = new Table("planner", "status", "non-compulsory", "cosma reduction", "loads", "spills", "peak address",
                "seconds", "notes");
        for (Row r : all) {
            t.row(r.name, r.status, Long.toString(r.report.traffic().nonCompulsory()),
                    cosma == null ? "-" : reduction(cosma.report.traffic().nonCompulsory(), r.report.traffic().nonCompulsory()),
                    Long.toString(r.report.traffic().loads()), Long.toString(r.report.traffic().spills()),
                    Long.toString(r.report.peakAddress()), String.format(Locale.ROOT, "%.2f", r.seconds), r.note);
        }
        return t;
    }

    /**
     * With {@code --recompute-weight}: every planner's traffic, recomputes, recompute cost and objective (traffic +
     * lambda x recompute cost), and how much lower COSMA's objective is.
     */
    private static Table recomputeTable(List<Row> all, Row cosma, double lambda) {
        Table t = new Table("planner", "status", "non-compulsory", "recomputes", "recompute cost", "objective",
                "cosma reduction", "loads", "spills", "peak address", "seconds", "notes");
        Double best = cosma == null ? null : Objective.of(cosma.report.traffic(), lambda).value();
        for (Row r : all) {
            Objective o = Objective.of(r.report.traffic(), lambda);
            t.row(r.name, r.status, Long.toString(r.report.traffic().nonCompulsory()),
                    Long.toString(r.report.traffic().recomputes()), Long.toString(r.report.traffic().recomputeCost()),
                    RecomputeOption.describe(o.value()), best == null ? "-" : reduction(best, o.value()),
                    Long.toString(r.report.traffic().loads()), Long.toString(r.report.traffic().spills()),
                    Long.toString(r.report.peakAddress()), String.format(Locale.ROOT, "%.2f", r.seconds), r.note);
        }
        return t;
    }

    /** How much lower COSMA's objective is than a planner's, as {@link ComparisonRows#reduction} for traffic. */
    static String reduction(double cosma, double other) {
        if (other == 0) {
            return cosma == 0 ? "0.0%" : "-";
        }
        return String.format(Locale.ROOT, "%.1f%%", 100.0 * (other - cosma) / other);
    }

    private record Row(String name, String status, CheckReport report, double seconds, String note) {
    }

    /** How much less traffic COSMA has than a scheme ({@link ComparisonRows#reduction}). */
    static String reduction(long cosma, long scheme) {
        return ComparisonRows.reduction(cosma, scheme);
    }
}
