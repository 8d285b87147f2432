package dev.memplan.cli;

import dev.memplan.baselines.allocation.Allocators;
import dev.memplan.datasets.TrainingTrace;
import dev.memplan.model.LoadBound;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code memplan bench allocators --scale}: every allocator minimising the height of generated training-step
 * traces of 10,000 to 100,000 buffers. Each run is {@code memplan allocate} in a JVM of its own with the
 * default 3 GB heap, so the wall time includes the JVM and the CSV read, and the peak RSS (the child's own
 * VmHWM) is the allocator's. TelaMalloc, which answers feasibility only, packs into 1.001 L.
 */
final class BenchScale {
    private static final Pattern HEIGHT = Pattern.compile("height (\\d+), ([0-9.]+) L.*status (\\w+)");
    private static final Pattern RSS = Pattern.compile("peak RSS (\\d+) KB");

    private final PrintWriter out;
    private final Path csv;
    private final List<String> allocators;
    private final List<Integer> sizes;
    private final double timeLimit;

    BenchScale(PrintWriter out, Path csv, List<String> allocators, List<Integer> sizes, double timeLimit) {
        this.out = out;
        this.csv = csv;
        this.allocators = allocators;
        this.sizes = sizes;
        this.timeLimit = timeLimit;
    }

    int run() {
        for (int n : sizes) {
            if (n < TrainingTrace.MIN_BUFFERS || n > TrainingTrace.MAX_BUFFERS) {
                throw new UserException("--sizes must be " + TrainingTrace.MIN_BUFFERS + ".." + TrainingTrace.MAX_BUFFERS
                        + " buffers, got " + n);
            }
        }
        Table t = new Table("buffers", "allocator", "status", "height", "height/L", "wall s", "peak RSS MB", "exit");
        out.println("each run: memplan allocate gen:trace:N --minimize --time-limit " + timeLimit + " in its own JVM (-Xmx3g)");
        out.flush();
        for (int n : sizes) {
            String trace = "gen:trace:" + n;
            Path file;
            long bound;
            try {
                file = Files.createTempFile("memplan-trace-" + n + "-", ".csv");
                file.toFile().deleteOnExit();
                var set = TrainingTrace.of(trace);
                bound = LoadBound.of(set);
                dev.memplan.model.io.MiniMallocCsv.write(set, file);
            } catch (IOException e) {
                throw new UserException("cannot write a temporary trace: " + e.getMessage());
            }
            out.println(trace + ": L = " + bound);
            for (String name : allocators) {
                List<String> args = new ArrayList<>(List.of("allocate", file.toString(), "--allocator", name,
                        "--time-limit", Double.toString(timeLimit), "--report-peak-rss"));
                if (name.equals("telamalloc")) {
                    args.addAll(List.of("--capacity", Long.toString((long) Math.ceil(bound * 1.001))));
                } else {
                    args.add("--minimize");
                }
                Child c = runChild(args);
                Matcher h = HEIGHT.matcher(c.output);
                Matcher r = RSS.matcher(c.output);
                String status = h.find() ? h.group(3) : c.exit == 4 ? "gave up" : "exit " + c.exit;
                String height = h.find(0) ? h.group(1) : "-";
                String ratio = h.find(0) ? h.group(2) : "-";
                String rss = r.find() ? Long.toString(Long.parseLong(r.group(1)) / 1024) : "-";
                String[] row = {Integer.toString(n), name, status, height, ratio,
                        String.format(Locale.ROOT, "%.1f", c.seconds), rss, Integer.toString(c.exit)};
                t.row(row);
                out.println(String.join("  ", row));
                out.flush();
                t.writeCsv(csv);
            }
            try {
                Files.deleteIfExists(file);
            } catch (IOException ignored) {
                // A temporary file; deleteOnExit tries again.
            }
        }
        out.println();
        t.print(out);
        out.println("wrote " + csv);
        return 0;
    }

    private record Child(int exit, String output, double seconds) {
    }

    private static Child runChild(List<String> args) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "-Xmx3g", "-cp", System.getProperty("java.class.path"),
                Main.class.getName()));
        command.addAll(args);
        long t0 = System.nanoTime();
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int exit = p.waitFor();
            return new Child(exit, output, (System.nanoTime() - t0) / 1e9);
        } catch (IOException e) {
            throw new UserException("cannot start a JVM for the benchmark: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UserException("interrupted");
        }
    }

    static List<String> defaultAllocators() {
        return Allocators.NAMES;
    }
}
