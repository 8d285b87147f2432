package dev.memplan.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class BudgetsTest {
    /** x feeds two branches p and q that join in j; the order of the branches changes the footprint. */
    private static final Graph DIAMOND = Graph.builder("diamond").activation("x", 10).parameter("wp", 3)
            .activation("p", 50).activation("p2", 5).activation("q", 8).activation("j", 4)
            .operator("P", List.of("x", "wp"), List.of("p"))
            .operator("P2", List.of("p"), List.of("p2"))
            .operator("Q", List.of("x"), List.of("q"))
            .operator("J", List.of("p2", "q"), List.of("j"))
            .output("j").build();

    @Test
    void minimumRequiredIsTheBusiestOperator() {
        assertEquals(63, Budgets.minimumRequired(DIAMOND));
        assertEquals(60, Budgets.minimumRequired(DIAMOND.withSetting(TensorSetting.ACTIVATIONS)));
    }

    @Test
    void footprintOfASchedule() {
        // default order P, P2, Q, J: at P2 x (needed by Q), p and p2 are resident: 65.
        assertEquals(65, Budgets.footprint(DIAMOND, Schedule.defaultOrder(DIAMOND)));

        assertEquals(71, Budgets.footprint(DIAMOND, new Schedule(List.of("Q", "P", "P2", "J"))));
        assertThrows(IllegalArgumentException.class,
                () -> Budgets.footprint(DIAMOND, new Schedule(List.of("J", "P", "P2", "Q"))));
    }

    @Test
    void footprintEqualsThePeakOfTheNoSpillPlan() {
        Lifetimes life = Lifetimes.of(DIAMOND, Schedule.defaultOrder(DIAMOND));
        assertEquals(0, life.first(DIAMOND.tensorIndex("x")));
        assertEquals(2, life.last(DIAMOND.tensorIndex("x")));
        assertEquals(3, life.first(DIAMOND.tensorIndex("j")));
        assertEquals(3, life.last(DIAMOND.tensorIndex("j")));
    }

    @Test
    void halfway() {
        assertEquals(5, Budgets.halfway(4, 7));
        assertTrue(Budgets.halfway(63, 65) >= 63);
    }
}
