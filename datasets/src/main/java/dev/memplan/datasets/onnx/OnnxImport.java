package dev.memplan.datasets.onnx;

import dev.memplan.model.Graph;
import dev.memplan.model.io.FormatException;
import dev.memplan.model.io.PrintableText;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Imports an ONNX model as a memplan {@link Graph} with the zoo's granularity (datasets README): BatchNorm folded
 * into the convolution or linear layer before it, activation functions fused into their producer, layout
 * operators (Reshape, Flatten, Squeeze, Unsqueeze, Transpose, Split, Identity, Cast) free views, and shape
 * computations folded into constants. Graph inputs become activation host tensors, initializers read as data by a
 * planned operator become parameter tensors, and graph outputs become graph outputs.
 *
 * <p>Every problem with the file (not ONNX, truncated, an unsupported opset or operator, a cycle, a missing
 * initializer, a dynamic dimension not fixed by {@link Options#inputs()}) is a {@link FormatException} naming the
 * file, the node and the problem.
 */
public final class OnnxImport {
    /** The opsets of the default domain this importer reads (Resize, Pad and Clip in their 11+ form, or older). */
    public static final int MIN_OPSET = 9;
    public static final int MAX_OPSET = 21;

    /** What is fused away, as a compiler for an accelerator would. */
    public enum Fusion {
        /** Every ONNX compute node is an operator (BatchNorm reads its four parameter vectors). */
        NONE,
        /** BatchNorm folded into the convolution or linear layer before it; activations stay operators. */
        BN,
        /** BatchNorm folded and activation functions fused into their producer (the zoo's rule; the default). */
        BN_ACTIVATIONS;

        /** {@code none}, {@code bn} or {@code bn+activations}. */
        public static Fusion parse(String text) {
            return switch (text.toLowerCase(Locale.ROOT)) {
                case "none" -> NONE;
                case "bn" -> BN;
                case "bn+activations", "all" -> BN_ACTIVATIONS;
                default -> throw new IllegalArgumentException("unknown fusion '" + text
                        + "': use none, bn or bn+activations");
            };
        }
    }

    /**
     * Import options.
     *
     * @param inputs          shapes of graph inputs, fixing their dynamic dimensions (a given shape must agree
     *                        with every fixed dimension of the model)
     * @param bytesPerElement bytes per tensor element (1: 8-bit data, as the zoo)
     * @param fusion          what is fused away
     * @param opaque          plan an operator this importer does not know as an opaque operator whose output
     *                        shapes come from the model's value_info, instead of failing
     */
    public record Options(Map<String, long[]> inputs, int bytesPerElement, Fusion fusion, boolean opaque) {

        public Options {
            inputs = Map.copyOf(inputs);
            if (bytesPerElement < 1) {
                throw new IllegalArgumentException("bytes per element must be >= 1, got " + bytesPerElement);
            }
        }

        /**
         * The options a user writes: the fusion by name ({@link Fusion#parse}), bytes per element, whether unknown
         * operators are opaque, and each input's shape as {@code NAME=D0,D1,...} ({@link #parseInput}), once each.
         *
         * @throws IllegalArgumentException for a malformed value or an input given twice
         */
        public static Options of(String fusion, int bytesPerElement, boolean opaque, java.util.List<String> inputs) {
            Options o = defaults().withFusion(Fusion.parse(fusion)).withBytesPerElement(bytesPerElement)
                    .withOpaque(opaque);
            for (String text : inputs) {
                Map.Entry<String, long[]> e = parseInput(text);
                if (o.inputs().containsKey(e.getKey())) {
                    throw new IllegalArgumentException("--input " + PrintableText.clean(text) + ": input '"
                            + PrintableText.clean(e.getKey()) + "' is given twice; give each input's shape once");
                }
                o = o.withInput(e.getKey(), e.getValue());
            }
            return o;
        }

        /** No input shapes given, 8-bit data, the zoo's fusion, unknown operators rejected. */
        public static Options defaults() {
            return new Options(Map.of(), 1, Fusion.BN_ACTIVATIONS, false);
        }

        public Options withInput(String name, long... shape) {
            Map<String, long[]> m = new LinkedHashMap<>(inputs);
            m.put(name, shape.clone());
            return new Options(m, bytesPerElement, fusion, opaque);
        }

        public Options withBytesPerElement(int n) {
            return new Options(inputs, n, fusion, opaque);
        }

        public Options withFusion(Fusion f) {
            return new Options(inputs, bytesPerElement, f, opaque);
        }

        public Options withOpaque(boolean o) {
            return new Options(inputs, bytesPerElement, fusion, o);
        }
    }

    private OnnxImport() {
    }

    /** True for a file name this importer takes ({@code *.onnx}). */
    public static boolean isOnnxFile(String name) {
        return name.toLowerCase(Locale.ROOT).endsWith(".onnx");
    }

    /** Reads and imports the model in {@code file}. */
    public static Graph read(Path file, Options options) {
        OnnxModel model = OnnxReader.read(file);
        return new OnnxGraphBuilder(model, options, graphName(file.getFileName().toString())).build();
    }

    /** Imports a model from its bytes; {@code fileName} names it in messages and gives the graph its name. */
    public static Graph read(String fileName, byte[] bytes, Options options) {
        OnnxModel model = OnnxReader.read(fileName, bytes);
        return new OnnxGraphBuilder(model, options, graphName(Path.of(fileName).getFileName().toString())).build();
    }

    private static String graphName(String fileName) {
        return isOnnxFile(fileName) ? fileName.substring(0, fileName.length() - 5) : fileName;
    }

    /** Parses {@code NAME=d0,d1,...} (the CLI's {@code --input}); a bad one is an IllegalArgumentException. */
    public static Map.Entry<String, long[]> parseInput(String text) {
        int eq = text.lastIndexOf('=');
        if (eq <= 0 || eq == text.length() - 1) {
            throw new IllegalArgumentException("--input '" + text + "': expected NAME=d0,d1,... (e.g. x=1,3,224,224)");
        }
        try {
            long[] dims = Arrays.stream(text.substring(eq + 1).split("[,x]")).map(String::trim)
                    .mapToLong(Long::parseLong).toArray();
            for (long d : dims) {
                if (d < 1) {
                    throw new NumberFormatException();
                }
            }
            return Map.entry(text.substring(0, eq), dims);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--input '" + text + "': dimensions must be positive integers "
                    + "separated by commas");
        }
    }
}
