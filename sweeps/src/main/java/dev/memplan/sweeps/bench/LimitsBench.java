package dev.memplan.sweeps.bench;

import dev.memplan.datasets.zoo.Zoo;
import dev.memplan.sweeps.GraphSources;
import dev.memplan.sweeps.SweepException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Whether --time-limit and the default heap hold as a user sees them. Each case runs the real command
 * ({@code memplan solve GRAPH --budget B --time-limit L --out FILE}) in a child JVM ({@link ChildRun}), so JVM
 * start, graph building, the budget, every step, checking and writing count; a row has its wall time, CPU time and
 * peak memory, the status, traffic, gap and notes it printed, and its first error line when it failed. The target
 * (issue 12): wall <= limit + 3 s and peak memory < 4 GB for every zoo network and generated graphs up to 20,000
 * operators.
 */
public final class LimitsBench {
    public static final String[] HEADER = {"graph", "operators", "limit s", "wall s", "over s", "cpu s", "peak MB",
        "exit", "status", "traffic", "gap", "notes", "error"};

    private static final Pattern ROW = Pattern.compile("^(status|non-compulsory traffic|gap|graph)\\s{2,}(.*)$");
    private static final Pattern OPERATORS = Pattern.compile("\\((\\d+) operators");
    /** memplan's exit code for a user mistake. */
    private static final int USER_MISTAKE = 2;

    /**
     * The graphs (null: every zoo network, then gen:layered:2000, 5000 and 20000; each a file or a name, checked
     * now), the time limits in seconds, the budget, the children's JVM options, more solve arguments, and the class
     * whose main method is {@code memplan}.
     */
    public record Spec(List<String> graphs, List<Double> limits, String budget, String javaOpts, String solveArgs,
                       String mainClass) {
        public Spec {
            for (double limit : limits) {
                if (!(limit > 0) || Double.isInfinite(limit)) {
                    throw new SweepException("--limits must be positive seconds, got " + limit);
                }
            }
            if (graphs == null) {
                graphs = new ArrayList<>(Zoo.names());
                graphs.addAll(List.of("gen:layered:2000", "gen:layered:5000", "gen:layered:20000"));
            }
            for (String g : graphs) {
                if (!GraphSources.isName(g) && !Files.exists(Path.of(g))) {
                    GraphSources.graph(g); // neither a name nor a file: its message names what exists
                }
            }
            graphs = List.copyOf(graphs);
        }
    }

    private LimitsBench() {
    }

    /**
     * Runs every case, writing the child's plan into {@code dir}; hands a row per case to {@code rows}, says on
     * {@code err} which case starts. Returns the first error line of a case whose arguments memplan refused (exit
     * 2: a user mistake, e.g. in --solve-args or --budget), or null.
     */
    public static String run(Spec spec, Path dir, Consumer<String[]> rows, PrintWriter err) {
        String refused = null;
        for (double limit : spec.limits()) {
            for (String graph : spec.graphs()) {
                err.println(graph + " --time-limit " + seconds(limit) + " ...");
                List<String> args = new ArrayList<>(List.of("solve", graph, "--budget", spec.budget(), "--time-limit",
                        Double.toString(limit), "--out", dir.resolve("plan.json").toString()));
                for (String arg : spec.solveArgs().trim().split("\\s+")) {
                    if (!arg.isEmpty()) {
                        args.add(arg);
                    }
                }
                ChildRun c = ChildRun.of(spec.javaOpts(), spec.mainClass(), args);
                rows.accept(row(graph, limit, c));
                if (c.exit() == USER_MISTAKE && refused == null) {
                    refused = graph + ": " + c.errorLine();
                }
            }
        }
        return refused;
    }

    private static String[] row(String graph, double limit, ChildRun c) {
        String operators = "-";
        String status = "-";
        String traffic = "-";
        String gap = "-";
        int notes = 0;
        for (String line : c.out().split("\\R")) {
            if (line.startsWith("note ")) {
                notes++;
            }
            Matcher m = ROW.matcher(line);
            if (!m.find()) {
                continue;
            }
            String value = m.group(2).trim();
            switch (m.group(1)) {
                case "graph" -> {
                    Matcher n = OPERATORS.matcher(value);
                    operators = n.find() ? n.group(1) : "-";
                }
                case "status" -> status = value.split("\\s")[0];
                case "non-compulsory traffic" -> traffic = value;
                default -> gap = value;
            }
        }
        return new String[] {graph, operators, seconds(limit), String.format(Locale.ROOT, "%.2f", c.wall()),
            String.format(Locale.ROOT, "%+.2f", c.wall() - limit), String.format(Locale.ROOT, "%.2f", c.cpu()),
            Long.toString(c.peakKb() / 1024), Integer.toString(c.exit()), status, traffic, gap, Integer.toString(notes),
            c.errorLine()};
    }

    private static String seconds(double seconds) {
        return seconds == Math.rint(seconds) ? Long.toString((long) seconds) : Double.toString(seconds);
    }
}
