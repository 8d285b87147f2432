package dev.memplan.cli;

import dev.memplan.datasets.zoo.Zoo;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code memplan bench limits}: whether --time-limit and the default heap hold as a user sees them. Each case runs
 * the real command ({@code memplan solve GRAPH --budget B --time-limit L --out FILE}) in a child JVM, so JVM start,
 * graph building, the budget, every step, checking and writing count; it measures the wall time from process start
 * to exit, the peak resident memory (VmHWM of /proc/PID/status) and the CPU time the child got (utime + stime of
 * /proc/PID/stat; both polled every 50 ms: on a loaded machine a child that got little CPU overruns its limit in
 * start-up and checking, which this column shows), and reads the status, traffic, gap and notes it printed. The target (issue 12): wall <= limit + 3 s and peak memory < 4 GB
 * for every zoo network and generated graphs up to 20,000 operators.
 */
@Command(name = "limits", mixinStandardHelpOptions = true,
        description = {"Runs 'memplan solve GRAPH --budget B --time-limit L --out FILE' in a child JVM per case and",
            "measures wall time (JVM start included) against the limit and peak resident memory (VmHWM)."})
final class BenchLimits extends CommandBase.Bench {
    private static final Pattern ROW = Pattern.compile("^(status|non-compulsory traffic|gap|graph)\\s{2,}(.*)$");

    @Option(names = "--graphs", split = ",", paramLabel = "G1,...",
            description = "graphs (default: every zoo network, then gen:layered:2000, gen:layered:5000, gen:layered:20000)")
    List<String> graphs;

    @Option(names = "--limits", split = ",", defaultValue = "5,20,120", paramLabel = "S1,...",
            description = "time limits in seconds (default: ${DEFAULT-VALUE})")
    List<Double> limits;

    @Option(names = "--budget", defaultValue = "M_H", paramLabel = "M_R|M_H|M_P|BYTES",
            description = "budget (default: ${DEFAULT-VALUE})")
    String budget;

    @Option(names = "--java-opts", defaultValue = "-Xmx3g", paramLabel = "OPTS",
            description = "JVM options of each child, as the launcher's default (default: ${DEFAULT-VALUE})")
    String javaOpts;

    @Option(names = "--solve-args", paramLabel = "ARGS", defaultValue = "",
            description = "more arguments for each solve, e.g. '--decompose none' or '--setting all' (default: none)")
    String solveArgs;

    @Override
    List<String> inputs() {
        return graphs;
    }

    @Override
    Integer run(Path csv, PrintWriter out) throws IOException {
        PrintWriter err = err();
        for (double limit : limits) {
            if (!(limit > 0) || Double.isInfinite(limit)) {
                throw new UserException("--limits must be positive seconds, got " + limit);
            }
        }
        List<String> names = graphs != null ? graphs : defaultGraphs();
        String[] header = {"graph", "operators", "limit s", "wall s", "over s", "cpu s", "peak MB", "exit", "status",
            "traffic", "gap", "notes"};
        Table table = new Table(header);
        out.println(String.join("  ", header));
        Path dir = Files.createTempDirectory("memplan-bench-limits");
        try {
            for (double limit : limits) {
                for (String graph : names) {
                    err.println(graph + " --time-limit " + fmt(limit) + " ...");
                    Case c = run(graph, limit, dir.resolve("plan.json"));
                    table.row(graph, c.operators, fmt(limit), String.format(Locale.ROOT, "%.2f", c.wall),
                            String.format(Locale.ROOT, "%+.2f", c.wall - limit),
                            String.format(Locale.ROOT, "%.2f", c.cpu), Long.toString(c.peakKb / 1024), Integer.toString(c.exit), c.status, c.traffic, c.gap,
                            Integer.toString(c.notes));
                    out.println(String.join("  ", table.lastRow()));
                    out.flush();
                    table.writeCsv(csv);
                }
            }
        } finally {
            Files.deleteIfExists(dir.resolve("plan.json"));
            Files.deleteIfExists(dir);
        }
        out.println();
        table.print(out);
        out.println("wrote " + csv);
        return 0;
    }

    private static List<String> defaultGraphs() {
        List<String> all = new ArrayList<>(Zoo.names());
        all.addAll(List.of("gen:layered:2000", "gen:layered:5000", "gen:layered:20000"));
        return all;
    }

    private static String fmt(double seconds) {
        return seconds == Math.rint(seconds) ? Long.toString((long) seconds) : Double.toString(seconds);
    }

    /** What one child run printed and cost. */
    private record Case(double wall, double cpu, long peakKb, int exit, String operators, String status, String traffic,
                        String gap, int notes) {
    }

    private Case run(String graph, double limit, Path plan) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String opt : javaOpts.trim().split("\\s+")) {
            if (!opt.isEmpty()) {
                cmd.add(opt);
            }
        }
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName(), "solve", graph,
                "--budget", budget, "--time-limit", Double.toString(limit), "--out", plan.toString()));
        for (String arg : solveArgs.trim().split("\\s+")) {
            if (!arg.isEmpty()) {
                cmd.add(arg);
            }
        }
        long began = System.nanoTime();
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        CompletableFuture<String> stdout = CompletableFuture.supplyAsync(() -> read(p.getInputStream()));
        long peak = 0;
        double cpu = 0;
        Path status = Path.of("/proc", Long.toString(p.pid()), "status");
        Path stat = Path.of("/proc", Long.toString(p.pid()), "stat");
        while (p.isAlive()) {
            peak = Math.max(peak, highWaterMark(status));
            cpu = Math.max(cpu, cpuSeconds(stat));
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                p.destroy();
                Thread.currentThread().interrupt();
                throw new UserException("interrupted");
            }
        }
        int exit = p.exitValue();
        double wall = (System.nanoTime() - began) / 1e9;
        String text = stdout.join();
        String operators = "-";
        String st = "-";
        String traffic = "-";
        String gap = "-";
        int notes = 0;
        for (String line : text.split("\\R")) {
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
                    Matcher n = Pattern.compile("\\((\\d+) operators").matcher(value);
                    operators = n.find() ? n.group(1) : "-";
                }
                case "status" -> st = value.split("\\s")[0];
                case "non-compulsory traffic" -> traffic = value;
                default -> gap = value;
            }
        }
        return new Case(wall, cpu, peak, exit, operators, st, traffic, gap, notes);
    }

    private static String read(InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Clock ticks per second of /proc/PID/stat (USER_HZ, 100 on Linux). */
    private static final double TICKS = 100.0;

    /** User and system CPU seconds so far (fields 14 and 15 of /proc/PID/stat), or 0 when gone. */
    private static double cpuSeconds(Path stat) {
        try {
            String text = Files.readString(stat);
            // The command name (field 2) is in parentheses and may hold spaces: count fields after it.
            String[] fields = text.substring(text.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / TICKS;
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /** VmHWM in kB, or 0 when the process is gone (or the system has no /proc). */
    private static long highWaterMark(Path status) {
        try {
            for (String line : Files.readAllLines(status)) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (IOException | UncheckedIOException | NumberFormatException e) {
            return 0;
        }
        return 0;
    }
}
