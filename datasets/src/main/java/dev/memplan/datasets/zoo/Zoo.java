package dev.memplan.datasets.zoo;

import dev.memplan.model.Graph;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * The network zoo: the fourteen networks of the COSMA paper's evaluation (Sections 5-6), built by
 * {@link NetBuilder} at the paper's input sizes. Names are lower-case identifiers usable wherever a command
 * takes a graph.
 */
public final class Zoo {

    /** A zoo entry: name, a one-line title, whether the network was found by architecture search, builder. */
    public record Entry(String name, String title, boolean nas, IntFunction<ZooNetwork> builder) {
    }

    private static final Map<String, Entry> ENTRIES = entries(List.of(
            new Entry("resnet50", "ResNet-50, torchvision, input (1,3,224,224)", false, ResNets::resnet50),
            new Entry("densenet121", "DenseNet-121, torchvision, input (1,3,224,224)", false, DenseNets::densenet121),
            new Entry("resnext50", "ResNeXt-50 32x4d, torchvision, input (1,3,224,224)", false, ResNets::resnext50),
            new Entry("r2plus1d18", "R(2+1)D-18, torchvision, input (1,3,16,224,224)", false, VideoNets::r2plus1d18),
            new Entry("s3d", "S3D, torchvision, input (1,3,16,224,224)", false, VideoNets::s3d),
            new Entry("fcn_resnet50", "FCN-ResNet50 with aux classifier, torchvision, input (1,3,224,224)", false,
                    SegmentationNets::fcnResnet50),
            new Entry("lraspp_mobilenet_v3_large", "LR-ASPP MobileNetV3-Large, torchvision, input (1,3,224,224)", false,
                    SegmentationNets::lrasppMobilenetV3Large),
            new Entry("deeplabv3_resnet50", "DeepLabV3-ResNet50 with aux classifier, torchvision, input (1,3,224,224)",
                    false, SegmentationNets::deeplabv3Resnet50),
            new Entry("transformer", "Transformer, PyTorch nn.Transformer defaults, src (10,32,512), tgt (20,32,512)",
                    false, Transformers::transformer),
            new Entry("vitb16", "ViT-B/16, torchvision, input (1,3,224,224)", false, Transformers::vitB16),
            new Entry("nasnet", "NASNet-A mobile (4 @ 1056), TF-slim, input (1,3,224,224)", true,
                    NasNets::nasnetAMobile),
            new Entry("pnasnet", "PNASNet-5 mobile, TF-slim, input (1,3,224,224)", true, NasNets::pnasnet5Mobile),
            new Entry("amoebanet", "AmoebaNet-A mobile (N=4, F=50), tensorflow/tpu, input (1,3,224,224)", true,
                    NasNets::amoebanetAMobile),
            new Entry("darts", "DARTS (V2) ImageNet, C=48, 14 cells, quark0/darts, input (1,3,224,224)", true,
                    NasNets::darts)
    ));

    private Zoo() {
    }

    /** Every network name, human-designed first, in the paper's order. */
    public static List<String> names() {
        return List.copyOf(ENTRIES.keySet());
    }

    public static boolean exists(String name) {
        return ENTRIES.containsKey(name);
    }

    public static Entry entry(String name) {
        Entry e = ENTRIES.get(name);
        if (e == null) {
            throw new IllegalArgumentException("no zoo network named '" + name + "'; networks: "
                    + String.join(", ", names()));
        }
        return e;
    }

    /** The network with 8-bit data. */
    public static ZooNetwork build(String name) {
        return build(name, 1);
    }

    /** The network with {@code bytesPerElement} bytes per element. */
    public static ZooNetwork build(String name, int bytesPerElement) {
        return entry(name).builder().apply(bytesPerElement);
    }

    /** The network's graph with 8-bit data. */
    public static Graph graph(String name) {
        return build(name).graph();
    }

    private static Map<String, Entry> entries(List<Entry> list) {
        Map<String, Entry> map = new LinkedHashMap<>();
        for (Entry e : list) {
            if (map.put(e.name(), e) != null) {
                throw new IllegalStateException("zoo name " + e.name() + " twice");
            }
        }
        return map;
    }
}
