package dev.memplan.formulations.milp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.model.Limits;
import dev.memplan.model.SolveStatus;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Every back-end against problems with known answers. */
class MilpBackendsTest {

    private static final double EPS = 1e-6;

    @BeforeAll
    static void natives() {
        assertTrue(Solvers.nativeAvailable(), () -> "OR-Tools natives: " + Solvers.nativeFailure());
    }

    private static MilpSolver solver(Backend backend) {
        MilpSolver solver = Solvers.create(backend);
        assertEquals(backend.id(), solver.name());
        return solver;
    }

    private static void assertSolution(Problems.Known known, SolverResult result, Backend backend) {
        assertEquals(SolveStatus.OPTIMAL, result.status(), result::toString);
        assertEquals(known.optimum(), result.objective(), EPS, result::toString);
        assertEquals(result.objective(), result.bound(), EPS, "an optimum is its own bound");
        assertEquals(0.0, result.gap());
        assertEquals(backend.id(), result.backend());
        assertEquals(known.model().variableCount(), result.variables());
        assertEquals(known.model().constraintCount(), result.constraints());
        assertEquals(0.0, known.model().maxViolation(result.values()), EPS);
        assertEquals(known.optimum(), known.model().objective().evaluate(result.values()), EPS);
        assertTrue(result.seconds() >= 0);
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void knapsackIsMaximisedToTheKnownOptimum(Backend backend) {
        Problems.Known known = Problems.knapsack(14, 7);
        SolverResult result = solver(backend).solve(known.model(), Limits.DEFAULT);
        assertSolution(known, result, backend);
        for (Variable v : known.vars()) {
            double value = result.value(v);
            assertTrue(value == 0.0 || value == 1.0, "binary values are exact: " + value);
        }
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void assignmentIsMinimisedToTheKnownOptimumWithItsConstant(Backend backend) {
        Problems.Known known = Problems.assignment(5, 11, 1000);
        SolverResult result = solver(backend).solve(known.model(), null);
        assertSolution(known, result, backend);
        for (int i = 0; i < 5; i++) {
            double row = 0;
            for (int j = 0; j < 5; j++) {
                row += result.value(known.vars().get(i * 5 + j));
            }
            assertEquals(1.0, row, 0.0);
        }
    }

    @ParameterizedTest
    @EnumSource(value = Backend.class, names = "CPSAT", mode = EnumSource.Mode.EXCLUDE)
    void mixedIntegerModelReachesTheIntegerOptimumNotTheRelaxation(Backend backend) {
        Problems.Known known = Problems.mixed();
        SolverResult result = solver(backend).solve(known.model(), Limits.DEFAULT);
        assertSolution(known, result, backend);
        assertArrayEquals(known.optimalValues(), result.values(), EPS);
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void infeasibleModelIsProvenInfeasible(Backend backend) {
        Model model = Problems.infeasible();
        SolverResult result = solver(backend).solve(model, Limits.DEFAULT);
        assertEquals(SolveStatus.INFEASIBLE, result.status(), result::toString);
        assertFalse(result.hasSolution());
        assertNull(result.objective());
        assertNull(result.bound());
        assertNull(result.gap());
        assertEquals(model.variableCount(), result.variables());
        assertThrows(IllegalStateException.class, () -> result.value(model.variables().get(0)));
    }

    @ParameterizedTest
    @EnumSource(value = Backend.class, names = "CPSAT", mode = EnumSource.Mode.EXCLUDE)
    void infeasibleWithAFreeVariableIsStillProven(Backend backend) {
        // HiGHS says "infeasible or unbounded" here; the back-end must prove which before claiming INFEASIBLE.
        Model model = new Model("free-infeasible");
        Variable x = model.continuous("x", Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY);
        Variable b = model.binary("b");
        model.greaterOrEqual("low", LinearExpr.term(1, x).add(-1, b), 2);
        model.lessOrEqual("high", LinearExpr.term(1, x).add(1, b), 1);
        model.maximize(LinearExpr.term(1, x));
        assertEquals(SolveStatus.INFEASIBLE, solver(backend).solve(model, Limits.DEFAULT).status());
    }

    @ParameterizedTest
    @EnumSource(value = Backend.class, names = "CPSAT", mode = EnumSource.Mode.EXCLUDE)
    void unboundedModelIsUnknownNeverInfeasible(Backend backend) {
        Model model = new Model("unbounded");
        Variable x = model.continuous("x", 0, Double.POSITIVE_INFINITY);
        Variable b = model.binary("b");
        model.greaterOrEqual("some", LinearExpr.term(1, x).add(1, b), 1);
        model.maximize(LinearExpr.term(1, x).add(b));
        SolverResult result = solver(backend).solve(model, Limits.DEFAULT);
        assertEquals(SolveStatus.UNKNOWN, result.status(), result::toString);
        assertFalse(result.hasSolution());
    }

    @Test
    void cpSatRejectsAContinuousVariableNamingIt() {
        Problems.Known known = Problems.mixed();
        UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                () -> Solvers.create(Backend.CPSAT).solve(known.model(), Limits.DEFAULT));
        assertTrue(e.getMessage().startsWith("CP-SAT needs integer coefficients: "), e.getMessage());
        assertTrue(e.getMessage().contains("'x'"), e.getMessage());
    }

    @Test
    void cpSatRejectsNonIntegerDataNamingTheFirstOffender() {
        Model model = new Model("fractional");
        Variable a = model.integer("a", 0, 5);
        Variable b = model.binary("b");
        model.lessOrEqual("ok", LinearExpr.term(2, a).add(b), 7);
        model.lessOrEqual("half", LinearExpr.term(1, a).add(0.5, b), 3);
        model.lessOrEqual("rhs", LinearExpr.term(1, a), 2.5);
        UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                () -> Solvers.create(Backend.CPSAT).solve(model, Limits.DEFAULT));
        assertTrue(e.getMessage().startsWith("CP-SAT needs integer coefficients: "), e.getMessage());
        assertTrue(e.getMessage().contains("0.5") && e.getMessage().contains("'half'"), e.getMessage());

        Model constant = new Model("constant");
        Variable c = constant.integer("c", 0, 5);
        constant.minimize(LinearExpr.term(1, c).addConstant(0.25));
        e = assertThrows(UnsupportedOperationException.class,
                () -> Solvers.create(Backend.CPSAT).solve(constant, Limits.DEFAULT));
        assertTrue(e.getMessage().contains("objective"), e.getMessage());
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void completeOptimalHintIsAcceptedAndStillOptimal(Backend backend) {
        Problems.Known known = Problems.assignment(5, 3, 0);
        for (Variable v : known.vars()) {
            known.model().hint(v, known.optimalValues()[v.index()]);
        }
        SolverResult result = solver(backend).solve(known.model(), Limits.DEFAULT);
        assertSolution(known, result, backend);
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void partialHintIsAccepted(Backend backend) {
        Problems.Known known = Problems.knapsack(12, 5);
        known.model().hint(known.vars().get(0), 1);
        known.model().hint(known.vars().get(3), 0);
        assertSolution(known, solver(backend).solve(known.model(), Limits.DEFAULT), backend);
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void aTimeLimitOfMillisecondsNeverClaimsInfeasibility(Backend backend) {
        Set<SolveStatus> allowed = EnumSet.of(SolveStatus.OPTIMAL, SolveStatus.FEASIBLE, SolveStatus.UNKNOWN);
        for (int millis : new int[] {1, 5}) {
            Model model = Problems.multiKnapsack(40, 5, 42 + millis);
            Limits limits = Limits.ofWall(Duration.ofMillis(millis));
            SolverResult result = solver(backend).solve(model, limits);
            assertTrue(allowed.contains(result.status()), result::toString);
            assertTrue(result.seconds() < 3.0, () -> "the limit is honoured: " + result);
            if (result.hasSolution()) {
                assertTrue(model.maxViolation(result.values()) <= EPS, result::toString);
                assertEquals(model.objective().evaluate(result.values()), result.objective(), EPS);
                if (result.bound() != null) {
                    assertTrue(result.bound() >= result.objective() - EPS, () -> "an upper bound: " + result);
                }
            } else {
                assertNull(result.objective());
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void aRelativeGapStopsEarlyButStatesWhatItProved(Backend backend) {
        Model model = Problems.multiKnapsack(30, 3, 9);
        Limits limits = new Limits(Duration.ofSeconds(2), 1, 0.2, 1);
        SolverResult result = solver(backend).solve(model, limits);
        assertTrue(result.hasSolution(), result::toString);
        assertTrue(EnumSet.of(SolveStatus.OPTIMAL, SolveStatus.FEASIBLE).contains(result.status()),
                result::toString);
        if (result.status() == SolveStatus.OPTIMAL) {
            assertEquals(result.objective(), result.bound());
            assertEquals(0.0, result.gap());
        } else if (result.bound() != null) {
            assertTrue(result.bound() >= result.objective(), result::toString);
            assertEquals((result.bound() - result.objective()) / result.objective(), result.gap(), 1e-12);
        } else {
            assertNull(result.gap());
        }
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void nothingIsPrintedToSystemOut(Backend backend) {
        PrintStream original = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            solver(backend).solve(Problems.knapsack(10, 1).model(), Limits.DEFAULT);
            solver(backend).solve(Problems.infeasible(), Limits.DEFAULT);
        } finally {
            System.setOut(original);
        }
        assertEquals("", captured.toString(StandardCharsets.UTF_8));
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void emptyAndConstantModelsSolve(Backend backend) {
        Model empty = new Model("empty");
        SolverResult result = solver(backend).solve(empty, Limits.DEFAULT);
        assertEquals(SolveStatus.OPTIMAL, result.status());
        assertEquals(0, result.values().length);
        assertEquals(0.0, result.objective());

        Model fixed = new Model("no-constraints");
        Variable y = fixed.integer("y", 2, 5);
        fixed.minimize(LinearExpr.term(3, y).addConstant(4));
        result = solver(backend).solve(fixed, Limits.DEFAULT);
        assertEquals(SolveStatus.OPTIMAL, result.status());
        assertEquals(2.0, result.value(y));
        assertEquals(10.0, result.objective());
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void limitsWithSeedsAndThreadsAreAccepted(Backend backend) {
        Problems.Known known = Problems.knapsack(12, 2);
        Limits limits = new Limits(Duration.ofSeconds(30), 2, 0.0, 123456789012345L);
        assertSolution(known, solver(backend).solve(known.model(), limits), backend);
    }

    @Test
    void resultsRefuseValuesThatBreakTheModel() {
        Problems.Known known = Problems.knapsack(8, 4);
        Outcomes outcomes = new Outcomes(known.model(), Limits.DEFAULT, "test");
        double[] all = new double[8];
        java.util.Arrays.fill(all, 1.0);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> outcomes.with(true, all, null));
        assertTrue(e.getMessage().startsWith("bug or numerical trouble in test"), e.getMessage());
        assertTrue(e.getMessage().contains("capacity"), e.getMessage());

        double[] nearly = known.optimalValues().clone();
        for (int i = 0; i < nearly.length; i++) {
            nearly[i] = nearly[i] == 1 ? 1 - 3e-7 : 2e-7;
        }
        SolverResult snapped = outcomes.with(true, nearly, null);
        assertArrayEquals(known.optimalValues(), snapped.values(), 0.0);
        assertEquals(known.optimum(), snapped.objective());
    }

    @Test
    void feasibleResultsRoundAnIntegralBoundAndUpgradeWhenItMeetsTheObjective() {
        Problems.Known known = Problems.knapsack(8, 4);
        Outcomes outcomes = new Outcomes(known.model(), Limits.DEFAULT, "test");
        SolverResult proven = outcomes.with(false, known.optimalValues(), known.optimum() + 0.4);
        assertEquals(SolveStatus.OPTIMAL, proven.status());
        SolverResult open = outcomes.with(false, known.optimalValues(), known.optimum() + 1.7);
        assertEquals(SolveStatus.FEASIBLE, open.status());
        assertEquals(known.optimum() + 1, open.bound());
        assertEquals(1 / known.optimum(), open.gap(), 1e-12);
        assertNotNull(outcomes.with(false, known.optimalValues(), 1e20));
        assertNull(outcomes.with(false, known.optimalValues(), 1e20).bound(), "SCIP's infinity is no bound");
    }
}
