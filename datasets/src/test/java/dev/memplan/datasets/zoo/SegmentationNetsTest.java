package dev.memplan.datasets.zoo;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.memplan.model.Graph;
import java.util.List;
import org.junit.jupiter.api.Test;

class SegmentationNetsTest {
    private static final List<Long> LOGITS = List.of(1L, 21L, 224L, 224L);

    // torchvision documents num_params in each weights enum (counts include the auxiliary classifier):
    // FCN_ResNet50_Weights.COCO_WITH_VOC_LABELS_V1 35,322,218;
    // DeepLabV3_ResNet50_Weights.COCO_WITH_VOC_LABELS_V1 42,004,074;
    // LRASPP_MobileNet_V3_Large_Weights.COCO_WITH_VOC_LABELS_V1 3,221,538
    // (https://pytorch.org/vision/stable/models.html#semantic-segmentation, torchvision/models/segmentation/*.py).
    @Test
    void fcnResnet50MatchesTorchvision() {
        ZooNetwork n = SegmentationNets.fcnResnet50(1);
        assertEquals(35_322_218L, n.referenceParameters());
        assertEquals(List.of(LOGITS, LOGITS), n.outputShapes());
        Graph g = n.graph();
        assertEquals(List.of("out", "aux"), g.outputs());
        // Dilated backbone: output stride 8 on both layer3 and layer4.
        assertEquals(List.of(1L, 21L, 28L, 28L), g.tensor(g.tensorIndex("classifier.4")).shape());
        assertEquals(List.of(1L, 21L, 28L, 28L), g.tensor(g.tensorIndex("aux_classifier.4")).shape());
    }

    @Test
    void deeplabv3Resnet50MatchesTorchvision() {
        ZooNetwork n = SegmentationNets.deeplabv3Resnet50(1);
        assertEquals(42_004_074L, n.referenceParameters());
        assertEquals(List.of(LOGITS, LOGITS), n.outputShapes());
        Graph g = n.graph();
        // ASPP: four conv branches and the image-pooling branch resized to 28 x 28, 5 x 256 channels.
        assertEquals(List.of(1L, 1280L, 28L, 28L), g.tensor(g.tensorIndex("classifier.0.cat")).shape());
        assertEquals(List.of(1L, 256L, 1L, 1L), g.tensor(g.tensorIndex("classifier.0.convs.4.conv")).shape());
    }

    @Test
    void lrasppMobilenetV3LargeMatchesTorchvision() {
        ZooNetwork n = SegmentationNets.lrasppMobilenetV3Large(1);
        assertEquals(3_221_538L, n.referenceParameters());
        assertEquals(List.of(LOGITS), n.outputShapes());
        Graph g = n.graph();
        // low: features[4], 40 channels at stride 8; high: features[16], 960 channels at stride 16 (dilated).
        assertEquals(List.of(1L, 40L, 28L, 28L), g.tensor(g.tensorIndex("backbone.4.project")).shape());
        assertEquals(List.of(1L, 960L, 14L, 14L), g.tensor(g.tensorIndex("backbone.16")).shape());
        assertEquals(List.of(1L, 21L, 28L, 28L), g.tensor(g.tensorIndex("classifier.add")).shape());
    }

    @Test
    void makeDivisibleAsTorchvision() {
        assertEquals(24, SegmentationNets.makeDivisible(18, 8));
        assertEquals(32, SegmentationNets.makeDivisible(30, 8));
        assertEquals(168, SegmentationNets.makeDivisible(168, 8));
        assertEquals(8, SegmentationNets.makeDivisible(3, 8));
    }
}
