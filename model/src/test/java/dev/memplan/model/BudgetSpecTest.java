package dev.memplan.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Every form of a budget, resolved on M_R = 100 and M_P = 201, and every mistake with its message. */
class BudgetSpecTest {
    @Test
    void eachFormResolvesBetweenMrAndMp() {
        assertEquals(100, BudgetSpec.parse("M_R").bytes(100, 201));
        assertEquals(100, BudgetSpec.parse("mr").bytes(100, 201));
        assertEquals(Budgets.halfway(100, 201), BudgetSpec.parse("M_H").bytes(100, 201));
        assertEquals(201, BudgetSpec.parse("Mp").bytes(100, 201));
        assertEquals(125, BudgetSpec.parse("0.25").bytes(100, 201));
        assertEquals(100, BudgetSpec.parse("0.").bytes(100, 201));
        assertEquals(201, BudgetSpec.parse("1.0").bytes(100, 201));
        assertEquals(4096, BudgetSpec.parse("4_096").bytes(100, 201));
        assertEquals("M_H", BudgetSpec.parse("mh").name());
        assertEquals(".5", BudgetSpec.parse(".5").name());
        assertEquals("4096", BudgetSpec.parse("4_096").name());
        assertFalse(BudgetSpec.parse("M_R").needsMinimumPeak());
        assertFalse(BudgetSpec.parse("4096").needsMinimumPeak());
        assertTrue(BudgetSpec.parse("0.5").needsMinimumPeak());
        assertTrue(BudgetSpec.parse("M_H").needsMinimumPeak());
    }

    @Test
    void mistakesSayWhatABudgetIs() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> BudgetSpec.parse("half")).getMessage()
                .startsWith("a budget is M_R, M_H, M_P, a fraction"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> BudgetSpec.parse("1.5")).getMessage()
                .contains("must be between 0 and 1"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> BudgetSpec.parse("99999999999999999999"))
                .getMessage().contains("above 2^53"));
        assertTrue(BudgetSpec.isWellFormed("M_P"));
        assertFalse(BudgetSpec.isWellFormed("1.5"));
        assertFalse(BudgetSpec.isWellFormed("half"));
    }
}
