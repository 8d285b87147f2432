package dev.memplan.model.io;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.memplan.model.Graph;
import dev.memplan.model.InvalidGraphException;
import dev.memplan.model.Operator;
import dev.memplan.model.Tensor;
import dev.memplan.model.TensorKind;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The graph file format {@code memplan-graph/1} of memory-model.md ("Files"):
 *
 * <pre>{"format": "memplan-graph/1", "name": "...", "alignment": 1,
 *  "tensors":   [{"name": "x", "size": 150528, "kind": "activation", "shape": [1, 3, 224, 224], "dtype": "int8"}],
 *  "operators": [{"name": "conv1", "type": "Conv", "inputs": ["x", "w"], "outputs": ["y"], "cost": 1204224}],
 *  "outputs":   ["y"]}</pre>
 *
 * {@code alignment} (default 1), {@code shape}, {@code dtype}, {@code type} and {@code cost} (an integer >= 0,
 * the operator's compute cost; absent, memplan derives it, see {@link Graph#cost(int)}) are optional; unknown
 * fields are rejected. The writer writes the costs the graph gives ({@link Graph#withCosts()} gives them all). A file that parses but breaks a rule of the memory model is reported at the JSON path of the
 * culprit, from {@link InvalidGraphException#where()}.
 */
public final class GraphJson {
    public static final String FORMAT = "memplan-graph/1";

    private static final List<String> ROOT_FIELDS = List.of("format", "name", "alignment", "tensors", "operators",
            "outputs");
    private static final List<String> TENSOR_FIELDS = List.of("name", "size", "kind", "shape", "dtype");
    private static final List<String> OPERATOR_FIELDS = List.of("name", "type", "inputs", "outputs", "cost");

    private GraphJson() {
    }

    public static Graph read(Path file) {
        return fromTree(JsonTree.parse(AtomicFiles.readBytes(file), file.toString()), file.toString());
    }

    /** Reads a graph from JSON text; {@code fileName} is used in error messages (e.g. {@code <string>}). */
    public static Graph read(String json, String fileName) {
        return fromTree(JsonTree.parse(json, fileName), fileName);
    }

    public static void write(Graph graph, Path file) {
        AtomicFiles.write(file, toJson(graph));
    }

    /** The graph as memplan-graph/1 text: one field per line, one tensor or operator per line. */
    public static String toJson(Graph graph) {
        ObjectNode root = JsonTree.NODES.objectNode();
        root.put("format", FORMAT);
        root.put("name", graph.name());
        root.put("alignment", graph.alignment());
        ArrayNode tensors = root.putArray("tensors");
        for (Tensor t : graph.tensors()) {
            ObjectNode node = tensors.addObject();
            node.put("name", t.name());
            node.put("size", t.size());
            node.put("kind", t.kind().fileName());
            if (!t.shape().isEmpty()) {
                ArrayNode shape = node.putArray("shape");
                t.shape().forEach(shape::add);
            }
            if (t.dtype() != null) {
                node.put("dtype", t.dtype());
            }
        }
        ArrayNode operators = root.putArray("operators");
        for (Operator op : graph.operators()) {
            ObjectNode node = operators.addObject();
            node.put("name", op.name());
            if (op.type() != null) {
                node.put("type", op.type());
            }
            node.set("inputs", JsonTree.strings(op.inputs()));
            node.set("outputs", JsonTree.strings(op.outputs()));
            if (op.cost() != null) {
                node.put("cost", op.cost().longValue());
            }
        }
        root.set("outputs", JsonTree.strings(graph.outputs()));
        return JsonTree.render(root, Set.of("tensors", "operators"));
    }

    static Graph fromTree(JsonNode tree, String file) {
        JsonFields root = JsonFields.of(file, tree, "$", "a " + FORMAT + " document");
        root.requireFormat(FORMAT);
        root.rejectUnknown(ROOT_FIELDS);
        String name = root.name("name", "the graph's name");
        long alignment = root.has("alignment") ? root.longValue("alignment", "an integer number of bytes") : 1;

        List<JsonNode> tensorNodes = root.array("tensors", "the list of tensors");
        List<Tensor> tensors = new ArrayList<>(tensorNodes.size());
        for (int i = 0; i < tensorNodes.size(); i++) {
            dev.memplan.model.ClockGuard.poll(i, "reading the graph");
            tensors.add(tensor(JsonFields.of(file, tensorNodes.get(i), JsonTree.element(root.path("tensors"), i),
                    "a tensor")));
        }
        List<JsonNode> operatorNodes = root.array("operators", "the list of operators in default order");
        List<Operator> operators = new ArrayList<>(operatorNodes.size());
        for (int i = 0; i < operatorNodes.size(); i++) {
            dev.memplan.model.ClockGuard.poll(i, "reading the graph");
            JsonFields op = JsonFields.of(file, operatorNodes.get(i), JsonTree.element(root.path("operators"), i),
                    "an operator");
            op.rejectUnknown(OPERATOR_FIELDS);
            operators.add(new Operator(op.string("name", "the operator's name"),
                    op.optionalString("type", "the operator's type"),
                    op.strings("inputs", "the list of input tensor names", "a tensor name"),
                    op.strings("outputs", "the list of output tensor names", "a tensor name"),
                    op.has("cost") ? cost(op) : null));
        }
        List<String> outputs = root.strings("outputs", "the list of graph output tensor names", "a tensor name");
        try {
            return new Graph(name, alignment, tensors, operators, outputs);
        } catch (InvalidGraphException e) {
            throw new FormatException(file, e.where().isEmpty() ? "$" : "$." + e.where(), e.problem(), e);
        }
    }

    private static long cost(JsonFields op) {
        long cost = op.longValue("cost", "an integer >= 0 (the operator's compute cost)");
        if (cost < 0) {
            throw op.error("cost", "cost must be an integer >= 0 (the operator's compute cost), found " + cost);
        }
        return cost;
    }

    private static Tensor tensor(JsonFields t) {
        t.rejectUnknown(TENSOR_FIELDS);
        String name = t.string("name", "the tensor's name");
        long size = t.longValue("size", "an integer number of bytes");
        String kindText = t.string("kind", "activation or parameter");
        TensorKind kind = TensorKind.fromFileName(kindText);
        if (kind == null) {
            throw t.error("kind", "unknown kind '" + kindText + "'; expected activation or parameter");
        }
        List<Long> shape = new ArrayList<>();
        if (t.has("shape")) {
            List<JsonNode> dims = t.array("shape", "the list of dimensions");
            for (int i = 0; i < dims.size(); i++) {
                shape.add(t.asLong(dims.get(i), JsonTree.element(t.path("shape"), i),
                        "a dimension must be an integer"));
            }
        }
        return new Tensor(name, size, kind, shape, t.optionalString("dtype", "the element type"));
    }
}
