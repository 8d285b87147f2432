package dev.memplan.cli;

import dev.memplan.datasets.Examples;
import dev.memplan.datasets.GeneratedGraphs;
import dev.memplan.datasets.onnx.OnnxImport;
import dev.memplan.datasets.zoo.Zoo;
import dev.memplan.model.Graph;
import dev.memplan.model.TensorSetting;
import dev.memplan.model.io.GraphFiles;
import java.nio.file.Files;
import java.nio.file.Path;

/** Where commands get their inputs: a GRAPH argument is a file (memplan-graph/1, COSMA DAG JSON or an ONNX model), an example name, a zoo network name or a generated graph
 * ({@code gen:layered:N[:SEED]}, {@code gen:cells:N[:SEED]}). */
final class Inputs {
    /** Longer time limits are taken as this (about 146 years), so that a deadline in nanoseconds fits a long. */
    private static final double MAX_SECONDS = Long.MAX_VALUE / 1e9 / 2;

    private Inputs() {
    }

    /** Reads a graph from a file, or an example or zoo network by name (a file of that name wins). */
    static Graph graph(String argument) {
        return graph(argument, null);
    }

    /** As {@link #graph(String)}; an {@code .onnx} file is imported with {@code onnx}'s options (null: defaults). */
    static Graph graph(String argument, OnnxOptions onnx) {
        if (argument.isEmpty()) {
            throw new UserException("GRAPH is empty: name a graph file, an example, a zoo network or a generated graph");
        }
        Path file = file(argument);
        if (file != null && Files.isDirectory(file)) {
            throw new UserException(argument + " is a folder, not a graph file");
        }
        if (OnnxImport.isOnnxFile(argument)) {
            if (file == null || !Files.isRegularFile(file)) {
                throw new UserException("no such file: " + argument);
            }
            return OnnxImport.read(file, onnx == null ? OnnxImport.Options.defaults() : onnx.options());
        }
        if (onnx != null && onnx.given()) {
            throw new UserException("--input, --fuse, --bytes-per-element and --opaque apply to an .onnx GRAPH, not to "
                    + argument);
        }
        if (file != null && Files.exists(file)) {
            // Any existing file: a regular file, a named pipe, /dev/stdin or /dev/null (reported as empty).
            return GraphFiles.read(file);
        }
        if (Examples.exists(argument)) {
            return Examples.graph(argument);
        }
        if (Zoo.exists(argument)) {
            return Zoo.graph(argument);
        }
        if (GeneratedGraphs.isGeneratedName(argument)) {
            try {
                return GeneratedGraphs.graph(argument);
            } catch (IllegalArgumentException e) {
                throw new UserException(e.getMessage());
            }
        }
        if (argument.contains("/") || argument.endsWith(".json")) {
            throw new UserException("no such file: " + argument);
        }
        throw new UserException("'" + argument + "' is neither a graph file nor the name of an example (examples: "
                + String.join(", ", Examples.names()) + "), of a zoo network (" + String.join(", ", Zoo.names())
                + ") or of a generated graph (gen:layered:N[:SEED], gen:cells:N[:SEED])");
    }

    /** The path an argument names, or null when it cannot name one (a NUL character). */
    private static Path file(String argument) {
        try {
            return Path.of(argument);
        } catch (java.nio.file.InvalidPathException e) {
            return null;
        }
    }

    /**
     * A time limit given as {@code option} in seconds: null stays null (no limit); NaN, infinities, zero and
     * negative values are refused, since "NaN seconds" would silently mean "no time at all".
     */
    static java.time.Duration timeLimit(Double seconds, String option) {
        if (seconds == null) {
            return null;
        }
        if (!Double.isFinite(seconds) || seconds <= 0) {
            throw new UserException(option + " must be a positive number of seconds, got " + seconds);
        }
        return java.time.Duration.ofNanos(Math.max(1, Math.round(Math.min(seconds, MAX_SECONDS) * 1e9)));
    }

    static TensorSetting setting(String text) {
        TensorSetting s = TensorSetting.fromFileName(text);
        if (s == null) {
            throw new UserException("unknown tensor setting '" + text + "': use 'activations' or 'all'");
        }
        return s;
    }

    /** Zoo network names, each checked to exist. */
    static java.util.List<String> zooNetworks(java.util.List<String> names) {
        for (String n : names) {
            if (!Zoo.exists(n)) {
                throw new UserException("no zoo network named '" + n + "'; networks: " + String.join(", ", Zoo.names()));
            }
        }
        return names;
    }

    /** The schemes of those names (null: the paper's four). */
    static java.util.List<dev.memplan.baselines.replacement.Scheme> schemes(java.util.List<String> names,
            dev.memplan.baselines.scheduling.MinimumPeakScheduler shared) {
        try {
            return dev.memplan.baselines.replacement.Schemes.byNames(
                    names == null ? dev.memplan.baselines.replacement.Schemes.PAPER : names, shared);
        } catch (IllegalArgumentException e) {
            throw new UserException(e.getMessage());
        }
    }
}
