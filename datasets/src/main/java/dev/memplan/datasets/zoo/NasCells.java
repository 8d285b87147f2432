package dev.memplan.datasets.zoo;

import dev.memplan.datasets.zoo.NetBuilder.Conv;
import dev.memplan.datasets.zoo.NetBuilder.Value;
import java.util.ArrayList;
import java.util.List;

/**
 * The cell machinery shared by the architecture-search networks ({@link NasNets}): a cell genotype and the
 * two cell builders the reference implementations use.
 *
 * <p><b>Genotype.</b> A cell has two input states and five (NASNet family) or four (DARTS) nodes; each node
 * applies one operation to each of two earlier states and adds the two results. The cell's output is the
 * channel concatenation of some states. States are numbered as the source numbers them: for the TensorFlow
 * cells ({@code nasnet_utils.NasNetABaseCell}, AmoebaNet's {@code network_utils.BaseCell}) state 0 is the cell's
 * current input after the cell's 1x1 convolution and state 1 the previous cell's output brought to the same
 * shape; for DARTS ({@code model.Cell}) state 0 is the output of the cell before the previous one and state 1
 * the previous cell's, both after their preprocessing convolutions. Nodes are states 2, 3, ...
 *
 * <p><b>Granularity</b> (see {@link NetBuilder}): a separable convolution is a depthwise convolution (groups =
 * channels, no bias, no BatchNorm) followed by a pointwise convolution with its BatchNorm folded in; the
 * ReLU that precedes each convolution in these cells is fused, so it is no operator. Identity edges are no
 * operator: the state's tensor is read directly. Pooling edges are pooling operators, each node's sum is one
 * add operator, each cell output is one concat operator.
 */
final class NasCells {

    private NasCells() {
    }

    /** An edge operation of a cell. */
    enum Op {
        SEP_3X3(3), SEP_5X5(5), SEP_7X7(7),
        /** DARTS {@code dil_conv_3x3}: ReLU, 3x3 depthwise with dilation 2, 1x1 pointwise, BatchNorm. */
        DIL_3X3(3),
        AVG_3X3(3), MAX_3X3(3),
        /** {@code none} (TensorFlow) / {@code skip_connect} (DARTS). */
        IDENTITY(1),
        /** AmoebaNet {@code 1x7_7x1}: bottleneck 1x1 to F/4, 1x7, 7x1, 1x1 back to F, each with BatchNorm. */
        CONV_1X7_7X1(7);

        final int kernel;

        Op(int kernel) {
            this.kernel = kernel;
        }

        boolean separable() {
            return this == SEP_3X3 || this == SEP_5X5 || this == SEP_7X7;
        }

        boolean pool() {
            return this == AVG_3X3 || this == MAX_3X3;
        }
    }

    /** One edge: an operation applied to state {@code input}. */
    record Edge(Op op, int input) {
    }

    /**
     * A cell genotype: node {@code n} (state {@code n + 2}) adds edges {@code 2n} and {@code 2n + 1}; the cell
     * output concatenates the states in {@code concat}, in that order.
     */
    record CellGenotype(List<Edge> edges, List<Integer> concat) {

        CellGenotype {
            edges = List.copyOf(edges);
            concat = List.copyOf(concat);
            if (edges.size() % 2 != 0) {
                throw new IllegalArgumentException("a node needs two edges: " + edges);
            }
            for (int i = 0; i < edges.size(); i++) {
                if (edges.get(i).input() >= 2 + i / 2) {
                    throw new IllegalArgumentException("edge " + i + " reads a later state: " + edges);
                }
            }
        }

        int nodes() {
            return edges.size() / 2;
        }

        /**
         * TensorFlow's encoding ({@code operations}, {@code hiddenstate_indices}, {@code used_hiddenstates}):
         * the output concatenates every state whose used flag is 0.
         */
        static CellGenotype tensorflow(Op[] ops, int[] indices, int[] used) {
            if (ops.length != indices.length || used.length != 2 + ops.length / 2) {
                throw new IllegalArgumentException("inconsistent TensorFlow cell genotype");
            }
            List<Edge> edges = new ArrayList<>();
            for (int i = 0; i < ops.length; i++) {
                edges.add(new Edge(ops[i], indices[i]));
            }
            List<Integer> concat = new ArrayList<>();
            for (int s = 0; s < used.length; s++) {
                if (used[s] == 0) {
                    concat.add(s);
                }
            }
            return new CellGenotype(edges, concat);
        }

        /** DARTS's encoding: (operation, input) pairs and the concatenated states. */
        static CellGenotype darts(List<Edge> edges, List<Integer> concat) {
            return new CellGenotype(edges, concat);
        }
    }

    /** A network's two cell types. */
    record Genotype(String name, CellGenotype normal, CellGenotype reduce) {
    }

    // ---------------------------------------------------------------------------------------------------------
    // TensorFlow cells (nasnet_utils.NasNetABaseCell; AmoebaNet's network_utils.BaseCell is the same design)
    // ---------------------------------------------------------------------------------------------------------

    /**
     * A TensorFlow NASNet-family cell ({@code NasNetABaseCell.__call__}) with {@code filters} filters per
     * operation: the previous layer is brought to this cell's shape ({@code _reduce_prev_layer}: factorized
     * reduction when its spatial size differs, else ReLU-1x1-BN when its channels differ, else used as is; the
     * current input itself when {@code prev} is null), the current input goes through ReLU-1x1-BN
     * ({@code _cell_base}), operations on states 0 and 1 use {@code stride}, other operations stride 1, and the
     * unused states are concatenated ({@code _combine_unused_states}).
     */
    static Value tfCell(NetBuilder b, String name, CellGenotype g, Value net, Value prev, int filters, int stride) {
        Value previous = prev == null ? net : tfReducePrevLayer(b, name, prev, net, filters);
        Value current = b.conv(name + "/1x1", net, Conv.conv(filters, 1));
        List<Value> states = new ArrayList<>(List.of(current, previous));
        for (int n = 0; n < g.nodes(); n++) {
            String comb = name + "/comb_iter_" + n;
            Value left = tfOperation(b, comb + "/left", g.edges().get(2 * n), states, filters, stride);
            Value right = tfOperation(b, comb + "/right", g.edges().get(2 * n + 1), states, filters, stride);
            states.add(b.add(comb + "/combine", left, right));
        }
        Value last = states.get(states.size() - 1);
        List<Value> parts = new ArrayList<>();
        for (int s : g.concat()) {
            Value h = states.get(s);
            boolean spatial = h.dim(2) != last.dim(2);
            if (spatial || h.channels() != last.channels()) {
                h = tfFactorizedReduction(b, name + "/cell_output/reduction_" + s, h, (int) last.channels(),
                        spatial ? 2 : 1);
            }
            parts.add(h);
        }
        return b.concat(name + "/cell_output/concat", 1, parts);
    }

    private static Value tfReducePrevLayer(NetBuilder b, String name, Value prev, Value curr, int filters) {
        if (prev.dim(2) != curr.dim(2)) {
            return tfFactorizedReduction(b, name + "/prev", prev, filters, 2);
        }
        if (prev.channels() != filters) {
            return b.conv(name + "/prev_1x1", prev, Conv.conv(filters, 1));
        }
        return prev;
    }

    /**
     * TensorFlow's {@code factorized_reduction}: with stride 1 a 1x1 convolution and BatchNorm; with stride 2
     * two paths, one on the input and one on the input shifted by one pixel down and right (zero padded at the
     * bottom and right, so the same size), each a 1x1 average pool of stride 2 followed by a 1x1 convolution,
     * concatenated and batch-normalised. A 1x1 average pool only subsamples, so each path here is a 1x1
     * convolution of stride 2 (the pool is the convolution's stride); the shifted input is an offset view of
     * the input, not a copy. An odd filter count gives the second path the extra filter (the current
     * {@code nasnet_utils}).
     */
    static Value tfFactorizedReduction(NetBuilder b, String name, Value x, int filters, int stride) {
        if (stride == 1) {
            return b.conv(name + "/path_conv", x, Conv.conv(filters, 1));
        }
        int half = filters / 2;
        Value path1 = b.conv(name + "/path1_conv", x, Conv.conv(half, 1).stride(stride));
        Value shifted = new Value(x.tensor(), x.shape());
        Value path2 = b.conv(name + "/path2_conv", shifted, Conv.conv(filters - half, 1).stride(stride));
        return b.concat(name + "/concat", 1, List.of(path1, path2));
    }

    private static Value tfOperation(NetBuilder b, String name, Edge e, List<Value> states, int filters,
                                     int cellStride) {
        Value x = states.get(e.input());
        int stride = e.input() < 2 ? cellStride : 1;
        Op op = e.op();
        if (op.separable()) {
            return stackedSeparable(b, name, x, op.kernel, stride, filters);
        }
        if (op.pool()) {
            Value y = op == Op.AVG_3X3 ? b.avgPool(name + "/avg_pool", x, 3, stride, 1, false)
                    : b.maxPool(name + "/max_pool", x, 3, stride, 1, false);
            if (y.channels() != filters) {
                y = b.conv(name + "/1x1", y, Conv.conv(filters, 1));
            }
            return y;
        }
        if (op == Op.IDENTITY) {
            if (stride > 1 || x.channels() != filters) {
                return b.conv(name + "/1x1", x, Conv.conv(filters, 1).stride(stride));
            }
            return x;
        }
        if (op == Op.CONV_1X7_7X1) {
            // AmoebaNet network_utils.BaseCell._apply_operation: a bottleneck of int(F / 4) channels.
            int reduced = filters / 4;
            if (reduced < 1) {
                throw new IllegalArgumentException(name + ": " + filters + " filters are too few for 1x7_7x1");
            }
            Value y = b.conv(name + "/pre_1x1", x, Conv.conv(reduced, 1));
            y = b.conv(name + "/1x7", y, Conv.conv(reduced, 1).kernel(1, 7).stride(1, stride).padding(0, 3));
            y = b.conv(name + "/7x1", y, Conv.conv(reduced, 1).kernel(7, 1).stride(stride, 1).padding(3, 0));
            return b.conv(name + "/post_1x1", y, Conv.conv(filters, 1));
        }
        throw new IllegalArgumentException(name + ": operation " + op + " is not in the TensorFlow cells");
    }

    /**
     * Two stacked separable convolutions ({@code _stacked_separable_conv} with {@code separable_kxk_2}; DARTS
     * {@code SepConv} is the same when input and output channels agree): ReLU, depthwise k x k (stride on the
     * first), pointwise to {@code out}, BatchNorm; then ReLU, depthwise, pointwise, BatchNorm. Four operators.
     */
    static Value stackedSeparable(NetBuilder b, String name, Value x, int k, int stride, int out) {
        Value y = x;
        for (int layer = 1; layer <= 2; layer++) {
            String s = name + "/separable_" + k + "x" + k + "_" + layer;
            int channels = (int) y.channels();
            y = b.conv(s + "/depthwise", y, Conv.conv(channels, k).stride(layer == 1 ? stride : 1).padding(k / 2)
                    .groups(channels).plain());
            y = b.conv(s + "/pointwise", y, Conv.conv(out, 1));
        }
        return y;
    }

    // ---------------------------------------------------------------------------------------------------------
    // DARTS cells (quark0/darts cnn/model.py Cell, cnn/operations.py)
    // ---------------------------------------------------------------------------------------------------------

    /**
     * A DARTS cell ({@code model.Cell}) with {@code c} channels per node: preprocess0 is a
     * {@code FactorizedReduce} when the previous cell reduced, else ReLU-1x1-BN; preprocess1 is ReLU-1x1-BN;
     * in a reduction cell, operations on states 0 and 1 have stride 2; the output concatenates the genotype's
     * states.
     */
    static Value dartsCell(NetBuilder b, String name, CellGenotype g, Value s0, Value s1, int c, boolean reduction,
                           boolean reductionPrev) {
        Value p0 = reductionPrev ? dartsFactorizedReduce(b, name + "/preprocess0", s0, c)
                : b.conv(name + "/preprocess0", s0, Conv.conv(c, 1));
        Value p1 = b.conv(name + "/preprocess1", s1, Conv.conv(c, 1));
        List<Value> states = new ArrayList<>(List.of(p0, p1));
        for (int n = 0; n < g.nodes(); n++) {
            String node = name + "/node" + (n + 2);
            Value h1 = dartsOperation(b, node + "/op0", g.edges().get(2 * n), states, c, reduction);
            Value h2 = dartsOperation(b, node + "/op1", g.edges().get(2 * n + 1), states, c, reduction);
            states.add(b.add(node + "/add", h1, h2));
        }
        List<Value> parts = new ArrayList<>();
        for (int s : g.concat()) {
            parts.add(states.get(s));
        }
        return b.concat(name + "/concat", 1, parts);
    }

    /**
     * DARTS {@code FactorizedReduce}: ReLU, then {@code conv_1} (1x1, stride 2, C/2 filters) on the input and
     * {@code conv_2} (the same) on {@code x[:, :, 1:, 1:]}, an offset view one row and column smaller;
     * concatenated and batch-normalised.
     */
    static Value dartsFactorizedReduce(NetBuilder b, String name, Value x, int c) {
        if (c % 2 != 0) {
            throw new IllegalArgumentException(name + ": FactorizedReduce needs an even channel count, got " + c);
        }
        Value conv1 = b.conv(name + "/conv_1", x, Conv.conv(c / 2, 1).stride(2));
        long[] cropped = x.shape();
        cropped[2] -= 1;
        cropped[3] -= 1;
        Value conv2 = b.conv(name + "/conv_2", new Value(x.tensor(), cropped), Conv.conv(c / 2, 1).stride(2));
        return b.concat(name + "/concat", 1, List.of(conv1, conv2));
    }

    private static Value dartsOperation(NetBuilder b, String name, Edge e, List<Value> states, int c,
                                        boolean reduction) {
        Value x = states.get(e.input());
        int stride = reduction && e.input() < 2 ? 2 : 1;
        Op op = e.op();
        if (op.separable()) {
            return stackedSeparable(b, name, x, op.kernel, stride, c);
        }
        return switch (op) {
            case AVG_3X3 -> b.avgPool(name + "/avg_pool", x, 3, stride, 1, false);
            case MAX_3X3 -> b.maxPool(name + "/max_pool", x, 3, stride, 1, false);
            case IDENTITY -> stride == 1 ? x : dartsFactorizedReduce(b, name, x, c);
            case DIL_3X3 -> {
                Value y = b.conv(name + "/dil_conv_3x3/depthwise", x, Conv.conv(c, 3).stride(stride).padding(2)
                        .dilation(2).groups(c).plain());
                yield b.conv(name + "/dil_conv_3x3/pointwise", y, Conv.conv(c, 1));
            }
            default -> throw new IllegalArgumentException(name + ": operation " + op + " is not in DARTS cells");
        };
    }
}
