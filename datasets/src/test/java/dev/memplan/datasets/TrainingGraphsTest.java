package dev.memplan.datasets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.datasets.TrainingGraphs.Step;
import dev.memplan.datasets.zoo.Zoo;
import dev.memplan.model.Budgets;
import dev.memplan.model.CheckReport;
import dev.memplan.model.Graph;
import dev.memplan.model.JustInTimePlanner;
import dev.memplan.model.Limits;
import dev.memplan.model.Operator;
import dev.memplan.model.Plan;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.Tensor;
import dev.memplan.model.TensorKind;
import dev.memplan.model.TensorSetting;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Training steps derived by hand on the smallest graph that shows each rule: which tensors each backward operator
 * reads and writes, in which order, with which sizes and costs; then every human-designed zoo network's step.
 */
class TrainingGraphsTest {

    private static Tensor act(String name, long... shape) {
        return tensor(name, TensorKind.ACTIVATION, shape);
    }

    private static Tensor param(String name, long... shape) {
        return tensor(name, TensorKind.PARAMETER, shape);
    }

    /** One byte per element, so a size is the element count. */
    private static Tensor tensor(String name, TensorKind kind, long... shape) {
        return new Tensor(name, Arrays.stream(shape).reduce(1, (a, b) -> a * b), kind,
                Arrays.stream(shape).boxed().toList(), "int8");
    }

    private static Operator op(String name, String type, List<String> in, String out) {
        return new Operator(name, type, in, List.of(out));
    }

    /** Every operator of {@code g} from {@code from} on, as "name type [reads] -> [writes]". */
    private static List<String> rows(Graph g, int from) {
        return g.operators().subList(from, g.operatorCount()).stream()
                .map(o -> o.name() + " " + o.type() + " " + o.inputs() + " -> " + o.outputs())
                .collect(Collectors.toList());
    }

    /** x -> conv c1 (w1, b1) -> relu r -> conv c2 (w2) -> output; x is the network's input. */
    private static Graph convReluConv() {
        return Graph.builder("chain").tensor(act("x", 1, 2, 4, 4)).tensor(param("w1", 3, 2, 1, 1))
                .tensor(param("b1", 3)).tensor(act("c1", 1, 3, 4, 4)).tensor(act("r", 1, 3, 4, 4))
                .tensor(param("w2", 4, 3, 3, 3)).tensor(act("c2", 1, 4, 4, 4))
                .operator(op("c1", "conv2d", List.of("x", "w1", "b1"), "c1"))
                .operator(op("r", "Relu", List.of("c1"), "r"))
                .operator(op("c2", "conv2d", List.of("r", "w2"), "c2")).output("c2").build();
    }

    @Test
    void aConvReluConvChainKeepsWhatEachGradientReads() {
        Graph f = convReluConv();
        Graph t = TrainingGraphs.of(f, Step.BACKWARD);
        assertEquals("chain:train", t.name());
        assertEquals(f.operators(), t.operators().subList(0, 3), "the forward pass first, unchanged");
        assertEquals(List.of(
                "train/loss Loss [c2] -> [train/loss, grad/c2]",
                "c2/grad_input ConvGradInput [w2, grad/c2] -> [grad/r]",
                "c2/grad_weight ConvGradWeight [r, grad/c2] -> [grad/w2]",
                "r/backward Relu_grad [r, grad/r] -> [grad/c1]",
                // x is the network's input: no gradient, so c1 has no GradInput
                "c1/grad_weight ConvGradWeight [x, grad/c1] -> [grad/w1, grad/b1]"), rows(t, 3));
        assertEquals(List.of("train/loss", "grad/w1", "grad/b1", "grad/w2"), t.outputs());
        for (String name : List.of("c2", "r", "c1", "w1", "b1", "w2")) {
            Tensor grad = t.tensor(t.tensorIndex("grad/" + name));
            Tensor of = f.tensor(f.tensorIndex(name));
            assertEquals(of.size(), grad.size(), name);
            assertEquals(of.shape(), grad.shape(), name);
            assertEquals(TensorKind.ACTIVATION, grad.kind(), "a gradient is produced: " + name);
        }
        // 3x3 conv 3 -> 4 channels on 4x4: 4*16 outputs x 3*9 MACs, for the forward and each of its gradients
        long c2 = 4 * 16 * 3 * 9;
        assertEquals(c2, t.cost(t.operatorIndex("c2")));
        assertEquals(c2, t.cost(t.operatorIndex("c2/grad_input")));
        assertEquals(c2, t.cost(t.operatorIndex("c2/grad_weight")));
        assertEquals(3 * 16, t.cost(t.operatorIndex("r/backward")), "relu: elements");
        assertEquals(4 * 16, t.cost(t.operatorIndex("train/loss")), "the loss: elements of the outputs");
        assertEquals(1, t.size(t.tensorIndex("train/loss")), "a scalar of the outputs' type");
    }

    @Test
    void theUpdateReadsEachWeightAndItsGradientAndWritesTheOutputs() {
        Graph t = TrainingGraphs.of(convReluConv(), Step.UPDATE);
        assertEquals("chain:train+update", t.name());
        assertEquals(List.of(
                "w1/update SgdUpdate [w1, grad/w1] -> [w1/updated]",
                "b1/update SgdUpdate [b1, grad/b1] -> [b1/updated]",
                "w2/update SgdUpdate [w2, grad/w2] -> [w2/updated]"), rows(t, t.operatorCount() - 3));
        assertEquals(List.of("train/loss", "w1/updated", "b1/updated", "w2/updated"), t.outputs());
        assertEquals(4 * 3 * 9, t.size(t.tensorIndex("w2/updated")));
        assertEquals(4 * 3 * 9, t.cost(t.operatorIndex("w2/update")), "SGD: one multiply-add an element");
    }

    @Test
    void aResidualAddReadsNothingSavedAndTheSharedGradientIsSummed() {
        // a = conv(x); b = relu(a); s = a + b: a is read twice, so it gets two partial gradients
        Graph f = Graph.builder("res").tensor(act("x", 1, 2, 3, 3)).tensor(param("w", 2, 2, 1, 1))
                .tensor(act("a", 1, 2, 3, 3)).tensor(act("b", 1, 2, 3, 3)).tensor(act("s", 1, 2, 3, 3))
                .operator(op("a", "conv2d", List.of("x", "w"), "a")).operator(op("b", "relu", List.of("a"), "b"))
                .operator(op("s", "add", List.of("a", "b"), "s")).output("s").build();
        Graph t = TrainingGraphs.of(f, Step.BACKWARD);
        assertEquals(List.of(
                "train/loss Loss [s] -> [train/loss, grad/s]",
                "s/backward add_grad [grad/s] -> [grad/a#1, grad/b]",
                "b/backward relu_grad [b, grad/b] -> [grad/a#2]",
                "grad/a GradAccumulate [grad/a#1, grad/a#2] -> [grad/a]",
                "a/grad_weight ConvGradWeight [x, grad/a] -> [grad/w]"), rows(t, 3));
        assertEquals(18, t.size(t.tensorIndex("grad/a#1")));
        assertEquals(18, t.cost(t.operatorIndex("grad/a")), "an accumulation: the elements it writes");
    }

    @Test
    void threeReadersMakeARunningSum() {
        Graph f = Graph.builder("fan").activation("x", 4).parameter("w", 2).activation("a", 8).activation("p", 8)
                .activation("q", 8).activation("r", 8)
                .operator(new Operator("a", "mul", List.of("x", "w"), List.of("a")))
                .operator(new Operator("p", "relu", List.of("a"), List.of("p")))
                .operator(new Operator("q", "relu", List.of("a"), List.of("q")))
                .operator(new Operator("r", "relu", List.of("a"), List.of("r")))
                .output("p").output("q").output("r").build();
        List<String> rows = rows(TrainingGraphs.of(f, Step.BACKWARD), 4);
        assertEquals(List.of(
                "train/loss Loss [p, q, r] -> [train/loss, grad/p, grad/q, grad/r]",
                "r/backward relu_grad [r, grad/r] -> [grad/a#1]",
                "q/backward relu_grad [q, grad/q] -> [grad/a#2]",
                "grad/a+2 GradAccumulate [grad/a#1, grad/a#2] -> [grad/a+2]",
                "p/backward relu_grad [p, grad/p] -> [grad/a#3]",
                "grad/a GradAccumulate [grad/a+2, grad/a#3] -> [grad/a]",
                // mul's derivative needs both operands; x is the input, so only w gets a gradient
                "a/backward mul_grad [x, w, grad/a] -> [grad/w]"), rows);
    }

    @Test
    void aConcatSplitsItsGradientAndAMaxPoolReadsItsInput() {
        Graph f = Graph.builder("cat").tensor(act("x", 1, 1, 4, 4)).tensor(param("w1", 2, 1, 1, 1))
                .tensor(param("w2", 3, 1, 1, 1)).tensor(act("p1", 1, 2, 4, 4)).tensor(act("p2", 1, 3, 4, 4))
                .tensor(act("cat", 1, 5, 4, 4)).tensor(act("pool", 1, 5, 2, 2))
                .operator(op("p1", "conv2d", List.of("x", "w1"), "p1"))
                .operator(op("p2", "conv2d", List.of("x", "w2"), "p2"))
                .operator(op("cat", "concat", List.of("p1", "p2"), "cat"))
                .operator(op("pool", "maxpool", List.of("cat"), "pool")).output("pool").build();
        Graph t = TrainingGraphs.of(f, Step.BACKWARD);
        assertEquals(List.of(
                "train/loss Loss [pool] -> [train/loss, grad/pool]",
                "pool/backward maxpool_grad [cat, grad/pool] -> [grad/cat]",
                "cat/backward concat_grad [grad/cat] -> [grad/p1, grad/p2]",
                "p2/grad_weight ConvGradWeight [x, grad/p2] -> [grad/w2]",
                "p1/grad_weight ConvGradWeight [x, grad/p1] -> [grad/w1]"), rows(t, 4));
        assertEquals(32, t.size(t.tensorIndex("grad/p1")));
        assertEquals(48, t.size(t.tensorIndex("grad/p2")));
        assertEquals(80, t.cost(t.operatorIndex("cat/backward")), "the forward's cost: the elements of cat");
        assertEquals(80, t.cost(t.operatorIndex("pool/backward")), "the forward's cost: the elements pooled");
    }

    @Test
    void aMatmulOfTwoLinearsReadsTheOtherOperandPerGradient() {
        // q = x Wq^T (4x8), k = z Wk^T (5x8), y = q k^T (4x5; k^T is a view)
        Graph f = Graph.builder("attn").tensor(act("x", 4, 6)).tensor(act("z", 5, 6)).tensor(param("wq", 8, 6))
                .tensor(param("wk", 8, 6)).tensor(param("bk", 8)).tensor(act("q", 4, 8)).tensor(act("k", 5, 8))
                .tensor(act("y", 4, 5))
                .operator(op("q", "linear", List.of("x", "wq"), "q"))
                .operator(op("k", "Gemm", List.of("z", "wk", "bk"), "k"))
                .operator(op("y", "matmul", List.of("q", "k"), "y")).output("y").build();
        Graph t = TrainingGraphs.of(f, Step.BACKWARD);
        assertEquals(List.of(
                "train/loss Loss [y] -> [train/loss, grad/y]",
                "y/grad_a MatMulGradA [k, grad/y] -> [grad/q]",
                "y/grad_b MatMulGradB [q, grad/y] -> [grad/k]",
                "k/grad_weight LinearGradWeight [z, grad/k] -> [grad/wk, grad/bk]",
                "q/grad_weight LinearGradWeight [x, grad/q] -> [grad/wq]"), rows(t, 3));
        assertEquals(4 * 5 * 8, t.cost(t.operatorIndex("y/grad_a")));
        assertEquals(4 * 8 * 6, t.cost(t.operatorIndex("q/grad_weight")));
        assertEquals(List.of("train/loss", "grad/wq", "grad/wk", "grad/bk"), t.outputs());
    }

    @Test
    void linearGradInputReadsTheWeightButNotTheBias() {
        Graph f = Graph.builder("mlp").tensor(act("x", 2, 3)).tensor(param("w1", 4, 3)).tensor(act("h", 2, 4))
                .tensor(param("w2", 5, 4)).tensor(param("b2", 5)).tensor(act("y", 2, 5))
                .operator(op("h", "linear", List.of("x", "w1"), "h"))
                .operator(op("y", "linear", List.of("h", "w2", "b2"), "y")).output("y").build();
        List<String> rows = rows(TrainingGraphs.of(f, Step.BACKWARD), 2);
        assertEquals("y/grad_input LinearGradInput [w2, grad/y] -> [grad/h]", rows.get(1));
        assertEquals("y/grad_weight LinearGradWeight [h, grad/y] -> [grad/w2, grad/b2]", rows.get(2));
    }

    @Test
    void noGradientFlowsThroughANonDifferentiableOperatorAndGatherKeepsItsIndices() {
        // idx = argmax(a) stops the gradient; g = gather(e, idx) reads idx again in its backward
        Graph f = Graph.builder("idx").activation("x", 4).parameter("w", 4).activation("a", 4)
                .activation("idx", 1).parameter("e", 40).activation("g", 4)
                .operator(new Operator("a", "mul", List.of("x", "w"), List.of("a")))
                .operator(new Operator("idx", "ArgMax", List.of("a"), List.of("idx")))
                .operator(new Operator("g", "gather", List.of("e", "idx"), List.of("g"))).output("g").build();
        Graph t = TrainingGraphs.of(f, Step.BACKWARD);
        assertEquals(List.of(
                "train/loss Loss [g] -> [train/loss, grad/g]",
                "g/backward gather_grad [idx, grad/g] -> [grad/e]"), rows(t, 3));
        assertEquals(List.of("train/loss", "grad/e"), t.outputs(), "w gets no gradient through argmax");
    }

    @Test
    void untypedGraphsDifferentiateFromTheirInputs() {
        Graph f = GeneratedGraphs.graph("gen:layered:30");
        Graph t = TrainingGraphs.of(f, Step.BACKWARD);
        for (int o = f.operatorCount(); o < t.operatorCount(); o++) {
            Operator op = t.operator(o);
            if (op.name().endsWith("/backward")) {
                String forward = op.name().substring(0, op.name().length() - "/backward".length());
                assertTrue(op.inputs().containsAll(f.operator(f.operatorIndex(forward)).inputs()), op.toString());
                assertEquals(f.cost(f.operatorIndex(forward)), t.cost(o), "costs as the forward: " + op);
            }
        }
        long weights = f.tensors().stream().filter(x -> x.kind() == TensorKind.PARAMETER).count();
        assertEquals(1 + weights, t.outputs().size(), "the loss and every weight's gradient");
    }

    @Test
    void namesWithAStepSuffixParseAndATrainingGraphIsNotTrainedAgain() {
        assertEquals(new TrainingGraphs.Name("resnet50", Step.BACKWARD), TrainingGraphs.parse("resnet50:train"));
        assertEquals(new TrainingGraphs.Name("gen:layered:200", Step.UPDATE),
                TrainingGraphs.parse("gen:layered:200:train+update"));
        assertEquals(new TrainingGraphs.Name("m.onnx", Step.BACKWARD), TrainingGraphs.parse("m.onnx:train"));
        assertNull(TrainingGraphs.parse("resnet50"));
        assertNull(TrainingGraphs.parse(":train"));
        Graph once = TrainingGraphs.of(convReluConv(), Step.BACKWARD);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TrainingGraphs.of(once, Step.BACKWARD));
        assertTrue(e.getMessage().contains("'chain:train' is already a training graph"), e.getMessage());
        Graph noOutput = Graph.builder("quiet").activation("a", 4).activation("b", 4)
                .operator("o", List.of("a"), List.of("b")).build();
        IllegalArgumentException none = assertThrows(IllegalArgumentException.class,
                () -> TrainingGraphs.of(noOutput, Step.BACKWARD));
        assertTrue(none.getMessage().contains("'quiet' has no graph output"), none.getMessage());
    }

    static List<String> humanNetworks() {
        return Zoo.names().stream().filter(n -> !Zoo.entry(n).nas()).toList();
    }

    /** Every human-designed network's step (the Transformer among them) is a valid graph with a checked plan at M_R. */
    @ParameterizedTest
    @MethodSource("humanNetworks")
    void everyHumanNetworksStepHasACheckedJustInTimePlanAtMinimumRequired(String name) {
        Graph f = Zoo.graph(name);
        for (Step step : Step.values()) {
            Graph t = TrainingGraphs.of(f, step);
            assertEquals(f.operators(), t.operators().subList(0, f.operatorCount()), "forward first");
            for (TensorSetting setting : TensorSetting.values()) {
                long budget = Budgets.minimumRequired(t.withSetting(setting));
                Plan plan = new JustInTimePlanner().plan(t, setting, budget, Limits.DEFAULT);
                CheckReport report = PlanChecker.check(t, plan);
                assertTrue(report.valid(), name + step.suffix() + " " + setting + ": " + report);
            }
        }
    }
}
