package dev.memplan.sweeps.bench;

import dev.memplan.datasets.TrainingTrace;
import dev.memplan.model.BufferSet;
import dev.memplan.model.LoadBound;
import dev.memplan.model.io.MiniMallocCsv;
import dev.memplan.sweeps.SweepException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Every allocator minimising the height of generated training-step traces of 10,000 to 100,000 buffers. Each run
 * is {@code memplan allocate} in a JVM of its own with a 3 GB heap ({@link ChildRun}), so the wall time includes the
 * JVM and the CSV read, and the peak RSS (the child's own VmHWM) is the allocator's. TelaMalloc, which answers
 * feasibility only, packs into 1.001 L.
 */
public final class ScaleBench {
    public static final String[] HEADER = {"buffers", "allocator", "status", "height", "height/L", "wall s",
        "peak RSS MB", "exit"};

    private static final Pattern HEIGHT = Pattern.compile("height (\\d+), ([0-9.]+) L.*status (\\w+)");
    private static final Pattern RSS = Pattern.compile("peak RSS (\\d+) KB");
    /** memplan's exit code for "nothing found within the limits". */
    private static final int GAVE_UP = 4;

    /** The allocators, the trace sizes (buffers), the time limit of each run, and memplan's main class. */
    public record Spec(List<String> allocators, List<Integer> sizes, double timeLimit, String mainClass) {
        public Spec {
            sizes = Bounds.each(sizes, TrainingTrace.MIN_BUFFERS, TrainingTrace.MAX_BUFFERS, "--sizes", "buffers ");
        }
    }

    private ScaleBench() {
    }

    /** Hands a row per size and allocator to {@code rows}; {@code say} gets the lines a reader needs between them. */
    public static void run(Spec spec, Consumer<String[]> rows, Consumer<String> say) {
        say.accept("each run: memplan allocate gen:trace:N --minimize --time-limit " + spec.timeLimit()
                + " in its own JVM (-Xmx3g)");
        for (int n : spec.sizes()) {
            String trace = "gen:trace:" + n;
            Path file;
            long bound;
            try {
                file = Files.createTempFile("memplan-trace-" + n + "-", ".csv");
                file.toFile().deleteOnExit();
                BufferSet set = TrainingTrace.of(trace);
                bound = LoadBound.of(set);
                MiniMallocCsv.write(set, file);
            } catch (IOException e) {
                throw new SweepException("cannot write a temporary trace: " + e.getMessage(), e);
            }
            say.accept(trace + ": L = " + bound);
            for (String name : spec.allocators()) {
                List<String> args = new ArrayList<>(List.of("allocate", file.toString(), "--allocator", name,
                        "--time-limit", Double.toString(spec.timeLimit()), "--report-peak-rss"));
                if (name.equals("telamalloc")) {
                    args.addAll(List.of("--capacity", Long.toString((long) Math.ceil(bound * 1.001))));
                } else {
                    args.add("--minimize");
                }
                ChildRun c = ChildRun.of("-Xmx3g", spec.mainClass(), args);
                String output = c.out() + c.err();
                Matcher h = HEIGHT.matcher(output);
                Matcher r = RSS.matcher(output);
                boolean found = h.find();
                rows.accept(new String[] {Integer.toString(n), name,
                    found ? h.group(3) : c.exit() == GAVE_UP ? "gave up" : "exit " + c.exit(), found ? h.group(1) : "-",
                    found ? h.group(2) : "-", String.format(Locale.ROOT, "%.1f", c.wall()),
                    r.find() ? Long.toString(Long.parseLong(r.group(1)) / 1024) : "-", Integer.toString(c.exit())});
            }
            try {
                Files.deleteIfExists(file);
            } catch (IOException ignored) {
                // A temporary file; deleteOnExit tries again.
            }
        }
    }
}
