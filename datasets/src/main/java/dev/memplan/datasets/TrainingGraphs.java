package dev.memplan.datasets;

import dev.memplan.model.Graph;
import dev.memplan.model.Operator;
import dev.memplan.model.Tensor;
import dev.memplan.model.TensorKind;
import dev.memplan.model.TrainingStep;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The graph of one training step of a network: its forward operators in their order, a loss operator, the
 * backward operators in reverse order and, optionally, the weight update. The rule each backward operator follows
 * (what it reads, what it writes) depends on the forward operator's type, as {@link Backward} says; docs/training.md
 * has the table. Each backward operator reads exactly what its gradient needs, so the activations the step keeps
 * for the backward pass are the ones a framework keeps (Griewank and Walther, "Evaluating Derivatives", 2008,
 * ch. 3: the reverse sweep reads the forward values its partial derivatives depend on).
 *
 * <p>Gradients are produced activation tensors of the size, shape and type of their tensor: {@code grad/T} for
 * tensor T. Every produced activation and every parameter gets a gradient when something differentiable reads it;
 * a graph input (a host activation) does not. A tensor read by k differentiable operators receives k partial
 * gradients {@code grad/T#1..k}, summed as they arrive by {@code GradAccumulate} operators (a running sum
 * {@code grad/T+2..}, the last of which is {@code grad/T}), as frameworks accumulate into one buffer. The weight
 * gradients (or, with {@link Step#UPDATE}, the updated weights) and the loss are the step's outputs.
 *
 * <p>Costs: each backward operator costs what its forward operator costs ({@link Graph#cost(int)}), so a
 * convolution's two gradients cost twice its forward pass; the loss, an accumulation and an update cost the
 * elements they write (bytes when shapes are missing). Linear in the size of the graph.
 */
public final class TrainingGraphs {

    /** What a training graph holds besides forward, loss and backward; the suffix names it. */
    public enum Step {
        /** Forward, loss and backward; the weight gradients are the step's outputs. */
        BACKWARD(":train"),
        /** Also the optimizer's step (plain SGD: w - lr * grad): each weight's updated copy is an output. */
        UPDATE(":train+update");

        private final String suffix;

        Step(String suffix) {
            this.suffix = suffix;
        }

        /** The suffix that asks for this step after a graph's name. */
        public String suffix() {
            return suffix;
        }
    }

    /** A training graph's name: the name of the graph it trains and the step. */
    public record Name(String base, Step step) {
    }

    /** The loss operator and its output. */
    static final String LOSS = TrainingStep.LOSS;

    private TrainingGraphs() {
    }

    /** The base and step of a name that ends in a step's suffix after a non-empty base, or null. */
    public static Name parse(String name) {
        for (Step s : Step.values()) {
            if (name.endsWith(s.suffix) && name.length() > s.suffix.length()) {
                return new Name(name.substring(0, name.length() - s.suffix.length()), s);
            }
        }
        return null;
    }

    /** The gradient's name of tensor {@code tensor}. */
    public static String gradient(String tensor) {
        return "grad/" + tensor;
    }

    /**
     * The training step of {@code forward}, named after it with the step's suffix.
     *
     * @throws IllegalArgumentException when {@code forward} is itself a training graph or has no output (nothing
     *     for a loss to read)
     */
    public static Graph of(Graph forward, Step step) {
        if (forward.outputs().isEmpty()) {
            throw new IllegalArgumentException("'" + forward.name() + "' has no graph output, so no loss to train it"
                    + " on");
        }
        if (forward.operatorIndex(LOSS) >= 0 || forward.tensorIndex(LOSS) >= 0) {
            throw new IllegalArgumentException("'" + forward.name() + "' is already a training graph (it has "
                    + LOSS + "); a training step is built from a forward graph");
        }
        return new Builder(forward, step).build();
    }

    /** One build: the forward graph, which tensors get gradients, and the graph under construction. */
    private static final class Builder {
        private final Graph g;
        private final Step step;
        private final Backward[] rules;
        /** Number of partial gradients tensor t receives (0: none). */
        private final int[] partials;
        /** Partial gradients of t written so far. */
        private final int[] received;
        private final Graph.Builder b;

        Builder(Graph forward, Step step) {
            this.g = forward;
            this.step = step;
            int no = g.operatorCount();
            rules = new Backward[no];
            for (int o = 0; o < no; o++) {
                rules[o] = Backward.of(g.operator(o).type());
            }
            partials = new int[g.tensorCount()];
            received = new int[g.tensorCount()];
            for (String out : g.outputs()) {
                partials[g.tensorIndex(out)]++;
            }
            // Reverse order: every reader of an operator's outputs comes after it, so its outputs' partials are known.
            for (int o = no - 1; o >= 0; o--) {
                if (runs(o)) {
                    for (int t : g.inputs(o)) {
                        if (differentiates(o, t)) {
                            partials[t]++;
                        }
                    }
                }
            }
            b = Graph.builder(g.name() + step.suffix()).alignment(g.alignment());
        }

        /** Whether tensor t can have a gradient: a parameter or a produced tensor, not a graph input. */
        private boolean learned(int t) {
            return g.tensor(t).kind() == TensorKind.PARAMETER || !g.isHost(t);
        }

        /** Whether operator o's backward writes a gradient of its input t. */
        private boolean differentiates(int o, int t) {
            return learned(t) && rules[o].differentiates(g.inputs(o)[0] == t);
        }

        /** Whether operator o's backward runs: an output has a gradient and an input gets one. */
        private boolean runs(int o) {
            boolean gradient = false;
            for (int t : g.outputs(o)) {
                gradient |= partials[t] > 0;
            }
            if (!gradient) {
                return false;
            }
            for (int t : g.inputs(o)) {
                if (differentiates(o, t)) {
                    return true;
                }
            }
            return false;
        }

        Graph build() {
            g.tensors().forEach(b::tensor);
            g.operators().forEach(b::operator);
            loss();
            for (int o = g.operatorCount() - 1; o >= 0; o--) {
                if (runs(o)) {
                    backward(o);
                }
            }
            List<String> outputs = new ArrayList<>(List.of(LOSS));
            for (int t = 0; t < g.tensorCount(); t++) {
                if (g.tensor(t).kind() == TensorKind.PARAMETER && partials[t] > 0) {
                    outputs.add(step == Step.UPDATE ? update(t) : gradient(g.tensor(t).name()));
                }
            }
            outputs.forEach(b::output);
            return b.build();
        }

        /** The loss reads the network's outputs and writes the loss and each output's (first) gradient. */
        private void loss() {
            Tensor first = g.tensor(g.tensorIndex(g.outputs().get(0)));
            long elementBytes = first.shape().isEmpty() ? 1 : Math.max(1, first.size() / elements(first));
            b.tensor(new Tensor(LOSS, elementBytes, TensorKind.ACTIVATION, List.of(1L), first.dtype()));
            long cost = 0;
            List<Integer> outs = new ArrayList<>();
            for (String out : g.outputs()) {
                int t = g.tensorIndex(out);
                outs.add(t);
                cost += work(g.tensor(t));
            }
            emit(LOSS, "Loss", g.outputs(), List.of(LOSS), outs, cost);
        }

        private void backward(int o) {
            Operator op = g.operator(o);
            int[] in = g.inputs(o);
            List<String> dys = new ArrayList<>();
            for (int t : g.outputs(o)) {
                if (partials[t] > 0) {
                    dys.add(gradient(g.tensor(t).name()));
                }
            }
            long cost = g.cost(o);
            String type = op.type() == null ? "" : op.type();
            switch (rules[o]) {
                case WEIGHTED -> {
                    String family = Backward.family(type);
                    List<String> weights = new ArrayList<>();
                    List<Integer> rest = new ArrayList<>();
                    for (int k = 1; k < in.length; k++) {
                        if (g.tensor(in[k]).shape().size() != 1) {
                            weights.add(name(in[k]));
                        }
                        rest.add(in[k]);
                    }
                    if (differentiates(o, in[0])) {
                        emit(op.name() + "/grad_input", family + "GradInput", concat(weights, dys), List.of(in[0]),
                                cost);
                    }
                    emit(op.name() + "/grad_weight", family + "GradWeight", concat(List.of(name(in[0])), dys),
                            rest, cost);
                }
                case MATMUL -> {
                    if (in.length < 2) {
                        emit(op.name() + "/backward", type + "_grad", concat(names(in), dys), indices(in), cost);
                        return;
                    }
                    emit(op.name() + "/grad_a", "MatMulGradA", concat(List.of(name(in[1])), dys), List.of(in[0]), cost);
                    List<Integer> rest = new ArrayList<>();
                    for (int k = 1; k < in.length; k++) {
                        rest.add(in[k]);
                    }
                    emit(op.name() + "/grad_b", "MatMulGradB", concat(List.of(name(in[0])), dys), rest, cost);
                }
                case GRADIENT -> single(op, type, dys, indices(in), cost);
                case INDEXED -> {
                    List<String> reads = new ArrayList<>();
                    for (int k = 1; k < in.length; k++) {
                        reads.add(name(in[k]));
                    }
                    single(op, type, concat(reads, dys), List.of(in[0]), cost);
                }
                case OUTPUTS -> single(op, type, concat(names(g.outputs(o)), dys), indices(in), cost);
                case INPUTS -> single(op, type, concat(names(in), dys), indices(in), cost);
                case NONE -> throw new IllegalStateException("operator '" + op.name() + "' has no backward");
            }
        }

        private void single(Operator op, String type, List<String> reads, List<Integer> of, long cost) {
            emit(op.name() + "/backward", type.isEmpty() ? "grad" : type + "_grad", reads, of, cost);
        }

        /**
         * Adds operator {@code name} reading {@code reads} and writing {@code also} and the next partial gradient
         * of each tensor of {@code of} that has a gradient (callers list only the inputs the rule differentiates),
         * then the accumulations those partials complete. Adds nothing when there is nothing to write.
         */
        private void emit(String name, String type, List<String> reads, List<Integer> of, long cost) {
            emit(name, type, reads, List.of(), of, cost);
        }

        private void emit(String name, String type, List<String> reads, List<String> also, List<Integer> of,
                          long cost) {
            List<String> writes = new ArrayList<>(also);
            List<Integer> summed = new ArrayList<>();
            for (int t : of) {
                if (partials[t] == 0) {
                    continue;
                }
                int k = ++received[t];
                String partial = partialName(t, k);
                b.tensor(like(g.tensor(t), partial));
                writes.add(partial);
                if (k >= 2) {
                    summed.add(t);
                }
            }
            if (writes.isEmpty()) {
                return;
            }
            b.operator(new Operator(name, type, reads, writes, cost));
            for (int t : summed) {
                int k = received[t];
                String tensor = g.tensor(t).name();
                String previous = k == 2 ? partialName(t, 1) : gradient(tensor) + "+" + (k - 1);
                String sum = k == partials[t] ? gradient(tensor) : gradient(tensor) + "+" + k;
                b.tensor(like(g.tensor(t), sum));
                b.operator(new Operator(sum, "GradAccumulate", List.of(previous, partialName(t, k)), List.of(sum),
                        work(g.tensor(t))));
            }
        }

        /** Partial gradient k (from 1) of t: the gradient itself when it is the only one. */
        private String partialName(int t, int k) {
            String grad = gradient(g.tensor(t).name());
            return partials[t] == 1 ? grad : grad + "#" + k;
        }

        /** SGD's step for parameter t: reads the weight and its gradient, writes the updated weight. */
        private String update(int t) {
            Tensor w = g.tensor(t);
            String updated = w.name() + "/updated";
            b.tensor(new Tensor(updated, w.size(), TensorKind.ACTIVATION, w.shape(), w.dtype()));
            b.operator(new Operator(w.name() + "/update", "SgdUpdate", List.of(w.name(), gradient(w.name())),
                    List.of(updated), work(w)));
            return updated;
        }

        private String name(int t) {
            return g.tensor(t).name();
        }

        private List<String> names(int[] ts) {
            List<String> out = new ArrayList<>();
            for (int t : ts) {
                out.add(name(t));
            }
            return out;
        }

        private static List<Integer> indices(int[] ts) {
            List<Integer> out = new ArrayList<>();
            for (int t : ts) {
                out.add(t);
            }
            return out;
        }

        private static List<String> concat(List<String> a, List<String> c) {
            List<String> out = new ArrayList<>(a);
            out.addAll(c);
            return out;
        }
    }

    /** A gradient (or updated copy) of tensor {@code t}: its size, shape and type, an activation. */
    private static Tensor like(Tensor t, String name) {
        return new Tensor(name, t.size(), TensorKind.ACTIVATION, t.shape(), t.dtype());
    }

    /** The elements of a shaped tensor, else its bytes: the unit of the costs that are not forward costs. */
    private static long work(Tensor t) {
        return t.shape().isEmpty() ? t.size() : elements(t);
    }

    private static long elements(Tensor t) {
        long n = 1;
        for (long d : t.shape()) {
            n = Math.multiplyExact(n, d);
        }
        return n;
    }

    /**
     * What an operator's backward reads and which of its inputs get a gradient, by the forward operator's type
     * (matched without case, underscores or dashes, as {@code OperatorCosts} matches it). Activations fused
     * into their producer (the zoo's and the importer's granularity) are not differentiated apart: the
     * producer's rule stands for the pair.
     */
    enum Backward {
        /**
         * Convolution, transposed convolution, linear / Gemm: {@code GradInput} reads the operator's weights (its
         * inputs after the first, except rank-1 biases) and the output gradient, writes the input's gradient;
         * {@code GradWeight} reads the input and the output gradient, writes the gradient of every other input.
         */
        WEIGHTED,
        /** Matrix product A x B: {@code MatMulGradA} reads B and dY; {@code MatMulGradB} reads A and dY. */
        MATMUL,
        /** Linear in its inputs (add, concat, average pooling, resize, slicing...): reads only dY. */
        GRADIENT,
        /** Gather: reads dY and its indices; only the data (first input) gets a gradient. */
        INDEXED,
        /** Derivative from the output (ReLU, sigmoid, tanh, softmax...): reads its outputs and dY. */
        OUTPUTS,
        /** Derivative from the inputs (mul, max pooling, normalisations, GELU, unknown types): reads them and dY. */
        INPUTS,
        /** Not differentiable (comparisons, argmax, rounding): no backward, and no gradient flows through. */
        NONE;

        private static final Set<String> WEIGHTED_TYPES = Set.of("conv", "conv1d", "conv2d", "conv3d",
                "convtranspose", "convtranspose1d", "convtranspose2d", "convtranspose3d", "linear", "gemm");
        private static final Set<String> GRADIENT_TYPES = Set.of("add", "sub", "sum", "mean", "neg", "concat",
                "resize", "pad", "slice", "expand", "tile", "depthtospace", "spacetodepth", "select", "identity",
                "avgpool", "globalavgpool", "reducemean", "reducesum");
        private static final Set<String> OUTPUT_TYPES = Set.of("relu", "leakyrelu", "elu", "selu", "celu",
                "sigmoid", "hardsigmoid", "tanh", "clip", "exp", "sqrt", "reciprocal", "softmax", "logsoftmax");
        private static final Set<String> NONE_TYPES = Set.of("argmax", "argmin", "hardmax", "equal", "less",
                "greater", "lessorequal", "greaterorequal", "and", "or", "xor", "not", "isnan", "isinf", "sign",
                "floor", "ceil", "round", "mod", "bitshift");

        static Backward of(String type) {
            String t = normal(type);
            if (WEIGHTED_TYPES.contains(t)) {
                return WEIGHTED;
            }
            if (t.equals("matmul")) {
                return MATMUL;
            }
            if (t.equals("gather")) {
                return INDEXED;
            }
            if (GRADIENT_TYPES.contains(t)) {
                return GRADIENT;
            }
            if (OUTPUT_TYPES.contains(t)) {
                return OUTPUTS;
            }
            return NONE_TYPES.contains(t) ? NONE : INPUTS;
        }

        /** Whether the backward writes a gradient of an input ({@code first}: the operator's first input). */
        boolean differentiates(boolean first) {
            return this != NONE && (this != INDEXED || first);
        }

        /** The prefix of a weighted operator's gradient types: Conv, ConvTranspose or Linear. */
        static String family(String type) {
            String t = normal(type);
            return t.startsWith("convtranspose") ? "ConvTranspose" : t.startsWith("conv") ? "Conv" : "Linear";
        }

        private static String normal(String type) {
            return type == null ? "" : type.toLowerCase(Locale.ROOT).replace("_", "").replace("-", "");
        }
    }
}
