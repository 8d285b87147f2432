package dev.memplan.datasets.zoo;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.memplan.model.Graph;
import java.util.List;
import org.junit.jupiter.api.Test;

class VideoNetsTest {

    // torchvision documents num_params in each weights enum (https://pytorch.org/vision/stable/models.html):
    // R2Plus1D_18_Weights.KINETICS400_V1 31,505,325 (torchvision/models/video/resnet.py).
    // Operators: stem 2 convs; 8 BasicBlocks of 2 Conv2Plus1D (2 convs each) and an add; 3 projection
    // shortcuts; global average pool; fc: 2 + 40 + 3 + 2 = 47.
    @Test
    void r2plus1d18MatchesTorchvision() {
        ZooNetwork n = VideoNets.r2plus1d18(1);
        assertEquals(31_505_325L, n.referenceParameters());
        assertEquals(List.of(List.of(1L, 400L)), n.outputShapes());
        assertEquals(47, n.graph().operatorCount());
        // layer2.0: midplanes = 64*128*27 / (64*9 + 3*128) = 230, used by both of the block's Conv2Plus1D.
        assertEquals(List.of(230L, 128L, 1L, 3L, 3L), shape(n.graph(), "layer2.0.conv2.0.weight"));
        assertEquals(List.of(1L, 512L, 2L, 14L, 14L), shape(n.graph(), "layer4.1.add"));
    }

    // S3D_Weights.KINETICS400_V1 8,320,048 (torchvision/models/video/s3d.py).
    // Operators: stem 7 (two separable convs of 2 convs each, the 1x1x1 conv, 2 max pools); 9 inception blocks
    // of 10 (branch0 conv; branches 1 and 2: a 1x1x1 conv and a separable conv of 2; branch3 max pool and conv;
    // concat); 2 max pools between stages; average pool; classifier conv: 7 + 90 + 2 + 2 = 101.
    @Test
    void s3dMatchesTorchvision() {
        ZooNetwork n = VideoNets.s3d(1);
        assertEquals(8_320_048L, n.referenceParameters());
        assertEquals(List.of(List.of(1L, 400L)), n.outputShapes());
        assertEquals(101, n.graph().operatorCount());
        Graph g = n.graph();
        assertEquals(List.of(1L, 64L, 8L, 56L, 56L), shape(g, "features.1"));
        assertEquals(List.of(1L, 480L, 8L, 28L, 28L), shape(g, "features.6.concat"));
        assertEquals(List.of(1L, 480L, 4L, 14L, 14L), shape(g, "features.7"));
        assertEquals(List.of(1L, 832L, 2L, 7L, 7L), shape(g, "features.13"));
        assertEquals(List.of(1L, 1024L, 1L, 1L, 1L), shape(g, "avgpool"));
    }

    @Test
    void bytesPerElementScalesTensors() {
        Graph one = VideoNets.s3d(1).graph();
        Graph four = VideoNets.s3d(4).graph();
        for (int t = 0; t < one.tensorCount(); t++) {
            assertEquals(4 * one.size(t), four.size(t));
        }
    }

    @Test
    void registeredInTheZoo() {
        assertEquals(31_505_325L, Zoo.build("r2plus1d18").referenceParameters());
        assertEquals(8_320_048L, Zoo.build("s3d").referenceParameters());
    }

    private static List<Long> shape(Graph g, String tensor) {
        return g.tensor(g.tensorIndex(tensor)).shape();
    }
}
