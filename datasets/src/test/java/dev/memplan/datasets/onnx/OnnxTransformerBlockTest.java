package dev.memplan.datasets.onnx;

import static dev.memplan.datasets.onnx.OnnxWriter.attrInt;
import static dev.memplan.datasets.onnx.OnnxWriter.attrInts;
import static dev.memplan.datasets.onnx.OnnxWriter.in;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.memplan.datasets.zoo.NetBuilder;
import dev.memplan.datasets.zoo.NetBuilder.Value;
import dev.memplan.model.Budgets;
import dev.memplan.model.Graph;
import dev.memplan.model.Operator;
import dev.memplan.model.Tensor;
import dev.memplan.model.TensorSetting;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A pre-norm transformer encoder block (ViT's) as torch exports it at opset 20: MatMul + Add(bias) for every
 * linear layer, the head split as Reshape(0, 0, h, -1) + Transpose, the score scaling as a Div by a scalar, Gelu,
 * residual Adds. Imported, it must be the block the zoo builds (the zoo's Attention layout: q/k/v projections,
 * scores, softmax, context, out projection), operator for operator and byte for byte.
 */
class OnnxTransformerBlockTest {
    private static final long D = 64;
    private static final long HEADS = 4;
    private static final long SEQ = 10;

    /**
     * At opset 20 with LayerNormalization and Gelu nodes; at opset 13 (before both existed) with the layer norms
     * written out (ReduceMean, Sub, Pow, ReduceMean, Add eps, Sqrt, Div, Mul scale, Add bias) and GELU as
     * x * 0.5 * (1 + Erf(x / sqrt 2)), as torch exports them.
     */
    private static byte[] exported(long opset) {
        OnnxWriter w = new OnnxWriter(opset).input("x", "batch", "seq", D);
        w.floats("two", 2).floats("eps", 1e-6f).floats("sqrt2", 1.4142135f).floats("one", 1).floats("half", 0.5f);
        w.weight("ln1.weight", D).weight("ln1.bias", D).weight("ln2.weight", D).weight("ln2.bias", D);
        for (String p : new String[] {"q", "k", "v", "out"}) {
            w.weight(p + ".weight", D, D).weight(p + ".bias", D);
        }
        w.weight("fc1.weight", D, 4 * D).weight("fc1.bias", 4 * D).weight("fc2.weight", 4 * D, D).weight("fc2.bias", D);
        w.ints("heads", 0, 0, HEADS, -1).ints("merged", 0, 0, D).floats("scale", (float) Math.sqrt(D / HEADS));
        layerNorm(w, opset, "n1", "x", "ln1");
        for (String p : new String[] {"q", "k", "v"}) {
            w.node("MatMul", p + "m", in("n1", p + ".weight")).node("Add", p + "b", in(p + "m", p + ".bias"))
                    .node("Reshape", p + "r", in(p + "b", "heads"));
        }
        w.node("Transpose", "qt", in("qr"), attrInts("perm", 0, 2, 1, 3))
                .node("Transpose", "kt", in("kr"), attrInts("perm", 0, 2, 3, 1))
                .node("Transpose", "vt", in("vr"), attrInts("perm", 0, 2, 1, 3))
                .node("MatMul", "scores", in("qt", "kt")).node("Div", "scaled", in("scores", "scale"))
                .node("Softmax", "p", in("scaled"), attrInt("axis", -1))
                .node("MatMul", "context", in("p", "vt"))
                .node("Transpose", "ct", in("context"), attrInts("perm", 0, 2, 1, 3))
                .node("Reshape", "cm", in("ct", "merged"))
                .node("MatMul", "om", in("cm", "out.weight")).node("Add", "ob", in("om", "out.bias"))
                .node("Add", "r1", in("x", "ob"))
                ;
        layerNorm(w, opset, "n2", "r1", "ln2");
        w.node("MatMul", "f1", in("n2", "fc1.weight")).node("Add", "f1b", in("f1", "fc1.bias"));
        if (opset >= 20) {
            w.node("Gelu", "g", in("f1b"));
        } else {
            w.node("Div", "gd", in("f1b", "sqrt2")).node("Erf", "ge", in("gd")).node("Add", "g1", in("ge", "one"))
                    .node("Mul", "gx", in("f1b", "g1")).node("Mul", "g", in("gx", "half"));
        }
        w.node("MatMul", "f2", in("g", "fc2.weight")).node("Add", "f2b", in("f2", "fc2.bias"))
                .node("Add", "y", in("r1", "f2b")).output("y");
        return w.bytes();
    }

    private static void layerNorm(OnnxWriter w, long opset, String out, String x, String p) {
        if (opset >= 17) {
            w.node("LayerNormalization", out, in(x, p + ".weight", p + ".bias"), attrInt("axis", -1));
            return;
        }
        w.node("ReduceMean", out + ".mean", in(x), attrInts("axes", -1))
                .node("Sub", out + ".d", in(x, out + ".mean")).node("Pow", out + ".sq", in(out + ".d", "two"))
                .node("ReduceMean", out + ".var", in(out + ".sq"), attrInts("axes", -1))
                .node("Add", out + ".ve", in(out + ".var", "eps")).node("Sqrt", out + ".sd", in(out + ".ve"))
                .node("Div", out + ".n", in(out + ".d", out + ".sd"))
                .node("Mul", out + ".s", in(out + ".n", p + ".weight")).node("Add", out, in(out + ".s", p + ".bias"));
    }

    /** The same block with the zoo's builder (its Attention layout, batch first). */
    private static Graph zoo() {
        NetBuilder b = new NetBuilder("block", 1);
        Value x = b.input("x", 1, SEQ, D);
        Value n1 = b.layerNorm("ln1", x);
        Value[] qkv = new Value[3];
        String[] names = {"q", "k", "v"};
        for (int i = 0; i < 3; i++) {
            Value proj = b.linear(names[i], n1, D, true);
            qkv[i] = b.transpose(b.reshape(proj, 1, SEQ, HEADS, D / HEADS), 0, 2, 1, 3);
        }
        Value scores = b.matmul("scores", qkv[0], b.transpose(qkv[1], 0, 1, 3, 2));
        Value context = b.matmul("context", b.softmax("softmax", scores), qkv[2]);
        Value out = b.linear("out", b.reshape(b.transpose(context, 0, 2, 1, 3), 1, SEQ, D), D, true);
        Value r1 = b.add("r1", x, out);
        Value hidden = b.linear("fc1", b.layerNorm("ln2", r1), 4 * D, true);
        Value y = b.add("y", r1, b.linear("fc2", hidden, D, true));
        return b.output(y).build();
    }

    private static Map<String, Long> sizes(Graph g) {
        return new TreeMap<>(g.tensors().stream().collect(Collectors.groupingBy(t -> t.kind() + ":" + t.size(),
                Collectors.counting())));
    }

    @ParameterizedTest
    @ValueSource(longs = {13, 20})
    void exportedBlockIsTheZoosBlock(long opset) {
        Graph onnx = OnnxImport.read("block.onnx", exported(opset),
                OnnxImport.Options.defaults().withInput("x", 1, SEQ, D));
        Graph zoo = zoo();
        List<String> types = onnx.operators().stream().map(Operator::type).toList();
        assertEquals(zoo.operators().stream().map(Operator::type).toList(), types);
        assertEquals(List.of("layernorm", "linear", "linear", "linear", "matmul", "softmax", "matmul", "linear", "add",
                "layernorm", "linear", "linear", "add"), types);
        assertEquals(sizes(zoo), sizes(onnx));
        for (TensorSetting s : TensorSetting.values()) {
            assertEquals(Budgets.minimumRequired(zoo.withSetting(s)), Budgets.minimumRequired(onnx.withSetting(s)));
        }
        assertEquals(zoo.tensors().stream().mapToLong(Tensor::size).sum(),
                onnx.tensors().stream().mapToLong(Tensor::size).sum());
        // the biases folded into the linear layers are the model's own initializers
        assertEquals(List.of("n1", "q.weight", "q.bias"), onnx.operator(1).inputs());
        assertEquals(List.of("x", "ln1.weight", "ln1.bias"), onnx.operator(0).inputs());
    }

    @Test
    void writtenOutLayerNormStaysApartWhenAnInnerValueIsReadElsewhere() {
        OnnxWriter w = new OnnxWriter(13).input("x", 2, D).floats("two", 2).floats("eps", 1e-6f)
                .weight("ln.weight", D).weight("ln.bias", D);
        layerNorm(w, 13, "n", "x", "ln");
        w.node("Softmax", "other", in("n.mean")).output("n").output("other");
        Graph g = OnnxImport.read("ln.onnx", w.bytes(), OnnxImport.Options.defaults());
        assertEquals(0, g.operators().stream().filter(o -> o.type().equals("layernorm")).count());
        assertEquals(List.of("reducemean", "sub", "pow", "reducemean", "div", "mul", "add", "softmax"),
                g.operators().stream().map(Operator::type).toList());
    }
}
