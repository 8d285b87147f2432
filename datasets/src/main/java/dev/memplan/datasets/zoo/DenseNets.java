package dev.memplan.datasets.zoo;

import dev.memplan.datasets.zoo.NetBuilder.Conv;
import dev.memplan.datasets.zoo.NetBuilder.Value;
import java.util.ArrayList;
import java.util.List;

/**
 * DenseNet-121 as torchvision defines it ({@code torchvision/models/densenet.py}, {@code densenet121}: growth
 * rate 32, dense blocks of (6, 12, 24, 16) layers, bottleneck width bn_size x growth = 128, 64 initial
 * features, compression 0.5 in the transitions); Huang et al., "Densely Connected Convolutional Networks",
 * CVPR 2017. Input (1, 3, 224, 224), output (1, 1000).
 *
 * <p>Wiring as torchvision's forward (default {@code memory_efficient=False}) executes it: each dense layer
 * concatenates the block input and every earlier layer's new features into a fresh tensor (its
 * {@code bn_function}'s {@code torch.cat}), and the block ends with one more concatenation of all of them.
 * The first layer of a block reads the block input directly (a concatenation of one tensor is a copy, not an
 * operator here).
 *
 * <p>BatchNorm: DenseNet is pre-activation (BN-ReLU-conv). A BatchNorm that follows a convolution and feeds
 * only it ({@code norm0} after {@code conv0}, each layer's {@code norm2} after its 1x1 {@code conv1}) is
 * folded into that convolution as everywhere in the zoo. The other BatchNorms ({@code norm1} of each dense
 * layer, {@code norm} of each transition) normalise a concatenation that other layers also read with their
 * own BatchNorms, so they cannot be folded into any producer; each BN-ReLU-conv is one convolution operator
 * that also reads its BatchNorm's (2, C_in) scale and shift ({@link NetBuilder#preNormConv}). The final
 * {@code norm5} and ReLU are applied the same way by their only consumer, the global average pool, which reads
 * norm5's (2, 1024) parameters. Reference parameters count every BatchNorm's 2C, so the total equals
 * torchvision's documented 7,978,856.
 */
public final class DenseNets {
    private static final int GROWTH = 32;
    private static final int BN_SIZE = 4;
    private static final int INIT_FEATURES = 64;
    private static final int[] BLOCKS_121 = {6, 12, 24, 16};

    private DenseNets() {
    }

    /** DenseNet-121: 7,978,856 parameters (torchvision's documented count), output (1, 1000). */
    public static ZooNetwork densenet121(int bytesPerElement) {
        NetBuilder b = new NetBuilder("densenet121", bytesPerElement);
        Value x = b.input("input", 1, 3, 224, 224);
        Value y = b.conv("features.conv0", x, Conv.conv(INIT_FEATURES, 7).stride(2).padding(3));
        y = b.maxPool("features.pool0", y, 3, 2, 1, false);
        for (int i = 0; i < BLOCKS_121.length; i++) {
            y = denseBlock(b, "features.denseblock" + (i + 1), y, BLOCKS_121[i]);
            if (i != BLOCKS_121.length - 1) {
                String t = "features.transition" + (i + 1);
                y = b.preNormConv(t + ".conv", y, Conv.conv((int) (y.channels() / 2), 1).plain());
                y = b.avgPool(t + ".pool", y, 2, 2, 0, false);
            }
        }
        // norm5 + ReLU (features end with norm5; forward applies F.relu) read by the pool, their only consumer.
        Value norm5 = b.parameter("features.norm5", 2, y.channels());
        long[] pooled = y.shape();
        pooled[2] = 1;
        pooled[3] = 1;
        Value p = b.operator("avgpool", "global_avgpool", List.of(y.tensor(), norm5.tensor()), pooled);
        return ZooNetwork.of(b, b.linear("classifier", b.flatten(p, 1), 1000, true));
    }

    private static Value denseBlock(NetBuilder b, String name, Value x, int layers) {
        List<Value> features = new ArrayList<>(List.of(x));
        for (int i = 0; i < layers; i++) {
            String layer = name + ".denselayer" + (i + 1);
            Value in = features.size() == 1 ? x : b.concat(layer + ".cat", 1, features);
            // norm1 + relu1 + conv1 (1x1), with norm2 folded into conv1 and relu2 fused.
            Value y = b.preNormConv(layer + ".conv1", in, Conv.conv(BN_SIZE * GROWTH, 1));
            y = b.conv(layer + ".conv2", y, Conv.conv(GROWTH, 3).plain());
            features.add(y);
        }
        return b.concat(name + ".cat", 1, features);
    }
}
