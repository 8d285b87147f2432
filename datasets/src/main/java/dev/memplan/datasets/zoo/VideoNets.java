package dev.memplan.datasets.zoo;

import dev.memplan.datasets.zoo.NetBuilder.Conv;
import dev.memplan.datasets.zoo.NetBuilder.Value;
import java.util.List;

/**
 * Video classifiers on Kinetics-400 clips of 16 frames, (1, 3, 16, 224, 224) NCDHW, as torchvision defines them:
 * R(2+1)D-18 ({@code torchvision/models/video/resnet.py}, {@code r2plus1d_18}; Tran et al., "A Closer Look at
 * Spatiotemporal Convolutions for Action Recognition", CVPR 2018) and S3D ({@code torchvision/models/video/s3d.py},
 * {@code s3d}; Xie et al., "Rethinking Spatiotemporal Feature Learning: Speed-Accuracy Trade-offs in Video
 * Classification", ECCV 2018). Every convolution is followed by BatchNorm3d (folded) and, except before a
 * residual add, ReLU (fused).
 */
public final class VideoNets {
    private static final int[] R2PLUS1D_BLOCKS = {2, 2, 2, 2};

    private VideoNets() {
    }

    /**
     * R(2+1)D-18: the R2Plus1dStem ((1,7,7) stride (1,2,2) conv 3 -> 45, then (3,1,1) conv 45 -> 64), four stages
     * of two BasicBlocks (64, 128, 256, 512 planes; stride 2 in space and time at the first block of stages
     * 2-4, with a 1x1x1 strided projection shortcut) whose 3x3x3 convolutions are Conv2Plus1D: a (1,3,3)
     * spatial conv to {@code midplanes = in*out*27 / (in*9 + 3*out)} (integer division, computed once per
     * block from its input and output planes and used by both its convolutions), then a (3,1,1) temporal conv;
     * global average pooling and a linear layer to 400 classes. Output (1, 400), 31,505,325 parameters.
     * (torchvision's Kinetics-400 weights are evaluated on 112x112 crops; the network is fully convolutional up
     * to its global pool, so the 224x224 input only changes activation sizes.)
     */
    public static ZooNetwork r2plus1d18(int bytesPerElement) {
        NetBuilder b = new NetBuilder("r2plus1d_18", bytesPerElement);
        Value x = b.input("input", 1, 3, 16, 224, 224);
        Value y = b.conv("stem.0", x, Conv.conv(45, 1).kernel(1, 7, 7).stride(1, 2, 2).padding(0, 3, 3));
        y = b.conv("stem.3", y, Conv.conv(64, 1).kernel(3, 1, 1).padding(1, 0, 0));
        int[] planes = {64, 128, 256, 512};
        for (int stage = 0; stage < 4; stage++) {
            for (int block = 0; block < R2PLUS1D_BLOCKS[stage]; block++) {
                int stride = stage > 0 && block == 0 ? 2 : 1;
                y = basicBlock(b, "layer" + (stage + 1) + "." + block, y, planes[stage], stride);
            }
        }
        Value pooled = b.globalAvgPool("avgpool", y);
        return ZooNetwork.of(b, b.linear("fc", b.flatten(pooled, 1), 400, true));
    }

    private static Value basicBlock(NetBuilder b, String name, Value x, int planes, int stride) {
        long in = x.channels();
        int midplanes = Math.toIntExact(in * planes * 27 / (in * 9 + 3L * planes));
        Value y = conv2Plus1D(b, name + ".conv1", x, midplanes, planes, stride);
        y = conv2Plus1D(b, name + ".conv2", y, midplanes, planes, 1);
        Value shortcut = x;
        if (stride != 1 || in != planes) {
            shortcut = b.conv(name + ".downsample", x, Conv.conv(planes, 1).stride(stride));
        }
        return b.add(name + ".add", y, shortcut);
    }

    /** (1,3,3) conv stride (1,s,s) to midplanes (BN, ReLU), then (3,1,1) conv stride (s,1,1) (BN of the block). */
    private static Value conv2Plus1D(NetBuilder b, String name, Value x, int midplanes, int planes, int stride) {
        Value y = b.conv(name + ".0", x, Conv.conv(midplanes, 1).kernel(1, 3, 3).stride(1, stride, stride)
                .padding(0, 1, 1));
        return b.conv(name + ".3", y, Conv.conv(planes, 1).kernel(3, 1, 1).stride(stride, 1, 1).padding(1, 0, 0));
    }

    /**
     * S3D: a separable stem (TemporalSeparableConv 3 -> 64 with kernel 7, stride 2 in space and time), max pool
     * (1,3,3) stride (1,2,2) padding (0,1,1), 1x1x1 conv 64, TemporalSeparableConv 64 -> 192 (kernel 3), max pool
     * as before; separable Inception blocks 3b-3c, max pool (3,3,3) stride 2 padding 1, 4b-4f, max pool
     * (2,2,2) stride 2, 5b-5c (all pools floor mode, torchvision's default); average pool (2,7,7) stride 1;
     * a 1x1x1 conv 1024 -> 400 with bias; the mean over time and space. Each TemporalSeparableConv is a
     * (1,k,k) conv then a (k,1,1) conv, each with BatchNorm and ReLU. Feature maps: 16x224x224 -> 8x112x112 ->
     * 8x56x56 -> 8x28x28 -> 4x14x14 -> 2x7x7 -> 1x1x1. Output (1, 400), 8,320,048 parameters.
     */
    public static ZooNetwork s3d(int bytesPerElement) {
        NetBuilder b = new NetBuilder("s3d", bytesPerElement);
        Value x = b.input("input", 1, 3, 16, 224, 224);
        Value y = temporalSeparable(b, "features.0", x, 64, 7, 2, 3);
        y = b.pool("features.1", "maxpool", y, new int[] {1, 3, 3}, new int[] {1, 2, 2}, new int[] {0, 1, 1}, false);
        y = b.conv("features.2", y, Conv.conv(64, 1));
        y = temporalSeparable(b, "features.3", y, 192, 3, 1, 1);
        y = b.pool("features.4", "maxpool", y, new int[] {1, 3, 3}, new int[] {1, 2, 2}, new int[] {0, 1, 1}, false);
        y = inception(b, "features.5", y, 64, 96, 128, 16, 32, 32);
        y = inception(b, "features.6", y, 128, 128, 192, 32, 96, 64);
        y = b.pool("features.7", "maxpool", y, new int[] {3}, new int[] {2}, new int[] {1}, false);
        y = inception(b, "features.8", y, 192, 96, 208, 16, 48, 64);
        y = inception(b, "features.9", y, 160, 112, 224, 24, 64, 64);
        y = inception(b, "features.10", y, 128, 128, 256, 24, 64, 64);
        y = inception(b, "features.11", y, 112, 144, 288, 32, 64, 64);
        y = inception(b, "features.12", y, 256, 160, 320, 32, 128, 128);
        y = b.pool("features.13", "maxpool", y, new int[] {2}, new int[] {2}, new int[] {0}, false);
        y = inception(b, "features.14", y, 256, 160, 320, 32, 128, 128);
        y = inception(b, "features.15", y, 384, 192, 384, 48, 128, 128);
        y = b.pool("avgpool", "avgpool", y, new int[] {2, 7, 7}, new int[] {1}, new int[] {0}, false);
        y = b.conv("classifier.1", y, Conv.conv(400, 1).withBias());
        // torch.mean over (T, H, W): over a 1x1x1 map at 16 input frames, which is a view; a reduction otherwise.
        boolean single = y.dim(2) == 1 && y.dim(3) == 1 && y.dim(4) == 1;
        Value mean = single ? y : b.globalAvgPool("mean", y);
        return ZooNetwork.of(b, b.flatten(mean, 1));
    }

    /** TemporalSeparableConv: (1,k,k) conv stride (1,s,s), then (k,1,1) conv stride (s,1,1); BN and ReLU each. */
    private static Value temporalSeparable(NetBuilder b, String name, Value x, int out, int k, int s, int p) {
        Value y = b.conv(name + ".0", x, Conv.conv(out, 1).kernel(1, k, k).stride(1, s, s).padding(0, p, p));
        return b.conv(name + ".1", y, Conv.conv(out, 1).kernel(k, 1, 1).stride(s, 1, 1).padding(p, 0, 0));
    }

    /**
     * SepInceptionBlock3D: four branches concatenated on channels: 1x1x1 conv; 1x1x1 conv then
     * TemporalSeparableConv (k 3); the same with other widths; max pool 3x3x3 stride 1 padding 1 then 1x1x1 conv.
     */
    private static Value inception(NetBuilder b, String name, Value x, int b0, int b1Mid, int b1, int b2Mid, int b2,
                                   int b3) {
        Value x0 = b.conv(name + ".branch0", x, Conv.conv(b0, 1));
        Value x1 = temporalSeparable(b, name + ".branch1.1", b.conv(name + ".branch1.0", x, Conv.conv(b1Mid, 1)),
                b1, 3, 1, 1);
        Value x2 = temporalSeparable(b, name + ".branch2.1", b.conv(name + ".branch2.0", x, Conv.conv(b2Mid, 1)),
                b2, 3, 1, 1);
        Value pooled = b.pool(name + ".branch3.0", "maxpool", x, new int[] {3}, new int[] {1}, new int[] {1}, false);
        Value x3 = b.conv(name + ".branch3.1", pooled, Conv.conv(b3, 1));
        return b.concat(name + ".concat", 1, List.of(x0, x1, x2, x3));
    }
}
