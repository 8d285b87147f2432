package dev.memplan.formulations.milp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.ortools.sat.CpModel;
import com.google.ortools.sat.CpSolver;
import com.google.ortools.sat.CpSolverStatus;
import com.google.ortools.sat.IntVar;
import com.google.ortools.sat.LinearExpr;
import dev.memplan.model.Budget;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A cancel that lands before a native solve has begun still stops it: OR-Tools 9.15's {@code CpSolver.stopSearch}
 * is a no-op until {@code solve()} has created its wrapper, so the {@link Watchdog} repeats the request while the
 * solve runs.
 */
class WatchdogTest {
    @BeforeAll
    static void natives() {
        assertTrue(Solvers.nativeAvailable(), () -> "OR-Tools natives: " + Solvers.nativeFailure());
    }

    /** A stop that is lost until the work has begun (as stopSearch before solve) is repeated until it lands. */
    @Test
    void aStopLostBeforeTheWorkBeganIsRepeated() {
        Budget budget = Budget.ofWall(Duration.ofHours(1));
        budget.cancel();
        AtomicBoolean begun = new AtomicBoolean();
        AtomicBoolean stopped = new AtomicBoolean();
        long t = System.nanoTime();
        boolean result = Watchdog.around(Long.MAX_VALUE, budget, () -> stopped.set(begun.get()), () -> {
            try {
                Thread.sleep(200);
                begun.set(true);
                while (!stopped.get() && System.nanoTime() - t < 30_000_000_000L) {
                    Thread.sleep(5);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return stopped.get();
        });
        assertTrue(result, "the repeated stop request reached the work");
        assertTrue(System.nanoTime() - t < 10_000_000_000L, "stopped within seconds, not at the 30 s guard");
    }

    @Test
    void aDeadlineStopsTheWorkAndNothingStopsItEarlier() {
        AtomicBoolean stopped = new AtomicBoolean();
        long deadline = System.nanoTime() + 300_000_000L;
        Boolean early = Watchdog.around(deadline, Budget.unlimited(), () -> stopped.set(true), () -> {
            boolean before = stopped.get();
            while (!stopped.get()) {
                Thread.onSpinWait();
            }
            return before;
        });
        assertEquals(Boolean.FALSE, early);
        assertTrue(System.nanoTime() - deadline >= 0);
    }

    /**
     * The race of the issue, on CP-SAT itself: the budget is cancelled after {@link Budget#onStop} ran (its
     * stopSearch lost, no wrapper yet) and before the solve starts; the search, which would run for its whole
     * 60 s limit, stops within seconds.
     */
    @Test
    void aCpSatSolveCancelledBeforeItStartsStopsWithinSeconds() {
        CpModel model = golombRuler(12);
        CpSolver solver = new CpSolver();
        solver.getParameters().setNumWorkers(1).setMaxTimeInSeconds(60);
        Budget budget = Budget.ofWall(Duration.ofHours(1));
        budget.cancel();
        long t = System.nanoTime();
        CpSolverStatus status = CpSatBackend.solveBy(solver, model, Long.MAX_VALUE, budget);
        double seconds = (System.nanoTime() - t) / 1e9;
        assertTrue(seconds < 10, "stopped after " + seconds + " s");
        assertNotEquals(CpSolverStatus.OPTIMAL, status);
    }

    /** The shortest Golomb ruler with {@code marks} marks: proving its optimum takes CP-SAT minutes on one worker. */
    private static CpModel golombRuler(int marks) {
        CpModel m = new CpModel();
        int max = marks * marks * 2;
        IntVar[] x = new IntVar[marks];
        for (int i = 0; i < marks; i++) {
            x[i] = m.newIntVar(0, max, "x" + i);
        }
        m.addEquality(x[0], 0);
        java.util.List<IntVar> diffs = new java.util.ArrayList<>();
        for (int i = 0; i < marks; i++) {
            for (int j = i + 1; j < marks; j++) {
                IntVar d = m.newIntVar(1, max, "d" + i + "_" + j);
                m.addEquality(LinearExpr.newBuilder().add(x[j]).addTerm(x[i], -1).build(), d);
                diffs.add(d);
            }
            if (i + 1 < marks) {
                m.addLessThan(x[i], x[i + 1]);
            }
        }
        m.addAllDifferent(diffs.toArray(new IntVar[0]));
        m.minimize(x[marks - 1]);
        return m;
    }
}
