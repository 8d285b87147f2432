package dev.memplan.formulations.cosma;

import dev.memplan.formulations.milp.Backend;
import dev.memplan.formulations.milp.Model;
import dev.memplan.formulations.milp.SolverResult;
import dev.memplan.formulations.milp.Solvers;
import dev.memplan.model.Budgets;
import dev.memplan.model.CheckReport;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Objective;
import dev.memplan.model.Plan;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.SolveStatus;
import dev.memplan.model.TensorSetting;

/**
 * Builds a {@link RecomputeFormulation}, solves it on a back-end and turns the answer into a checked
 * {@code memplan-plan/2} plan (memory-model.md, "Recomputation"). Free schedule, no starting plan, no lifetime
 * windows: the program as its brute-force proof runs it; the solve pipeline does not call it yet.
 */
public final class RecomputeSolver {

    /**
     * @param status OPTIMAL only when the back-end proved it and the objective was stated exactly
     *     ({@link RecomputeFormulation#exact()}); INFEASIBLE when proven (below M_R, or by the back-end)
     * @param plan the checked plan, null without one
     * @param check the checker's report on it, null without a plan
     * @param objective the plan's objective from the checked traffic, null without a plan
     * @param bound the back-end's lower bound on traffic + lambda x recompute cost, null when it has none
     */
    public record Result(SolveStatus status, Plan plan, CheckReport check, Objective objective, Double bound) {
    }

    private RecomputeSolver() {
    }

    /**
     * Solves the joint program with at most {@code extraRuns} recomputes and weight {@code lambda}.
     *
     * @throws IllegalStateException when the plan of the solution fails the checker (a bug)
     */
    public static Result solve(Graph graph, TensorSetting setting, long budget, int extraRuns, double lambda,
                               Backend backend, Limits limits) {
        Graph g = graph.withSetting(setting);
        if (budget < Budgets.minimumRequired(g)) {
            return new Result(SolveStatus.INFEASIBLE, null, null, null, null);
        }
        RecomputeFormulation f = new RecomputeFormulation(g, setting, budget, extraRuns, lambda);
        Model model = f.model();
        SolverResult result = Solvers.create(backend).solve(model, limits);
        Double bound = result.bound() == null ? null : result.bound() / f.unit();
        if (!result.hasSolution()) {
            return new Result(result.status(), null, null, null, bound);
        }
        Plan plan = f.plan(result);
        CheckReport report = PlanChecker.check(g, plan);
        if (!report.valid()) {
            throw new IllegalStateException("the recompute program's plan for '" + g.name() + "' at budget " + budget
                    + " fails the checker: " + report.violations());
        }
        SolveStatus status = result.status() == SolveStatus.OPTIMAL && f.exact() ? SolveStatus.OPTIMAL
                : SolveStatus.FEASIBLE;
        return new Result(status, plan, report, Objective.of(report.traffic(), lambda), bound);
    }
}
