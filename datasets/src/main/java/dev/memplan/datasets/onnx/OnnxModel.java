package dev.memplan.datasets.onnx;

import java.util.List;
import java.util.Map;

/**
 * The part of an ONNX model (onnx.proto's {@code ModelProto}) that memory planning needs: the default-domain
 * opset, the graph's nodes in file order, its initializers (dimensions always; values only for small tensors,
 * which shape computations read), its inputs, outputs and value_info shapes. Weights are never decoded.
 */
record OnnxModel(String file, long irVersion, long opset, Graph graph) {

    /** The main graph. */
    record Graph(String name, List<Node> nodes, Map<String, Initializer> initializers, List<ValueInfo> inputs,
                 List<ValueInfo> outputs, Map<String, ValueInfo> valueInfo) {
    }

    /** A node: its inputs (an empty name is an omitted optional input), outputs and attributes. */
    record Node(String name, String opType, String domain, List<String> inputs, List<String> outputs,
                Map<String, Attribute> attributes) {

        /** The name used in messages: the node's name, or its first output when it has none. */
        String label() {
            String n = name.isEmpty() ? (outputs.isEmpty() ? "?" : outputs.get(0)) : name;
            return "node '" + n + "' (" + opType + ")";
        }

        Attribute attribute(String key) {
            return attributes.get(key);
        }

        long integer(String key, long otherwise) {
            Attribute a = attributes.get(key);
            return a == null ? otherwise : a.i();
        }

        long[] integers(String key) {
            Attribute a = attributes.get(key);
            return a == null ? null : a.ints();
        }

        String string(String key, String otherwise) {
            Attribute a = attributes.get(key);
            return a == null ? otherwise : a.s();
        }

        /** Input {@code i}, or null when it is absent or omitted (empty name). */
        String input(int i) {
            return i < inputs.size() && !inputs.get(i).isEmpty() ? inputs.get(i) : null;
        }
    }

    /** An attribute: the fields of AttributeProto that operators of opsets 11-21 use. */
    record Attribute(String name, float f, long i, String s, long[] ints, float[] floats, Initializer t,
                     boolean graph) {
    }

    /**
     * A tensor stored in the file (an initializer or a Constant's value). {@code values} holds the elements as
     * longs (integer and bool types) or doubles (floating types) when the tensor is small enough to matter for
     * shape computations, else null.
     */
    record Initializer(String name, long[] dims, int dataType, long[] longs, double[] doubles, boolean external) {

        long elements() {
            long n = 1;
            for (long d : dims) {
                n *= d;
            }
            return n;
        }
    }

    /** A graph input, output or value_info entry: name, element type and dimensions (null when unknown). */
    record ValueInfo(String name, int elemType, List<Dim> dims) {
    }

    /** A dimension: a fixed value, or a symbolic name ({@code value} < 0), or unknown (both absent). */
    record Dim(long value, String param) {

        boolean fixed() {
            return value >= 0;
        }
    }
}
