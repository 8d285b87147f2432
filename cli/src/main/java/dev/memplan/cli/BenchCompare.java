package dev.memplan.cli;

import dev.memplan.baselines.replacement.PackingFailedException;
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
import dev.memplan.model.TensorSetting;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code memplan bench compare}: the paper's comparison (Fig. 3) over zoo networks x budgets x tensor settings:
 * the non-compulsory traffic of each scheme and of COSMA (started from the best scheme, time-limited), every
 * plan checked. Rows are printed and appended to the CSV as they finish, so an interrupted run keeps them.
 */
@Command(name = "compare", mixinStandardHelpOptions = true,
        description = {"COSMA against the comparison schemes over zoo networks x budgets (M_R, M_H, M_P) x settings;",
            "prints a row per case as it finishes and writes them to a CSV as it goes."})
final class BenchCompare implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--networks", split = ",", paramLabel = "N1,N2,...",
            description = "zoo networks (default: the ten human-designed ones)")
    List<String> networks;

    @Option(names = "--budgets", split = ",", defaultValue = "M_R,M_H,M_P", paramLabel = "B1,...",
            description = "budgets (default: ${DEFAULT-VALUE})")
    List<String> budgets;

    @Option(names = "--settings", split = ",", defaultValue = "activations,all", paramLabel = "S1,...",
            description = "tensor settings (default: ${DEFAULT-VALUE})")
    List<String> settings;

    @Option(names = "--schemes", split = ",", paramLabel = "S1,...", description = "schemes (default: the paper's four)")
    List<String> schemes;

    @Option(names = "--no-cosma", description = "schemes only")
    boolean noCosma;

    @Option(names = "--csv", defaultValue = "bench-compare.csv", paramLabel = "OUT",
            description = "CSV written as rows finish (default: ${DEFAULT-VALUE})")
    Path csv;

    @Mixin
    SolverOptions solverOptions;

    @Override
    public Integer call() {
        Outputs.check(csv, "--csv", false);
        PrintWriter out = spec.commandLine().getOut();
        List<String> nets = Inputs.zooNetworks(networks != null ? networks
                : Zoo.names().stream().filter(n -> !Zoo.entry(n).nas()).toList());
        List<String> schemeNames = schemes == null ? Schemes.PAPER : schemes;
        MinimumPeakScheduler mpmf = new MinimumPeakScheduler(MinimumPeakScheduler.DEFAULT_BEAM, solverOptions.backend());
        List<Scheme> planners = Inputs.schemes(schemeNames, mpmf);
        List<String> header = new ArrayList<>(List.of("network", "setting", "budget", "bytes"));
        for (String name : schemeNames) {
            header.add(name);
        }
        header.addAll(List.of("best scheme", "cosma", "cosma status", "cosma bound", "cosma seconds", "reduction vs best"));
        Table table = new Table(header.toArray(new String[0]));
        Limits limits = solverOptions.limits();
        out.println(String.join("  ", header));
        for (String net : nets) {
            Graph full = Zoo.graph(net);
            for (String settingName : settings) {
                TensorSetting s = Inputs.setting(settingName);
                Graph g = full.withSetting(s);
                for (String b : budgets) {
                    BudgetChoice chosen = BudgetChoice.resolve(b, g, s, mpmf, limits);
                    List<String> row = new ArrayList<>(List.of(net, s.fileName(), chosen.name(), Long.toString(chosen.bytes())));
                    Plan best = null;
                    for (Scheme scheme : planners) {
                        Plan p;
                        try {
                            p = scheme.plan(full, s, chosen.bytes(), limits);
                        } catch (PackingFailedException e) {
                            row.add("no packing");
                            continue;
                        }
                        PlanChecker.requireValid(g, p, scheme.name());
                        row.add(Long.toString(p.traffic().nonCompulsory()));
                        if (best == null || p.traffic().nonCompulsory() < best.traffic().nonCompulsory()) {
                            best = p;
                        }
                    }
                    long bestTraffic = best.traffic().nonCompulsory();
                    row.add(Long.toString(bestTraffic));
                    if (noCosma) {
                        row.addAll(List.of("-", "-", "-", "-", "-"));
                    } else {
                        CosmaResult c = CosmaSolver.solve(full, s, chosen.bytes(),
                                solverOptions.cosma(CosmaObjective.TRAFFIC, null, true, best), limits);
                        PlanChecker.requireValid(g, c.plan(), "cosma");
                        long traffic = c.plan().traffic().nonCompulsory();
                        row.add(Long.toString(traffic));
                        row.add(c.status().name() + (c.startingPlanOnly() ? " (start)" : ""));
                        row.add(c.bound() == null ? "-" : Long.toString(c.bound()));
                        row.add(String.format(Locale.ROOT, "%.2f", c.seconds()));
                        row.add(CompareCommand.reduction(traffic, bestTraffic));
                    }
                    table.row(row.toArray(new String[0]));
                    out.println(String.join("  ", row));
                    out.flush();
                    table.writeCsv(csv);
                }
            }
        }
        out.println();
        table.print(out);
        out.println("every plan checked: VALID; wrote " + csv);
        return 0;
    }
}
