package dev.memplan.datasets.zoo;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class ResNetsTest {

    // torchvision documents num_params in each weights enum: ResNet50_Weights.IMAGENET1K_V1 25,557,032;
    // ResNeXt50_32X4D_Weights.IMAGENET1K_V1 25,028,904 (https://pytorch.org/vision/stable/models.html).
    @Test
    void resnet50MatchesTorchvision() {
        ZooNetwork n = ResNets.resnet50(1);
        assertEquals(25_557_032L, n.referenceParameters());
        assertEquals(List.of(List.of(1L, 1000L)), n.outputShapes());
    }

    @Test
    void resnext50MatchesTorchvision() {
        ZooNetwork n = ResNets.resnext50(1);
        assertEquals(25_028_904L, n.referenceParameters());
        assertEquals(List.of(List.of(1L, 1000L)), n.outputShapes());
    }
}
