package dev.memplan.datasets.zoo;

import dev.memplan.model.Graph;
import dev.memplan.model.Tensor;
import dev.memplan.model.TensorKind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Builds a network's {@link Graph} layer by layer with shape inference: each call adds one operator, computes
 * its output shape (PyTorch's conventions: NCHW / NCDHW, floor division unless {@code ceil} is asked for) and
 * the sizes of its output and of its weight and bias tensors.
 *
 * <p>Granularity (the same for every zoo network, see the datasets README): one operator per accelerator
 * operation after the usual inference fusions. BatchNorm is folded into the convolution before it (which then
 * has a bias) and activation functions are fused into their producer, so neither is an operator; add,
 * multiply, concat, pooling, matmul/linear, softmax, layer norm and resize are operators. Reshape, flatten,
 * transpose and split are layout views: they return the same tensor with another shape (an accelerator
 * reads it in the new layout; matmuls take transposed operands directly), so they add no operator and no
 * bytes. Every tensor has {@code bytesPerElement} bytes per element (8-bit data unless asked otherwise).
 *
 * <p>{@link #referenceParameterCount()} counts parameters the way the reference implementations do, before
 * BatchNorm folding (a BatchNorm adds its weight and bias, 2C; running statistics are buffers, not
 * parameters), so it can be compared with published figures. The graph's parameter tensors are the folded
 * ones: each convolution's weight, and a bias when it had one or had a BatchNorm.
 */
public final class NetBuilder {

    /** A tensor flowing between layers: its name in the graph and its shape. */
    public record Value(String tensor, long[] shape) {

        public Value {
            shape = shape.clone();
        }

        @Override
        public long[] shape() {
            return shape.clone();
        }

        public int rank() {
            return shape.length;
        }

        public long dim(int axis) {
            return shape[axis < 0 ? shape.length + axis : axis];
        }

        /** Channels of an NC... tensor. */
        public long channels() {
            return shape[1];
        }

        public long elements() {
            long n = 1;
            for (long d : shape) {
                n = Math.multiplyExact(n, d);
            }
            return n;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Value v && v.tensor.equals(tensor) && Arrays.equals(v.shape, shape);
        }

        @Override
        public int hashCode() {
            return tensor.hashCode() * 31 + Arrays.hashCode(shape);
        }

        @Override
        public String toString() {
            return tensor + Arrays.toString(shape);
        }
    }

    /** Options of a convolution; {@link #conv(int, int)} gives the common case. */
    public record Conv(int outChannels, int[] kernel, int[] stride, int[] padding, int[] dilation, int groups,
                       boolean bias, boolean batchNorm) {

        /** A k x k (or k x k x k) convolution with stride 1, "same" padding, BatchNorm, no bias. */
        public static Conv conv(int outChannels, int kernel) {
            return new Conv(outChannels, new int[] {kernel}, new int[] {1}, new int[] {kernel / 2}, new int[] {1}, 1,
                    false, true);
        }

        public Conv kernel(int... k) {
            return new Conv(outChannels, k, stride, padding, dilation, groups, bias, batchNorm);
        }

        public Conv stride(int... s) {
            return new Conv(outChannels, kernel, s, padding, dilation, groups, bias, batchNorm);
        }

        public Conv padding(int... p) {
            return new Conv(outChannels, kernel, stride, p, dilation, groups, bias, batchNorm);
        }

        public Conv dilation(int... d) {
            return new Conv(outChannels, kernel, stride, padding, d, groups, bias, batchNorm);
        }

        public Conv groups(int g) {
            return new Conv(outChannels, kernel, stride, padding, dilation, g, bias, batchNorm);
        }

        /** A plain convolution with a bias and no BatchNorm. */
        public Conv withBias() {
            return new Conv(outChannels, kernel, stride, padding, dilation, groups, true, false);
        }

        /** A convolution with neither bias nor BatchNorm. */
        public Conv plain() {
            return new Conv(outChannels, kernel, stride, padding, dilation, groups, false, false);
        }
    }

    private final String name;
    private final int bytesPerElement;
    private final Graph.Builder graph;
    private final Set<String> names = new HashSet<>();
    private final List<String> outputs = new ArrayList<>();
    private long referenceParameters;

    public NetBuilder(String name, int bytesPerElement) {
        if (bytesPerElement < 1) {
            throw new IllegalArgumentException("bytes per element must be >= 1, got " + bytesPerElement);
        }
        this.name = name;
        this.bytesPerElement = bytesPerElement;
        this.graph = Graph.builder(name);
    }

    public String name() {
        return name;
    }

    /** Parameters counted as the reference implementation counts them (before BatchNorm folding). */
    public long referenceParameterCount() {
        return referenceParameters;
    }

    /** A network input (an activation no operator produces) of the given shape. */
    public Value input(String tensorName, long... shape) {
        return tensor(tensorName, shape, TensorKind.ACTIVATION);
    }

    /**
     * A learned tensor read directly by an operator (a class token, a positional embedding): a parameter
     * tensor of the given shape, counted in the reference parameters.
     */
    public Value parameter(String tensorName, long... shape) {
        Value v = tensor(tensorName, shape, TensorKind.PARAMETER);
        referenceParameters += v.elements();
        return v;
    }

    /** Marks a value as a graph output. */
    public NetBuilder output(Value v) {
        outputs.add(v.tensor());
        return this;
    }

    public Graph build() {
        if (outputs.isEmpty()) {
            throw new IllegalStateException(name + ": no output marked");
        }
        outputs.forEach(graph::output);
        return graph.build();
    }

    /**
     * A 2-D or 3-D convolution (by the rank of {@code x}), with BatchNorm folded in and any activation fused:
     * out = floor((in + 2p - d(k-1) - 1) / s) + 1 per spatial axis. A one-element kernel/stride/padding/dilation
     * array applies to every spatial axis.
     */
    public Value conv(String op, Value x, Conv c) {
        return conv(op, x, c, null);
    }

    /**
     * A convolution whose input first passes through a BatchNorm of its own and an activation (the
     * pre-activation layout BN-ReLU-conv of DenseNet, where the normalised tensor feeds only this convolution).
     * That BatchNorm cannot be folded into the weights across the activation, so it is applied as the operator
     * reads its input: the operator also reads the BatchNorm's per-channel scale and shift, a (2, C_in)
     * parameter tensor {@code op + ".norm"}, counted as the BatchNorm's 2 C_in reference parameters. {@code c}
     * describes the convolution as in {@link #conv}; its {@code batchNorm} is a BatchNorm <em>after</em> the
     * convolution, folded as usual.
     */
    public Value preNormConv(String op, Value x, Conv c) {
        if (x.rank() < 3) {
            throw new IllegalArgumentException(op + ": convolution needs an NC(D)HW input, got " + x);
        }
        return conv(op, x, c, parameter(op + ".norm", 2, x.channels()));
    }

    private Value conv(String op, Value x, Conv c, Value inputNorm) {
        int spatial = x.rank() - 2;
        if (spatial < 1 || spatial > 3) {
            throw new IllegalArgumentException(op + ": convolution needs an NC(D)HW input, got " + x);
        }
        long in = x.channels();
        if (in % c.groups() != 0 || c.outChannels() % c.groups() != 0) {
            throw new IllegalArgumentException(op + ": " + in + " -> " + c.outChannels()
                    + " channels do not divide into " + c.groups() + " groups");
        }
        long[] out = new long[x.rank()];
        out[0] = x.dim(0);
        out[1] = c.outChannels();
        long kernelVolume = 1;
        long[] weightShape = new long[x.rank()];
        weightShape[0] = c.outChannels();
        weightShape[1] = in / c.groups();
        for (int a = 0; a < spatial; a++) {
            int k = pick(c.kernel(), a, spatial);
            int s = pick(c.stride(), a, spatial);
            int p = pick(c.padding(), a, spatial);
            int d = pick(c.dilation(), a, spatial);
            out[a + 2] = floorOut(op, x.dim(a + 2), k, s, p, d, false);
            kernelVolume *= k;
            weightShape[a + 2] = k;
        }
        long weight = c.outChannels() * (in / c.groups()) * kernelVolume;
        referenceParameters += weight + (c.bias() ? c.outChannels() : 0) + (c.batchNorm() ? 2L * c.outChannels() : 0);
        List<String> reads = new ArrayList<>(List.of(x.tensor()));
        if (inputNorm != null) {
            reads.add(inputNorm.tensor());
        }
        reads.add(tensor(op + ".weight", weightShape, TensorKind.PARAMETER).tensor());
        if (c.bias() || c.batchNorm()) {
            reads.add(tensor(op + ".bias", new long[] {c.outChannels()}, TensorKind.PARAMETER).tensor());
        }
        return operator(op, spatial == 3 ? "conv3d" : "conv2d", reads, out);
    }

    /** Max pooling over the spatial axes; {@code ceil} rounds the output size up as PyTorch's ceil_mode. */
    public Value maxPool(String op, Value x, int kernel, int stride, int padding, boolean ceil) {
        return pool(op, "maxpool", x, new int[] {kernel}, new int[] {stride}, new int[] {padding}, ceil);
    }

    /** Average pooling over the spatial axes. */
    public Value avgPool(String op, Value x, int kernel, int stride, int padding, boolean ceil) {
        return pool(op, "avgpool", x, new int[] {kernel}, new int[] {stride}, new int[] {padding}, ceil);
    }

    /** Pooling with per-axis kernel, stride and padding (e.g. 3-D pooling with a (1,3,3) kernel). */
    public Value pool(String op, String type, Value x, int[] kernel, int[] stride, int[] padding, boolean ceil) {
        int spatial = x.rank() - 2;
        long[] out = x.shape();
        for (int a = 0; a < spatial; a++) {
            int k = pick(kernel, a, spatial);
            int s = pick(stride, a, spatial);
            int p = pick(padding, a, spatial);
            out[a + 2] = floorOut(op, x.dim(a + 2), k, s, p, 1, ceil);
        }
        return operator(op, type, List.of(x.tensor()), out);
    }

    /** Global average pooling: every spatial axis becomes 1. */
    public Value globalAvgPool(String op, Value x) {
        long[] out = x.shape();
        for (int a = 2; a < out.length; a++) {
            out[a] = 1;
        }
        return operator(op, "global_avgpool", List.of(x.tensor()), out);
    }

    /** Elementwise sum with NumPy broadcasting (an activation after it is fused). */
    public Value add(String op, Value a, Value b) {
        return operator(op, "add", List.of(a.tensor(), b.tensor()), Shapes.broadcast(op, a.shape(), b.shape()));
    }

    /** Elementwise product with NumPy broadcasting (e.g. squeeze-and-excitation scaling). */
    public Value mul(String op, Value a, Value b) {
        return operator(op, "mul", List.of(a.tensor(), b.tensor()), Shapes.broadcast(op, a.shape(), b.shape()));
    }

    /** Concatenation along {@code axis}; all other axes must agree. */
    public Value concat(String op, int axis, List<Value> parts) {
        if (parts.isEmpty()) {
            throw new IllegalArgumentException(op + ": nothing to concatenate");
        }
        long[] out = Shapes.concat(op, axis, parts.stream().map(Value::shape).toList());
        List<String> reads = new ArrayList<>();
        for (Value p : parts) {
            if (!reads.contains(p.tensor())) {
                reads.add(p.tensor());
            }
        }
        return operator(op, "concat", reads, out);
    }

    /** A fully connected layer on the last axis: weight (out x in) and, when {@code bias}, a bias. */
    public Value linear(String op, Value x, long outFeatures, boolean bias) {
        long in = x.dim(-1);
        long[] out = x.shape();
        out[out.length - 1] = outFeatures;
        referenceParameters += outFeatures * in + (bias ? outFeatures : 0);
        List<String> reads = new ArrayList<>(List.of(x.tensor()));
        reads.add(tensor(op + ".weight", new long[] {outFeatures, in}, TensorKind.PARAMETER).tensor());
        if (bias) {
            reads.add(tensor(op + ".bias", new long[] {outFeatures}, TensorKind.PARAMETER).tensor());
        }
        return operator(op, "linear", reads, out);
    }

    /**
     * Batched matrix product of the last two axes ({@code ... x n x k} times {@code ... x k x m}), leading axes
     * broadcast; transposed operands are views (pass them through {@link #transpose}).
     */
    public Value matmul(String op, Value a, Value b) {
        return operator(op, "matmul", List.of(a.tensor(), b.tensor()), Shapes.matmul(op, a.shape(), b.shape()));
    }

    /** Softmax over the last axis. */
    public Value softmax(String op, Value x) {
        return operator(op, "softmax", List.of(x.tensor()), x.shape());
    }

    /** Layer normalisation over the last axis, with its weight and bias. */
    public Value layerNorm(String op, Value x) {
        long d = x.dim(-1);
        referenceParameters += 2 * d;
        return operator(op, "layernorm", List.of(x.tensor(),
                tensor(op + ".weight", new long[] {d}, TensorKind.PARAMETER).tensor(),
                tensor(op + ".bias", new long[] {d}, TensorKind.PARAMETER).tensor()), x.shape());
    }

    /** Resizes the spatial axes to {@code size} (bilinear or nearest: the same bytes). */
    public Value resize(String op, Value x, long... size) {
        long[] out = x.shape();
        if (size.length != out.length - 2) {
            throw new IllegalArgumentException(op + ": " + size.length + " sizes for " + (out.length - 2)
                    + " spatial axes");
        }
        System.arraycopy(size, 0, out, 2, size.length);
        return operator(op, "resize", List.of(x.tensor()), out);
    }

    /** Takes index {@code index} of {@code axis} (e.g. ViT's class token); the axis disappears. */
    public Value select(String op, Value x, int axis, long index) {
        int ax = axis < 0 ? x.rank() + axis : axis;
        if (index < 0 || index >= x.dim(ax)) {
            throw new IllegalArgumentException(op + ": index " + index + " outside axis " + axis + " of " + x);
        }
        long[] s = x.shape();
        long[] out = new long[s.length - 1];
        for (int i = 0, j = 0; i < s.length; i++) {
            if (i != ax) {
                out[j++] = s[i];
            }
        }
        return operator(op, "select", List.of(x.tensor()), out);
    }

    /** A view of {@code x} with another shape of the same number of elements; -1 infers one axis. */
    public Value reshape(Value x, long... shape) {
        return new Value(x.tensor(), Shapes.reshape(x.tensor(), x.shape(), shape));
    }

    /** A view flattening axes {@code from..} into one (torch.flatten(x, from)). */
    public Value flatten(Value x, int from) {
        return new Value(x.tensor(), Shapes.flatten(x.shape(), from));
    }

    /** A view with axes permuted: {@code out[i] = in[perm[i]]}. */
    public Value transpose(Value x, int... perm) {
        return new Value(x.tensor(), Shapes.transpose(x.tensor(), x.shape(), perm));
    }

    /** A generic operator with given inputs and one output of the given shape (for ops without a helper). */
    public Value operator(String op, String type, List<String> reads, long[] outShape) {
        return operator(op, type, reads, List.of(op), List.of(outShape)).get(0);
    }

    /** A generic operator writing the named outputs (siblings) of the given shapes. */
    public List<Value> operator(String op, String type, List<String> reads, List<String> outputNames,
                                List<long[]> outShapes) {
        List<Value> outs = new ArrayList<>();
        for (int i = 0; i < outputNames.size(); i++) {
            outs.add(tensor(outputNames.get(i), outShapes.get(i), TensorKind.ACTIVATION));
        }
        graph.operator(new dev.memplan.model.Operator(op, type, reads, outs.stream().map(Value::tensor).toList()));
        return outs;
    }

    private Value tensor(String tensorName, long[] shape, TensorKind kind) {
        if (!names.add(tensorName)) {
            throw new IllegalArgumentException(name + ": tensor name '" + tensorName + "' used twice");
        }
        long elements = 1;
        List<Long> dims = new ArrayList<>();
        for (long d : shape) {
            if (d < 1) {
                throw new IllegalArgumentException(name + ": tensor '" + tensorName + "' has shape "
                        + Arrays.toString(shape));
            }
            elements = Math.multiplyExact(elements, d);
            dims.add(d);
        }
        graph.tensor(new Tensor(tensorName, Math.multiplyExact(elements, bytesPerElement), kind, dims,
                bytesPerElement == 1 ? "int8" : "int" + 8 * bytesPerElement));
        return new Value(tensorName, shape);
    }

    private static int pick(int[] values, int axis, int spatial) {
        if (values.length == 1) {
            return values[0];
        }
        if (values.length != spatial) {
            throw new IllegalArgumentException(values.length + " values for " + spatial + " spatial axes");
        }
        return values[axis];
    }

    private static long floorOut(String op, long in, int k, int s, int p, int d, boolean ceil) {
        return Shapes.window(op, in, k, s, p, p, d, ceil);
    }
}
