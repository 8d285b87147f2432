package dev.memplan.datasets.onnx;

import dev.memplan.datasets.onnx.OnnxModel.Node;
import dev.memplan.datasets.onnx.Val.Const;
import dev.memplan.datasets.zoo.Shapes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * Output shapes of ONNX operators (onnx/docs/Operators.md, opsets 9 to 21), on top of the zoo's {@link Shapes}.
 * Where an opset moved an attribute to an input (Split's {@code split}, Squeeze/Unsqueeze's {@code axes} at 13;
 * Pad's {@code pads} at 11; Resize's {@code scales}/{@code sizes}; Clip's bounds at 11; the Reduce operators'
 * {@code axes} at 13 or 18), the input is read when present and the attribute otherwise, which is what each
 * opset allows.
 */
final class OnnxOps {
    private final Function<String, Val> values;

    /** {@code values} gives the value of an ONNX name (a constant or a planned tensor). */
    OnnxOps(Function<String, Val> values) {
        this.values = values;
    }

    /** A constant's values, or an error naming the node and what it needed. */
    static Const need(Node n, Val v, String what) {
        if (v instanceof Const c && c.known()) {
            return c;
        }
        if (v instanceof Const) {
            throw new IllegalArgumentException(n.label() + ": its " + what + " is a constant whose values memplan "
                    + "does not read (stored as external data, or more than " + OnnxReader.VALUE_LIMIT + " elements)");
        }
        throw new IllegalArgumentException(n.label() + ": its " + what + " must be a constant (computed from "
                + "initializers and static shapes), but it depends on tensor data");
    }

    /** A possibly negative axis brought into [0, rank). */
    static int axis(Node n, long axis, int rank) {
        long a = axis < 0 ? axis + rank : axis;
        if (a < 0 || a >= rank) {
            throw new IllegalArgumentException(n.label() + ": axis " + axis + " outside rank " + rank);
        }
        return (int) a;
    }

    /** Integers from input {@code index} when given, else from attribute {@code attribute}; null when neither. */
    long[] ints(Node n, int index, String attribute) {
        String in = n.input(index);
        if (in != null) {
            Const c = need(n, values.apply(in), "input '" + attribute + "'");
            return c.longs();
        }
        return n.integers(attribute);
    }

    /** Reals from input {@code index} when given and non-empty, else null. */
    double[] reals(Node n, int index, String what) {
        String in = n.input(index);
        if (in == null) {
            return null;
        }
        Const c = need(n, values.apply(in), what);
        return c.values().length == 0 ? null : c.values();
    }

    /** Output shape of the views Reshape, Flatten, Squeeze and Unsqueeze. */
    long[] viewShape(Node n, Val x) {
        long[] s = x.shape();
        return switch (n.opType()) {
            case "Reshape" -> {
                long[] target = ints(n, 1, "shape");
                if (target == null) {
                    throw new IllegalArgumentException(n.label() + ": no target shape");
                }
                boolean allowZero = n.integer("allowzero", 0) == 1;
                long[] t = target.clone();
                for (int i = 0; i < t.length; i++) {
                    if (t[i] == 0 && !allowZero) {
                        if (i >= s.length) {
                            throw new IllegalArgumentException(n.label() + ": 0 copies axis " + i + " of a rank-"
                                    + s.length + " input");
                        }
                        t[i] = s[i];
                    }
                }
                yield Shapes.reshape(n.label(), s, t);
            }
            case "Flatten" -> {
                int axis = (int) n.integer("axis", 1);
                axis = axis < 0 ? axis + s.length : axis;
                long outer = Shapes.elements(Arrays.copyOf(s, axis));
                yield new long[] {outer, Shapes.elements(s) / Math.max(1, outer)};
            }
            case "Squeeze" -> {
                long[] axes = ints(n, 1, "axes");
                List<Long> out = new ArrayList<>();
                boolean[] drop = new boolean[s.length];
                if (axes == null) {
                    for (int i = 0; i < s.length; i++) {
                        drop[i] = s[i] == 1;
                    }
                } else {
                    for (long a : axes) {
                        int ax = axis(n, a, s.length);
                        if (s[ax] != 1) {
                            throw new IllegalArgumentException(n.label() + ": cannot squeeze axis " + a + " of "
                                    + Arrays.toString(s));
                        }
                        drop[ax] = true;
                    }
                }
                for (int i = 0; i < s.length; i++) {
                    if (!drop[i]) {
                        out.add(s[i]);
                    }
                }
                yield out.stream().mapToLong(Long::longValue).toArray();
            }
            case "Unsqueeze" -> {
                long[] axes = ints(n, 1, "axes");
                if (axes == null) {
                    throw new IllegalArgumentException(n.label() + ": no axes");
                }
                int r = s.length + axes.length;
                boolean[] added = new boolean[r];
                for (long a : axes) {
                    added[axis(n, a, r)] = true;
                }
                long[] out = new long[r];
                for (int i = 0, j = 0; i < r; i++) {
                    out[i] = added[i] ? 1 : s[j++];
                }
                yield out;
            }
            default -> throw new IllegalStateException(n.opType());
        };
    }

    /** Transpose's permutation (reversed axes by default). */
    int[] permutation(Node n, int rank) {
        long[] perm = n.integers("perm");
        int[] p = new int[rank];
        for (int i = 0; i < rank; i++) {
            p[i] = perm == null ? rank - 1 - i : (int) perm[i];
        }
        if (perm != null && perm.length != rank) {
            throw new IllegalArgumentException(n.label() + ": permutation " + Arrays.toString(perm) + " for rank "
                    + rank);
        }
        return p;
    }

    /** A slice: first index, step and length per axis. */
    record SliceSpec(long[] start, long[] step, long[] shape) {
    }

    /** Slice (opset >= 10: starts, ends, axes, steps inputs; opset 9: attributes), clamped as the spec says. */
    SliceSpec slice(Node n, long[] in) {
        long[] starts = ints(n, 1, "starts");
        long[] ends = ints(n, 2, "ends");
        long[] axes = ints(n, 3, "axes");
        long[] steps = n.input(4) != null ? ints(n, 4, "steps") : null;
        if (starts == null || ends == null || starts.length != ends.length) {
            throw new IllegalArgumentException(n.label() + ": starts and ends missing or of different lengths");
        }
        long[] start = new long[in.length];
        long[] step = new long[in.length];
        long[] shape = in.clone();
        Arrays.fill(step, 1);
        for (int i = 0; i < starts.length; i++) {
            int a = axis(n, axes == null ? i : axes[i], in.length);
            long st = steps == null ? 1 : steps[i];
            if (st == 0) {
                throw new IllegalArgumentException(n.label() + ": step 0");
            }
            long dim = in[a];
            long b = starts[i] < 0 ? starts[i] + dim : starts[i];
            long e = ends[i] < 0 ? ends[i] + dim : ends[i];
            long count;
            if (st > 0) {
                b = clamp(b, 0, dim);
                e = clamp(e, 0, dim);
                count = Math.max(0, Math.floorDiv(e - b + st - 1, st));
            } else {
                b = clamp(b, 0, dim - 1);
                e = clamp(e, -1, dim - 1);
                count = Math.max(0, Math.floorDiv(b - e + (-st) - 1, -st));
            }
            start[a] = b;
            step[a] = st;
            shape[a] = count;
        }
        return new SliceSpec(start, step, shape);
    }

    private static long clamp(long v, long lo, long hi) {
        return Math.max(lo, Math.min(hi, v));
    }

    /** Output shape of a Reduce operator (axes from the attribute, or the input from opset 13/18). */
    long[] reducedShape(Node n, long[] in) {
        long[] axes = ints(n, 1, "axes");
        boolean keep = n.integer("keepdims", 1) == 1;
        boolean[] reduced = new boolean[in.length];
        if (axes == null || axes.length == 0) {
            if (n.integer("noop_with_empty_axes", 0) == 1) {
                return in.clone();
            }
            Arrays.fill(reduced, true);
        } else {
            for (long a : axes) {
                reduced[axis(n, a, in.length)] = true;
            }
        }
        List<Long> out = new ArrayList<>();
        for (int i = 0; i < in.length; i++) {
            if (!reduced[i]) {
                out.add(in[i]);
            } else if (keep) {
                out.add(1L);
            }
        }
        return out.stream().mapToLong(Long::longValue).toArray();
    }

    /** Spatial pads as (begin..., end...) from the pads attribute or auto_pad. */
    private static long[] windowPads(Node n, long[] in, long[] kernel, long[] stride, long[] dilation) {
        int sp = kernel.length;
        String autoPad = n.string("auto_pad", "NOTSET");
        long[] pads = new long[2 * sp];
        switch (autoPad) {
            case "NOTSET" -> {
                long[] p = n.integers("pads");
                if (p != null) {
                    if (p.length != 2 * sp) {
                        throw new IllegalArgumentException(n.label() + ": " + p.length + " pads for " + sp
                                + " spatial axes");
                    }
                    pads = p.clone();
                }
            }
            case "VALID" -> {
            }
            case "SAME_UPPER", "SAME_LOWER" -> {
                for (int a = 0; a < sp; a++) {
                    long out = -Math.floorDiv(-in[a + 2], stride[a]);
                    long total = Math.max(0, (out - 1) * stride[a] + (kernel[a] - 1) * dilation[a] + 1 - in[a + 2]);
                    long small = total / 2;
                    pads[a] = autoPad.equals("SAME_UPPER") ? small : total - small;
                    pads[a + sp] = total - pads[a];
                }
            }
            default -> throw new IllegalArgumentException(n.label() + ": unknown auto_pad '" + autoPad + "'");
        }
        return pads;
    }

    private static long[] perAxis(Node n, String key, int sp, long otherwise) {
        long[] v = n.integers(key);
        if (v == null) {
            v = new long[sp];
            Arrays.fill(v, otherwise);
        } else if (v.length != sp) {
            throw new IllegalArgumentException(n.label() + ": " + key + " has " + v.length + " values for " + sp
                    + " spatial axes");
        }
        return v;
    }

    /** Conv: (N, M, out...) with M the weight's first axis; kernel from kernel_shape or the weight. */
    long[] conv(Node n, long[] x, long[] w) {
        int sp = x.length - 2;
        if (sp < 1 || w.length != x.length) {
            throw new IllegalArgumentException(n.label() + ": input " + Arrays.toString(x) + " and weight "
                    + Arrays.toString(w) + " do not make a convolution");
        }
        long group = n.integer("group", 1);
        if (x[1] != w[1] * group) {
            throw new IllegalArgumentException(n.label() + ": input has " + x[1] + " channels, weight expects "
                    + w[1] + " x " + group + " groups");
        }
        long[] kernel = n.integers("kernel_shape") != null ? n.integers("kernel_shape") : Arrays.copyOfRange(w, 2, w.length);
        long[] stride = perAxis(n, "strides", sp, 1);
        long[] dilation = perAxis(n, "dilations", sp, 1);
        long[] pads = windowPads(n, x, kernel, stride, dilation);
        long[] out = new long[x.length];
        out[0] = x[0];
        out[1] = w[0];
        for (int a = 0; a < sp; a++) {
            out[a + 2] = Shapes.window(n.label(), x[a + 2], kernel[a], stride[a], pads[a], pads[a + sp], dilation[a],
                    false);
        }
        return out;
    }

    /** ConvTranspose: (N, W[1] x group, out...), out = s(in-1) + output_padding + d(k-1) + 1 - pads, or output_shape. */
    long[] convTranspose(Node n, long[] x, long[] w) {
        int sp = x.length - 2;
        if (sp < 1 || w.length != x.length || w[0] != x[1]) {
            throw new IllegalArgumentException(n.label() + ": input " + Arrays.toString(x) + " and weight "
                    + Arrays.toString(w) + " do not make a transposed convolution");
        }
        long group = n.integer("group", 1);
        long[] kernel = n.integers("kernel_shape") != null ? n.integers("kernel_shape") : Arrays.copyOfRange(w, 2, w.length);
        long[] stride = perAxis(n, "strides", sp, 1);
        long[] dilation = perAxis(n, "dilations", sp, 1);
        long[] outputPadding = perAxis(n, "output_padding", sp, 0);
        long[] outputShape = n.integers("output_shape");
        long[] out = new long[x.length];
        out[0] = x[0];
        out[1] = w[1] * group;
        String autoPad = n.string("auto_pad", "NOTSET");
        long[] pads = n.integers("pads") == null ? new long[2 * sp] : n.integers("pads");
        for (int a = 0; a < sp; a++) {
            if (outputShape != null) {
                out[a + 2] = outputShape[outputShape.length - sp + a];
            } else if (autoPad.startsWith("SAME")) {
                out[a + 2] = x[a + 2] * stride[a];
            } else {
                out[a + 2] = stride[a] * (x[a + 2] - 1) + outputPadding[a] + (kernel[a] - 1) * dilation[a] + 1
                        - pads[a] - pads[a + sp];
            }
        }
        return out;
    }

    /** MaxPool / AveragePool / LpPool with ceil_mode, dilations and auto_pad. */
    long[] pool(Node n, long[] x) {
        int sp = x.length - 2;
        long[] kernel = n.integers("kernel_shape");
        if (sp < 1 || kernel == null || kernel.length != sp) {
            throw new IllegalArgumentException(n.label() + ": kernel_shape " + Arrays.toString(kernel)
                    + " for input " + Arrays.toString(x));
        }
        long[] stride = perAxis(n, "strides", sp, 1);
        long[] dilation = perAxis(n, "dilations", sp, 1);
        long[] pads = windowPads(n, x, kernel, stride, dilation);
        boolean ceil = n.integer("ceil_mode", 0) == 1;
        long[] out = x.clone();
        for (int a = 0; a < sp; a++) {
            out[a + 2] = Shapes.window(n.label(), x[a + 2], kernel[a], stride[a], pads[a], pads[a + sp], dilation[a],
                    ceil);
        }
        return out;
    }

    /** Resize (opset 10: X, scales; 11+: X, roi, scales, sizes) and Upsample (scales input, or attribute). */
    long[] resize(Node n, long[] x, long opset) {
        long[] sizes = null;
        double[] scales;
        if (n.opType().equals("Upsample")) {
            scales = n.input(1) != null ? reals(n, 1, "scales") : floats(n.attribute("scales"));
        } else if (opset < 11) {
            scales = reals(n, 1, "scales");
        } else {
            scales = reals(n, 2, "scales");
            if (n.input(3) != null) {
                long[] s = need(n, values.apply(n.input(3)), "sizes").longs();
                sizes = s.length == 0 ? null : s;
            }
        }
        long[] axes = n.integers("axes");
        long[] out = x.clone();
        int count = sizes != null ? sizes.length : scales != null ? scales.length : -1;
        if (count < 0) {
            throw new IllegalArgumentException(n.label() + ": neither scales nor sizes");
        }
        if (axes == null && count != x.length) {
            throw new IllegalArgumentException(n.label() + ": " + count + " scales/sizes for rank " + x.length);
        }
        String policy = n.string("keep_aspect_ratio_policy", "stretch");
        for (int i = 0; i < count; i++) {
            int a = axes == null ? i : axis(n, axes[i], x.length);
            out[a] = sizes != null ? sizes[i] : (long) Math.floor(x[a] * scales[i]);
        }
        if (sizes != null && !policy.equals("stretch")) {
            double scale = policy.equals("not_larger") ? Double.MAX_VALUE : 0;
            for (int i = 0; i < count; i++) {
                int a = axes == null ? i : axis(n, axes[i], x.length);
                double s = (double) sizes[i] / x[a];
                scale = policy.equals("not_larger") ? Math.min(scale, s) : Math.max(scale, s);
            }
            for (int i = 0; i < count; i++) {
                int a = axes == null ? i : axis(n, axes[i], x.length);
                out[a] = Math.round(x[a] * scale);
            }
        }
        return out;
    }

    private static double[] floats(OnnxModel.Attribute a) {
        if (a == null) {
            return null;
        }
        double[] d = new double[a.floats().length];
        for (int i = 0; i < d.length; i++) {
            d[i] = a.floats()[i];
        }
        return d;
    }

    /** Pad: pads from the input (opset >= 11, with optional axes from 18) or the attribute. */
    long[] pad(Node n, long[] x) {
        long[] pads = ints(n, 1, "pads");
        if (pads == null) {
            pads = n.integers("paddings");
        }
        long[] axes = n.input(3) != null ? ints(n, 3, "axes") : null;
        int k = axes == null ? x.length : axes.length;
        if (pads == null || pads.length != 2 * k) {
            throw new IllegalArgumentException(n.label() + ": pads " + Arrays.toString(pads) + " for rank "
                    + x.length);
        }
        long[] out = x.clone();
        for (int i = 0; i < k; i++) {
            int a = axes == null ? i : axis(n, axes[i], x.length);
            out[a] += pads[i] + pads[i + k];
        }
        return out;
    }

    /** Split's output shapes: sizes from the input (opset >= 13), the attribute, num_outputs (18) or equal parts. */
    List<long[]> split(Node n, long[] x) {
        int a = axis(n, n.integer("axis", 0), x.length);
        long[] sizes = ints(n, 1, "split");
        int outs = n.outputs().size();
        if (sizes == null) {
            long parts = n.attribute("num_outputs") != null ? n.integer("num_outputs", outs) : outs;
            long each = -Math.floorDiv(-x[a], parts);
            sizes = new long[outs];
            long left = x[a];
            for (int i = 0; i < outs; i++) {
                sizes[i] = Math.min(each, left);
                left -= sizes[i];
            }
        }
        if (sizes.length != outs || Arrays.stream(sizes).sum() != x[a]) {
            throw new IllegalArgumentException(n.label() + ": split " + Arrays.toString(sizes) + " of axis "
                    + a + " (" + x[a] + ") into " + outs + " outputs");
        }
        List<long[]> shapes = new ArrayList<>();
        for (long s : sizes) {
            long[] o = x.clone();
            o[a] = s;
            shapes.add(o);
        }
        return shapes;
    }

    /** Gather: data's axis replaced by the indices' shape. */
    static long[] gather(Node n, long[] data, long[] indices) {
        int r = data.length;
        int axis = axis(n, n.integer("axis", 0), r);
        long[] out = new long[r - 1 + indices.length];
        System.arraycopy(data, 0, out, 0, axis);
        System.arraycopy(indices, 0, out, axis, indices.length);
        System.arraycopy(data, axis + 1, out, axis + indices.length, r - axis - 1);
        return out;
    }

    /** MatMul with NumPy semantics: a 1-D operand gains an axis that the result drops. */
    static long[] matmul(Node n, long[] a, long[] b) {
        long[] a2 = a.length == 1 ? new long[] {1, a[0]} : a;
        long[] b2 = b.length == 1 ? new long[] {b[0], 1} : b;
        long[] out = Shapes.matmul(n.label(), a2, b2);
        if (a.length == 1) {
            out = remove(out, out.length - 2);
        }
        if (b.length == 1) {
            out = remove(out, out.length - 1);
        }
        return out;
    }

    static long[] remove(long[] s, int axis) {
        long[] out = new long[s.length - 1];
        for (int i = 0, j = 0; i < s.length; i++) {
            if (i != axis) {
                out[j++] = s[i];
            }
        }
        return out;
    }
}
