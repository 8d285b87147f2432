package dev.memplan.model.io;

import com.fasterxml.jackson.databind.JsonNode;
import dev.memplan.model.Graph;
import dev.memplan.model.InvalidGraphException;
import dev.memplan.model.Operator;
import dev.memplan.model.Tensor;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Imports the DAG JSON of the COSMA authors' tooling into a {@link Graph}:
 *
 * <pre>{"name": "...", "dummy_input_tensors": ["..."], "graph_output_tensors": ["..."],
 *  "tensor_list": ["..."], "tensor_sizes": {"t": 4096},
 *  "dag": [{"name": "n", "input_nodes": ["..."], "input_tensors": ["..."], "output_tensors": ["..."]}]}</pre>
 *
 * Dummy input tensors are 0-byte placeholders: they are dropped, from the tensors and from every node's inputs.
 * Every other tensor is an activation (the format has no parameters); the tensors that no node produces are
 * the graph inputs (host tensors). Tensors keep the order of {@code tensor_list}, operators the order of
 * {@code dag}, which is the default order. {@code input_nodes} is informative: not used, but each entry must
 * name a node of {@code dag}; fields this reader does not use are ignored. {@code name} (default: the file name
 * without extension), {@code dummy_input_tensors}
 * and {@code graph_output_tensors} are optional. Errors name the JSON path in the COSMA file.
 */
public final class CosmaDagJson {
    private static final Pattern OPERATOR_PATH =
            Pattern.compile("operators\\[(\\d+)](?:\\.(name|inputs|outputs)(?:\\[(\\d+)])?)?");
    private static final Pattern TENSOR_PATH = Pattern.compile("tensors\\[(\\d+)](?:\\.(name|size))?");
    private static final Pattern OUTPUT_PATH = Pattern.compile("outputs\\[(\\d+)]");

    private CosmaDagJson() {
    }

    public static Graph read(Path file) {
        return fromTree(JsonTree.parse(AtomicFiles.readBytes(file), file.toString()), file.toString());
    }

    /** Reads a COSMA DAG from JSON text; {@code fileName} is used in error messages (e.g. {@code <string>}). */
    public static Graph read(String json, String fileName) {
        return fromTree(JsonTree.parse(json, fileName), fileName);
    }

    static Graph fromTree(JsonNode tree, String file) {
        JsonFields root = JsonFields.of(file, tree, "$", "a COSMA DAG document");
        String name = root.has("name") ? root.name("name", "the graph's name") : stem(file);
        Set<String> dummies = new HashSet<>(root.has("dummy_input_tensors")
                ? root.strings("dummy_input_tensors", "the list of dummy input tensor names", "a tensor name")
                : List.of());
        List<String> outputs = root.has("graph_output_tensors")
                ? root.strings("graph_output_tensors", "the list of graph output tensor names", "a tensor name")
                : List.of();
        List<String> tensorList = root.strings("tensor_list", "the list of tensor names", "a tensor name");
        JsonFields sizes = root.object("tensor_sizes", "the tensor sizes in bytes, by name");
        List<JsonNode> dag = root.array("dag", "the list of nodes in default order");

        Map<String, Integer> listed = new HashMap<>();
        List<Tensor> tensors = new ArrayList<>();
        List<Integer> tensorListIndex = new ArrayList<>();
        for (int j = 0; j < tensorList.size(); j++) {
            String tensor = tensorList.get(j);
            String where = JsonTree.element(root.path("tensor_list"), j);
            Integer previous = listed.putIfAbsent(tensor, j);
            if (previous != null) {
                throw new FormatException(file, where, "tensor '" + tensor + "' is listed twice (also tensor_list["
                        + previous + "])");
            }
            if (dummies.contains(tensor)) {
                continue;
            }
            JsonNode sizeNode = sizes.raw(tensor);
            if (sizeNode == null || sizeNode.isNull()) {
                throw sizes.error(tensor, "no size for tensor '" + tensor + "' of tensor_list[" + j + "]");
            }
            long size = sizes.asLong(sizeNode, sizes.path(tensor),
                    "the size of tensor '" + tensor + "' must be an integer number of bytes");
            if (size <= 0) {
                throw sizes.error(tensor, "tensor '" + tensor + "' has size " + size + (size == 0
                        ? "; only dummy input tensors may be empty, and it is not in dummy_input_tensors"
                        : "; sizes must be positive"));
            }
            tensors.add(Tensor.activation(tensor, size));
            tensorListIndex.add(j);
        }

        List<Operator> operators = new ArrayList<>(dag.size());
        List<List<Integer>> inputPositions = new ArrayList<>(dag.size());
        for (int o = 0; o < dag.size(); o++) {
            JsonFields node = JsonFields.of(file, dag.get(o), JsonTree.element(root.path("dag"), o), "a node");
            String op = node.string("name", "the node's name");
            List<String> in = node.strings("input_tensors", "the list of input tensor names", "a tensor name");
            List<String> out = node.strings("output_tensors", "the list of output tensor names", "a tensor name");
            List<String> kept = new ArrayList<>();
            List<Integer> positions = new ArrayList<>();
            for (int k = 0; k < in.size(); k++) {
                if (dummies.contains(in.get(k))) {
                    continue;
                }
                requireListed(file, listed, in.get(k), JsonTree.element(node.path("input_tensors"), k),
                        "node '" + op + "' reads");
                kept.add(in.get(k));
                positions.add(k);
            }
            for (int k = 0; k < out.size(); k++) {
                String where = JsonTree.element(node.path("output_tensors"), k);
                if (dummies.contains(out.get(k))) {
                    throw new FormatException(file, where, "node '" + op + "' writes dummy input tensor '"
                            + out.get(k) + "'");
                }
                requireListed(file, listed, out.get(k), where, "node '" + op + "' writes");
            }
            operators.add(new Operator(op, kept, out));
            inputPositions.add(positions);
        }
        requireKnownInputNodes(file, root, dag, operators);
        for (int i = 0; i < outputs.size(); i++) {
            String where = JsonTree.element(root.path("graph_output_tensors"), i);
            if (dummies.contains(outputs.get(i))) {
                throw new FormatException(file, where, "graph output '" + outputs.get(i)
                        + "' is a dummy input tensor");
            }
            requireListed(file, listed, outputs.get(i), where, "graph output");
        }
        try {
            return new Graph(name, 1, tensors, operators, outputs);
        } catch (InvalidGraphException e) {
            throw new FormatException(file, cosmaPath(e.where(), tensorListIndex, inputPositions, tensors),
                    e.problem(), e);
        }
    }

    /**
     * {@code input_nodes} is not used (the tensors say who reads what), but an entry that names no node of
     * {@code dag} means the file is not what its author thinks, so it is refused rather than ignored.
     */
    private static void requireKnownInputNodes(String file, JsonFields root, List<JsonNode> dag,
                                               List<Operator> operators) {
        Set<String> names = new HashSet<>();
        operators.forEach(op -> names.add(op.name()));
        for (int o = 0; o < dag.size(); o++) {
            JsonFields node = JsonFields.of(file, dag.get(o), JsonTree.element(root.path("dag"), o), "a node");
            if (!node.has("input_nodes")) {
                continue;
            }
            List<String> inputs = node.strings("input_nodes", "the list of input node names", "a node name");
            for (int k = 0; k < inputs.size(); k++) {
                if (!names.contains(inputs.get(k))) {
                    throw new FormatException(file, JsonTree.element(node.path("input_nodes"), k), "node '"
                            + operators.get(o).name() + "' names input node '" + inputs.get(k)
                            + "', which is not a node of dag");
                }
            }
        }
    }

    private static void requireListed(String file, Map<String, Integer> listed, String tensor, String where,
                                      String who) {
        if (!listed.containsKey(tensor)) {
            throw new FormatException(file, where, who + " tensor '" + tensor + "', which is not in tensor_list");
        }
    }

    /** The COSMA file's JSON path for a place in the graph built from it. */
    private static String cosmaPath(String where, List<Integer> tensorListIndex, List<List<Integer>> inputPositions,
                                    List<Tensor> tensors) {
        Matcher m = OPERATOR_PATH.matcher(where);
        if (m.matches()) {
            int o = Integer.parseInt(m.group(1));
            String path = "$.dag[" + o + "]";
            if (m.group(2) == null) {
                return path;
            }
            switch (m.group(2)) {
                case "name":
                    return path + ".name";
                case "inputs":
                    return path + ".input_tensors"
                            + (m.group(3) == null ? "" : "[" + inputPositions.get(o).get(Integer.parseInt(m.group(3))) + "]");
                default:
                    return path + ".output_tensors" + (m.group(3) == null ? "" : "[" + m.group(3) + "]");
            }
        }
        m = TENSOR_PATH.matcher(where);
        if (m.matches()) {
            int t = Integer.parseInt(m.group(1));
            return "size".equals(m.group(2)) ? JsonTree.field("$.tensor_sizes", tensors.get(t).name())
                    : "$.tensor_list[" + tensorListIndex.get(t) + "]";
        }
        m = OUTPUT_PATH.matcher(where);
        if (m.matches()) {
            return "$.graph_output_tensors[" + m.group(1) + "]";
        }
        return where.equals("operators") ? "$.dag" : "$";
    }

    /** The file name without directory and extension; null for a pseudo-name such as {@code <string>}. */
    private static String stem(String file) {
        if (file.startsWith("<")) {
            return null;
        }
        String last = file.replace('\\', '/');
        last = last.substring(last.lastIndexOf('/') + 1);
        int dot = last.lastIndexOf('.');
        return dot > 0 ? last.substring(0, dot) : last;
    }
}
