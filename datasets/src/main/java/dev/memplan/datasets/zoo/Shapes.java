package dev.memplan.datasets.zoo;

import java.util.Arrays;
import java.util.List;

/**
 * The shape rules every graph builder of this module uses (the zoo's {@link NetBuilder} and the ONNX importer),
 * so a network built from its reference definition and the same network read from an exported file get the same
 * tensor shapes. Each method throws {@link IllegalArgumentException} with a message starting with {@code op}
 * when the shapes do not fit.
 */
public final class Shapes {

    private Shapes() {
    }

    /** The number of elements of a shape (1 for a scalar). */
    public static long elements(long[] shape) {
        long n = 1;
        for (long d : shape) {
            n = Math.multiplyExact(n, d);
        }
        return n;
    }

    /**
     * Output length of a sliding window (convolution or pooling) over an axis of length {@code in}, padded by
     * {@code padBegin} and {@code padEnd}: floor((in + pb + pe - d(k-1) - 1) / s) + 1, rounded up instead with
     * {@code ceil} (PyTorch's and ONNX's ceil_mode), in which case the last window must still start inside the
     * input or its leading padding.
     */
    public static long window(String op, long in, long k, long s, long padBegin, long padEnd, long d, boolean ceil) {
        long span = in + padBegin + padEnd - d * (k - 1) - 1;
        if (span < 0) {
            throw new IllegalArgumentException(op + ": kernel " + k + " does not fit input " + in);
        }
        if (s < 1) {
            throw new IllegalArgumentException(op + ": stride " + s + " is not positive");
        }
        long out = (ceil ? -Math.floorDiv(-span, s) : span / s) + 1;
        if (ceil && (out - 1) * s >= in + padBegin) {
            out--;
        }
        return out;
    }

    /** NumPy broadcasting of two shapes (trailing axes aligned; 1 stretches). */
    public static long[] broadcast(String op, long[] a, long[] b) {
        int n = Math.max(a.length, b.length);
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            long x = i < n - a.length ? 1 : a[i - (n - a.length)];
            long y = i < n - b.length ? 1 : b[i - (n - b.length)];
            if (x != y && x != 1 && y != 1) {
                throw new IllegalArgumentException(op + ": shapes " + Arrays.toString(a) + " and "
                        + Arrays.toString(b) + " do not broadcast");
            }
            out[i] = x == 1 ? y : x;
        }
        return out;
    }

    /**
     * Batched matrix product of the last two axes ({@code ... x n x k} times {@code ... x k x m}), leading axes
     * broadcast; both operands have rank >= 2.
     */
    public static long[] matmul(String op, long[] a, long[] b) {
        if (a.length < 2 || b.length < 2 || a[a.length - 1] != b[b.length - 2]) {
            throw new IllegalArgumentException(op + ": cannot multiply " + Arrays.toString(a) + " by "
                    + Arrays.toString(b));
        }
        long[] lead = broadcast(op, Arrays.copyOf(a, a.length - 2), Arrays.copyOf(b, b.length - 2));
        long[] out = Arrays.copyOf(lead, lead.length + 2);
        out[lead.length] = a[a.length - 2];
        out[lead.length + 1] = b[b.length - 1];
        return out;
    }

    /** Concatenation along {@code axis} (negative counts from the end); all other axes must agree. */
    public static long[] concat(String op, int axis, List<long[]> parts) {
        if (parts.isEmpty()) {
            throw new IllegalArgumentException(op + ": nothing to concatenate");
        }
        long[] out = parts.get(0).clone();
        int ax = axis < 0 ? out.length + axis : axis;
        if (ax < 0 || ax >= out.length) {
            throw new IllegalArgumentException(op + ": axis " + axis + " outside rank " + out.length);
        }
        out[ax] = 0;
        for (long[] p : parts) {
            if (p.length != out.length) {
                throw new IllegalArgumentException(op + ": ranks differ in concat");
            }
            for (int i = 0; i < out.length; i++) {
                if (i != ax && p[i] != out[i]) {
                    throw new IllegalArgumentException(op + ": shapes differ off axis " + axis + ": "
                            + Arrays.toString(parts.get(0)) + " and " + Arrays.toString(p));
                }
            }
            out[ax] += p[ax];
        }
        return out;
    }

    /** A shape of the same number of elements; one -1 is inferred. */
    public static long[] reshape(String op, long[] in, long[] shape) {
        long[] out = shape.clone();
        long known = 1;
        int infer = -1;
        for (int i = 0; i < out.length; i++) {
            if (out[i] == -1 && infer < 0) {
                infer = i;
            } else if (out[i] < 0) {
                throw new IllegalArgumentException(op + ": bad target shape " + Arrays.toString(shape));
            } else {
                known *= out[i];
            }
        }
        long n = elements(in);
        if (infer >= 0) {
            out[infer] = known == 0 ? 0 : n / known;
        }
        if (elements(out) != n) {
            throw new IllegalArgumentException(op + ": cannot view " + Arrays.toString(in) + " as "
                    + Arrays.toString(shape));
        }
        return out;
    }

    /** Axes {@code from..} flattened into one (torch.flatten(x, from)). */
    public static long[] flatten(long[] in, int from) {
        long[] out = Arrays.copyOf(in, from + 1);
        for (int i = from + 1; i < in.length; i++) {
            out[from] *= in[i];
        }
        return out;
    }

    /** Axes permuted: {@code out[i] = in[perm[i]]}. */
    public static long[] transpose(String op, long[] in, int[] perm) {
        if (perm.length != in.length) {
            throw new IllegalArgumentException(op + ": permutation " + Arrays.toString(perm) + " for shape "
                    + Arrays.toString(in));
        }
        long[] out = new long[in.length];
        for (int i = 0; i < perm.length; i++) {
            if (perm[i] < 0 || perm[i] >= in.length) {
                throw new IllegalArgumentException(op + ": permutation " + Arrays.toString(perm) + " for shape "
                        + Arrays.toString(in));
            }
            out[i] = in[perm[i]];
        }
        return out;
    }
}
