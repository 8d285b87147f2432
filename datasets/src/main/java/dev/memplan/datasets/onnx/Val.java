package dev.memplan.datasets.onnx;

/** What an ONNX value is during import: a constant (folded, never planned) or a planned tensor in some shape. */
sealed interface Val permits Val.Const, Val.Act {

    long[] shape();

    default int rank() {
        return shape().length;
    }

    /**
     * A constant: an initializer, a Constant node's value or the result of folding. {@code values} holds its
     * elements (integers as exact doubles; INT64 extremes such as Slice's "to the end" round to +-9.2e18, still
     * past every axis) when known, else null (a large weight: only its shape matters). {@code source} names the
     * parameter tensor it becomes when a compute operator reads it as data.
     */
    record Const(long[] shape, double[] values, boolean integral, String source) implements Val {

        @Override
        public long[] shape() {
            return shape.clone();
        }

        boolean known() {
            return values != null;
        }

        long[] longs() {
            long[] out = new long[values.length];
            for (int i = 0; i < out.length; i++) {
                out[i] = (long) values[i];
            }
            return out;
        }

        long elements() {
            long n = 1;
            for (long d : shape) {
                n *= d;
            }
            return n;
        }
    }

    /** A tensor of the memplan graph (an activation, or a parameter after a view), seen in {@code shape}. */
    record Act(String tensor, long[] shape) implements Val {

        @Override
        public long[] shape() {
            return shape.clone();
        }
    }
}
