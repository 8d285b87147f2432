package dev.memplan.datasets.onnx;

import static dev.memplan.datasets.onnx.OnnxWriter.attrInt;
import static dev.memplan.datasets.onnx.OnnxWriter.attrInts;
import static dev.memplan.datasets.onnx.OnnxWriter.attrFloat;
import static dev.memplan.datasets.onnx.OnnxWriter.in;

/**
 * torchvision's ResNet-50 as {@code torch.onnx.export} writes it without constant folding: Conv (no bias) ->
 * BatchNormalization -> Relu, the residual Add -> Relu, MaxPool, GlobalAveragePool, the flatten written as
 * {@code x.view(x.size(0), -1)} (the Shape -> Gather -> Unsqueeze -> Concat -> Reshape chain older exports emit),
 * then Gemm with transB. The batch dimension is symbolic ('batch'), as with {@code dynamic_axes}. Node and
 * weight names follow torch's ({@code /layer1/layer1.0/conv1/Conv}, {@code layer1.0.conv1.weight}).
 */
final class TorchvisionResNet50 {
    private final OnnxWriter w;
    private final long opset;
    private int values;

    private TorchvisionResNet50(long opset) {
        this.w = new OnnxWriter(opset);
        this.opset = opset;
    }

    /** The model's bytes for the given opset (Unsqueeze's axes are an attribute before 13, an input from 13). */
    static byte[] model(long opset) {
        TorchvisionResNet50 r = new TorchvisionResNet50(opset);
        r.w.input("input", "batch", 3, 224, 224);
        String x = r.convBnRelu("conv1", "bn1", "input", 3, 64, 7, 2, 3, true);
        r.w.node("MaxPool", "/maxpool/MaxPool", in(x), attrInts("kernel_shape", 3, 3), attrInts("strides", 2, 2),
                attrInts("pads", 1, 1, 1, 1), attrInt("ceil_mode", 0));
        x = "/maxpool/MaxPool";
        int[] blocks = {3, 4, 6, 3};
        long channels = 64;
        for (int stage = 0; stage < 4; stage++) {
            long planes = 64L << stage;
            for (int b = 0; b < blocks[stage]; b++) {
                int stride = stage > 0 && b == 0 ? 2 : 1;
                x = r.bottleneck("layer" + (stage + 1) + "." + b, x, channels, planes, stride);
                channels = planes * 4;
            }
        }
        r.w.node("GlobalAveragePool", "/avgpool/GlobalAveragePool", in(x));
        String flat = r.flatten("/avgpool/GlobalAveragePool");
        r.w.weight("fc.weight", 1000, 2048).weight("fc.bias", 1000);
        r.w.node("Gemm", "output", in(flat, "fc.weight", "fc.bias"), attrFloat("alpha", 1f), attrFloat("beta", 1f),
                attrInt("transB", 1));
        r.w.output("output");
        return r.w.bytes();
    }

    private String value() {
        return "/v" + values++;
    }

    private String convBnRelu(String conv, String bn, String x, long in, long out, long k, long stride, long pad,
                              boolean relu) {
        String path = "/" + conv.replace('.', '/');
        w.weight(conv + ".weight", out, in, k, k);
        w.node("Conv", path + "/Conv", in(x, conv + ".weight"), attrInts("dilations", 1, 1), attrInt("group", 1),
                attrInts("kernel_shape", k, k), attrInts("pads", pad, pad, pad, pad), attrInts("strides", stride, stride));
        for (String p : new String[] {"weight", "bias", "running_mean", "running_var"}) {
            w.weight(bn + "." + p, out);
        }
        String bnOut = "/" + bn.replace('.', '/') + "/BatchNormalization";
        w.node("BatchNormalization", bnOut, in(path + "/Conv", bn + ".weight", bn + ".bias", bn + ".running_mean",
                bn + ".running_var"), attrFloat("epsilon", 1e-5f), attrFloat("momentum", 0.9f));
        if (!relu) {
            return bnOut;
        }
        String r = "/" + bn.replace('.', '/') + "/Relu";
        w.node("Relu", r, in(bnOut));
        return r;
    }

    private String bottleneck(String name, String x, long in, long planes, int stride) {
        String y = convBnRelu(name + ".conv1", name + ".bn1", x, in, planes, 1, 1, 0, true);
        y = convBnRelu(name + ".conv2", name + ".bn2", y, planes, planes, 3, stride, 1, true);
        y = convBnRelu(name + ".conv3", name + ".bn3", y, planes, planes * 4, 1, 1, 0, false);
        String shortcut = x;
        if (stride != 1 || in != planes * 4) {
            shortcut = convBnRelu(name + ".downsample.0", name + ".downsample.1", x, in, planes * 4, 1, stride, 0,
                    false);
        }
        String add = "/" + name.replace('.', '/') + "/Add";
        w.node("Add", add, in(y, shortcut));
        w.node("Relu", add + "/Relu", in(add));
        return add + "/Relu";
    }

    /** x.view(x.size(0), -1): Shape -> Gather(0) -> Unsqueeze -> Concat([n, -1]) -> Reshape. */
    private String flatten(String x) {
        String shape = value();
        w.node("Shape", shape, in(x));
        w.ints("zero", new long[0], 0);
        String n = value();
        w.node("Gather", n, in(shape, "zero"), attrInt("axis", 0));
        String n1 = value();
        if (opset >= 13) {
            w.ints("axes0", 0);
            w.node("Unsqueeze", n1, in(n, "axes0"));
        } else {
            w.node("Unsqueeze", n1, in(n), attrInts("axes", 0));
        }
        w.ints("minus1", -1);
        String target = value();
        w.node("Concat", target, in(n1, "minus1"), attrInt("axis", 0));
        String out = "/Reshape";
        w.node("Reshape", out, in(x, target));
        return out;
    }
}
