package dev.memplan.datasets.zoo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.model.Graph;
import org.junit.jupiter.api.Test;

class ZooTest {

    @Test
    void theFourteenNetworksOfThePaperTenHumanDesignedFirst() {
        assertEquals(14, Zoo.names().size());
        for (int i = 0; i < 14; i++) {
            assertEquals(i >= 10, Zoo.entry(Zoo.names().get(i)).nas(), Zoo.names().get(i));
        }
    }

    @Test
    void dataWidthScalesEveryTensor() {
        Graph one = Zoo.build("resnet50", 1).graph();
        Graph two = Zoo.build("resnet50", 2).graph();
        for (int t = 0; t < one.tensorCount(); t++) {
            assertEquals(2 * one.size(t), two.size(t), one.tensor(t).name());
        }
        assertEquals(Zoo.build("resnet50", 1).referenceParameters(), Zoo.build("resnet50", 2).referenceParameters());
    }

    @Test
    void unknownNameListsTheNetworks() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Zoo.entry("vgg16"));
        assertTrue(e.getMessage().contains("resnet50") && e.getMessage().contains("darts"), e.getMessage());
    }
}
