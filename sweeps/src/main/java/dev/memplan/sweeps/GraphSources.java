package dev.memplan.sweeps;

import dev.memplan.datasets.Examples;
import dev.memplan.datasets.GeneratedGraphs;
import dev.memplan.datasets.TrainingGraphs;
import dev.memplan.datasets.onnx.OnnxImport;
import dev.memplan.datasets.zoo.Zoo;
import dev.memplan.model.Graph;
import dev.memplan.model.io.GraphFiles;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Graphs by what a user writes: a file (memplan-graph/1, COSMA DAG JSON, or an ONNX model imported with the
 * default options), the name of an example, of a zoo
 * network, or of a generated graph ({@code gen:layered:N[:SEED]}, {@code gen:cells:N[:SEED]}); any of them followed
 * by {@code :train} or {@code :train+update} is the graph of one training step ({@link TrainingGraphs}). A file of
 * that name wins. Every command and every sweep reads its graphs here.
 */
public final class GraphSources {

    private GraphSources() {
    }

    /** Whether the text names an example, a zoo network or a well-formed generated graph (not a file). */
    public static boolean isName(String text) {
        if (Examples.exists(text) || Zoo.exists(text)) {
            return true;
        }
        TrainingGraphs.Name training = TrainingGraphs.parse(text);
        return training != null ? isName(training.base()) : GeneratedGraphs.isWellFormedName(text);
    }

    /**
     * The graph of that file or name.
     *
     * @throws SweepException naming what exists when the text is neither
     */
    public static Graph graph(String argument) {
        return graph(argument, OnnxImport.Options.defaults());
    }

    /** As {@link #graph(String)}, an ONNX model (also as {@code MODEL.onnx:train}) imported with {@code onnx}. */
    public static Graph graph(String argument, OnnxImport.Options onnx) {
        if (argument.isEmpty()) {
            throw new SweepException("GRAPH is empty: name a graph file, an example, a zoo network or a generated graph");
        }
        Path file = file(argument);
        if (file != null && Files.isDirectory(file)) {
            throw new SweepException(argument + " is a folder, not a graph file");
        }
        if (OnnxImport.isOnnxFile(argument)) {
            if (file == null || !Files.isRegularFile(file)) {
                throw new SweepException("no such file: " + argument);
            }
            return OnnxImport.read(file, onnx);
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
        TrainingGraphs.Name training = TrainingGraphs.parse(argument);
        if (training != null) {
            return training(training, graph(training.base(), onnx));
        }
        if (GeneratedGraphs.isGeneratedName(argument)) {
            try {
                return GeneratedGraphs.graph(argument);
            } catch (IllegalArgumentException e) {
                throw new SweepException(e.getMessage());
            }
        }
        if (argument.contains("/") || argument.endsWith(".json")) {
            throw new SweepException("no such file: " + argument);
        }
        throw new SweepException("'" + argument + "' is neither a graph file nor the name of an example (examples: "
                + String.join(", ", Examples.names()) + "), of a zoo network (" + String.join(", ", Zoo.names())
                + ") or of a generated graph (gen:layered:N[:SEED], gen:cells:N[:SEED]), optionally followed by"
                + " :train or :train+update");
    }

    /** The training step of {@code forward}, as {@code name} asks. */
    public static Graph training(TrainingGraphs.Name name, Graph forward) {
        try {
            return TrainingGraphs.of(forward, name.step());
        } catch (IllegalArgumentException e) {
            throw new SweepException(e.getMessage());
        }
    }

    /** The path an argument names, or null when it cannot name one (a NUL character). */
    private static Path file(String argument) {
        try {
            return Path.of(argument);
        } catch (java.nio.file.InvalidPathException e) {
            return null;
        }
    }
}
