package dev.memplan.model;

import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The compute cost c(o) memplan derives for an operator whose graph gives none (memory-model.md,
 * "Recomputation"), from the operator's type and the shapes of its tensors. The type is matched without case,
 * underscores or dashes ({@code Conv}, {@code conv2d} and {@code conv_3d} are one family); docs/training.md has
 * the table. Costs are counts of work, not time: multiply-accumulates for the operators that multiply matrices,
 * elements for the rest, so that on a network with shapes a convolution costs what it costs relative to an add.
 *
 * <p>An operator of no known type, or whose rule needs a shape its tensors lack (a generated graph has none),
 * costs the bytes it touches: the sizes of its distinct inputs and outputs. Every operator thus has a cost, and
 * one rule holds across a graph without shapes. Linear in the operator's tensors and dimensions.
 */
final class OperatorCosts {

    /** How a type's cost is counted. */
    enum Rule {
        /** Convolution: output elements x (weight elements / output channels), i.e. x C_in/groups x kernel. */
        CONV_MACS,
        /** Transposed convolution: input elements x (weight elements / input channels). */
        CONV_TRANSPOSE_MACS,
        /** Linear / Gemm: output elements x (weight elements / output features), the reduced dimension. */
        LINEAR_MACS,
        /** Matrix product: output elements x the reduced dimension k, from the operands' sizes (see reduced). */
        MATMUL_MACS,
        /** Pooling and reductions: the elements of the first input, each read once. */
        INPUT_ELEMENTS,
        /** Elementwise, activation, normalisation, softmax, data movement: the elements written. */
        OUTPUT_ELEMENTS,
        /** No rule for the type: the bytes of the distinct inputs and outputs. */
        BYTES
    }

    private static final Set<String> REDUCTIONS = Set.of("maxpool", "avgpool", "lppool", "globalavgpool",
            "globalmaxpool", "globallppool", "reducemean", "reducesum", "reducemax", "reducemin", "reduceprod",
            "reducel1", "reducel2", "reducelogsumexp", "reducesumsquare", "argmax", "argmin");
    private static final Set<String> ELEMENTWISE = Set.of("add", "sub", "mul", "div", "pow", "max", "min", "mean",
            "sum", "equal", "less", "greater", "lessorequal", "greaterorequal", "and", "or", "xor", "mod", "where",
            "bitshift", "relu", "sigmoid", "hardsigmoid", "hardswish", "tanh", "leakyrelu", "elu", "selu", "celu",
            "softplus", "softsign", "gelu", "mish", "erf", "exp", "log", "sqrt", "abs", "neg", "reciprocal", "clip",
            "floor", "ceil", "round", "sign", "sin", "cos", "thresholdedrelu", "prelu", "not", "shrink", "isnan",
            "isinf", "softmax", "logsoftmax", "hardmax", "layernorm", "batchnorm", "instancenorm", "groupnorm",
            "lrn", "concat", "slice", "gather", "resize", "pad", "expand", "tile", "depthtospace", "spacetodepth",
            "select", "identity");

    private OperatorCosts() {
    }

    /** The rule for an operator type (null: {@link Rule#BYTES}). */
    static Rule rule(String type) {
        if (type == null) {
            return Rule.BYTES;
        }
        String t = type.toLowerCase(Locale.ROOT).replace("_", "").replace("-", "");
        if (t.matches("conv([123]d)?")) {
            return Rule.CONV_MACS;
        }
        if (t.matches("convtranspose([123]d)?")) {
            return Rule.CONV_TRANSPOSE_MACS;
        }
        if (t.equals("linear") || t.equals("gemm")) {
            return Rule.LINEAR_MACS;
        }
        if (t.equals("matmul")) {
            return Rule.MATMUL_MACS;
        }
        if (REDUCTIONS.contains(t)) {
            return Rule.INPUT_ELEMENTS;
        }
        return ELEMENTWISE.contains(t) ? Rule.OUTPUT_ELEMENTS : Rule.BYTES;
    }

    /** The derived cost of operator {@code o} of {@code g}. */
    static long derived(Graph g, int o) {
        long cost = byRule(g, o, rule(g.operator(o).type()));
        return cost >= 0 ? cost : bytes(g, o);
    }

    /** The cost by the rule, or -1 when a shape it needs is missing. */
    private static long byRule(Graph g, int o, Rule rule) {
        int[] in = g.inputs(o);
        int[] out = g.outputs(o);
        List<Long> y = out.length == 0 ? List.of() : g.tensor(out[0]).shape();
        List<Long> x = in.length == 0 ? List.of() : g.tensor(in[0]).shape();
        return switch (rule) {
            case CONV_MACS -> {
                List<Long> w = weight(g, in, y.size());
                yield w == null ? -1 : times(elements(y), perFirstAxis(w));
            }
            case CONV_TRANSPOSE_MACS -> {
                List<Long> w = weight(g, in, x.size());
                yield w == null ? -1 : times(elements(x), perFirstAxis(w));
            }
            case LINEAR_MACS -> {
                List<Long> w = in.length < 2 ? List.of() : g.tensor(in[1]).shape();
                yield y.isEmpty() || w.size() != 2 ? -1
                        : times(elements(y), elements(w) / Math.max(1, y.get(y.size() - 1)));
            }
            case MATMUL_MACS -> {
                List<Long> b = in.length < 2 ? List.of() : g.tensor(in[1]).shape();
                yield y.size() < 2 || x.isEmpty() || b.isEmpty() ? -1 : times(elements(y), reduced(x, b, y));
            }
            case INPUT_ELEMENTS -> x.isEmpty() ? -1 : elements(x);
            case OUTPUT_ELEMENTS -> {
                long sum = 0;
                for (int t : out) {
                    List<Long> s = g.tensor(t).shape();
                    if (s.isEmpty()) {
                        yield -1;
                    }
                    sum = plus(sum, elements(s));
                }
                yield sum;
            }
            case BYTES -> -1;
        };
    }

    /**
     * The reduced dimension k of Y = A x B (A is ... x n x k, B ... x k x m, Y ... x n x m) from element counts,
     * since a stored operand shape may be a view's producer's (a transposed or head-split operand keeps the shape
     * it was made with): |A| = (|Y| / m) x k and |B| = (|Y| / n) x k when the operand carries Y's batch axes. An
     * operand broadcast over the batch gives k divided by the batch, so the larger of the two is k.
     */
    private static long reduced(List<Long> a, List<Long> b, List<Long> y) {
        long out = elements(y);
        long n = y.get(y.size() - 2);
        long m = y.get(y.size() - 1);
        long fromA = elements(a) / Math.max(1, out / m);
        long fromB = elements(b) / Math.max(1, out / n);
        return Math.max(1, Math.max(fromA, fromB));
    }

    /** A convolution's weight: the first input after the data whose rank is the data's ({@code rank} >= 3). */
    private static List<Long> weight(Graph g, int[] in, int rank) {
        if (rank < 3) {
            return null;
        }
        for (int k = 1; k < in.length; k++) {
            List<Long> s = g.tensor(in[k]).shape();
            if (s.size() == rank) {
                return s;
            }
        }
        return null;
    }

    private static long perFirstAxis(List<Long> w) {
        return elements(w) / Math.max(1, w.get(0));
    }

    private static long bytes(Graph g, int o) {
        long sum = 0;
        for (int t : g.inputs(o)) {
            sum = plus(sum, g.size(t));
        }
        for (int t : g.outputs(o)) {
            sum = plus(sum, g.size(t));
        }
        return sum;
    }

    private static long elements(List<Long> shape) {
        long n = 1;
        for (long d : shape) {
            n = times(n, d);
        }
        return n;
    }

    /** Saturating: a cost beyond 2^63 - 1 is clamped rather than wrapped. */
    private static long times(long a, long b) {
        long r = a * b;
        return (a != 0 && (r / a != b || r < 0)) ? Long.MAX_VALUE : r;
    }

    private static long plus(long a, long b) {
        long r = a + b;
        return r < 0 ? Long.MAX_VALUE : r;
    }
}
