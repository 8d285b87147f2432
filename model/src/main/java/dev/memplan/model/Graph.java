package dev.memplan.model;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.jgrapht.alg.connectivity.KosarajuStrongConnectivityInspector;
import org.jgrapht.graph.AsUnmodifiableGraph;
import org.jgrapht.graph.DefaultEdge;
import org.jgrapht.graph.DirectedAcyclicGraph;
import org.jgrapht.graph.SimpleDirectedGraph;

/**
 * A DNN as the memory model sees it (memory-model.md, "Graph"): tensors with sizes and kinds, operators
 * listed in the default order, graph outputs and an alignment. Immutable and validated on construction: a
 * graph that exists is a DAG whose default order is topological, so every other module can rely on it.
 *
 * <p>Tensors and operators are also addressed by their index in {@link #tensors()} and
 * {@link #operators()}; the index arrays returned here are shared and must not be modified.
 *
 * <p>Construction is linear in the tensors and the operators' inputs and outputs (quadratic only within one
 * operator's list, to drop repeated names); only a default order that is not topological costs the search for
 * a cycle, O(n + e) strongly connected components (Kosaraju, via JGraphT) for n operators and e edges.
 */
public final class Graph {
    private final String name;
    private final long alignment;
    private final List<Tensor> tensors;
    private final List<Operator> operators;
    private final List<String> outputs;

    private final Map<String, Integer> tensorIndex = new HashMap<>();
    private final Map<String, Integer> operatorIndex = new HashMap<>();
    private final int[] producer;
    private final int[][] consumers;
    private final int[][] inputsOf;
    private final int[][] outputsOf;
    private final boolean[] graphOutput;
    /** Built on first use: JGraphT's objects take seconds and gigabytes on a million operators. */
    private volatile org.jgrapht.Graph<Integer, DefaultEdge> dag;
    /** The activations-only view, once asked for. */
    private volatile Graph activationsView;
    /** Every operator's cost, on first use. */
    private volatile long[] costs;

    /**
     * Builds and validates a graph.
     *
     * @throws InvalidGraphException naming the culprit: a duplicate name, a size &lt;= 0, an unknown
     *     tensor, a tensor with two producers, a produced parameter, an operator with no output, a cycle,
     *     a default order that is not topological, a bad alignment or graph output, a size, alignment or
     *     total of sizes above {@link ByteRange#MAX}
     */
    public Graph(String name, long alignment, List<Tensor> tensors, List<Operator> operators, List<String> outputs) {
        this.name = name == null || name.isEmpty() ? "graph" : name;
        this.alignment = alignment;
        this.tensors = List.copyOf(tensors);
        this.operators = List.copyOf(operators);
        this.outputs = List.copyOf(outputs);
        if (alignment < 1) {
            throw new InvalidGraphException("alignment", "alignment must be >= 1, got " + alignment);
        }
        if (ByteRange.problem(alignment, "alignment") != null) {
            throw new InvalidGraphException("alignment", ByteRange.problem(alignment, "alignment"));
        }
        int nt = this.tensors.size();
        int no = this.operators.size();
        indexTensors();
        producer = new int[nt];
        Arrays.fill(producer, -1);
        inputsOf = new int[no][];
        outputsOf = new int[no][];
        indexOperators();
        graphOutput = new boolean[nt];
        indexOutputs();
        int[] readCount = new int[nt];
        for (int o = 0; o < no; o++) {
            for (int t : inputsOf[o]) {
                readCount[t]++;
            }
        }
        consumers = new int[nt][];
        for (int t = 0; t < nt; t++) {
            consumers[t] = new int[readCount[t]];
            readCount[t] = 0;
        }
        for (int o = 0; o < no; o++) {
            for (int t : inputsOf[o]) {
                consumers[t][readCount[t]++] = o;
            }
        }
        checkAcyclic();
    }

    /** What a {@link ClockGuard} names when the clock runs out in the constructor. */
    private static final String BUILDING = "building the graph";

    private void indexTensors() {
        long total = 0;
        for (int i = 0; i < tensors.size(); i++) {
            ClockGuard.poll(i, BUILDING);
            Tensor t = tensors.get(i);
            String where = "tensors[" + i + "]";
            if (t.name().isEmpty()) {
                throw new InvalidGraphException(where + ".name", "a tensor needs a non-empty name");
            }
            Integer previous = tensorIndex.putIfAbsent(t.name(), i);
            if (previous != null) {
                throw new InvalidGraphException(where + ".name",
                        "duplicate tensor name '" + t.name() + "' (also tensors[" + previous + "])");
            }
            if (t.size() <= 0) {
                throw new InvalidGraphException(where + ".size",
                        "tensor '" + t.name() + "' has size " + t.size() + "; sizes must be positive");
            }
            // ByteRange: each size and the running total at most 2^53, so no sum of sizes can overflow.
            total += Math.min(t.size(), ByteRange.MAX + 1);
            if (total > ByteRange.MAX) {
                throw new InvalidGraphException(where + ".size", t.size() > ByteRange.MAX
                        ? ByteRange.problem(t.size(), "the size of tensor '" + t.name() + "'")
                        : "the tensor sizes up to '" + t.name() + "' sum to " + total + ", above 2^53 = "
                        + ByteRange.MAX + ", the largest total memplan supports");
            }
        }
    }

    private void indexOperators() {
        for (int o = 0; o < operators.size(); o++) {
            ClockGuard.poll(o, BUILDING);
            Operator op = operators.get(o);
            String where = "operators[" + o + "]";
            if (op.name().isEmpty()) {
                throw new InvalidGraphException(where + ".name", "an operator needs a non-empty name");
            }
            Integer previous = operatorIndex.putIfAbsent(op.name(), o);
            if (previous != null) {
                throw new InvalidGraphException(where + ".name",
                        "duplicate operator name '" + op.name() + "' (also operators[" + previous + "])");
            }
            if (op.outputs().isEmpty()) {
                throw new InvalidGraphException(where + ".outputs", "operator '" + op.name() + "' has no output");
            }
            inputsOf[o] = resolve(op, op.inputs(), where + ".inputs");
            int[] outs = resolve(op, op.outputs(), where + ".outputs");
            for (int k = 0; k < op.outputs().size(); k++) {
                int t = tensorIndex.get(op.outputs().get(k));
                String at = where + ".outputs[" + k + "]";
                if (tensors.get(t).kind() == TensorKind.PARAMETER) {
                    throw new InvalidGraphException(at, "operator '" + op.name() + "' writes parameter tensor '"
                            + tensors.get(t).name() + "'; parameters are host tensors and no operator produces them");
                }
                if (producer[t] != -1) {
                    throw new InvalidGraphException(at, "tensor '" + tensors.get(t).name() + "' has two producers: '"
                            + operators.get(producer[t]).name() + "' and '" + op.name() + "'");
                }
                producer[t] = o;
            }
            for (int t : inputsOf[o]) {
                if (producer[t] == o) {
                    throw new InvalidGraphException(where, "cycle: operator '" + op.name()
                            + "' reads its own output '" + tensors.get(t).name() + "'");
                }
            }
            outputsOf[o] = outs;
        }
    }

    /** Distinct tensor indices of a list of names, in first-mention order. */
    private int[] resolve(Operator op, List<String> names, String where) {
        int[] out = new int[names.size()];
        int k2 = 0;
        for (int k = 0; k < names.size(); k++) {
            Integer t = tensorIndex.get(names.get(k));
            if (t == null) {
                throw new InvalidGraphException(where + "[" + k + "]",
                        "operator '" + op.name() + "' refers to unknown tensor '" + names.get(k) + "'");
            }
            boolean repeated = false;
            for (int j = 0; j < k2 && !repeated; j++) {
                repeated = out[j] == t;
            }
            if (!repeated) {
                out[k2++] = t;
            }
        }
        return k2 == out.length ? out : Arrays.copyOf(out, k2);
    }

    private void indexOutputs() {
        for (int i = 0; i < outputs.size(); i++) {
            String where = "outputs[" + i + "]";
            Integer t = tensorIndex.get(outputs.get(i));
            if (t == null) {
                throw new InvalidGraphException(where, "graph output '" + outputs.get(i) + "' is not a tensor of the graph");
            }
            if (producer[t] == -1) {
                throw new InvalidGraphException(where, "graph output '" + outputs.get(i)
                        + "' is produced by no operator; graph outputs are written by operators");
            }
            if (graphOutput[t]) {
                throw new InvalidGraphException(where, "graph output '" + outputs.get(i) + "' is listed twice");
            }
            graphOutput[t] = true;
        }
    }

    /** The operator DAG as JGraphT's graph, with an edge per producer-reader pair. */
    private SimpleDirectedGraph<Integer, DefaultEdge> simpleGraph() {
        SimpleDirectedGraph<Integer, DefaultEdge> g = new SimpleDirectedGraph<>(DefaultEdge.class);
        for (int o = 0; o < operators.size(); o++) {
            g.addVertex(o);
        }
        for (int o = 0; o < operators.size(); o++) {
            for (int t : inputsOf[o]) {
                if (producer[t] >= 0) {
                    g.addEdge(producer[t], o);
                }
            }
        }
        return g;
    }

    /**
     * An order in which every producer comes before its readers proves the graph acyclic; only when the default
     * order is not one is the slower search for a cycle (strongly connected components) run, to name it.
     */
    private void checkAcyclic() {
        boolean topological = true;
        for (int o = 0; o < operators.size() && topological; o++) {
            for (int t : inputsOf[o]) {
                topological &= producer[t] <= o;
            }
        }
        if (!topological) {
            SimpleDirectedGraph<Integer, DefaultEdge> g = simpleGraph();
            for (Set<Integer> component : new KosarajuStrongConnectivityInspector<>(g).stronglyConnectedSets()) {
                if (component.size() > 1) {
                    String names = component.stream().sorted().limit(8).map(o -> "'" + operators.get(o).name() + "'")
                            .collect(Collectors.joining(", "));
                    throw new InvalidGraphException("operators", "cycle through the operators " + names
                            + (component.size() > 8 ? " and " + (component.size() - 8) + " more" : ""));
                }
            }
            for (int o = 0; o < operators.size(); o++) {
                for (int t : inputsOf[o]) {
                    if (producer[t] > o) {
                        throw new InvalidGraphException("operators[" + o + "]", "the default order is not topological: '"
                                + operators.get(o).name() + "' reads '" + tensors.get(t).name() + "', which '"
                                + operators.get(producer[t]).name() + "' (operators[" + producer[t] + "]) writes later");
                    }
                }
            }
        }
    }

    private org.jgrapht.Graph<Integer, DefaultEdge> buildDag() {
        SimpleDirectedGraph<Integer, DefaultEdge> g = simpleGraph();
        DirectedAcyclicGraph<Integer, DefaultEdge> acyclic = new DirectedAcyclicGraph<>(DefaultEdge.class);
        g.vertexSet().forEach(acyclic::addVertex);
        g.edgeSet().forEach(e -> acyclic.addEdge(g.getEdgeSource(e), g.getEdgeTarget(e)));
        return new AsUnmodifiableGraph<>(acyclic);
    }

    public String name() {
        return name;
    }

    /** Every address is a multiple of the alignment (>= 1). */
    public long alignment() {
        return alignment;
    }

    public List<Tensor> tensors() {
        return tensors;
    }

    /** Operators in the default order. */
    public List<Operator> operators() {
        return operators;
    }

    /** Names of the graph outputs. */
    public List<String> outputs() {
        return outputs;
    }

    public int tensorCount() {
        return tensors.size();
    }

    public int operatorCount() {
        return operators.size();
    }

    public Tensor tensor(int index) {
        return tensors.get(index);
    }

    public Operator operator(int index) {
        return operators.get(index);
    }

    /** Index of a tensor by name, or -1. */
    public int tensorIndex(String tensorName) {
        return tensorIndex.getOrDefault(tensorName, -1);
    }

    /** Index of an operator by name, or -1. */
    public int operatorIndex(String operatorName) {
        return operatorIndex.getOrDefault(operatorName, -1);
    }

    public long size(int tensor) {
        return tensors.get(tensor).size();
    }

    /** The operator that writes the tensor, or -1 for a host tensor. */
    public int producer(int tensor) {
        return producer[tensor];
    }

    /** A host tensor is produced by no operator: a graph input or a parameter. */
    public boolean isHost(int tensor) {
        return producer[tensor] == -1;
    }

    public boolean isGraphOutput(int tensor) {
        return graphOutput[tensor];
    }

    /** Operators that read the tensor, in default order, without repetition. */
    public int[] consumers(int tensor) {
        return consumers[tensor];
    }

    /** Distinct input tensors of an operator. */
    public int[] inputs(int operator) {
        return inputsOf[operator];
    }

    /** Output tensors (siblings) of an operator. */
    public int[] outputs(int operator) {
        return outputsOf[operator];
    }

    /**
     * The compute cost c(o) of an operator (memory-model.md, "Recomputation"): the graph's {@code cost} when
     * given, else derived from its type and the shapes of its tensors by {@link OperatorCosts}; always >= 0.
     */
    public long cost(int operator) {
        long[] c = costs;
        if (c == null) {
            c = new long[operators.size()];
            for (int o = 0; o < c.length; o++) {
                Long given = operators.get(o).cost();
                c[o] = given != null ? given : OperatorCosts.derived(this, o);
            }
            costs = c;
        }
        return c[operator];
    }

    /** The operator DAG (vertices are operator indices; an edge per producer-consumer pair), unmodifiable. */
    public org.jgrapht.Graph<Integer, DefaultEdge> dag() {
        org.jgrapht.Graph<Integer, DefaultEdge> d = dag;
        if (d == null) {
            synchronized (this) {
                d = dag;
                if (d == null) {
                    d = buildDag();
                    dag = d;
                }
            }
        }
        return d;
    }

    /**
     * This graph in a tensor setting: {@link TensorSetting#ALL} is the graph itself; {@link
     * TensorSetting#ACTIVATIONS} drops the parameter tensors and every read of them, and keeps every operator's
     * {@link #cost(int)}.
     */
    public Graph withSetting(TensorSetting setting) {
        if (setting == TensorSetting.ALL || tensors.stream().noneMatch(t -> t.kind() == TensorKind.PARAMETER)) {
            return this;
        }
        // Kept: a graph is immutable, and the planners ask for the same view many times (BENCHMARKS.md, "Figures moved out of the Javadoc, continued").
        Graph view = activationsView;
        if (view == null) {
            view = activations();
            activationsView = view;
        }
        return view;
    }

    /** The view's operators carry this graph's costs: a convolution's cost needs the weight the view drops. */
    private Graph activations() {
        List<Tensor> kept = tensors.stream().filter(t -> t.kind() != TensorKind.PARAMETER).collect(Collectors.toList());
        List<Operator> ops = new ArrayList<>();
        for (int o = 0; o < operators.size(); o++) {
            Operator op = operators.get(o);
            List<String> in = op.inputs().stream()
                    .filter(n -> tensors.get(tensorIndex.get(n)).kind() != TensorKind.PARAMETER)
                    .collect(Collectors.toList());
            ops.add(new Operator(op.name(), op.type(), in, op.outputs(), cost(o)));
        }
        return new Graph(name, alignment, kept, ops, outputs);
    }

    /** This graph with every operator's {@link #cost(int)} given, so that a file written from it carries them. */
    public Graph withCosts() {
        List<Operator> ops = new ArrayList<>(operators.size());
        for (int o = 0; o < operators.size(); o++) {
            ops.add(operators.get(o).withCost(cost(o)));
        }
        return new Graph(name, alignment, tensors, ops, outputs);
    }

    public static Builder builder(String name) {
        return new Builder(name);
    }

    @Override
    public String toString() {
        return "Graph[" + name + ": " + operators.size() + " operators, " + tensors.size() + " tensors]";
    }

    /** Builds a graph in a few readable lines; {@link #build()} validates. */
    public static final class Builder {
        private final String name;
        private long alignment = 1;
        private final List<Tensor> tensors = new ArrayList<>();
        private final List<Operator> operators = new ArrayList<>();
        private final List<String> outputs = new ArrayList<>();

        private Builder(String name) {
            this.name = name;
        }

        public Builder alignment(long value) {
            alignment = value;
            return this;
        }

        public Builder tensor(Tensor tensor) {
            tensors.add(tensor);
            return this;
        }

        public Builder activation(String tensorName, long size) {
            return tensor(Tensor.activation(tensorName, size));
        }

        public Builder parameter(String tensorName, long size) {
            return tensor(Tensor.parameter(tensorName, size));
        }

        public Builder operator(String operatorName, List<String> inputs, List<String> outs) {
            operators.add(new Operator(operatorName, inputs, outs));
            return this;
        }

        public Builder operator(Operator operator) {
            operators.add(operator);
            return this;
        }

        public Builder output(String tensorName) {
            outputs.add(tensorName);
            return this;
        }

        public Graph build() {
            return new Graph(name, alignment, tensors, operators, outputs);
        }
    }
}
