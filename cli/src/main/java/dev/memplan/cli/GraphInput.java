package dev.memplan.cli;

import dev.memplan.model.Graph;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * The GRAPH a command reads, declared once (issue 24: one option set): the positional argument and how an ONNX
 * file is imported. A mixin of solve, compare, budgets and check.
 */
final class GraphInput {
    @Parameters(index = "0", paramLabel = "GRAPH",
            description = "graph file (memplan-graph/1, COSMA DAG JSON or .onnx), example name, zoo name or generated"
                    + " graph (gen:layered:N[:SEED], gen:cells:N[:SEED]); NAME:train is its training step")
    String name;

    @Mixin
    OnnxOptions onnx;

    /** The graph with every tensor; a missing or malformed one is a user mistake with the file and the place. */
    Graph read() {
        return Inputs.graph(name, onnx);
    }
}
