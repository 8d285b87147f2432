package dev.memplan.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class ObjectiveTest {

    @Test
    void trafficPlusLambdaTimesRecomputeCost() {
        Objective o = Objective.of(new Traffic(5, 4096, 0, 0, 3, 300), 2);
        assertEquals(4096, o.traffic());
        assertEquals(300, o.recomputeCost());
        assertEquals(4096 + 2 * 300, o.value());
        assertEquals("4096 + 2 x 300 = 4696", o.toString());
        assertEquals("10 + 0.5 x 3 = 11.5", new Objective(10, 3, 0.5).toString());
        // Large or small numbers in plain digits, never as 1.41738525E7 (seen on densenet121:train at lambda 2^-8).
        assertEquals("13323776 + 0.00390625 x 217619584 = 14173852.5",
                new Objective(13323776, 217619584, 0.00390625).toString());
        assertEquals("0 + 0.0001 x 5 = 0.0005", new Objective(0, 5, 0.0001).toString());
    }

    @Test
    void withoutRecomputesOrWeightItIsTheTraffic() {
        assertEquals(4096, Objective.of(new Traffic(5, 4096, 0, 0), 1e9).value());
        assertEquals(4096, new Objective(4096, 300, 0).value());
    }

    @Test
    void lambdaIsAFiniteNumberAtLeastZero() {
        for (double bad : new double[] {-1, Double.NaN, Double.POSITIVE_INFINITY}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new Objective(1, 1, bad));
            assertEquals("the recompute weight lambda must be a finite number >= 0 (bytes per cost unit), got " + bad,
                    e.getMessage());
        }
    }
}
