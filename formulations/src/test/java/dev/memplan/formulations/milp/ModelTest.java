package dev.memplan.formulations.milp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ModelTest {

    @Test
    void expressionsMergeTermsInInsertionOrderAndDropZeros() {
        Model m = new Model("m");
        Variable a = m.binary("a");
        Variable b = m.integer("b", -3, 3);
        Variable c = m.continuous("c", 0, 1.5);
        LinearExpr e = LinearExpr.term(2, b).add(a).add(3, c).add(-1, a).add(0.5, b).addConstant(4);
        assertEquals(List.of(b, c), List.copyOf(e.terms().keySet()), "a cancelled, b merged first");
        assertEquals(2.5, e.terms().get(b));
        assertEquals(4.0, e.constant());
        assertEquals(4 + 2.5 * 2 + 3 * 0.5, e.evaluate(new double[] {1, 2, 0.5}));
        assertThrows(UnsupportedOperationException.class, () -> e.terms().clear());

        LinearExpr sum = LinearExpr.of().add(e).add(e);
        assertEquals(Map.of(b, 5.0, c, 6.0), sum.terms());
        assertEquals(8.0, sum.constant());
        LinearExpr self = e.copy();
        self.add(self);
        assertEquals(5.0, self.terms().get(b));
        assertEquals(8.0, self.constant());
        assertEquals(2.5, e.terms().get(b), "copy is independent");
        assertTrue(LinearExpr.term(0, a).isConstant());
        assertEquals("2.5 b + 3 c + 4", e.toString());
        assertThrows(IllegalArgumentException.class, () -> LinearExpr.term(Double.NaN, a));
        assertThrows(IllegalArgumentException.class, () -> LinearExpr.of().addConstant(Double.POSITIVE_INFINITY));
    }

    @Test
    void modelCopiesExpressionsAndBuildsConstraints() {
        Model m = new Model("m");
        Variable x = m.binary("x");
        Variable y = m.binary(null);
        assertEquals("x1", y.name());
        assertEquals(new Variable(0, "x", VarType.BINARY, 0, 1), x);
        LinearExpr e = LinearExpr.term(1, x).add(y);
        Constraint le = m.lessOrEqual("le", e, 1);
        Constraint ge = m.greaterOrEqual("ge", e, 1);
        Constraint eq = m.equal(null, e, 1);
        Constraint range = m.range("range", e, 0, 2);
        e.add(5, x);
        assertEquals(1.0, le.expr().terms().get(x), "the model keeps a copy");
        assertEquals(Double.NEGATIVE_INFINITY, le.lower());
        assertEquals(1.0, le.upper());
        assertEquals(Double.POSITIVE_INFINITY, ge.upper());
        assertEquals("c2", eq.name());
        assertEquals(1.0, eq.lower());
        assertEquals(0.0, range.lower());
        assertEquals(4, m.constraintCount());
        assertEquals(2, m.variableCount());
        assertTrue(m.minimizing());
        assertTrue(m.objective().isConstant());
        m.maximize(LinearExpr.term(3, x));
        assertFalse(m.minimizing());
        assertEquals(3.0, m.objective().terms().get(x));
        assertThrows(UnsupportedOperationException.class, () -> m.variables().clear());
        assertThrows(IllegalArgumentException.class, () -> m.equal("inf", LinearExpr.term(1, x), Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> m.range("empty", LinearExpr.term(1, x), 2, 1));
        assertThrows(IllegalArgumentException.class, () -> m.integer("i", 3, 2));
        assertThrows(IllegalArgumentException.class, () -> m.continuous("c", 1, Double.NaN));
    }

    @Test
    void variablesOfAnotherModelAreRejected() {
        Model m = new Model("m");
        m.binary("x");
        Model other = new Model("other");
        other.binary("x");
        Variable foreign = other.integer("y", 0, 4);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> m.lessOrEqual("c", LinearExpr.term(1, foreign), 1));
        assertTrue(e.getMessage().contains("'y'"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> m.minimize(LinearExpr.term(1, foreign)));
        assertThrows(IllegalArgumentException.class, () -> m.hint(foreign, 1));
    }

    @Test
    void hintsAreCheckedAgainstTheDomain() {
        Model m = new Model("m");
        Variable b = m.binary("b");
        Variable i = m.integer("i", 0, 9);
        Variable c = m.continuous("c", -1, 1);
        m.hint(b, 1);
        m.hint(i, 4);
        m.hint(c, 0.25);
        m.hint(i, 5);
        assertEquals(Map.of(b, 1.0, i, 5.0, c, 0.25), m.hints());
        assertThrows(IllegalArgumentException.class, () -> m.hint(b, 2));
        assertThrows(IllegalArgumentException.class, () -> m.hint(i, 2.5));
        assertThrows(IllegalArgumentException.class, () -> m.hint(c, Double.NaN));
    }

    @Test
    void violationsCoverBoundsIntegralityAndConstraints() {
        Model m = new Model("m");
        Variable b = m.binary("b");
        Variable i = m.integer("i", 0, 9);
        Variable c = m.continuous("c", 0, Double.POSITIVE_INFINITY);
        m.lessOrEqual("cap", LinearExpr.term(100, b).add(1, i).add(c), 50);
        m.equal("link", LinearExpr.term(1, i).add(-1, c).addConstant(1), 0);
        assertEquals(0.0, m.maxViolation(new double[] {0, 4, 5}));
        assertEquals(0.3, m.maxViolation(new double[] {0, 4.3, 5.3}), 1e-12);
        assertEquals(2.0, m.maxViolation(new double[] {0, 11, 12}), 1e-12);
        assertEquals(6.0, m.maxViolation(new double[] {0, 4, -1}), 1e-12, "link: 4 - (-1) + 1 = 6; c below 0 by 1");
        assertEquals(57.0, m.maxViolation(new double[] {1, 3, 4}), 1e-12, "cap: 107 > 50");
        assertEquals(57.0 / 107.0, m.maxScaledViolation(new double[] {1, 3, 4}), 1e-12);
        assertTrue(m.worstViolation(new double[] {1, 3, 4}).orElseThrow().contains("'cap'"));
        assertTrue(m.worstViolation(new double[] {0, 4, 5}).isEmpty());
        assertEquals(Double.POSITIVE_INFINITY, m.maxViolation(new double[] {Double.NaN, 0, 1}));
        assertThrows(IllegalArgumentException.class, () -> m.maxViolation(new double[2]));
    }

    @Test
    void integralObjectiveIsRecognised() {
        Model m = new Model("m");
        Variable b = m.binary("b");
        Variable i = m.integer("i", 0, 9);
        Variable c = m.continuous("c", 0, 1);
        m.minimize(LinearExpr.term(3, b).add(-2, i).addConstant(7));
        assertTrue(m.objectiveIsIntegral());
        m.minimize(LinearExpr.term(3, b).add(0.5, i));
        assertFalse(m.objectiveIsIntegral());
        m.minimize(LinearExpr.term(3, b).add(c));
        assertFalse(m.objectiveIsIntegral());
        assertFalse(m.isPureInteger());
        assertFalse(m.hasUnboundedVariable());
    }

    @Test
    void backendsParseCaseInsensitivelyAndListTheChoices() {
        assertSame(Backend.SCIP, Backend.parse("scip"));
        assertSame(Backend.CBC, Backend.parse("CBC"));
        assertSame(Backend.HIGHS, Backend.parse(" HiGHS "));
        assertSame(Backend.CPSAT, Backend.parse("CpSat"));
        assertSame(Backend.OJALGO, Backend.parse("ojAlgo"));
        assertEquals("highs", Backend.HIGHS.id());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Backend.parse("gurobi"));
        assertEquals("unknown solver 'gurobi'; choose one of scip, cbc, highs, cpsat, ojalgo", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Backend.parse(null));
    }
}
