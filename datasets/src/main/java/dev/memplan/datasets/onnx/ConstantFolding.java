package dev.memplan.datasets.onnx;

import dev.memplan.datasets.onnx.OnnxModel.Node;
import dev.memplan.datasets.onnx.Val.Const;
import dev.memplan.datasets.zoo.Shapes;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.DoubleBinaryOperator;
import java.util.function.DoubleUnaryOperator;

/**
 * Evaluates the operators of shape computations on constants, so that chains such as
 * Shape -> Gather -> Unsqueeze -> Concat -> Reshape, which exporters emit for dynamic shapes, fold into a
 * constant and never reach the plan. Values are computed only while a result has at most
 * {@link OnnxReader#VALUE_LIMIT} elements; a larger result keeps its shape and drops its values (nothing
 * downstream reads the values of anything that big as a shape).
 */
final class ConstantFolding {
    /** The operators folded when every input is a constant. */
    static final Set<String> FOLDABLE = Set.of("Identity", "Cast", "CastLike", "Reshape", "Flatten", "Squeeze",
            "Unsqueeze", "Gather", "Concat", "Slice", "Add", "Sub", "Mul", "Div", "Pow", "Mod", "Min", "Max", "Equal",
            "Less", "Greater", "LessOrEqual", "GreaterOrEqual", "And", "Or", "Not", "Neg", "Abs", "Floor", "Ceil",
            "Round", "Sqrt", "Reciprocal", "Where", "ConstantOfShape", "Range", "ReduceProd", "ReduceSum",
            "ReduceMax", "ReduceMin", "Expand", "Transpose", "Sign", "Dropout");

    private ConstantFolding() {
    }

    /** The node's first output; {@code in} are its inputs (null for omitted ones), all constants. */
    static Const fold(Node n, List<Const> in, OnnxOps ops) {
        String name = n.outputs().get(0);
        Const x = in.get(0);
        return switch (n.opType()) {
            case "Identity", "Dropout" -> renamed(x, name);
            case "Cast", "CastLike" -> {
                boolean integral = n.opType().equals("Cast") ? isIntegral((int) n.integer("to", 1))
                        : in.get(1).integral();
                double[] v = x.values();
                if (v != null && integral) {
                    v = map(v, d -> d < 0 ? Math.ceil(d) : Math.floor(d));
                }
                yield new Const(x.shape(), v, integral, name);
            }
            case "Reshape", "Flatten", "Squeeze", "Unsqueeze" ->
                new Const(ops.viewShape(n, x), x.values(), x.integral(), x.source());
            case "Transpose" -> transpose(n, x, ops, name);
            case "Gather" -> gather(n, x, in.get(1), name);
            case "Concat" -> concat(n, in, name);
            case "Slice" -> slice(n, x, ops, name);
            case "Add" -> binary(n, in, Double::sum, name);
            case "Sub" -> binary(n, in, (a, b) -> a - b, name);
            case "Mul" -> binary(n, in, (a, b) -> a * b, name);
            case "Div" -> binary(n, in, x.integral() ? (a, b) -> truncate(a / b) : (a, b) -> a / b, name);
            case "Pow" -> binary(n, in, Math::pow, name);
            case "Mod" -> binary(n, in, (a, b) -> a - b * Math.floor(a / b), name);
            case "Min" -> binary(n, in, Math::min, name);
            case "Max" -> binary(n, in, Math::max, name);
            case "Equal" -> logical(binary(n, in, (a, b) -> a == b ? 1 : 0, name));
            case "Less" -> logical(binary(n, in, (a, b) -> a < b ? 1 : 0, name));
            case "Greater" -> logical(binary(n, in, (a, b) -> a > b ? 1 : 0, name));
            case "LessOrEqual" -> logical(binary(n, in, (a, b) -> a <= b ? 1 : 0, name));
            case "GreaterOrEqual" -> logical(binary(n, in, (a, b) -> a >= b ? 1 : 0, name));
            case "And" -> binary(n, in, (a, b) -> a != 0 && b != 0 ? 1 : 0, name);
            case "Or" -> binary(n, in, (a, b) -> a != 0 || b != 0 ? 1 : 0, name);
            case "Not" -> unary(x, d -> d == 0 ? 1 : 0, name);
            case "Neg" -> unary(x, d -> -d, name);
            case "Abs" -> unary(x, Math::abs, name);
            case "Floor" -> unary(x, Math::floor, name);
            case "Ceil" -> unary(x, Math::ceil, name);
            case "Round" -> unary(x, Math::rint, name);
            case "Sign" -> unary(x, Math::signum, name);
            case "Sqrt" -> unary(x, Math::sqrt, name);
            case "Reciprocal" -> unary(x, d -> 1 / d, name);
            case "Where" -> where(n, in, name);
            case "ConstantOfShape" -> constantOfShape(n, x, name);
            case "Range" -> range(n, in, name);
            case "ReduceProd", "ReduceSum", "ReduceMax", "ReduceMin" -> reduce(n, x, ops, name);
            case "Expand" -> expand(n, x, in.get(1), name);
            default -> throw new IllegalStateException("not foldable: " + n.opType());
        };
    }

    static boolean isIntegral(int dataType) {
        return dataType != OnnxReader.FLOAT && dataType != OnnxReader.DOUBLE && dataType != OnnxReader.FLOAT16
                && dataType != 16;
    }

    private static double truncate(double d) {
        return d < 0 ? Math.ceil(d) : Math.floor(d);
    }

    private static Const renamed(Const x, String name) {
        return new Const(x.shape(), x.values(), x.integral(), x.values() == null ? x.source() : name);
    }

    private static Const logical(Const c) {
        return new Const(c.shape(), c.values(), true, c.source());
    }

    private static double[] map(double[] v, DoubleUnaryOperator f) {
        double[] out = new double[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = f.applyAsDouble(v[i]);
        }
        return out;
    }

    private static Const unary(Const x, DoubleUnaryOperator f, String name) {
        return new Const(x.shape(), x.known() ? map(x.values(), f) : null, x.integral(), name);
    }

    private static boolean small(long[] shape) {
        return Shapes.elements(shape) <= OnnxReader.VALUE_LIMIT;
    }

    /** For each element of {@code out}, the flat index of the element of {@code in} that broadcasts onto it. */
    private static int[] broadcastIndex(long[] out, long[] in) {
        int n = (int) Shapes.elements(out);
        int[] idx = new int[n];
        int offset = out.length - in.length;
        for (int flat = 0; flat < n; flat++) {
            long rest = flat;
            long src = 0;
            long stride = 1;
            for (int a = out.length - 1; a >= 0; a--) {
                long coord = rest % out[a];
                rest /= out[a];
                int b = a - offset;
                if (b >= 0) {
                    src += (in[b] == 1 ? 0 : coord) * stride;
                    stride *= in[b];
                }
            }
            idx[flat] = (int) src;
        }
        return idx;
    }

    private static Const binary(Node n, List<Const> in, DoubleBinaryOperator f, String name) {
        Const a = in.get(0);
        Const b = in.get(1);
        long[] shape = Shapes.broadcast(n.label(), a.shape(), b.shape());
        boolean integral = a.integral() && b.integral();
        if (!a.known() || !b.known() || !small(shape)) {
            return new Const(shape, null, integral, name);
        }
        int[] ia = broadcastIndex(shape, a.shape());
        int[] ib = broadcastIndex(shape, b.shape());
        double[] v = new double[ia.length];
        for (int i = 0; i < v.length; i++) {
            v[i] = f.applyAsDouble(a.values()[ia[i]], b.values()[ib[i]]);
        }
        return new Const(shape, v, integral, name);
    }

    private static Const where(Node n, List<Const> in, String name) {
        Const c = in.get(0);
        Const x = in.get(1);
        Const y = in.get(2);
        long[] shape = Shapes.broadcast(n.label(), Shapes.broadcast(n.label(), c.shape(), x.shape()), y.shape());
        if (!c.known() || !x.known() || !y.known() || !small(shape)) {
            return new Const(shape, null, x.integral(), name);
        }
        int[] ic = broadcastIndex(shape, c.shape());
        int[] ix = broadcastIndex(shape, x.shape());
        int[] iy = broadcastIndex(shape, y.shape());
        double[] v = new double[ic.length];
        for (int i = 0; i < v.length; i++) {
            v[i] = c.values()[ic[i]] != 0 ? x.values()[ix[i]] : y.values()[iy[i]];
        }
        return new Const(shape, v, x.integral(), name);
    }

    private static Const expand(Node n, Const x, Const shapeInput, String name) {
        long[] shape = Shapes.broadcast(n.label(), x.shape(), OnnxOps.need(n, shapeInput, "shape").longs());
        if (!x.known() || !small(shape)) {
            return new Const(shape, null, x.integral(), name);
        }
        int[] ix = broadcastIndex(shape, x.shape());
        double[] v = new double[ix.length];
        for (int i = 0; i < v.length; i++) {
            v[i] = x.values()[ix[i]];
        }
        return new Const(shape, v, x.integral(), name);
    }

    private static Const gather(Node n, Const data, Const indices, String name) {
        int r = data.rank();
        int axis = OnnxOps.axis(n, n.integer("axis", 0), r);
        long[] ds = data.shape();
        long[] shape = OnnxOps.gather(n, ds, indices.shape());
        if (!data.known() || !OnnxOps.need(n, indices, "indices").known() || !small(shape)) {
            return new Const(shape, null, data.integral(), name);
        }
        long outer = Shapes.elements(java.util.Arrays.copyOf(ds, axis));
        long inner = Shapes.elements(java.util.Arrays.copyOfRange(ds, axis + 1, r));
        double[] v = new double[(int) Shapes.elements(shape)];
        int k = 0;
        for (long o = 0; o < outer; o++) {
            for (double id : indices.values()) {
                long j = (long) id < 0 ? (long) id + ds[axis] : (long) id;
                if (j < 0 || j >= ds[axis]) {
                    throw new IllegalArgumentException(n.label() + ": index " + (long) id + " outside axis of "
                            + ds[axis]);
                }
                for (long e = 0; e < inner; e++) {
                    v[k++] = data.values()[(int) ((o * ds[axis] + j) * inner + e)];
                }
            }
        }
        return new Const(shape, v, data.integral(), name);
    }

    private static Const concat(Node n, List<Const> in, String name) {
        List<long[]> shapes = new ArrayList<>();
        boolean known = true;
        for (Const c : in) {
            shapes.add(c.shape());
            known &= c.known();
        }
        int axis = OnnxOps.axis(n, n.integer("axis", 0), in.get(0).rank());
        long[] shape = Shapes.concat(n.label(), axis, shapes);
        if (!known || !small(shape)) {
            return new Const(shape, null, in.get(0).integral(), name);
        }
        long outer = Shapes.elements(java.util.Arrays.copyOf(shape, axis));
        double[] v = new double[(int) Shapes.elements(shape)];
        int k = 0;
        for (long o = 0; o < outer; o++) {
            for (Const c : in) {
                int chunk = (int) (c.elements() / Math.max(1, outer));
                System.arraycopy(c.values(), (int) (o * chunk), v, k, chunk);
                k += chunk;
            }
        }
        return new Const(shape, v, in.get(0).integral(), name);
    }

    private static Const slice(Node n, Const x, OnnxOps ops, String name) {
        OnnxOps.SliceSpec s = ops.slice(n, x.shape());
        if (!x.known() || !small(s.shape())) {
            return new Const(s.shape(), null, x.integral(), name);
        }
        long[] in = x.shape();
        double[] v = new double[(int) Shapes.elements(s.shape())];
        for (int flat = 0; flat < v.length; flat++) {
            long rest = flat;
            long src = 0;
            long stride = 1;
            for (int a = in.length - 1; a >= 0; a--) {
                long coord = rest % s.shape()[a];
                rest /= s.shape()[a];
                src += (s.start()[a] + coord * s.step()[a]) * stride;
                stride *= in[a];
            }
            v[flat] = x.values()[(int) src];
        }
        return new Const(s.shape(), v, x.integral(), name);
    }

    private static Const transpose(Node n, Const x, OnnxOps ops, String name) {
        int[] perm = ops.permutation(n, x.rank());
        long[] shape = Shapes.transpose(n.label(), x.shape(), perm);
        if (!x.known()) {
            return new Const(shape, null, x.integral(), x.source());
        }
        long[] in = x.shape();
        double[] v = new double[x.values().length];
        for (int flat = 0; flat < v.length; flat++) {
            long rest = flat;
            long[] coord = new long[shape.length];
            for (int a = shape.length - 1; a >= 0; a--) {
                coord[a] = rest % shape[a];
                rest /= shape[a];
            }
            long src = 0;
            for (int a = 0; a < in.length; a++) {
                // output axis i reads input axis perm[i]
                long c = 0;
                for (int i = 0; i < perm.length; i++) {
                    if (perm[i] == a) {
                        c = coord[i];
                    }
                }
                src = src * in[a] + c;
            }
            v[flat] = x.values()[(int) src];
        }
        return new Const(shape, v, x.integral(), name);
    }

    private static Const constantOfShape(Node n, Const shapeInput, String name) {
        long[] shape = OnnxOps.need(n, shapeInput, "shape").longs();
        OnnxModel.Attribute value = n.attribute("value");
        double fill = 0;
        boolean integral = false;
        if (value != null && value.t() != null) {
            OnnxModel.Initializer t = value.t();
            integral = isIntegral(t.dataType());
            fill = t.longs() != null ? t.longs()[0] : t.doubles() != null ? t.doubles()[0] : 0;
        }
        if (!small(shape)) {
            return new Const(shape, null, integral, name);
        }
        double[] v = new double[(int) Shapes.elements(shape)];
        java.util.Arrays.fill(v, fill);
        return new Const(shape, v, integral, name);
    }

    private static Const range(Node n, List<Const> in, String name) {
        double start = OnnxOps.need(n, in.get(0), "start").values()[0];
        double limit = OnnxOps.need(n, in.get(1), "limit").values()[0];
        double delta = OnnxOps.need(n, in.get(2), "delta").values()[0];
        long count = Math.max(0, (long) Math.ceil((limit - start) / delta));
        if (count > OnnxReader.VALUE_LIMIT) {
            return new Const(new long[] {count}, null, in.get(0).integral(), name);
        }
        double[] v = new double[(int) count];
        for (int i = 0; i < v.length; i++) {
            v[i] = start + i * delta;
        }
        return new Const(new long[] {count}, v, in.get(0).integral(), name);
    }

    private static Const reduce(Node n, Const x, OnnxOps ops, String name) {
        long[] shape = ops.reducedShape(n, x.shape());
        if (!x.known() || Shapes.elements(shape) != 1) {
            return new Const(shape, null, x.integral(), name);
        }
        double acc = switch (n.opType()) {
            case "ReduceProd" -> 1;
            case "ReduceSum" -> 0;
            case "ReduceMax" -> Double.NEGATIVE_INFINITY;
            default -> Double.POSITIVE_INFINITY;
        };
        for (double d : x.values()) {
            acc = switch (n.opType()) {
                case "ReduceProd" -> acc * d;
                case "ReduceSum" -> acc + d;
                case "ReduceMax" -> Math.max(acc, d);
                default -> Math.min(acc, d);
            };
        }
        return new Const(shape, new double[] {acc}, x.integral(), name);
    }
}
