package dev.memplan.cli;

import dev.memplan.baselines.replacement.Schemes;
import dev.memplan.datasets.zoo.Zoo;
import dev.memplan.sweeps.PlannerChoice;
import dev.memplan.sweeps.ResultRow;
import dev.memplan.sweeps.SpecBuilder;
import dev.memplan.sweeps.SweepSpec;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code memplan bench compare}: the paper's comparison (Fig. 3) over zoo networks x budgets x tensor settings:
 * the non-compulsory traffic of each scheme and of COSMA (started from the best scheme, time-limited), every
 * plan checked. It runs the sweep spec {@code bench-compare} (with the axes its options give) and prints a row per
 * network, setting and budget as soon as its cases are done; the CSV is rewritten then, so an interrupted run keeps
 * them ({@code --db} keeps every case and resumes).
 */
@Command(name = "compare", mixinStandardHelpOptions = true,
        description = {"COSMA against the comparison schemes over zoo networks x budgets (M_R, M_H, M_P) x settings;",
            "prints a row per case as it finishes and writes them to a CSV as it goes. Runs the sweep spec",
            "bench-compare ('memplan sweep --builtin bench-compare --print-spec')."})
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

    @Mixin
    BenchCsv csvOption;

    @Option(names = "--plans", paramLabel = "DIR", description = "also write every plan there (memplan-plan/1)")
    Path plans;

    @Mixin
    SolverOptions solverOptions;

    @Mixin
    BenchSweep sweep;

    @Override
    public Integer call() {
        Path csv = csvOption.checked();
        Outputs.checkFolder(plans, "--plans");
        PrintWriter out = spec.commandLine().getOut();
        List<String> nets = Inputs.zooNetworks(networks != null ? networks
                : Zoo.names().stream().filter(n -> !Zoo.entry(n).nas()).toList());
        List<String> schemeNames = schemes == null ? Schemes.PAPER : schemes;
        Inputs.schemes(schemeNames, new dev.memplan.baselines.scheduling.MinimumPeakScheduler());
        settings.forEach(Inputs::setting);
        List<PlannerChoice> planners = new ArrayList<>(schemeNames.stream().map(PlannerChoice::scheme).toList());
        if (!noCosma) {
            planners.add(solverOptions.cosmaPlanner(Map.<String, String>of()));
        }
        SweepSpec sweepSpec = solverOptions.solverAxes(new SpecBuilder("bench-compare").graphs(nets)
                .settings(settings).budgets(budgets).planners(planners)).build();

        List<String> header = new ArrayList<>(List.of("network", "setting", "budget", "bytes"));
        header.addAll(schemeNames);
        header.addAll(List.of("best scheme", "cosma", "cosma status", "cosma bound", "cosma seconds", "reduction vs best"));
        out.println(String.join("  ", header));
        // Rows per (network, setting, budget), in spec order; a line is printed when all its planners are done.
        Map<String, Map<String, ResultRow>> groups = new LinkedHashMap<>();
        for (String n : nets) {
            for (String s : settings) {
                for (String b : budgets) {
                    groups.put(group(n, s, b), new LinkedHashMap<>());
                }
            }
        }
        int perGroup = schemeNames.size() + (noCosma ? 0 : 1);
        Table progressive = new Table(header.toArray(new String[0]));
        Map<String, ResultRow> rows = sweep.run(sweepSpec, plans, spec.commandLine().getErr(), r -> {
            Map<String, ResultRow> g = groups.get(group(r.graph(), r.setting(), r.budget()));
            g.put(r.planner().startsWith("cosma") ? "cosma" : r.planner(), r);
            if (g.size() == perGroup) {
                progressive.row(line(g, schemeNames));
                out.println(String.join("  ", progressive.lastRow()));
                out.flush();
                progressive.writeCsv(csv);
            }
        });
        for (ResultRow r : rows.values()) {
            groups.get(group(r.graph(), r.setting(), r.budget())).put(r.planner().startsWith("cosma") ? "cosma" : r.planner(), r);
        }
        Table table = new Table(header.toArray(new String[0]));
        for (Map<String, ResultRow> g : groups.values()) {
            table.row(line(g, schemeNames));
        }
        table.writeCsv(csv);
        out.println();
        table.print(out);
        out.println("every plan checked: VALID; wrote " + csv);
        return 0;
    }

    private static String group(String network, String setting, String budget) {
        return network + "\u0001" + setting + "\u0001" + budget;
    }

    private String[] line(Map<String, ResultRow> g, List<String> schemeNames) {
        ResultRow any = g.values().iterator().next();
        List<String> row = new ArrayList<>(List.of(any.graph(), any.setting(), any.budget(),
                BenchSweep.text(any.budgetBytes())));
        Long best = null;
        for (String name : schemeNames) {
            ResultRow r = g.get(name);
            row.add(cell(r));
            if (r != null && r.trafficNonCompulsory() != null && (best == null || r.trafficNonCompulsory() < best)) {
                best = r.trafficNonCompulsory();
            }
        }
        row.add(BenchSweep.text(best));
        ResultRow c = g.get("cosma");
        if (c == null) {
            row.addAll(List.of("-", "-", "-", "-", "-"));
        } else {
            row.add(BenchSweep.text(c.trafficNonCompulsory()));
            row.add(c.status() + (c.error() == null ? "" : " (" + c.error() + ")"));
            row.add(BenchSweep.text(c.bound()));
            row.add(String.format(Locale.ROOT, "%.2f", c.seconds()));
            row.add(c.trafficNonCompulsory() == null || best == null ? "-"
                    : CompareCommand.reduction(c.trafficNonCompulsory(), best));
        }
        return row.toArray(new String[0]);
    }

    private static String cell(ResultRow r) {
        if (r == null) {
            return "-";
        }
        if (r.status().equals("ERROR")) {
            return "ERROR (" + r.error() + ")";
        }
        return r.trafficNonCompulsory() == null ? "no packing" : Long.toString(r.trafficNonCompulsory());
    }
}
