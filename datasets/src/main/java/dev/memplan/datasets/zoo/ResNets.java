package dev.memplan.datasets.zoo;

import dev.memplan.datasets.zoo.NetBuilder.Conv;
import dev.memplan.datasets.zoo.NetBuilder.Value;

/**
 * ResNet-50 and ResNeXt-50 (32x4d) as torchvision defines them ({@code torchvision/models/resnet.py}:
 * Bottleneck blocks [3, 4, 6, 3], expansion 4, stride on the 3x3 convolution, 1x1 projection shortcuts);
 * He et al., "Deep Residual Learning for Image Recognition", CVPR 2016, and Xie et al., "Aggregated Residual
 * Transformations for Deep Neural Networks", CVPR 2017. Also the dilated ResNet-50 backbone that
 * torchvision's FCN and DeepLabV3 use ({@code replace_stride_with_dilation=[False, True, True]}, output stride
 * 8). Input (1, 3, 224, 224) unless a caller asks otherwise.
 */
public final class ResNets {
    private static final int[] BLOCKS_50 = {3, 4, 6, 3};

    private ResNets() {
    }

    /** ResNet-50: 25,557,032 parameters (torchvision's documented count), output (1, 1000). */
    public static ZooNetwork resnet50(int bytesPerElement) {
        NetBuilder b = new NetBuilder("resnet50", bytesPerElement);
        Value x = b.input("input", 1, 3, 224, 224);
        return ZooNetwork.of(b, classifier(b, body(b, x, 1, 64, false)));
    }

    /** ResNeXt-50 32x4d: 25,028,904 parameters (torchvision's documented count), output (1, 1000). */
    public static ZooNetwork resnext50(int bytesPerElement) {
        NetBuilder b = new NetBuilder("resnext50_32x4d", bytesPerElement);
        Value x = b.input("input", 1, 3, 224, 224);
        return ZooNetwork.of(b, classifier(b, body(b, x, 32, 4, false)));
    }

    /**
     * The ResNet-50 feature extractor up to layer4 (stem, four stages); with {@code dilated}, layers 3 and 4
     * keep stride 1 and dilate instead, as the segmentation models use it. Returns {layer3 output, layer4
     * output} (FCN's and DeepLab's auxiliary heads read layer3).
     */
    static Value[] backbone(NetBuilder b, Value x, boolean dilated) {
        return stages(b, x, 1, 64, dilated);
    }

    private static Value body(NetBuilder b, Value x, int groups, int widthPerGroup, boolean dilated) {
        return stages(b, x, groups, widthPerGroup, dilated)[1];
    }

    private static Value[] stages(NetBuilder b, Value x, int groups, int widthPerGroup, boolean dilated) {
        Value y = b.conv("conv1", x, Conv.conv(64, 7).stride(2).padding(3));
        y = b.maxPool("maxpool", y, 3, 2, 1, false);
        int dilation = 1;
        Value layer3 = null;
        int[] planes = {64, 128, 256, 512};
        for (int stage = 0; stage < 4; stage++) {
            int stride = stage == 0 ? 1 : 2;
            int previousDilation = dilation;
            if (dilated && stage >= 2) {
                dilation *= stride;
                stride = 1;
            }
            for (int block = 0; block < BLOCKS_50[stage]; block++) {
                String name = "layer" + (stage + 1) + "." + block;
                y = bottleneck(b, name, y, planes[stage], block == 0 ? stride : 1, groups, widthPerGroup,
                        block == 0 ? previousDilation : dilation);
            }
            if (stage == 2) {
                layer3 = y;
            }
        }
        return new Value[] {layer3, y};
    }

    private static Value bottleneck(NetBuilder b, String name, Value x, int planes, int stride, int groups,
                                    int widthPerGroup, int dilation) {
        int width = planes * widthPerGroup / 64 * groups;
        int out = planes * 4;
        Value y = b.conv(name + ".conv1", x, Conv.conv(width, 1));
        y = b.conv(name + ".conv2", y, Conv.conv(width, 3).stride(stride).padding(dilation).dilation(dilation)
                .groups(groups));
        y = b.conv(name + ".conv3", y, Conv.conv(out, 1));
        Value shortcut = x;
        if (stride != 1 || x.channels() != out) {
            shortcut = b.conv(name + ".downsample", x, Conv.conv(out, 1).stride(stride));
        }
        return b.add(name + ".add", y, shortcut);
    }

    private static Value classifier(NetBuilder b, Value features) {
        Value pooled = b.globalAvgPool("avgpool", features);
        return b.linear("fc", b.flatten(pooled, 1), 1000, true);
    }
}
