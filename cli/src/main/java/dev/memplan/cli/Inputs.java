package dev.memplan.cli;

import dev.memplan.datasets.onnx.OnnxImport;
import dev.memplan.datasets.zoo.Zoo;
import dev.memplan.model.Graph;
import dev.memplan.model.TensorSetting;
import dev.memplan.sweeps.GraphSources;
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
        dev.memplan.datasets.TrainingGraphs.Name training = dev.memplan.datasets.TrainingGraphs.parse(argument);
        String model = training != null && OnnxImport.isOnnxFile(training.base()) ? training.base() : argument;
        if (onnx != null && onnx.given() && !OnnxImport.isOnnxFile(model)) {
            throw new UserException("--input, --fuse, --bytes-per-element and --opaque apply to an .onnx GRAPH, not to "
                    + argument);
        }
        return GraphSources.graph(argument, onnx == null ? OnnxImport.Options.defaults() : onnx.options());
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

    /** Zoo network names, each checked to exist ({@link Zoo#entry}). */
    static java.util.List<String> zooNetworks(java.util.List<String> names) {
        names.forEach(n -> UserException.of(() -> Zoo.entry(n)));
        return names;
    }

    /** The schemes of those names (null: the paper's four). */
    static java.util.List<dev.memplan.baselines.replacement.Scheme> schemes(java.util.List<String> names,
            dev.memplan.baselines.scheduling.MinimumPeakScheduler shared) {
        return UserException.of(() -> dev.memplan.baselines.replacement.Schemes.byNames(
                names == null ? dev.memplan.baselines.replacement.Schemes.PAPER : names, shared));
    }
}
