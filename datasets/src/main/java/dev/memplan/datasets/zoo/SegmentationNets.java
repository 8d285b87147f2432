package dev.memplan.datasets.zoo;

import dev.memplan.datasets.zoo.NetBuilder.Conv;
import dev.memplan.datasets.zoo.NetBuilder.Value;
import java.util.ArrayList;
import java.util.List;

/**
 * torchvision's semantic segmentation models ({@code torchvision/models/segmentation/}) with 21 classes (Pascal
 * VOC, as their published weights), input (1, 3, 224, 224):
 * <ul>
 * <li>FCN-ResNet50 ({@code fcn.py}, {@code fcn_resnet50}; Long et al., "Fully Convolutional Networks for
 * Semantic Segmentation", CVPR 2015): the dilated ResNet-50 ({@link ResNets#backbone}, output stride 8), an
 * FCNHead on layer4 and the auxiliary FCNHead on layer3;</li>
 * <li>DeepLabV3-ResNet50 ({@code deeplabv3.py}, {@code deeplabv3_resnet50}; Chen et al., "Rethinking Atrous
 * Convolution for Semantic Image Segmentation", 2017): the same backbone, a DeepLabHead (ASPP with rates 12, 24,
 * 36 and image pooling, projection, 3x3 conv, classifier) and the auxiliary FCNHead on layer3;</li>
 * <li>LR-ASPP MobileNetV3-Large ({@code lraspp.py}, {@code lraspp_mobilenet_v3_large}; Howard et al.,
 * "Searching for MobileNetV3", ICCV 2019): {@code mobilenetv3.py}'s MobileNetV3-Large features built with
 * {@code dilated=True} (the last stage keeps stride 1 and dilates by 2, output stride 16) and the LR-ASPP head
 * on features 4 (C2, stride 8) and features 16 (the last 1x1 conv, stride 16).</li>
 * </ul>
 * Each model's {@code "out"} (and {@code "aux"}) is resized back to the input size by a resize operator
 * (bilinear interpolation in torchvision). The auxiliary classifiers are built because torchvision's
 * documented parameter counts (the weights enums' {@code num_params}) include them; dropout is the identity
 * at inference and adds nothing.
 */
public final class SegmentationNets {
    private static final int CLASSES = 21;

    private SegmentationNets() {
    }

    /** FCN-ResNet50: 35,322,218 parameters (torchvision's documented count), outputs out and aux (1, 21, 224, 224). */
    public static ZooNetwork fcnResnet50(int bytesPerElement) {
        NetBuilder b = new NetBuilder("fcn_resnet50", bytesPerElement);
        Value x = b.input("input", 1, 3, 224, 224);
        Value[] features = ResNets.backbone(b, x, true);
        Value out = fcnHead(b, "classifier", features[1]);
        out = b.resize("out", out, 224, 224);
        Value aux = fcnHead(b, "aux_classifier", features[0]);
        aux = b.resize("aux", aux, 224, 224);
        return ZooNetwork.of(b, out, aux);
    }

    /**
     * DeepLabV3-ResNet50: 42,004,074 parameters (torchvision's documented count), outputs out and aux
     * (1, 21, 224, 224).
     */
    public static ZooNetwork deeplabv3Resnet50(int bytesPerElement) {
        NetBuilder b = new NetBuilder("deeplabv3_resnet50", bytesPerElement);
        Value x = b.input("input", 1, 3, 224, 224);
        Value[] features = ResNets.backbone(b, x, true);
        Value out = deepLabHead(b, "classifier", features[1], new int[] {12, 24, 36});
        out = b.resize("out", out, 224, 224);
        Value aux = fcnHead(b, "aux_classifier", features[0]);
        aux = b.resize("aux", aux, 224, 224);
        return ZooNetwork.of(b, out, aux);
    }

    /** LR-ASPP MobileNetV3-Large: 3,221,538 parameters (torchvision's documented count), output (1, 21, 224, 224). */
    public static ZooNetwork lrasppMobilenetV3Large(int bytesPerElement) {
        NetBuilder b = new NetBuilder("lraspp_mobilenet_v3_large", bytesPerElement);
        Value x = b.input("input", 1, 3, 224, 224);
        Value[] features = mobilenetV3LargeDilated(b, x);
        Value low = features[0];
        Value high = features[1];
        String h = "classifier";
        Value y = b.conv(h + ".cbr", high, Conv.conv(128, 1));
        Value s = b.globalAvgPool(h + ".scale.pool", high);
        s = b.conv(h + ".scale.conv", s, Conv.conv(128, 1).plain()); // sigmoid fused
        y = b.mul(h + ".mul", y, s);
        y = b.resize(h + ".resize", y, low.dim(2), low.dim(3));
        Value lowLogits = b.conv(h + ".low_classifier", low, Conv.conv(CLASSES, 1).withBias());
        Value highLogits = b.conv(h + ".high_classifier", y, Conv.conv(CLASSES, 1).withBias());
        Value out = b.add(h + ".add", lowLogits, highLogits);
        return ZooNetwork.of(b, b.resize("out", out, 224, 224));
    }

    /** FCNHead: 3x3 conv to in/4 channels with BN and ReLU, dropout, 1x1 conv with bias to the classes. */
    private static Value fcnHead(NetBuilder b, String name, Value x) {
        Value y = b.conv(name + ".0", x, Conv.conv((int) (x.channels() / 4), 3));
        return b.conv(name + ".4", y, Conv.conv(CLASSES, 1).withBias());
    }

    /** DeepLabHead: ASPP (256 channels), 3x3 conv with BN and ReLU, 1x1 conv with bias to the classes. */
    private static Value deepLabHead(NetBuilder b, String name, Value x, int[] rates) {
        String aspp = name + ".0";
        List<Value> branches = new ArrayList<>();
        branches.add(b.conv(aspp + ".convs.0", x, Conv.conv(256, 1)));
        for (int i = 0; i < rates.length; i++) {
            branches.add(b.conv(aspp + ".convs." + (i + 1), x, Conv.conv(256, 3).padding(rates[i]).dilation(rates[i])));
        }
        String pooling = aspp + ".convs." + (rates.length + 1);
        Value p = b.globalAvgPool(pooling + ".pool", x);
        p = b.conv(pooling + ".conv", p, Conv.conv(256, 1));
        branches.add(b.resize(pooling + ".resize", p, x.dim(2), x.dim(3)));
        Value y = b.concat(aspp + ".cat", 1, branches);
        y = b.conv(aspp + ".project", y, Conv.conv(256, 1)); // dropout(0.5) is the identity at inference
        y = b.conv(name + ".1", y, Conv.conv(256, 3));
        return b.conv(name + ".4", y, Conv.conv(CLASSES, 1).withBias());
    }

    /**
     * MobileNetV3-Large's {@code features} with {@code dilated=True}, BatchNorm folded and hardswish / ReLU
     * fused: returns {features[4] (C2: 40 channels, stride 8), features[16] (960 channels, stride 16)}, the
     * "low" and "high" inputs of LR-ASPP.
     */
    private static Value[] mobilenetV3LargeDilated(NetBuilder b, Value x) {
        // input channels, kernel, expanded, output, squeeze-excitation, stride, dilation (torchvision's table)
        int[][] blocks = {
            {16, 3, 16, 16, 0, 1, 1},
            {16, 3, 64, 24, 0, 2, 1},
            {24, 3, 72, 24, 0, 1, 1},
            {24, 5, 72, 40, 1, 2, 1},
            {40, 5, 120, 40, 1, 1, 1},
            {40, 5, 120, 40, 1, 1, 1},
            {40, 3, 240, 80, 0, 2, 1},
            {80, 3, 200, 80, 0, 1, 1},
            {80, 3, 184, 80, 0, 1, 1},
            {80, 3, 184, 80, 0, 1, 1},
            {80, 3, 480, 112, 1, 1, 1},
            {112, 3, 672, 112, 1, 1, 1},
            {112, 5, 672, 160, 1, 2, 2},
            {160, 5, 960, 160, 1, 1, 2},
            {160, 5, 960, 160, 1, 1, 2},
        };
        Value y = b.conv("backbone.0", x, Conv.conv(16, 3).stride(2)); // hardswish fused
        Value low = null;
        for (int i = 0; i < blocks.length; i++) {
            y = invertedResidual(b, "backbone." + (i + 1), y, blocks[i]);
            if (i + 1 == 4) {
                low = y;
            }
        }
        Value high = b.conv("backbone.16", y, Conv.conv(6 * 160, 1)); // hardswish fused
        return new Value[] {low, high};
    }

    private static Value invertedResidual(NetBuilder b, String name, Value x, int[] cfg) {
        int in = cfg[0];
        int kernel = cfg[1];
        int expanded = cfg[2];
        int out = cfg[3];
        boolean se = cfg[4] == 1;
        int stride = cfg[5];
        int dilation = cfg[6];
        if (x.channels() != in) {
            throw new IllegalStateException(name + ": expected " + in + " input channels, got " + x);
        }
        Value y = x;
        if (expanded != in) {
            y = b.conv(name + ".expand", y, Conv.conv(expanded, 1));
        }
        // torchvision: a dilated depthwise conv keeps stride 1; padding (k - 1) / 2 * dilation.
        y = b.conv(name + ".depthwise", y, Conv.conv(expanded, kernel).stride(dilation > 1 ? 1 : stride)
                .padding((kernel - 1) / 2 * dilation).dilation(dilation).groups(expanded));
        if (se) {
            Value s = b.globalAvgPool(name + ".se.pool", y);
            s = b.conv(name + ".se.fc1", s, Conv.conv(makeDivisible(expanded / 4, 8), 1).withBias()); // ReLU
            s = b.conv(name + ".se.fc2", s, Conv.conv(expanded, 1).withBias()); // hardsigmoid fused
            y = b.mul(name + ".se.mul", s, y);
        }
        y = b.conv(name + ".project", y, Conv.conv(out, 1)); // no activation
        return stride == 1 && in == out ? b.add(name + ".add", y, x) : y;
    }

    /** torchvision's {@code _make_divisible}: round to a multiple of {@code divisor}, never down by over 10%. */
    static int makeDivisible(int v, int divisor) {
        int rounded = Math.max(divisor, (v + divisor / 2) / divisor * divisor);
        return rounded < 0.9 * v ? rounded + divisor : rounded;
    }
}
