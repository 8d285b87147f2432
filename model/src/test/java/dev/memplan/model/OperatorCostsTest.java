package dev.memplan.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The derived cost of each rule of {@link OperatorCosts} on hand-computed cases. */
class OperatorCostsTest {

    private static Tensor act(String name, long... shape) {
        return tensor(name, TensorKind.ACTIVATION, shape);
    }

    private static Tensor param(String name, long... shape) {
        return tensor(name, TensorKind.PARAMETER, shape);
    }

    private static Tensor tensor(String name, TensorKind kind, long... shape) {
        long n = 1;
        for (long d : shape) {
            n *= d;
        }
        return new Tensor(name, n, kind, java.util.Arrays.stream(shape).boxed().toList(), "int8");
    }

    /** The cost of the single operator {@code type} reading {@code in} and writing {@code out}. */
    private static long cost(String type, List<Tensor> in, Tensor out) {
        Graph.Builder b = Graph.builder("g");
        in.forEach(b::tensor);
        b.tensor(out).operator(new Operator("op", type, in.stream().map(Tensor::name).toList(), List.of(out.name())))
                .output(out.name());
        return b.build().cost(0);
    }

    @Test
    void convolutionCountsMultiplyAccumulates() {
        // 3x3 conv, 8 -> 16 channels, 2 groups, on 1x8x5x5 with "same" padding: 16*5*5 outputs x (8/2)*3*3 MACs
        assertEquals(16 * 25 * 4 * 9, cost("conv2d", List.of(act("x", 1, 8, 5, 5), param("w", 16, 4, 3, 3),
                param("b", 16)), act("y", 1, 16, 5, 5)));
        // the ONNX spelling, and DenseNet's pre-norm conv whose (2, C) norm comes before the weight
        assertEquals(16 * 25 * 4 * 9, cost("Conv", List.of(act("x", 1, 8, 5, 5), param("n", 2, 8),
                param("w", 16, 4, 3, 3)), act("y", 1, 16, 5, 5)));
        // transposed: every input element times C_out/groups x kernel (weight is C_in x C_out/g x k)
        assertEquals(8 * 4 * 4 * 6 * 2 * 2, cost("convtranspose2d", List.of(act("x", 1, 8, 4, 4),
                param("w", 8, 6, 2, 2)), act("y", 1, 6, 8, 8)));
    }

    @Test
    void linearAndMatmulCountMultiplyAccumulates() {
        assertEquals(4L * 10 * 32, cost("linear", List.of(act("x", 4, 32), param("w", 10, 32), param("b", 10)),
                act("y", 4, 10)));
        // Gemm with transB = 0: the weight is K x N; the reduced dimension is still weight elements / N
        assertEquals(4L * 10 * 32, cost("Gemm", List.of(act("x", 4, 32), param("w", 32, 10)), act("y", 4, 10)));
        assertEquals(2L * 3 * 5 * 7 * 6, cost("matmul", List.of(act("a", 2, 3, 5, 6), act("b", 2, 3, 6, 7)),
                act("y", 2, 3, 5, 7)));
        // attention scores of 8 heads of width 64 on 10 tokens, batch 32: q and k are stored as the projections
        // made them, (10, 32, 512), and read as head-split, transposed views; k = 64, not 512
        assertEquals(32L * 8 * 10 * 10 * 64, cost("MatMul", List.of(act("q", 10, 32, 512), act("k", 10, 32, 512)),
                act("y", 32, 8, 10, 10)));
        // a weight shared by the batch (B is k x m): A gives k
        assertEquals(4L * 5 * 7 * 6, cost("matmul", List.of(act("a", 4, 5, 6), act("b", 6, 7)), act("y", 4, 5, 7)));
        assertEquals(4L * 5 * 7 * 6, cost("matmul", List.of(act("a", 5, 6), act("b", 4, 6, 7)), act("y", 4, 5, 7)));
    }

    @Test
    void elementwisePoolingAndNormalisationCountElements() {
        assertEquals(2 * 4 * 3 * 3, cost("add", List.of(act("a", 2, 4, 3, 3), act("b", 1, 4, 1, 1)),
                act("y", 2, 4, 3, 3)));
        assertEquals(1 * 4 * 8 * 8, cost("maxpool", List.of(act("x", 1, 4, 8, 8)), act("y", 1, 4, 4, 4)));
        assertEquals(1 * 4 * 8 * 8, cost("global_avgpool", List.of(act("x", 1, 4, 8, 8)), act("y", 1, 4, 1, 1)));
        assertEquals(6 * 16, cost("layernorm", List.of(act("x", 6, 16), param("w", 16), param("b", 16)),
                act("y", 6, 16)));
        assertEquals(6 * 16, cost("softmax", List.of(act("x", 6, 16)), act("y", 6, 16)));
        assertEquals(2 * 5 * 4, cost("concat", List.of(act("a", 2, 2, 4), act("b", 2, 3, 4)), act("y", 2, 5, 4)));
    }

    @Test
    void unknownTypesAndMissingShapesCostTheirBytes() {
        assertEquals(12 + 20, cost("MyCustomOp", List.of(act("x", 3, 4)), act("y", 4, 5)));
        Graph noShapes = Graph.builder("g").activation("a", 100).parameter("w", 30).activation("b", 7)
                .operator(new Operator("c", "conv2d", List.of("a", "w", "a"), List.of("b"))).output("b").build();
        assertEquals(100 + 30 + 7, noShapes.cost(0), "each distinct tensor once");
        Graph untyped = Graph.builder("g").activation("a", 5).activation("b", 9)
                .operator("op", List.of("a"), List.of("b")).output("b").build();
        assertEquals(14, untyped.cost(0));
    }

    @Test
    void aGivenCostWinsAndSurvivesTheActivationsViewAndWithCosts() {
        Graph g = Graph.builder("g").tensor(act("x", 1, 2, 4, 4)).tensor(param("w", 3, 2, 1, 1))
                .tensor(act("y", 1, 3, 4, 4)).tensor(act("z", 1, 3, 4, 4))
                .operator(new Operator("conv", "conv2d", List.of("x", "w"), List.of("y")))
                .operator(new Operator("relu", "relu", List.of("y"), List.of("z"), 5L)).output("z").build();
        assertEquals(3 * 16 * 2, g.cost(0));
        assertEquals(5, g.cost(1));
        Graph view = g.withSetting(TensorSetting.ACTIVATIONS);
        assertEquals(1, view.inputs(0).length, "the view drops the weight");
        assertEquals(3 * 16 * 2, view.cost(0), "but keeps the cost the weight's shape gave");
        Graph given = g.withCosts();
        assertEquals(List.of(96L, 5L), given.operators().stream().map(Operator::cost).toList());
    }

    @Test
    void aNegativeCostIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new Operator("op", "add", List.of(), List.of("y"), -1L));
        assertTrue(e.getMessage().contains("'op' has cost -1"), e.getMessage());
    }
}
