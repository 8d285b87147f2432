package dev.memplan.cli;

import dev.memplan.datasets.onnx.OnnxImport;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/** How a GRAPH given as an {@code .onnx} file is imported (a mixin of every command that reads a GRAPH). */
final class OnnxOptions {
    @Option(names = "--input", paramLabel = "NAME=D0,D1,...",
            description = "ONNX GRAPH: the shape of graph input NAME, fixing its dynamic dimensions (repeatable)")
    List<String> inputs = new ArrayList<>();

    @Option(names = "--fuse", paramLabel = "none|bn|bn+activations", defaultValue = "bn+activations",
            description = "ONNX GRAPH: what is fused away, as for the zoo networks (default: ${DEFAULT-VALUE})")
    String fuse;

    @Option(names = "--bytes-per-element", paramLabel = "N", defaultValue = "1",
            description = "ONNX GRAPH: bytes per tensor element (default: ${DEFAULT-VALUE}, 8-bit data as the zoo)")
    int bytesPerElement;

    @Option(names = "--opaque", description = "ONNX GRAPH: plan an operator memplan does not know as an opaque "
            + "operator whose output shapes come from the model's value_info, instead of failing")
    boolean opaque;

    /** The import options ({@link OnnxImport.Options#of}); a malformed one is a user mistake. */
    OnnxImport.Options options() {
        return UserException.of(() -> OnnxImport.Options.of(fuse, bytesPerElement, opaque, inputs));
    }

    /** True when an option was given that only an ONNX GRAPH uses. */
    boolean given() {
        return !inputs.isEmpty() || !fuse.equals("bn+activations") || bytesPerElement != 1 || opaque;
    }
}
