package dev.memplan.cli;

import dev.memplan.datasets.Examples;
import dev.memplan.datasets.RandomGraphs;
import dev.memplan.formulations.cosma.CosmaResult;
import dev.memplan.formulations.cosma.CosmaSolver;
import dev.memplan.formulations.cosma.MinimumPeak;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.model.Budgets;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.TensorSetting;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code memplan bench formulations}: COSMA per graph, budget and back-end: model size before and after the
 * lifetime-window pruning, status, objective, bound and time. Each finished case is appended to the CSV at
 * once (an interrupted run keeps what it finished) and reported on stderr as it completes.
 */
@Command(name = "formulations", mixinStandardHelpOptions = true,
        description = "Runs COSMA on the examples and seeded random graphs at M_R, M_H and M_P with each back-end.")
final class BenchFormulations implements Callable<Integer> {
    private static final String[] HEADER = {"graph", "setting", "budget", "bytes", "backend", "vars before",
        "cons before", "vars after", "cons after", "status", "traffic", "bound", "gap", "seconds"};

    @Spec
    CommandSpec spec;

    @Option(names = "--backends", split = ",", defaultValue = "scip,cpsat,cbc,highs",
            description = "back-ends (default: ${DEFAULT-VALUE})")
    List<String> backends;

    @Option(names = "--random", split = ",", defaultValue = "10,16,24",
            description = "operator counts of seeded random layered graphs (default: ${DEFAULT-VALUE})")
    List<Integer> random;

    @Option(names = "--setting", defaultValue = "all", description = "tensor setting (default: ${DEFAULT-VALUE})")
    String setting;

    @Option(names = "--time-limit", defaultValue = "60", description = "seconds per case (default: ${DEFAULT-VALUE})")
    double timeLimit;

    @Mixin
    BenchCsv csvOption;

    @Override
    public Integer call() {
        Path csv = csvOption.checked();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        TensorSetting s = Inputs.setting(setting);
        // Per solve: each gets its own budget of the limit.
        java.time.Duration limit = Inputs.timeLimit(timeLimit, "--time-limit");
        for (int size : random) {
            if (size < 1) {
                throw new UserException("--random: operator counts must be >= 1, got " + size);
            }
        }
        List<Graph> graphs = new ArrayList<>();
        Examples.names().forEach(n -> graphs.add(Examples.graph(n)));
        for (int size : random) {
            graphs.add(RandomGraphs.layered(size, size, 3, 4, 64, true));
        }
        List<Backend> chosen = backends.stream().map(b -> {
            try {
                return Backend.parse(b);
            } catch (IllegalArgumentException e) {
                throw new UserException(e.getMessage());
            }
        }).toList();
        Table table = new Table(HEADER);
        write(csv, String.join(",", HEADER) + "\n", false);
        for (Graph full : graphs) {
            Graph g = full.withSetting(s);
            long mr = Budgets.minimumRequired(g);
            MinimumPeak.Result mp = MinimumPeak.solve(g, s, Backend.SCIP, Limits.ofWall(limit));
            String[][] budgets = {{"M_R", Long.toString(mr)}, {"M_H", Long.toString(Budgets.halfway(mr, mp.value()))},
                {"M_P", Long.toString(mp.value())}};
            for (String[] budget : budgets) {
                for (Backend backend : chosen) {
                    CosmaResult r = CosmaSolver.solve(g, s, Long.parseLong(budget[1]),
                            CosmaSolver.Options.traffic(backend), Limits.ofWall(limit));
                    String[] row = {g.name(), s.fileName(), budget[0] + (budget[0].equals("M_P")
                            && mp.status() != dev.memplan.model.SolveStatus.OPTIMAL ? "~" : ""), budget[1],
                        backend.id(), count(r.unpruned() == null ? null : r.unpruned().variables()),
                        count(r.unpruned() == null ? null : r.unpruned().constraints()),
                        count(r.pruned() == null ? null : r.pruned().variables()),
                        count(r.pruned() == null ? null : r.pruned().constraints()),
                        r.status().name() + (r.startingPlanOnly() ? "*" : ""),
                        r.objective() == null ? "-" : Long.toString(r.objective()),
                        r.bound() == null ? "-" : Long.toString(r.bound()),
                        r.gap() == null ? "-" : String.format("%.3f", r.gap()), String.format("%.2f", r.seconds())};
                    table.row(row);
                    write(csv, String.join(",", row) + "\n", true);
                    err.println("bench: " + String.join(" ", row));
                    err.flush();
                }
            }
        }
        table.print(out);
        out.println("(* = the starting plan; ~ = M_P not proven, best known value)");
        out.println("wrote " + csv);
        return 0;
    }

    private static String count(Integer value) {
        return value == null ? "-" : value.toString();
    }

    private static void write(Path csv, String text, boolean append) {
        try {
            if (append) {
                Files.writeString(csv, text, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
            } else {
                Files.writeString(csv, text, StandardCharsets.UTF_8);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + csv + ": " + dev.memplan.model.io.AtomicFiles.reason(e), e);
        }
    }
}
