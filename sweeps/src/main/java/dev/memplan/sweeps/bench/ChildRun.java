package dev.memplan.sweeps.bench;

import dev.memplan.sweeps.SweepException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A memplan command run in a JVM of its own, and what it printed and cost: the wall time from process start to
 * exit (JVM start included), the CPU time it got (utime + stime of /proc/PID/stat) and its peak resident memory
 * (VmHWM of /proc/PID/status), both polled every 50 ms: on a loaded machine a child that got little CPU overruns
 * its limit in start-up, which the CPU time shows.
 */
public record ChildRun(int exit, String out, String err, double wall, double cpu, long peakKb) {
    /** Clock ticks per second of /proc/PID/stat (USER_HZ, 100 on Linux). */
    private static final double TICKS = 100.0;

    /**
     * Runs {@code mainClass} with {@code args} in a JVM of this one's runtime and class path, with the JVM options
     * {@code javaOpts} (split at white space).
     */
    public static ChildRun of(String javaOpts, String mainClass, List<String> args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String opt : javaOpts.trim().split("\\s+")) {
            if (!opt.isEmpty()) {
                cmd.add(opt);
            }
        }
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass));
        cmd.addAll(args);
        long began = System.nanoTime();
        Process p;
        try {
            p = new ProcessBuilder(cmd).start();
        } catch (IOException e) {
            throw new SweepException("cannot start a JVM for the benchmark: " + e.getMessage(), e);
        }
        CompletableFuture<String> stdout = CompletableFuture.supplyAsync(() -> read(p.getInputStream()));
        CompletableFuture<String> stderr = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
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
                throw new SweepException("interrupted");
            }
        }
        double wall = (System.nanoTime() - began) / 1e9;
        return new ChildRun(p.exitValue(), stdout.join(), stderr.join(), wall, cpu, peak);
    }

    /**
     * What went wrong, in the child's own words: after a failure the first line of its standard error that says
     * "error" (else its first line), without memplan's prefix; "-" after a success or when it said nothing.
     */
    public String errorLine() {
        if (exit == 0) {
            return "-";
        }
        List<String> lines = err.lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
        String line = lines.stream().filter(l -> l.toLowerCase(java.util.Locale.ROOT).contains("error")).findFirst()
                .orElse(lines.isEmpty() ? "-" : lines.get(0));
        return line.startsWith("memplan: ") ? line.substring("memplan: ".length()) : line;
    }

    private static String read(InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

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

    /** This process's peak resident set in kB (VmHWM, Linux), native memory included; -1 elsewhere. */
    public static long peakRssKb() {
        long kb = highWaterMark(Path.of("/proc/self/status"));
        return kb == 0 ? -1 : kb;
    }

    /** VmHWM in kB, or 0 when the process is gone (or the system has no /proc). */
    static long highWaterMark(Path status) {
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
