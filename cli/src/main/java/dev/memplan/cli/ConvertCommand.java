package dev.memplan.cli;

import dev.memplan.model.Graph;
import dev.memplan.model.io.GraphJson;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code memplan convert IN OUT}: a COSMA DAG JSON (or any graph memplan reads) to memplan-graph/1. */
@Command(name = "convert", mixinStandardHelpOptions = true,
        description = {"Converts a graph to memplan-graph/1 JSON.",
            "IN is a COSMA DAG JSON file (name, tensor_sizes, dag, ...), a memplan-graph/1 file or an example name."})
final class ConvertCommand extends CommandBase {
    @Parameters(index = "0", paramLabel = "IN", description = "input graph")
    String in;

    @Mixin
    OnnxOptions onnx;

    @Parameters(index = "1", paramLabel = "OUT", description = "output memplan-graph/1 file (written whole or not at all); '-': standard output")
    Path out;

    @Override
    public Integer call() {
        Outputs.check(out, "OUT", true, in);
        Graph g = Inputs.graph(in, onnx);
        Outputs.write(out, GraphJson.toJson(g.withCosts()), out());
        Outputs.report(out, spec.commandLine()).println("wrote " + out + ": graph " + g.name() + ", " + g.operatorCount()
                + " operators, " + g.tensorCount() + " tensors, " + g.outputs().size() + " outputs");
        return ExitCode.OK.code();
    }
}
