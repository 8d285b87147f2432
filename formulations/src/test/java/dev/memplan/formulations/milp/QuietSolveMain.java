package dev.memplan.formulations.milp;

import dev.memplan.model.Limits;
import java.time.Duration;

/**
 * Run in a child JVM by {@link NativeOutputTest}: solves with every back-end, with more than one thread, hints,
 * a gap and a short time limit, so that anything a native solver writes straight to file descriptor 1 shows up
 * in the child's stdout. Reports on stderr only.
 */
public final class QuietSolveMain {

    private QuietSolveMain() {
    }

    public static void main(String[] args) {
        if (!Solvers.nativeAvailable()) {
            System.err.println("natives unavailable: " + Solvers.nativeFailure());
            System.exit(3);
        }
        Limits threads = new Limits(Duration.ofSeconds(20), 2, 0.0, 7);
        Limits short_ = new Limits(Duration.ofMillis(5), 2, 0.01, 7);
        for (Backend backend : Backend.values()) {
            MilpSolver solver = Solvers.create(backend);
            Problems.Known known = Problems.assignment(5, 1, 3);
            for (Variable v : known.vars()) {
                known.model().hint(v, known.optimalValues()[v.index()]);
            }
            report(solver.solve(known.model(), threads));
            report(solver.solve(Problems.knapsack(10, 3).model(), Limits.DEFAULT));
            report(solver.solve(Problems.infeasible(), threads));
            report(solver.solve(Problems.multiKnapsack(40, 5, 1), short_));
            if (backend != Backend.CPSAT) {
                report(solver.solve(Problems.mixed().model(), threads));
            }
        }
        System.err.println("done");
    }

    private static void report(SolverResult result) {
        System.err.println(result);
    }
}
