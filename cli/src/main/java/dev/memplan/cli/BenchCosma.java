package dev.memplan.cli;

import dev.memplan.baselines.replacement.Scheme;
import dev.memplan.baselines.scheduling.MinimumPeakScheduler;
import dev.memplan.baselines.replacement.Schemes;
import dev.memplan.datasets.zoo.Zoo;
import dev.memplan.formulations.cosma.CosmaObjective;
import dev.memplan.formulations.cosma.CosmaResult;
import dev.memplan.formulations.cosma.CosmaSolver;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Plan;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.Schedule;
import dev.memplan.model.TensorSetting;
import dev.memplan.model.io.PlanJson;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code memplan bench cosma}: COSMA on the zoo at M_R, M_H, M_P (issue "COSMA at scale"). Human-designed
 * networks with a free schedule in both tensor settings; NAS networks (activations) with the schedule fixed to
 * the default order and to the minimum-peak order, as the paper's Table II. Each case starts from the best of
 * the paper's schemes (on the same schedule when it is fixed) and gets its own time limit; every plan is
 * checked. Rows are printed and the CSV and Markdown files rewritten as they finish.
 */
@Command(name = "cosma", mixinStandardHelpOptions = true,
        description = {"COSMA on zoo networks x budgets: status, traffic, bound, gap, time, model size, encoding and",
            "back-end per case; CSV and Markdown written as rows finish."})
final class BenchCosma implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--networks", split = ",", paramLabel = "N1,...",
            description = "zoo networks (default: all 14; NAS ones get fixed schedules)")
    List<String> networks;

    @Option(names = "--budgets", split = ",", defaultValue = "M_R,M_H,M_P", paramLabel = "B1,...",
            description = "budgets (default: ${DEFAULT-VALUE})")
    List<String> budgets;

    @Option(names = "--settings", split = ",", defaultValue = "activations,all", paramLabel = "S1,...",
            description = "tensor settings for human-designed networks; NAS networks use activations, as the paper "
                    + "(default: ${DEFAULT-VALUE})")
    List<String> settings;

    @Option(names = "--csv", defaultValue = "bench-cosma.csv", paramLabel = "OUT", description = "(default: ${DEFAULT-VALUE})")
    Path csv;

    @Option(names = "--markdown", paramLabel = "OUT.md", description = "also write the table as Markdown")
    Path markdown;

    @Option(names = "--plans", paramLabel = "DIR",
            description = "also write each plan (memplan-plan/1) as DIR/NETWORK-SETTING-BUDGET-SCHEDULE.json, to check "
                    + "with 'memplan check NETWORK PLAN'")
    Path plans;

    @Mixin
    SolverOptions solverOptions;

    @Override
    public Integer call() {
        Outputs.check(csv, "--csv", false);
        Outputs.check(markdown, "--markdown", false);
        Outputs.checkFolder(plans, "--plans");
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        List<String> nets = Inputs.zooNetworks(networks != null ? networks : Zoo.names());
        Limits limits = solverOptions.limits();
        String[] header = {"network", "setting", "budget", "bytes", "schedule", "start", "status", "traffic", "bound",
            "gap", "seconds", "variables", "constraints", "encoding", "back-end"};
        Table table = new Table(header);
        out.println(String.join("  ", header));
        MinimumPeakScheduler mpmf = new MinimumPeakScheduler(MinimumPeakScheduler.DEFAULT_BEAM, solverOptions.backend());
        List<Scheme> paper = Inputs.schemes(Schemes.PAPER, mpmf);
        for (String net : nets) {
            boolean nas = Zoo.entry(net).nas();
            Graph full = Zoo.graph(net);
            for (String settingName : nas ? List.of("activations") : settings) {
                TensorSetting s = Inputs.setting(settingName);
                Graph g = full.withSetting(s);
                for (String b : budgets) {
                    BudgetChoice chosen = BudgetChoice.resolve(b, g, s, mpmf, limits);
                    for (String scheduler : nas ? List.of("default", "mpmf") : List.of("free")) {
                        err.println(net + " " + s.fileName() + " " + chosen.name() + " " + scheduler + " ...");
                        Plan start = null;
                        Schedule fixed = null;
                        for (Scheme planner : paper) {
                            if (!scheduler.equals("free") && !planner.name().startsWith(scheduler + "/")) {
                                continue;
                            }
                            Plan p = planner.plan(full, s, chosen.bytes(), limits);
                            if (start == null || p.traffic().nonCompulsory() < start.traffic().nonCompulsory()) {
                                start = p;
                            }
                            if (!scheduler.equals("free")) {
                                fixed = planner.lastSchedule().schedule();
                            }
                        }
                        CosmaResult c = CosmaSolver.solve(full, s, chosen.bytes(),
                                solverOptions.cosma(CosmaObjective.TRAFFIC, fixed, true, start), limits);
                        PlanChecker.requireValid(g, c.plan(), "cosma");
                        if (plans != null) {
                            writePlan(c.plan(), net + "-" + s.fileName() + "-" + chosen.name() + "-" + scheduler);
                        }
                        table.row(net, s.fileName(), chosen.name(), Long.toString(chosen.bytes()), scheduler,
                                Long.toString(start.traffic().nonCompulsory()),
                                c.status().name() + (c.startingPlanOnly() ? " (start)" : ""),
                                Long.toString(c.plan().traffic().nonCompulsory()),
                                c.bound() == null ? "-" : Long.toString(c.bound()),
                                c.gap() == null ? "-" : String.format(Locale.ROOT, "%.2f%%", 100 * c.gap()),
                                String.format(Locale.ROOT, "%.2f", c.seconds()),
                                c.pruned() == null ? "-" : Integer.toString(c.pruned().variables()),
                                c.pruned() == null ? "-" : Integer.toString(c.pruned().constraints()),
                                solverOptions.encodingLabel(), c.backend());
                        out.println(String.join("  ", table.lastRow()));
                        out.flush();
                        table.writeCsv(csv);
                        if (markdown != null) {
                            table.writeMarkdown(markdown);
                        }
                    }
                }
            }
        }
        out.println();
        table.print(out);
        out.println("every plan checked: VALID; wrote " + csv + (markdown == null ? "" : " and " + markdown));
        return 0;
    }

    private void writePlan(Plan plan, String name) {
        PlanJson.write(plan, plans.resolve(name + ".json"));
    }
}
