package dev.memplan.datasets.onnx;

import dev.memplan.datasets.onnx.OnnxImport.Fusion;
import dev.memplan.datasets.onnx.OnnxImport.Options;
import dev.memplan.datasets.onnx.OnnxModel.Dim;
import dev.memplan.datasets.onnx.OnnxModel.Initializer;
import dev.memplan.datasets.onnx.OnnxModel.Node;
import dev.memplan.datasets.onnx.OnnxModel.ValueInfo;
import dev.memplan.datasets.onnx.Val.Act;
import dev.memplan.datasets.onnx.Val.Const;
import dev.memplan.datasets.zoo.NetBuilder;
import dev.memplan.datasets.zoo.Shapes;
import dev.memplan.model.Graph;
import dev.memplan.model.io.FormatException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Turns one {@link OnnxModel} into a {@link Graph}: sorts the nodes topologically (file order among ready
 * nodes), walks them once with static shapes, folds constants, makes views free, fuses BatchNorm and
 * activations as {@link Fusion} says, and emits the planned operators through the zoo's {@link NetBuilder}, so
 * tensor sizes and dtypes follow the zoo's rules. Linear in the number of nodes and their inputs.
 */
final class OnnxGraphBuilder {
    /** Unary functions a compiler fuses into the operator that produces their input. */
    private static final Set<String> ACTIVATIONS = Set.of("Relu", "Sigmoid", "HardSigmoid", "HardSwish", "Tanh",
            "LeakyRelu", "Elu", "Selu", "Celu", "Softplus", "Softsign", "Gelu", "Mish", "Erf", "Exp", "Log", "Sqrt",
            "Abs", "Neg", "Reciprocal", "Clip", "Floor", "Ceil", "Round", "Sign", "Sin", "Cos", "ThresholdedRelu",
            "PRelu", "Not", "Shrink", "IsNaN", "IsInf");
    /** Elementwise operators with NumPy broadcasting. */
    private static final Set<String> ELEMENTWISE = Set.of("Add", "Sub", "Mul", "Div", "Pow", "Max", "Min", "Mean",
            "Sum", "Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual", "And", "Or", "Xor", "Mod", "Where",
            "BitShift");
    /** Arithmetic that is part of an activation function when its other operands are scalars. */
    private static final Set<String> POINTWISE_ARITHMETIC = Set.of("Add", "Sub", "Mul", "Div", "Pow", "Max", "Min");
    /** Layout operators: the same bytes read in another shape. */
    private static final Set<String> VIEWS = Set.of("Reshape", "Flatten", "Squeeze", "Unsqueeze", "Transpose",
            "Identity", "Dropout", "Cast", "CastLike");
    /** Operator types (memplan's names) that a BatchNorm or a bias can be folded into. */
    private static final Set<String> FOLD_TARGETS = Set.of("conv1d", "conv2d", "conv3d", "convtranspose1d",
            "convtranspose2d", "convtranspose3d", "linear");

    /** A planned operator, mutable while later nodes fuse into it. */
    private static final class Op {
        final String name;
        final String type;
        final List<String> reads;
        final List<String> outputs;
        final List<long[]> shapes;
        boolean hasBias;
        boolean activated;

        Op(String name, String type, List<String> reads, List<String> outputs, List<long[]> shapes) {
            this.name = name;
            this.type = type;
            this.reads = reads;
            this.outputs = outputs;
            this.shapes = shapes;
        }
    }

    private final OnnxModel model;
    private final Options options;
    private final String graphName;
    private final OnnxOps ops;
    private final Map<String, Val> env = new HashMap<>();
    private final Map<String, long[]> inputShapes = new LinkedHashMap<>();
    private final Map<String, long[]> parameterShapes = new HashMap<>();
    private final List<Op> planned = new ArrayList<>();
    /** ONNX value -> the operator whose (possibly fused) result it is, while nothing else reads that result. */
    private final Map<String, Op> resultOf = new HashMap<>();
    private final Map<String, Integer> uses = new HashMap<>();
    private final Set<String> graphOutputs = new HashSet<>();
    private final Set<String> operatorNames = new HashSet<>();
    /** Values of pointwise regions fused into their root's producer: value -> root, value -> the region's exit. */
    private final Map<String, String> regionRoot = new HashMap<>();
    private final Map<String, String> regionExit = new HashMap<>();
    /** Tensor renames by fusion (old -> new): a read of the old name, made before the rename, follows it. */
    private final Map<String, String> renamed = new HashMap<>();
    /** Layer norms written out node by node: result value -> {x, scale or null, bias or null}; inner values. */
    private final Map<String, String[]> layerNorms = new HashMap<>();
    private final Set<String> layerNormInner = new HashSet<>();

    OnnxGraphBuilder(OnnxModel model, Options options, String graphName) {
        this.model = model;
        this.options = options;
        this.graphName = graphName;
        this.ops = new OnnxOps(env::get);
    }

    Graph build() {
        if (model.opset() < OnnxImport.MIN_OPSET || model.opset() > OnnxImport.MAX_OPSET) {
            throw new FormatException(model.file(), "opset_import", "opset " + model.opset()
                    + " is not supported (memplan reads opsets " + OnnxImport.MIN_OPSET + " to "
                    + OnnxImport.MAX_OPSET + ")");
        }
        OnnxModel.Graph g = model.graph();
        for (Initializer t : g.initializers().values()) {
            env.put(t.name(), new Const(t.dims(), t.longs() != null ? Arrays.stream(t.longs()).asDoubleStream()
                    .toArray() : t.doubles(), ConstantFolding.isIntegral(t.dataType()), t.name()));
        }
        inputs(g);
        for (ValueInfo o : g.outputs()) {
            graphOutputs.add(o.name());
        }
        List<Node> order = topologicalOrder(g);
        for (Node n : order) {
            for (String in : n.inputs()) {
                if (!in.isEmpty()) {
                    uses.merge(in, 1, Integer::sum);
                }
            }
        }
        if (options.fusion() != Fusion.NONE) {
            findLayerNorms(g, order);
        }
        if (options.fusion() == Fusion.BN_ACTIVATIONS) {
            findPointwiseRegions(g, order);
        }
        for (Node n : order) {
            try {
                node(n);
            } catch (IllegalArgumentException | ArithmeticException e) {
                String m = String.valueOf(e.getMessage());
                String prefix = n.label() + ": ";
                throw new FormatException(model.file(), n.label(), m.startsWith(prefix) ? m.substring(prefix.length()) : m);
            }
        }
        return emit(g);
    }

    private void inputs(OnnxModel.Graph g) {
        List<String> declared = declaredInputs(g);
        for (String name : options.inputs().keySet()) {
            if (!declared.contains(name)) {
                throw new FormatException(model.file(), "--input " + name, "the model has no graph input of that "
                        + "name; its inputs: " + String.join(", ", declared));
            }
        }
        for (ValueInfo in : g.inputs()) {
            if (env.containsKey(in.name())) {
                continue; // IR < 4 lists initializers among the inputs
            }
            long[] given = options.inputs().get(in.name());
            long[] shape;
            if (given != null) {
                if (in.dims() != null) {
                    if (in.dims().size() != given.length) {
                        throw new FormatException(model.file(), "input '" + in.name() + "'", "--input gives "
                                + given.length + " dimensions, the model has " + in.dims().size() + " ("
                                + describe(in.dims()) + ")");
                    }
                    for (int i = 0; i < given.length; i++) {
                        Dim d = in.dims().get(i);
                        if (d.fixed() && d.value() != given[i]) {
                            throw new FormatException(model.file(), "input '" + in.name() + "'", "dimension " + i
                                    + " is fixed to " + d.value() + " in the model, --input gives " + given[i]);
                        }
                    }
                }
                shape = given.clone();
            } else {
                if (in.dims() == null) {
                    throw new FormatException(model.file(), "input '" + in.name() + "'", "the model gives no shape;"
                            + " give one with --input " + in.name() + "=d0,d1,...");
                }
                shape = new long[in.dims().size()];
                for (int i = 0; i < shape.length; i++) {
                    Dim d = in.dims().get(i);
                    if (!d.fixed()) {
                        throw new FormatException(model.file(), "input '" + in.name() + "'", "dimension " + i
                                + (d.param() != null ? " ('" + d.param() + "')" : "") + " of " + describe(in.dims())
                                + " is dynamic; fix every dynamic dimension with --input " + in.name() + "="
                                + example(in.dims()) + " (numbers for the letters)");
                    }
                    shape[i] = d.value();
                }
            }
            inputShapes.put(in.name(), shape);
            env.put(in.name(), new Act(in.name(), shape));
        }
    }

    private List<String> declaredInputs(OnnxModel.Graph g) {
        return g.inputs().stream().map(ValueInfo::name).filter(n -> !g.initializers().containsKey(n)).toList();
    }

    private static String describe(List<Dim> dims) {
        return dims.stream().map(d -> d.fixed() ? Long.toString(d.value()) : d.param() != null ? d.param() : "?")
                .collect(Collectors.joining(",", "[", "]"));
    }

    private static String example(List<Dim> dims) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < dims.size(); i++) {
            b.append(i == 0 ? "" : ",").append(dims.get(i).fixed() ? Long.toString(dims.get(i).value())
                    : i == 0 ? "N" : "D" + i);
        }
        return b.toString();
    }

    /** Kahn's algorithm, ready nodes taken in file order; a cycle or a dangling input is an error. */
    private List<Node> topologicalOrder(OnnxModel.Graph g) {
        List<Node> nodes = g.nodes();
        Map<String, Integer> producer = new HashMap<>();
        for (int i = 0; i < nodes.size(); i++) {
            for (String out : nodes.get(i).outputs()) {
                if (out.isEmpty()) {
                    continue;
                }
                if (producer.put(out, i) != null || env.containsKey(out)) {
                    throw new FormatException(model.file(), nodes.get(i).label(), "value '" + out
                            + "' is defined twice");
                }
            }
        }
        int[] waiting = new int[nodes.size()];
        Map<Integer, List<Integer>> readers = new HashMap<>();
        for (int i = 0; i < nodes.size(); i++) {
            Node n = nodes.get(i);
            for (String in : new LinkedHashSet<>(n.inputs())) {
                if (in.isEmpty() || env.containsKey(in)) {
                    continue;
                }
                Integer p = producer.get(in);
                if (p == null) {
                    throw new FormatException(model.file(), n.label(), "input '" + in + "' is produced by no node "
                            + "and is neither an initializer nor a graph input (missing initializer?)");
                }
                waiting[i]++;
                readers.computeIfAbsent(p, k -> new ArrayList<>()).add(i);
            }
        }
        java.util.PriorityQueue<Integer> ready = new java.util.PriorityQueue<>();
        for (int i = 0; i < nodes.size(); i++) {
            if (waiting[i] == 0) {
                ready.add(i);
            }
        }
        List<Node> order = new ArrayList<>();
        while (!ready.isEmpty()) {
            int i = ready.poll();
            order.add(nodes.get(i));
            for (int r : readers.getOrDefault(i, List.of())) {
                if (--waiting[r] == 0) {
                    ready.add(r);
                }
            }
        }
        if (order.size() < nodes.size()) {
            for (int i = 0; i < nodes.size(); i++) {
                if (waiting[i] > 0) {
                    throw new FormatException(model.file(), nodes.get(i).label(), "the graph has a cycle through "
                            + "this node");
                }
            }
        }
        for (ValueInfo o : g.outputs()) {
            if (!producer.containsKey(o.name()) && !env.containsKey(o.name())) {
                throw new FormatException(model.file(), "output '" + o.name() + "'", "no node produces it");
            }
        }
        return order;
    }

    private Val in(Node n, int i) {
        String name = n.input(i);
        return name == null ? null : env.get(name);
    }

    private void node(Node n) {
        String op = n.opType();
        if (!n.domain().isEmpty() && !n.domain().equals("ai.onnx")) {
            unknown(n, "operator " + op + " of domain '" + n.domain() + "' is not supported");
            return;
        }
        if (n.attributes().values().stream().anyMatch(OnnxModel.Attribute::graph)) {
            unknown(n, "control flow (a node with a subgraph) is not supported");
            return;
        }
        List<Val> ins = new ArrayList<>();
        boolean allConst = true;
        for (int i = 0; i < n.inputs().size(); i++) {
            Val v = in(n, i);
            ins.add(v);
            allConst &= v == null || v instanceof Const;
        }
        String out = n.outputs().isEmpty() ? null : n.outputs().get(0);
        if (layerNormInner.contains(out)) {
            return; // part of a layer norm planned as one operator at its last node
        }
        String[] norm = layerNorms.get(out);
        if (norm != null) {
            List<Val> reads = new ArrayList<>();
            for (String v : norm) {
                if (v != null) {
                    reads.add(env.get(v));
                }
            }
            emit(n, "layernorm", reads, env.get(norm[0]).shape());
            return;
        }
        switch (op) {
            case "Constant" -> env.put(out, constant(n));
            case "Shape" -> {
                long[] s = ins.get(0).shape();
                int r = s.length;
                long start = n.integer("start", 0);
                long end = n.integer("end", r);
                start = Math.max(0, Math.min(r, start < 0 ? start + r : start));
                end = Math.max(0, Math.min(r, end < 0 ? end + r : end));
                double[] v = Arrays.stream(Arrays.copyOfRange(s, (int) start, (int) Math.max(start, end)))
                        .asDoubleStream().toArray();
                env.put(out, new Const(new long[] {v.length}, v, true, out));
            }
            case "Size" -> env.put(out, new Const(new long[0], new double[] {Shapes.elements(ins.get(0).shape())},
                    true, out));
            default -> {
                if (allConst && ConstantFolding.FOLDABLE.contains(op)) {
                    List<Const> cs = new ArrayList<>();
                    ins.forEach(v -> cs.add((Const) v));
                    env.put(out, ConstantFolding.fold(n, cs, ops));
                } else {
                    compute(n, ins);
                }
            }
        }
    }

    private Const constant(Node n) {
        String out = n.outputs().get(0);
        OnnxModel.Attribute a;
        if ((a = n.attribute("value")) != null && a.t() != null) {
            Initializer t = a.t();
            double[] v = t.longs() != null ? Arrays.stream(t.longs()).asDoubleStream().toArray() : t.doubles();
            return new Const(t.dims(), v, ConstantFolding.isIntegral(t.dataType()), out);
        }
        if ((a = n.attribute("value_int")) != null) {
            return new Const(new long[0], new double[] {a.i()}, true, out);
        }
        if ((a = n.attribute("value_ints")) != null) {
            return new Const(new long[] {a.ints().length}, Arrays.stream(a.ints()).asDoubleStream().toArray(), true, out);
        }
        if ((a = n.attribute("value_float")) != null) {
            return new Const(new long[0], new double[] {a.f()}, false, out);
        }
        if ((a = n.attribute("value_floats")) != null) {
            double[] v = new double[a.floats().length];
            for (int i = 0; i < v.length; i++) {
                v[i] = a.floats()[i];
            }
            return new Const(new long[] {v.length}, v, false, out);
        }
        throw new IllegalArgumentException(n.label() + ": a Constant without a supported value attribute");
    }

    private void compute(Node n, List<Val> ins) {
        if (fuseIntoRegion(n, ins)) {
            return;
        }
        String op = n.opType();
        Val x = ins.isEmpty() ? null : ins.get(0);
        if (x == null && !op.equals("Concat")) {
            throw new IllegalArgumentException(n.label() + ": no input");
        }
        if (VIEWS.contains(op)) {
            long[] shape = switch (op) {
                case "Transpose" -> Shapes.transpose(n.label(), x.shape(), ops.permutation(n, x.rank()));
                case "Identity", "Dropout", "Cast", "CastLike" -> x.shape();
                default -> ops.viewShape(n, x);
            };
            onlyFirstOutput(n);
            view(n.outputs().get(0), x, shape);
            return;
        }
        if (ACTIVATIONS.contains(op)) {
            List<Val> extra = op.equals("PRelu") && ins.size() > 1 ? List.of(ins.get(1)) : List.of();
            pointwise(n, x, extra);
            return;
        }
        if (ELEMENTWISE.contains(op)) {
            elementwise(n, ins);
            return;
        }
        switch (op) {
            case "Conv" -> {
                long[] out = ops.conv(n, x.shape(), ins.get(1).shape());
                Op o = emit(n, "conv" + (x.rank() - 2) + "d", ins, out);
                o.hasBias = n.input(2) != null;
            }
            case "ConvTranspose" -> {
                long[] out = ops.convTranspose(n, x.shape(), ins.get(1).shape());
                Op o = emit(n, "convtranspose" + (x.rank() - 2) + "d", ins, out);
                o.hasBias = n.input(2) != null;
            }
            case "Gemm" -> {
                long[] a = x.shape();
                long[] b = ins.get(1).shape();
                if (a.length != 2 || b.length != 2) {
                    throw new IllegalArgumentException(n.label() + ": Gemm needs 2-D operands, got "
                            + Arrays.toString(a) + " and " + Arrays.toString(b));
                }
                boolean ta = n.integer("transA", 0) == 1;
                boolean tb = n.integer("transB", 0) == 1;
                long k = ta ? a[0] : a[1];
                long kb = tb ? b[1] : b[0];
                if (k != kb) {
                    throw new IllegalArgumentException(n.label() + ": cannot multiply " + Arrays.toString(a)
                            + " by " + Arrays.toString(b) + (tb ? " transposed" : ""));
                }
                long[] out = {ta ? a[1] : a[0], tb ? b[0] : b[1]};
                Op o = emit(n, ins.get(1) instanceof Const ? "linear" : "matmul", ins, out);
                o.hasBias = n.input(2) != null;
            }
            case "MatMul" -> emit(n, ins.get(1) instanceof Const ? "linear" : "matmul", ins,
                    OnnxOps.matmul(n, x.shape(), ins.get(1).shape()));
            case "MaxPool", "AveragePool", "LpPool" -> emit(n, switch (op) {
                case "MaxPool" -> "maxpool";
                case "AveragePool" -> "avgpool";
                default -> "lppool";
            }, List.of(x), ops.pool(n, x.shape()));
            case "GlobalAveragePool", "GlobalMaxPool", "GlobalLpPool" -> {
                long[] out = x.shape();
                for (int a = 2; a < out.length; a++) {
                    out[a] = 1;
                }
                emit(n, op.equals("GlobalAveragePool") ? "global_avgpool" : op.equals("GlobalMaxPool")
                        ? "global_maxpool" : "global_lppool", List.of(x), out);
            }
            case "BatchNormalization" -> batchNorm(n, ins);
            case "InstanceNormalization", "LayerNormalization", "GroupNormalization" ->
                emit(n, op.replace("Normalization", "norm").toLowerCase(Locale.ROOT),
                        ins, x.shape());
            case "LRN" -> emit(n, "lrn", List.of(x), x.shape());
            case "Softmax", "LogSoftmax", "Hardmax" -> emit(n, op.toLowerCase(Locale.ROOT), List.of(x), x.shape());
            case "Concat" -> {
                List<Val> parts = ins.stream().filter(v -> v != null && Shapes.elements(v.shape()) > 0).toList();
                List<long[]> shapes = parts.stream().map(Val::shape).toList();
                emit(n, "concat", parts, Shapes.concat(n.label(), OnnxOps.axis(n, n.integer("axis", 0),
                        parts.get(0).rank()), shapes));
            }
            case "Split" -> {
                List<long[]> shapes = ops.split(n, x.shape());
                for (int i = 0; i < shapes.size(); i++) {
                    view(n.outputs().get(i), x, shapes.get(i));
                }
            }
            case "Slice" -> emit(n, "slice", List.of(x), ops.slice(n, x.shape()).shape());
            case "Gather" -> {
                Val idx = ins.get(1);
                long[] out = OnnxOps.gather(n, x.shape(), idx.shape());
                // constant indices are immediates of the operator, not a tensor it reads
                emit(n, "gather", idx instanceof Const ? List.of(x) : List.of(x, idx), out);
            }
            case "GatherElements" -> emit(n, "gather", ins, ins.get(1).shape());
            case "Resize", "Upsample" -> emit(n, "resize", List.of(x), ops.resize(n, x.shape(), model.opset()));
            case "Pad" -> emit(n, "pad", List.of(x), ops.pad(n, x.shape()));
            case "ReduceMean", "ReduceSum", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1", "ReduceL2",
                 "ReduceLogSumExp", "ReduceSumSquare" ->
                emit(n, op.toLowerCase(Locale.ROOT), List.of(x), ops.reducedShape(n, x.shape()));
            case "ArgMax", "ArgMin" -> {
                long[] s = x.shape();
                int a = OnnxOps.axis(n, n.integer("axis", 0), s.length);
                long[] out = n.integer("keepdims", 1) == 1 ? s.clone() : OnnxOps.remove(s, a);
                if (n.integer("keepdims", 1) == 1) {
                    out[a] = 1;
                }
                emit(n, op.toLowerCase(Locale.ROOT), List.of(x), out);
            }
            case "Expand" -> emit(n, "expand", List.of(x), Shapes.broadcast(n.label(), x.shape(),
                    OnnxOps.need(n, ins.get(1), "shape").longs()));
            case "Tile" -> {
                long[] reps = OnnxOps.need(n, ins.get(1), "repeats").longs();
                long[] out = x.shape();
                if (reps.length != out.length) {
                    throw new IllegalArgumentException(n.label() + ": " + reps.length + " repeats for rank "
                            + out.length);
                }
                for (int i = 0; i < out.length; i++) {
                    out[i] *= reps[i];
                }
                emit(n, "tile", List.of(x), out);
            }
            case "DepthToSpace", "SpaceToDepth" -> {
                long b = n.integer("blocksize", 1);
                long[] s = x.shape();
                long[] out = s.clone();
                boolean toSpace = op.equals("DepthToSpace");
                out[1] = toSpace ? s[1] / (b * b) : s[1] * b * b;
                out[2] = toSpace ? s[2] * b : s[2] / b;
                out[3] = toSpace ? s[3] * b : s[3] / b;
                emit(n, op.toLowerCase(Locale.ROOT), List.of(x), out);
            }
            default -> unknown(n, "operator " + op + " is not supported");
        }
    }

    /** An operator that memplan cannot infer: with {@code opaque}, planned from the model's value_info shapes. */
    private void unknown(Node n, String problem) {
        if (!options.opaque()) {
            throw new IllegalArgumentException(n.label() + ": " + problem
                    + " (--opaque plans it with output shapes from the model's value_info)");
        }
        List<String> outs = new ArrayList<>();
        List<long[]> shapes = new ArrayList<>();
        for (String o : n.outputs()) {
            if (o.isEmpty()) {
                continue;
            }
            ValueInfo vi = model.graph().valueInfo().get(o);
            if (vi == null) {
                vi = model.graph().outputs().stream().filter(v -> v.name().equals(o)).findFirst().orElse(null);
            }
            if (vi == null || vi.dims() == null || !vi.dims().stream().allMatch(Dim::fixed)) {
                throw new IllegalArgumentException(n.label() + ": " + problem + ", and --opaque needs a static "
                        + "shape for its output '" + o + "' in value_info" + (vi == null || vi.dims() == null
                        ? " (none given)" : " (has " + describe(vi.dims()) + ")"));
            }
            outs.add(o);
            shapes.add(vi.dims().stream().mapToLong(Dim::value).toArray());
        }
        List<Val> reads = new ArrayList<>();
        for (int i = 0; i < n.inputs().size(); i++) {
            if (in(n, i) != null) {
                reads.add(in(n, i));
            }
        }
        register(n, n.opType(), reads, outs, shapes);
    }

    private void onlyFirstOutput(Node n) {
        for (int i = 1; i < n.outputs().size(); i++) {
            String o = n.outputs().get(i);
            if (!o.isEmpty() && (uses.containsKey(o) || graphOutputs.contains(o))) {
                throw new IllegalArgumentException(n.label() + ": its output " + i + " ('" + o
                        + "') is used, and memplan plans only the first output of " + n.opType());
            }
        }
    }

    private void view(String out, Val x, long[] shape) {
        if (x instanceof Act a) {
            env.put(out, new Act(a.tensor(), shape));
        } else {
            Const c = (Const) x;
            env.put(out, new Const(shape, c.values() != null && Shapes.elements(shape) == c.values().length
                    ? c.values() : null, c.integral(), c.source()));
        }
    }

    /** A planned operator for node {@code n} reading {@code ins} (constants become parameters), one output. */
    private Op emit(Node n, String type, List<Val> ins, long[] out) {
        onlyFirstOutput(n);
        return register(n, type, ins, List.of(n.outputs().get(0)), List.<long[]>of(out));
    }

    private Op register(Node n, String type, List<Val> ins, List<String> outs, List<long[]> shapes) {
        List<String> reads = new ArrayList<>();
        for (Val v : ins) {
            if (v != null) {
                String t = data(v);
                if (!reads.contains(t)) {
                    reads.add(t);
                }
            }
        }
        String base = n.name().isEmpty() ? outs.get(0) : n.name();
        String name = base;
        for (int k = 2; !operatorNames.add(name); k++) {
            name = base + "#" + k;
        }
        Op op = new Op(name, type, reads, new ArrayList<>(outs), new ArrayList<>(shapes));
        planned.add(op);
        for (int i = 0; i < outs.size(); i++) {
            env.put(outs.get(i), new Act(outs.get(i), shapes.get(i)));
            resultOf.put(outs.get(i), op);
        }
        return op;
    }

    /** The tensor a planned operator reads for value {@code v}: a constant becomes a parameter tensor. */
    private String data(Val v) {
        if (v instanceof Act a) {
            return a.tensor();
        }
        Const c = (Const) v;
        parameterShapes.putIfAbsent(c.source(), c.shape().length == 0 ? new long[] {1} : c.shape());
        return c.source();
    }

    /**
     * The operator whose result {@code value} is, when a unary function of it may be fused into that operator:
     * nothing else reads the value and it is not a graph output.
     */
    private Op fusableProducer(String value) {
        Op p = resultOf.get(value);
        if (p == null || p.outputs.size() != 1 || uses.getOrDefault(value, 0) != 1 || graphOutputs.contains(value)) {
            return null;
        }
        return p;
    }

    /**
     * Finds layer normalisations written out node by node, as exporters do before opset 17 (Ba et al., "Layer
     * Normalization", 2016): mean = ReduceMean(x), d = x - mean, y = d / Sqrt(ReduceMean(Pow(d, 2)) + eps),
     * optionally y * scale + bias with constant scale and bias. When no value inside is read elsewhere, the
     * whole chain is one {@code layernorm} operator reading x, scale and bias, as the zoo builds it.
     */
    private void findLayerNorms(OnnxModel.Graph g, List<Node> order) {
        Map<String, Node> producer = new HashMap<>();
        Map<String, List<Node>> readers = new HashMap<>();
        for (Node n : order) {
            n.outputs().forEach(o -> producer.put(o, n));
            for (String in : n.inputs()) {
                readers.computeIfAbsent(in, k -> new ArrayList<>()).add(n);
            }
        }
        for (Node div : order) {
            if (!div.opType().equals("Div") || div.inputs().size() != 2) {
                continue;
            }
            Node sub = producer.get(div.inputs().get(0));
            Node sqrt = producer.get(div.inputs().get(1));
            if (!is(sub, "Sub") || !is(sqrt, "Sqrt")) {
                continue;
            }
            String x = sub.inputs().get(0);
            Node mean = producer.get(sub.inputs().get(1));
            Node addEps = producer.get(sqrt.inputs().get(0));
            Node variance = is(addEps, "Add") ? producer.get(addEps.inputs().get(0)) : null;
            Node pow = is(variance, "ReduceMean") ? producer.get(variance.inputs().get(0)) : null;
            if (!is(mean, "ReduceMean") || !mean.inputs().get(0).equals(x) || !is(pow, "Pow")
                    || !pow.inputs().get(0).equals(sub.outputs().get(0))
                    || !Arrays.equals(mean.integers("axes"), variance.integers("axes"))
                    || !mean.inputs().subList(1, mean.inputs().size()).equals(
                            variance.inputs().subList(1, variance.inputs().size()))) {
                continue;
            }
            List<Node> inner = new ArrayList<>(List.of(mean, sub, pow, variance, addEps, sqrt));
            String result = div.outputs().get(0);
            String scale = null;
            String bias = null;
            Node mul = soleReader(readers, g, result);
            if (is(mul, "Mul") && isConstant(g, producer, other(mul, result))) {
                inner.add(div);
                scale = other(mul, result);
                result = mul.outputs().get(0);
                Node add = soleReader(readers, g, result);
                if (is(add, "Add") && isConstant(g, producer, other(add, result))) {
                    inner.add(mul);
                    bias = other(add, result);
                    result = add.outputs().get(0);
                }
            }
            Set<Node> pattern = new HashSet<>(inner);
            pattern.add(producer.get(result));
            boolean closed = true;
            for (Node n : inner) {
                String v = n.outputs().get(0);
                closed &= !graphOutputs.contains(v) && readers.getOrDefault(v, List.of()).stream().allMatch(pattern::contains);
            }
            if (closed) {
                inner.forEach(n -> layerNormInner.add(n.outputs().get(0)));
                layerNorms.put(result, new String[] {x, scale, bias});
            }
        }
    }

    private static boolean is(Node n, String op) {
        return n != null && n.opType().equals(op) && n.outputs().size() == 1;
    }

    private Node soleReader(Map<String, List<Node>> readers, OnnxModel.Graph g, String value) {
        List<Node> r = readers.getOrDefault(value, List.of());
        return r.size() == 1 && !graphOutputs.contains(value) ? r.get(0) : null;
    }

    private static String other(Node binary, String value) {
        return binary.inputs().get(0).equals(value) ? binary.inputs().get(1) : binary.inputs().get(0);
    }

    private static boolean isConstant(OnnxModel.Graph g, Map<String, Node> producer, String value) {
        return g.initializers().containsKey(value) || is(producer.get(value), "Constant");
    }

    /**
     * Finds the activation functions that exporters write as several pointwise nodes (SiLU as x * Sigmoid(x),
     * hard-swish as x * Clip(x + 3, 0, 6) / 6, GELU as x * 0.5 * (1 + Erf(x / sqrt 2))): a region is the set of
     * pointwise nodes (activations, and arithmetic whose other operands are scalar constants or values of the same
     * region) computed from one root value. When nothing outside the region reads the root or any value of it but
     * one, the exit, the whole region is one activation fused into the root's producer, as the zoo fuses
     * hard-swish and GELU. Linear in nodes and edges.
     */
    private void findPointwiseRegions(OnnxModel.Graph g, List<Node> order) {
        Set<String> scalars = new HashSet<>();
        g.initializers().values().stream().filter(t -> t.elements() <= 1).forEach(t -> scalars.add(t.name()));
        Map<String, String> root = new HashMap<>();
        Map<String, List<String>> members = new LinkedHashMap<>();
        Map<String, Set<String>> outsideReaders = new HashMap<>();
        for (Node n : order) {
            String op = n.opType();
            if (op.equals("Constant") && n.outputs().size() == 1) {
                OnnxModel.Attribute v = n.attribute("value");
                if (v == null || v.t() == null || v.t().elements() <= 1) {
                    scalars.add(n.outputs().get(0));
                }
                continue;
            }
            String region = null;
            boolean joins = (ACTIVATIONS.contains(op) || POINTWISE_ARITHMETIC.contains(op))
                    && n.outputs().size() == 1;
            for (String in : n.inputs()) {
                if (!joins || in.isEmpty() || scalars.contains(in)) {
                    continue;
                }
                String r = root.getOrDefault(in, in);
                if (region == null) {
                    region = r;
                } else if (!region.equals(r)) {
                    joins = false;
                }
            }
            if (joins && region != null) {
                String out = n.outputs().get(0);
                root.put(out, region);
                members.computeIfAbsent(region, k -> new ArrayList<>()).add(out);
            }
            String own = joins && region != null ? region : null;
            for (String in : n.inputs()) {
                String r = root.getOrDefault(in, in);
                if (!in.isEmpty() && !r.equals(own)) { // a reader outside the region of 'in'
                    outsideReaders.computeIfAbsent(r, k -> new HashSet<>()).add(in);
                }
            }
        }
        for (ValueInfo o : g.outputs()) {
            String r = root.getOrDefault(o.name(), o.name());
            outsideReaders.computeIfAbsent(r, k -> new HashSet<>()).add(o.name());
        }
        for (Map.Entry<String, List<String>> e : members.entrySet()) {
            Set<String> exits = outsideReaders.getOrDefault(e.getKey(), Set.of());
            if (exits.size() == 1 && !exits.contains(e.getKey())) {
                String exit = exits.iterator().next();
                for (String v : e.getValue()) {
                    regionRoot.put(v, e.getKey());
                    regionExit.put(v, exit);
                }
            }
        }
    }

    /** A node of a fusable pointwise region: fused into the root's producer when that is a planned operator. */
    private boolean fuseIntoRegion(Node n, List<Val> ins) {
        String out = n.outputs().isEmpty() ? null : n.outputs().get(0);
        String r = out == null ? null : regionRoot.get(out);
        Op p = r == null ? null : resultOf.get(r);
        if (p == null || p.outputs.size() != 1 || !(env.get(r) instanceof Act a)) {
            return false;
        }
        long[] shape = new long[0];
        for (Val v : ins) {
            if (v != null) {
                shape = Shapes.broadcast(n.label(), shape, v.shape());
            }
        }
        if (!Arrays.equals(shape, a.shape())) {
            return false;
        }
        p.activated = true;
        if (out.equals(regionExit.get(out))) {
            renamed.put(p.outputs.get(0), out);
            p.outputs.set(0, out);
            env.put(out, new Act(out, shape));
        } else {
            env.put(out, new Act(p.outputs.get(0), shape));
        }
        resultOf.put(out, p);
        return true;
    }

    /**
     * Value {@code out} is now what operator {@code p} writes in place of {@code a}: the tensor takes the later
     * name (nothing else reads {@code a}), so graph outputs keep the model's names.
     */
    private void fuse(Op p, Act a, String out) {
        int i = p.outputs.indexOf(a.tensor());
        renamed.put(a.tensor(), out);
        p.outputs.set(i, out);
        env.put(out, new Act(out, a.shape()));
        resultOf.put(out, p);
    }

    /** A unary function of {@code x} (an activation, or arithmetic with a scalar constant). */
    private void pointwise(Node n, Val x, List<Val> extra) {
        onlyFirstOutput(n);
        String out = n.outputs().get(0);
        Op p = options.fusion() == Fusion.BN_ACTIVATIONS ? fusableProducer(n.inputs().get(0)) : null;
        if (p != null && x instanceof Act a) {
            for (Val e : extra) {
                String t = data(e);
                if (!p.reads.contains(t)) {
                    p.reads.add(t);
                }
            }
            p.activated = true;
            fuse(p, a, out);
            return;
        }
        List<Val> reads = new ArrayList<>(List.of(x));
        reads.addAll(extra);
        emit(n, n.opType().toLowerCase(Locale.ROOT), reads, x.shape());
    }

    private void elementwise(Node n, List<Val> ins) {
        long[] shape = new long[0];
        List<Val> present = ins.stream().filter(v -> v != null).toList();
        for (Val v : present) {
            shape = Shapes.broadcast(n.label(), shape, v.shape());
        }
        List<Integer> acts = new ArrayList<>();
        for (int i = 0; i < ins.size(); i++) {
            if (ins.get(i) instanceof Act) {
                acts.add(i);
            }
        }
        if (acts.size() == 1 && !n.opType().equals("Where")) {
            int ai = acts.get(0);
            Val x = ins.get(ai);
            boolean scalars = present.stream().allMatch(v -> v == x || Shapes.elements(v.shape()) <= 1);
            if (scalars && Arrays.equals(shape, x.shape())) {
                pointwise(n, x, List.of());
                return;
            }
            if (n.opType().equals("Add") && options.fusion() != Fusion.NONE && foldBias(n, ai, ins)) {
                return;
            }
        }
        emit(n, n.opType().toLowerCase(Locale.ROOT), present, shape);
    }

    /** Add(conv or linear output, per-channel constant) folded into that operator as its bias. */
    private boolean foldBias(Node n, int actIndex, List<Val> ins) {
        Op p = fusableProducer(n.inputs().get(actIndex));
        if (p == null || !FOLD_TARGETS.contains(p.type) || p.hasBias || p.activated || ins.size() != 2) {
            return false;
        }
        Val bias = ins.get(1 - actIndex);
        long[] out = p.shapes.get(0);
        int channelAxis = p.type.equals("linear") ? out.length - 1 : 1;
        long[] b = bias.shape();
        if (Shapes.elements(b) != out[channelAxis] || b.length > out.length) {
            return false;
        }
        for (int j = 0; j < b.length; j++) {
            int k = out.length - b.length + j; // right-aligned as in broadcasting
            if (b[j] != 1 && k != channelAxis) {
                return false;
            }
        }
        p.reads.add(data(bias));
        p.hasBias = true;
        fuse(p, (Act) ins.get(actIndex), n.outputs().get(0));
        return true;
    }

    private void batchNorm(Node n, List<Val> ins) {
        onlyFirstOutput(n);
        Val x = ins.get(0);
        if (ins.size() < 5) {
            throw new IllegalArgumentException(n.label() + ": BatchNormalization needs X, scale, B, mean and var");
        }
        Op p = options.fusion() != Fusion.NONE ? fusableProducer(n.inputs().get(0)) : null;
        if (p != null && FOLD_TARGETS.contains(p.type) && !p.activated && x instanceof Act a) {
            // W' = W * scale / sqrt(var + eps), b' = (b - mean) * scale / sqrt(var + eps) + B: the weights keep their
            // size and the operator gains a bias of C elements if it had none
            if (!p.hasBias) {
                p.reads.add(data(ins.get(2)));
                p.hasBias = true;
            }
            fuse(p, a, n.outputs().get(0));
            return;
        }
        // at inference a lone BatchNorm is a per-channel scale and shift; without fusion it reads all four vectors
        List<Val> reads = options.fusion() == Fusion.NONE ? ins : List.of(x, ins.get(1), ins.get(2));
        emit(n, "batchnorm", reads, x.shape());
    }

    private String finalName(String tensor) {
        String t = tensor;
        while (renamed.containsKey(t)) {
            t = renamed.get(t);
        }
        return t;
    }

    private Graph emit(OnnxModel.Graph g) {
        NetBuilder b = new NetBuilder(graphName, options.bytesPerElement());
        for (Op o : planned) {
            List<String> reads = o.reads.stream().map(this::finalName).distinct().toList();
            o.reads.clear();
            o.reads.addAll(reads);
        }
        Set<String> read = new HashSet<>();
        planned.forEach(o -> read.addAll(o.reads));
        List<NetBuilder.Value> outputs = new ArrayList<>();
        for (ValueInfo o : g.outputs()) {
            Val v = env.get(o.name());
            if (!(v instanceof Act a)) {
                throw new FormatException(model.file(), "output '" + o.name() + "'", "a constant (folded from "
                        + "initializers and shapes): nothing to plan");
            }
            outputs.add(new NetBuilder.Value(finalName(a.tensor()), a.shape()));
            read.add(finalName(a.tensor()));
        }
        try {
            Set<String> declared = new HashSet<>();
            for (Map.Entry<String, long[]> in : inputShapes.entrySet()) {
                if (read.contains(in.getKey())) {
                    b.input(in.getKey(), in.getValue());
                    declared.add(in.getKey());
                }
            }
            for (Op o : planned) {
                for (String r : o.reads) {
                    if (declared.add(r)) {
                        b.parameter(r, parameterShapes.get(r));
                    }
                }
                b.operator(o.name, o.type, o.reads, o.outputs, o.shapes);
                declared.addAll(o.outputs);
            }
            Set<String> marked = new HashSet<>();
            for (NetBuilder.Value v : outputs) {
                if (marked.add(v.tensor())) {
                    b.output(v);
                }
            }
            return b.build();
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new FormatException(model.file(), "graph", e.getMessage());
        }
    }
}
