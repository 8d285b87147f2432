package dev.memplan.datasets.onnx;

import static dev.memplan.datasets.onnx.OnnxWriter.attrFloat;
import static dev.memplan.datasets.onnx.OnnxWriter.attrInt;
import static dev.memplan.datasets.onnx.OnnxWriter.attrInts;
import static dev.memplan.datasets.onnx.OnnxWriter.attrString;
import static dev.memplan.datasets.onnx.OnnxWriter.attrTensor;
import static dev.memplan.datasets.onnx.OnnxWriter.in;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.memplan.model.Graph;
import dev.memplan.model.TensorKind;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Output shapes per operator (onnx/docs/Operators.md), each on the smallest graph that shows the rule, across the
 * opsets where an attribute became an input. A view's result is read through a Softmax so that it is a tensor.
 */
class OnnxShapesTest {

    private static Graph load(OnnxWriter w) {
        return OnnxImport.read("t.onnx", w.bytes(), OnnxImport.Options.defaults());
    }

    private static List<Long> shape(OnnxWriter w, String tensor) {
        Graph g = load(w);
        return g.tensor(g.tensorIndex(tensor)).shape();
    }

    private static List<Long> dims(long... d) {
        return Arrays.stream(d).boxed().toList();
    }

    @Test
    void convWithGroupsDilationAndAutoPad() {
        OnnxWriter w = new OnnxWriter(17).input("x", 1, 8, 10, 10).weight("w", 16, 2, 3, 3)
                .node("Conv", "y", in("x", "w"), attrInt("group", 4), attrInts("dilations", 2, 2),
                        attrInts("pads", 2, 2, 2, 2)).output("y")
                .node("Conv", "z", in("x", "w"), attrInt("group", 4), attrInts("dilations", 2, 2),
                        attrInts("strides", 2, 2)).output("z");
        assertEquals(dims(1, 16, 10, 10), shape(w, "y"));
        assertEquals(dims(1, 16, 3, 3), shape(w, "z"));
        OnnxWriter same = new OnnxWriter(13).input("x", 1, 3, 7, 9).weight("w", 4, 3, 3, 3)
                .node("Conv", "u", in("x", "w"), attrString("auto_pad", "SAME_UPPER"), attrInts("strides", 2, 2))
                .node("Conv", "v", in("x", "w"), attrString("auto_pad", "VALID"), attrInts("strides", 2, 2))
                .output("u").output("v");
        assertEquals(dims(1, 4, 4, 5), shape(same, "u"));
        assertEquals(dims(1, 4, 3, 4), shape(same, "v"));
    }

    @Test
    void convTransposeWithOutputPaddingAndGroups() {
        OnnxWriter w = new OnnxWriter(17).input("x", 1, 4, 5, 5).weight("w", 4, 3, 3, 3)
                .node("ConvTranspose", "y", in("x", "w"), attrInt("group", 2), attrInts("strides", 2, 2),
                        attrInts("pads", 1, 1, 1, 1), attrInts("output_padding", 1, 1)).output("y");
        assertEquals(dims(1, 6, 10, 10), shape(w, "y"));
        OnnxWriter fixed = new OnnxWriter(17).input("x", 1, 4, 5, 5).weight("w", 4, 3, 2, 2)
                .node("ConvTranspose", "y", in("x", "w"), attrInts("strides", 2, 2), attrInts("output_shape", 11, 11))
                .output("y");
        assertEquals(dims(1, 3, 11, 11), shape(fixed, "y"));
    }

    @Test
    void poolingWithCeilModeAndGlobalPooling() {
        OnnxWriter w = new OnnxWriter(17).input("x", 1, 1, 6, 6)
                .node("MaxPool", "floor", in("x"), attrInts("kernel_shape", 3, 3), attrInts("strides", 2, 2))
                .node("MaxPool", "ceil", in("x"), attrInts("kernel_shape", 3, 3), attrInts("strides", 2, 2),
                        attrInt("ceil_mode", 1))
                .node("AveragePool", "same", in("x"), attrInts("kernel_shape", 3, 3), attrInts("strides", 4, 4),
                        attrString("auto_pad", "SAME_UPPER"))
                .node("GlobalAveragePool", "g", in("x"))
                .output("floor").output("ceil").output("same").output("g");
        Graph g = load(w);
        assertEquals(dims(1, 1, 2, 2), g.tensor(g.tensorIndex("floor")).shape());
        assertEquals(dims(1, 1, 3, 3), g.tensor(g.tensorIndex("ceil")).shape());
        assertEquals(dims(1, 1, 2, 2), g.tensor(g.tensorIndex("same")).shape());
        assertEquals(dims(1, 1, 1, 1), g.tensor(g.tensorIndex("g")).shape());
        // ceil_mode: a last window that would start in the right padding is dropped (5 + 1 pad, k 2, s 2 -> 3)
        OnnxWriter edge = new OnnxWriter(17).input("x", 1, 1, 5, 5).node("MaxPool", "y", in("x"),
                attrInts("kernel_shape", 2, 2), attrInts("strides", 2, 2), attrInts("pads", 0, 0, 1, 1),
                attrInt("ceil_mode", 1)).output("y");
        assertEquals(dims(1, 1, 3, 3), shape(edge, "y"));
    }

    @Test
    void matmulBroadcastsAndGemmTransposes() {
        OnnxWriter w = new OnnxWriter(17).input("a", 2, 1, 3, 4).input("b", 5, 4, 6).input("v", 4).input("m", 3, 4)
                .node("MatMul", "ab", in("a", "b")).node("MatMul", "vb", in("v", "b")).node("MatMul", "mv", in("m", "v"))
                .output("ab").output("vb").output("mv");
        Graph g = load(w);
        assertEquals(dims(2, 5, 3, 6), g.tensor(g.tensorIndex("ab")).shape());
        assertEquals(dims(5, 6), g.tensor(g.tensorIndex("vb")).shape());
        assertEquals(dims(3), g.tensor(g.tensorIndex("mv")).shape());
        OnnxWriter gemm = new OnnxWriter(17).input("a", 4, 3).weight("w", 4, 5).weight("c", 5)
                .node("Gemm", "y", in("a", "w", "c"), attrInt("transA", 1)).output("y");
        Graph gg = load(gemm);
        assertEquals(dims(3, 5), gg.tensor(gg.tensorIndex("y")).shape());
        assertEquals("linear", gg.operator(0).type());
        assertEquals(List.of("a", "w", "c"), gg.operator(0).inputs());
    }

    @Test
    void splitAcrossOpsets() {
        OnnxWriter v11 = new OnnxWriter(11).input("x", 1, 8, 4)
                .node("Split", in("x"), new String[] {"p", "q"}, attrInt("axis", 1), attrInts("split", 2, 6));
        OnnxWriter v13 = new OnnxWriter(13).input("x", 1, 8, 4).ints("sizes", 2, 6)
                .node("Split", in("x", "sizes"), new String[] {"p", "q"}, attrInt("axis", 1));
        for (OnnxWriter w : List.of(v11, v13)) {
            w.node("Softmax", "sp", in("p")).node("Softmax", "sq", in("q")).output("sp").output("sq");
            Graph g = load(w);
            assertEquals(dims(1, 2, 4), g.tensor(g.tensorIndex("sp")).shape());
            assertEquals(dims(1, 6, 4), g.tensor(g.tensorIndex("sq")).shape());
            assertEquals(List.of("x"), g.operator(0).inputs(), "split is a view: the softmax reads x");
        }
        OnnxWriter v18 = new OnnxWriter(18).input("x", 1, 8)
                .node("Split", in("x"), new String[] {"a", "b", "c"}, attrInt("axis", 1), attrInt("num_outputs", 3))
                .node("Softmax", "sc", in("c")).output("sc");
        assertEquals(dims(1, 2), shape(v18, "sc"));
    }

    @Test
    void squeezeAndUnsqueezeAcrossOpsets() {
        OnnxWriter v11 = new OnnxWriter(11).input("x", 1, 3, 1, 5)
                .node("Squeeze", "s", in("x"), attrInts("axes", 0, 2))
                .node("Unsqueeze", "u", in("s"), attrInts("axes", -1))
                .node("Softmax", "y", in("u")).output("y");
        assertEquals(dims(3, 5, 1), shape(v11, "y"));
        OnnxWriter v13 = new OnnxWriter(13).input("x", 1, 3, 1, 5).ints("sq", 0, 2).ints("un", -1)
                .node("Squeeze", "s", in("x", "sq")).node("Unsqueeze", "u", in("s", "un"))
                .node("Softmax", "y", in("u")).output("y");
        assertEquals(dims(3, 5, 1), shape(v13, "y"));
        OnnxWriter all = new OnnxWriter(13).input("x", 1, 3, 1, 5).node("Squeeze", "s", in("x"))
                .node("Softmax", "y", in("s")).output("y");
        assertEquals(dims(3, 5), shape(all, "y"));
    }

    @Test
    void padAcrossOpsets() {
        OnnxWriter v9 = new OnnxWriter(9).input("x", 1, 2, 5, 5)
                .node("Pad", "y", in("x"), attrInts("pads", 0, 0, 1, 2, 0, 0, 3, 4)).output("y");
        OnnxWriter v11 = new OnnxWriter(11).input("x", 1, 2, 5, 5).ints("p", 0, 0, 1, 2, 0, 0, 3, 4)
                .node("Pad", "y", in("x", "p")).output("y");
        OnnxWriter v18 = new OnnxWriter(18).input("x", 1, 2, 5, 5).ints("p", 1, 2, 3, 4).ints("axes", 2, -1)
                .node("Pad", "y", in("x", "p", "", "axes")).output("y");
        for (OnnxWriter w : List.of(v9, v11, v18)) {
            assertEquals(dims(1, 2, 9, 11), shape(w, "y"));
        }
    }

    @Test
    void resizeAndUpsampleAcrossOpsets() {
        OnnxWriter scales = new OnnxWriter(13).input("x", 1, 2, 5, 7).floats("s", 1, 1, 2, 0.5f)
                .node("Resize", "y", in("x", "", "s")).output("y");
        assertEquals(dims(1, 2, 10, 3), shape(scales, "y"));
        OnnxWriter sizes = new OnnxWriter(11).input("x", 1, 2, 5, 7).floats("roi").floats("s")
                .ints("size", 1, 2, 32, 32).node("Resize", "y", in("x", "roi", "s", "size")).output("y");
        assertEquals(dims(1, 2, 32, 32), shape(sizes, "y"));
        OnnxWriter axes = new OnnxWriter(18).input("x", 1, 2, 5, 7).ints("size", 20, 28)
                .node("Resize", "y", in("x", "", "", "size"), attrInts("axes", 2, 3)).output("y");
        assertEquals(dims(1, 2, 20, 28), shape(axes, "y"));
        OnnxWriter typed = new OnnxWriter(13).input("x", 1, 2, 5, 7).floatData("s", 1, 1, 2, 2).int64Data("p", 0, 0, 1, 1, 0, 0, 1, 1)
                .node("Resize", "r", in("x", "", "s")).node("Pad", "y", in("r", "p")).output("y");
        assertEquals(dims(1, 2, 12, 16), shape(typed, "y"), "values in float_data / int64_data (packed)");
        OnnxWriter upsample = new OnnxWriter(9).input("x", 1, 2, 5, 7).floats("s", 1, 1, 3, 3)
                .node("Upsample", "y", in("x", "s")).output("y");
        assertEquals(dims(1, 2, 15, 21), shape(upsample, "y"));
    }

    @Test
    void reduceMeanAcrossOpsets() {
        OnnxWriter v13 = new OnnxWriter(13).input("x", 2, 3, 4)
                .node("ReduceMean", "y", in("x"), attrInts("axes", -1), attrInt("keepdims", 0)).output("y");
        assertEquals(dims(2, 3), shape(v13, "y"));
        OnnxWriter v18 = new OnnxWriter(18).input("x", 2, 3, 4).ints("axes", 1)
                .node("ReduceMean", "y", in("x", "axes")).output("y");
        assertEquals(dims(2, 1, 4), shape(v18, "y"));
        OnnxWriter everything = new OnnxWriter(18).input("x", 2, 3, 4)
                .node("ReduceMean", "y", in("x"), attrInt("keepdims", 0)).output("y");
        Graph g = load(everything);
        assertEquals(dims(), g.tensor(g.tensorIndex("y")).shape());
        assertEquals(1, g.size(g.tensorIndex("y")), "a scalar is one element");
    }

    @Test
    void sliceClampsNegativeIndicesAndSteps() {
        OnnxWriter w = new OnnxWriter(17).input("x", 1, 3, 10).ints("st", 1).ints("en", -1).ints("ax", 2).ints("sp", 2)
                .ints("rst", -1).ints("ren", Long.MIN_VALUE).ints("rsp", -1)
                .node("Slice", "y", in("x", "st", "en", "ax", "sp"))
                .node("Slice", "r", in("x", "rst", "ren", "ax", "rsp")).output("y").output("r");
        Graph g = load(w);
        assertEquals(dims(1, 3, 4), g.tensor(g.tensorIndex("y")).shape());
        assertEquals(dims(1, 3, 10), g.tensor(g.tensorIndex("r")).shape());
    }

    @Test
    void gatherLayerNormSoftmaxConcatTransposeFlattenExpand() {
        OnnxWriter w = new OnnxWriter(17).input("x", 2, 5, 8).input("z", 2, 3, 8)
                .ints("idx", 0, 2, 4).ints("one", new long[0], 1).weight("gamma", 8).weight("beta", 8)
                .ints("target", 2, 2, 3, 8)
                .node("Gather", "g", in("x", "idx"), attrInt("axis", 1))
                .node("Gather", "g1", in("x", "one"), attrInt("axis", 1))
                .node("LayerNormalization", "ln", in("x", "gamma", "beta"), attrInt("axis", -1))
                .node("Softmax", "sm", in("x"), attrInt("axis", 1))
                .node("Concat", "c", in("x", "z"), attrInt("axis", 1))
                .node("Transpose", "t", in("x"), attrInts("perm", 2, 0, 1)).node("Softmax", "ts", in("t"))
                .node("Flatten", "f", in("x"), attrInt("axis", 2)).node("Softmax", "fs", in("f"))
                .node("Expand", "e", in("z", "target"))
                .output("g").output("g1").output("ln").output("sm").output("c").output("ts").output("fs").output("e");
        Graph g = load(w);
        assertEquals(dims(2, 3, 8), g.tensor(g.tensorIndex("g")).shape());
        assertEquals(dims(2, 8), g.tensor(g.tensorIndex("g1")).shape());
        assertEquals(dims(2, 5, 8), g.tensor(g.tensorIndex("ln")).shape());
        assertEquals(List.of("x", "gamma", "beta"), g.operator(g.operatorIndex("LayerNormalization_2")).inputs());
        assertEquals(dims(2, 5, 8), g.tensor(g.tensorIndex("sm")).shape());
        assertEquals(dims(2, 8, 8), g.tensor(g.tensorIndex("c")).shape());
        assertEquals(dims(8, 2, 5), g.tensor(g.tensorIndex("ts")).shape());
        assertEquals(dims(10, 8), g.tensor(g.tensorIndex("fs")).shape());
        assertEquals(dims(2, 2, 3, 8), g.tensor(g.tensorIndex("e")).shape());
    }

    @Test
    void elementwiseBroadcastsAndScalarArithmeticIsFused() {
        OnnxWriter w = new OnnxWriter(17).input("a", 2, 1, 4).input("b", 3, 1).weight("w", 4, 4)
                .node("Add", "s", in("a", "b")).output("s");
        assertEquals(dims(2, 3, 4), shape(w, "s"));
        // x*W (linear), + 3 (scalar), Clip(0, 6) with opset-11 bound inputs, / 6: one operator, hard-sigmoid fused
        OnnxWriter hs = new OnnxWriter(17).input("x", 2, 4).weight("w", 4, 4).floats("three", 3)
                .floats("zero", 0).floats("six", 6)
                .node("MatMul", "m", in("x", "w")).node("Add", "p", in("m", "three"))
                .node("Clip", "c", in("p", "zero", "six")).node("Div", "d", in("c", "six")).output("d");
        Graph g = load(hs);
        assertEquals(1, g.operatorCount());
        assertEquals(List.of("x", "w"), g.operator(0).inputs());
        assertEquals(List.of("d"), g.outputs(), "the fused tensor takes the model's output name");
        // a bias added after MatMul (transformer exports) is folded into the linear layer
        OnnxWriter bias = new OnnxWriter(17).input("x", 2, 3, 4).weight("w", 4, 6).weight("b", 6)
                .node("MatMul", "m", in("x", "w")).node("Add", "y", in("m", "b")).node("Relu", "r", in("y")).output("r");
        Graph gb = load(bias);
        assertEquals(1, gb.operatorCount());
        assertEquals(List.of("x", "w", "b"), gb.operator(0).inputs());
    }

    @Test
    void activationsWrittenAsSeveralNodesFuseIntoTheirProducer() {
        // SiLU x * Sigmoid(x), hard-swish x * Clip(x + 3, 0, 6) / 6, GELU x * 0.5 * (1 + Erf(x / sqrt 2))
        OnnxWriter w = new OnnxWriter(17).input("x", 1, 3, 4, 4).weight("w1", 3, 3, 1, 1).weight("w2", 3, 3, 1, 1)
                .weight("w3", 3, 3, 1, 1).floats("three", 3).floats("zero", 0).floats("six", 6).floats("half", 0.5f)
                .floats("one", 1).floats("sqrt2", 1.4142135f)
                .node("Conv", "c1", in("x", "w1")).node("Sigmoid", "s", in("c1")).node("Mul", "silu", in("c1", "s"))
                .node("Conv", "c2", in("silu", "w2")).node("Add", "p3", in("c2", "three"))
                .node("Clip", "r6", in("p3", "zero", "six")).node("Mul", "m", in("c2", "r6"))
                .node("Div", "hswish", in("m", "six"))
                .node("Conv", "c3", in("hswish", "w3")).node("Div", "d", in("c3", "sqrt2")).node("Erf", "e", in("d"))
                .node("Add", "e1", in("e", "one")).node("Mul", "xe", in("c3", "e1"))
                .node("Mul", "gelu", in("xe", "half")).output("gelu");
        Graph g = load(w);
        assertEquals(List.of("conv2d", "conv2d", "conv2d"), g.operators().stream().map(o -> o.type()).toList());
        assertEquals(List.of("silu"), g.operator(0).outputs(), "the fused tensor is named after the region's exit");
        assertEquals(List.of("silu", "w2"), g.operator(1).inputs());
        assertEquals(List.of("hswish", "w3"), g.operator(2).inputs());
        assertEquals(List.of("gelu"), g.outputs());
        assertEquals(7, g.tensorCount(), "x, three weights, three fused results");
    }

    @Test
    void activationStaysAnOperatorWhenItsInputHasAnotherReader() {
        OnnxWriter w = new OnnxWriter(17).input("x", 1, 3, 4, 4).weight("w", 3, 3, 1, 1)
                .node("Conv", "c", in("x", "w")).node("Sigmoid", "s", in("c")).node("Mul", "y", in("c", "s"))
                .node("Conv", "c2", in("c", "w")).node("Add", "z", in("y", "c2")).output("z");
        Graph g = load(w);
        assertEquals(List.of("conv2d", "sigmoid", "mul", "conv2d", "add"),
                g.operators().stream().map(o -> o.type()).toList(), "c is read by a convolution too");
        // a BatchNorm after an activation cannot fold into the convolution: it is a scale-and-shift operator
        OnnxWriter late = new OnnxWriter(17).input("x", 1, 3, 4, 4).weight("w", 3, 3, 1, 1)
                .weight("g", 3).weight("b", 3).weight("m", 3).weight("v", 3)
                .node("Conv", "c", in("x", "w")).node("Relu", "r", in("c"))
                .node("BatchNormalization", "n", in("r", "g", "b", "m", "v")).output("n");
        Graph gl = load(late);
        assertEquals(List.of("conv2d", "batchnorm"), gl.operators().stream().map(o -> o.type()).toList());
        assertEquals(List.of("r", "g", "b"), gl.operator(1).inputs());
    }

    @Test
    void shapeChainsFoldIntoConstants() {
        // y = x.reshape(x.shape[0] * x.shape[1], -1) built from Shape, Slice, ReduceProd, Concat, Cast, plus a
        // ConstantOfShape/Constant pair that feeds nothing planned
        OnnxWriter w = new OnnxWriter(17).input("x", 2, 3, 4, 5).ints("zero", 0).ints("two", 2).ints("minus1", -1)
                .node("Shape", "s", in("x"))
                .node("Slice", "head", in("s", "zero", "two"))
                .node("ReduceProd", "n", in("head"), attrInt("keepdims", 1))
                .node("Cast", "n64", in("n"), attrInt("to", 7))
                .node("Concat", "target", in("n64", "minus1"), attrInt("axis", 0))
                .node("Constant", "k", in(), attrTensor("value", new long[] {1}, 4))
                .node("ConstantOfShape", "zeros", in("k"))
                .node("Reshape", "r", in("x", "target")).node("Softmax", "y", in("r")).output("y");
        Graph g = load(w);
        assertEquals(1, g.operatorCount());
        assertEquals(dims(6, 20), g.tensor(g.tensorIndex("y")).shape());
        assertEquals(2, g.tensorCount());
        assertEquals(TensorKind.ACTIVATION, g.tensor(g.tensorIndex("x")).kind());
    }

    @Test
    void bytesPerElementScalesEveryTensor() {
        OnnxWriter w = new OnnxWriter(17).input("x", 2, 4).weight("w", 4, 3).node("MatMul", "y", in("x", "w"))
                .output("y");
        Graph g = OnnxImport.read("t.onnx", w.bytes(), OnnxImport.Options.defaults().withBytesPerElement(4));
        assertEquals(32, g.size(g.tensorIndex("x")));
        assertEquals(48, g.size(g.tensorIndex("w")));
        assertEquals(24, g.size(g.tensorIndex("y")));
        assertEquals(TensorKind.PARAMETER, g.tensor(g.tensorIndex("w")).kind());
    }

    @Test
    void leakyReluAndHardSwishFuseWithTheirAttributes() {
        OnnxWriter w = new OnnxWriter(14).input("x", 1, 2, 3, 3).weight("w", 2, 2, 1, 1)
                .node("Conv", "c", in("x", "w")).node("LeakyRelu", "l", in("c"), attrFloat("alpha", 0.1f))
                .node("HardSwish", "h", in("l")).output("h");
        Graph g = load(w);
        assertEquals(1, g.operatorCount());
        assertEquals(List.of("h"), g.outputs());
    }
}
