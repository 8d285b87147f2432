package dev.memplan.cli;

import dev.memplan.baselines.replacement.Scheme;
import dev.memplan.decomposition.CosmaPipeline;
import dev.memplan.decomposition.Heartbeat;
import dev.memplan.formulations.cosma.CosmaObjective;
import dev.memplan.formulations.milp.Solvers;
import dev.memplan.model.Budgets;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.sweeps.BudgetChoice;
import dev.memplan.sweeps.Comparison;
import dev.memplan.sweeps.SolveCase;
import dev.memplan.sweeps.figures.TextTable;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
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
final class CompareCommand extends CommandBase.CaseCommand {
    @Mixin
    PlannerOptions planners;

    @Option(names = "--csv", paramLabel = "OUT", description = "also write the table as CSV ('-': to standard output, the report to standard error)")
    Path csv;

    /** The schemes, made with the case's minimum-peak scheduler before its budget is computed. */
    private List<Scheme> schemes;

    @Override
    public Integer call() {
        // The solver libraries load while the graph and the budget are computed, not inside the first solve.
        Solvers.preload();
        Outputs.check(csv, "--csv", true, input.name);
        SolveCase sc = solveCase();
        Double lambda = sc.recomputeWeight();
        PrintWriter out = Outputs.report(csv, spec.commandLine());
        PrintWriter err = err();
        Limits limits = sc.commandLimits(Main.started());
        if (!planners.noCosma) {
            solverOptions.requireSolver();
        }
        SolveCase.Read c = read(sc, limits, null, mpmf -> schemes = Inputs.schemes(planners.schemeNames(), mpmf));
        Graph g = c.g();
        BudgetChoice chosen = c.chosen();
        // Read and check --decompose before any scheme runs, so that a bad file fails at once.
        CosmaPipeline.Settings settings = planners.noCosma ? null
                : UserException.of(() -> sc.pipeline(g, sc.cosma(CosmaObjective.TRAFFIC, null, null), c.mpmf()));
        out.println("graph " + c.describe() + ", budget " + chosen.describe());
        long feasible = Budgets.minimumFeasible(g);
        if (chosen.bytes() < feasible) {
            out.println("no plan: proven infeasible (alignment " + g.alignment() + ": the busiest operator's tensors,"
                    + " each at a multiple of it, need " + feasible + " bytes)");
            return ExitCode.NO.code();
        }
        Comparison.Result result = Comparison.run(c.full(), c.s(), chosen.bytes(), limits, schemes, settings, lambda,
                new Comparison.Listeners(err::println, new Heartbeat(err), out::println));
        TextTable t = TextTable.of(Comparison.table(result, lambda));
        t.print(out);
        result.notes().forEach(n -> out.println("note: " + n));
        if (sc.workUsed(limits) != null) {
            out.println("work: " + sc.workUsed(limits));
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
}
