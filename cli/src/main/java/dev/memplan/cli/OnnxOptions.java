package dev.memplan.cli;

import dev.memplan.datasets.onnx.OnnxImport;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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

    /** The import options; a malformed one is a user mistake. */
    OnnxImport.Options options() {
        try {
            OnnxImport.Options o = OnnxImport.Options.defaults().withFusion(OnnxImport.Fusion.parse(fuse))
                    .withBytesPerElement(bytesPerElement).withOpaque(opaque);
            java.util.Set<String> named = new java.util.HashSet<>();
            for (String text : inputs) {
                Map.Entry<String, long[]> e = OnnxImport.parseInput(text);
                if (!named.add(e.getKey())) {
                    throw new UserException("--input " + dev.memplan.model.io.PrintableText.clean(text) + ": input '" + dev.memplan.model.io.PrintableText.clean(e.getKey())
                            + "' is given twice; give each input's shape once");
                }
                o = o.withInput(e.getKey(), e.getValue());
            }
            return o;
        } catch (IllegalArgumentException e) {
            throw new UserException(e.getMessage());
        }
    }

    /** True when an option was given that only an ONNX GRAPH uses. */
    boolean given() {
        return !inputs.isEmpty() || !fuse.equals("bn+activations") || bytesPerElement != 1 || opaque;
    }
}
