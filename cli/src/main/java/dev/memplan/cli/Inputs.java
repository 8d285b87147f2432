package dev.memplan.cli;

import dev.memplan.datasets.onnx.OnnxImport;
import dev.memplan.datasets.zoo.Zoo;
import dev.memplan.model.Graph;
import dev.memplan.model.TensorSetting;
import dev.memplan.sweeps.GraphSources;
import java.nio.file.Files;
import java.nio.file.Path;

/** Where commands get their inputs: a GRAPH argument is a file (memplan-graph/1, COSMA DAG JSON or an ONNX model), an example name, a zoo network name or a generated graph
 * ({@code gen:layered:N[:SEED]}, {@code gen:cells:N[:SEED]}). */
final class Inputs {
    private Inputs() {
    }

    /** Reads a graph from a file, or an example, zoo network or generated graph by name (a file of that name wins). */
    static Graph graph(String argument) {
        return graph(argument, null);
    }

    /** As {@link #graph(String)}; an {@code .onnx} file is imported with {@code onnx}'s options (null: defaults). */
    static Graph graph(String argument, OnnxOptions onnx) {
        // model.onnx:train imports the model with the options, then builds its training step
        dev.memplan.datasets.TrainingGraphs.Name training = dev.memplan.datasets.TrainingGraphs.parse(argument);
        String model = training != null && OnnxImport.isOnnxFile(training.base()) ? training.base() : argument;
        if (onnx != null && onnx.given() && !OnnxImport.isOnnxFile(model)) {
            throw new UserException("--input, --fuse, --bytes-per-element and --opaque apply to an .onnx GRAPH, not to "
                    + argument);
        }
        if (onnx != null && OnnxImport.isOnnxFile(model) && Files.isRegularFile(Path.of(model))) {
            Graph g = OnnxImport.read(Path.of(model), onnx.options());
            return model.equals(argument) ? g : GraphSources.training(training, g);
        }
        return GraphSources.graph(argument);
    }

    /**
     * The plan in {@code file}, to be read against {@code g} ({@code doing}: "checking" or "drawing"): in --setting's
     * setting when that is given, with a note on {@code out} when it differs from the plan's own, and a note when the
     * plan names another graph.
     */
    static dev.memplan.model.Plan plan(Path file, Graph g, SettingOption setting, java.io.PrintWriter out,
                                       String doing) {
        dev.memplan.model.Plan p = dev.memplan.model.io.PlanJson.read(file);
        TensorSetting s = setting.or(p.setting());
        if (s != p.setting()) {
            out.println("note: the plan says setting '" + p.setting().fileName() + "'; " + doing + " it as '"
                    + s.fileName() + "'");
            p = new dev.memplan.model.Plan(p.graph(), s, p.budget(), p.schedule(), p.segments(), p.traffic(),
                    p.solver());
        }
        if (!p.graph().equals(g.name())) {
            out.println(dev.memplan.model.io.PrintableText.clean("note: the plan is for graph '" + p.graph() + "', " + doing + " it against '"
                    + g.name() + "'"));
        }
        return p;
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
        return UserException.of(() -> dev.memplan.baselines.replacement.Schemes.byNames(
                names == null ? dev.memplan.baselines.replacement.Schemes.PAPER : names, shared));
    }

    /**
     * A buffer set from a MiniMalloc CSV file or a generated trace ({@code gen:trace:N[:SEED]},
     * {@code gen:heap:N[:SEED]}); the file is
     * checked to exist first, so a missing file is named as such.
     */
    static dev.memplan.model.BufferSet buffers(String argument) {
        if (dev.memplan.datasets.GeneratedTraces.isTraceName(argument) && !Files.exists(Path.of(argument))) {
            return UserException.of(() -> dev.memplan.datasets.GeneratedTraces.of(argument));
        }
        Path file = Path.of(argument);
        if (!Files.exists(file)) {
            throw new UserException("no such file: " + file + " (give a MiniMalloc CSV, "
                    + dev.memplan.datasets.GeneratedTraces.FORMS + ")");
        }
        return dev.memplan.model.io.MiniMallocCsv.read(file);
    }
}
