package dev.memplan.cli;

import dev.memplan.datasets.GraphSizes;
import dev.memplan.datasets.onnx.OnnxImport;
import dev.memplan.model.Graph;
import dev.memplan.model.io.GraphJson;
import dev.memplan.sweeps.figures.TextTable;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code memplan import MODEL.onnx}: an ONNX model as a memplan-graph/1 graph, with its sizes. */
@Command(name = "import", mixinStandardHelpOptions = true,
        description = {"Imports an ONNX model (opsets " + OnnxImport.MIN_OPSET + "-" + OnnxImport.MAX_OPSET
            + ") with shape inference and the zoo's granularity: BatchNorm folded into",
            "the convolution before it, activations fused, layout operators free views, shape computations folded.",
            "Prints the graph's sizes; --out writes it as memplan-graph/1. Every command that takes a GRAPH also",
            "takes an .onnx file with these options."})
final class ImportCommand extends CommandBase {
    @Parameters(index = "0", paramLabel = "MODEL.onnx", description = "the ONNX model")
    Path model;

    @Option(names = "--out", paramLabel = "GRAPH.json",
            description = "write the graph (memplan-graph/1, whole or not at all; '-': standard output, the table then goes to stderr)")
    Path out;

    @Mixin
    OnnxOptions onnx;

    @Override
    public Integer call() {
        Outputs.check(out, "--out", true, model.toString());
        PrintWriter w = Outputs.report(out, spec.commandLine());
        if (!Files.isRegularFile(model)) {
            throw new UserException("no such file: " + model);
        }
        long start = System.nanoTime();
        Graph g = OnnxImport.read(model, onnx.options());
        double seconds = (System.nanoTime() - start) / 1e9;
        TextTable t = new TextTable("", "");
        GraphSizes.describe(g).forEach(t::row);
        t.row("import time", String.format("%.2f s", seconds));
        t.print(w);
        if (out != null) {
            Outputs.write(out, GraphJson.toJson(g.withCosts()), out());
            w.println("wrote " + out);
        }
        return ExitCode.OK.code();
    }
}
