package dev.memplan.datasets.zoo;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.memplan.model.Graph;
import java.util.List;
import org.junit.jupiter.api.Test;

class DenseNetsTest {

    // torchvision documents num_params in each weights enum: DenseNet121_Weights.IMAGENET1K_V1 7,978,856
    // (https://pytorch.org/vision/stable/models/generated/torchvision.models.densenet121.html).
    @Test
    void densenet121MatchesTorchvision() {
        ZooNetwork n = DenseNets.densenet121(1);
        assertEquals(7_978_856L, n.referenceParameters());
        assertEquals(List.of(List.of(1L, 1000L)), n.outputShapes());
    }

    @Test
    void densenet121Wiring() {
        Graph g = DenseNets.densenet121(1).graph();
        // 58 dense layers x 2 convs, 3 transition convs, conv0.
        assertEquals(58 * 2 + 3 + 1, g.operators().stream().filter(o -> o.type().equals("conv2d")).count());
        // One concatenation per dense layer after a block's first, and one closing each block.
        assertEquals(58 - 4 + 4, g.operators().stream().filter(o -> o.type().equals("concat")).count());
        // The last layer of block 4 reads 512 + 15 x 32 = 992 channels; the block ends with 1024 at 7 x 7.
        assertEquals(List.of(1L, 992L, 7L, 7L),
                g.tensor(g.tensorIndex("features.denseblock4.denselayer16.cat")).shape());
        assertEquals(List.of(1L, 1024L, 7L, 7L), g.tensor(g.tensorIndex("features.denseblock4.cat")).shape());
        assertEquals(List.of(1L, 128L, 28L, 28L), g.tensor(g.tensorIndex("features.transition1.pool")).shape());
        // BN-ReLU-conv: the conv reads the BatchNorm's scale and shift of its input channels.
        assertEquals(List.of(2L, 64L), g.tensor(g.tensorIndex("features.denseblock1.denselayer1.conv1.norm")).shape());
    }

    @Test
    void bytesPerElementScalesTensors() {
        Graph one = DenseNets.densenet121(1).graph();
        Graph two = DenseNets.densenet121(2).graph();
        int t = one.tensorIndex("features.denseblock1.cat");
        assertEquals(256L * 56 * 56, one.size(t));
        assertEquals(2 * one.size(t), two.size(two.tensorIndex("features.denseblock1.cat")));
    }
}
