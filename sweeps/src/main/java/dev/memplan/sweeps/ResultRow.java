package dev.memplan.sweeps;

import java.io.Serializable;
import java.time.Instant;

/**
 * One row of the {@code results} table (RESULTS-SCHEMA.md): the case's parameters, what the planner delivered
 * (status, checked traffic split, bound, gap, time, model size, peaks), the graph's M_R and M_P, the plan file,
 * where and when it ran, and what makes it reproducible: the work limit and the work used, whether the row is the
 * same on any machine ({@code reproducible}: counted work that the wall clock cut nothing short of, or a
 * heuristic), memplan's commit, the solvers' versions and the seed; then what recomputation adds: the checked plan's
 * recomputes (runs beyond the first) and their cost, the case's recompute weight (null: spill-only) and the
 * objective, non-compulsory traffic + weight x recompute cost ({@link dev.memplan.model.Objective}; the traffic when
 * the case has no weight). Nullable columns are boxed.
 */
public record ResultRow(String caseKey, String specHash, String graph, String setting, String budget,
                        Long budgetBytes, String planner, String solver, Double timeLimit, int threads, int repeat,
                        String status, Long trafficCompulsory, Long trafficNonCompulsory, Long loads, Long spills,
                        Long bound, Double gap, double seconds, Long vars, Long cons, Long peakFootprint,
                        Long peakAddress, Long mR, Long mP, String planPath, String machine, String memplanVersion,
                        Instant finishedAt, String error, Double workLimit, Double workUsed, Boolean reproducible,
                        String memplanCommit, String solverVersions, Long seed, Long recomputes,
                        Long recomputeCost, Double recomputeWeight, Double objective) implements Serializable {
    private static final long serialVersionUID = 3L;

    /** The same row with the plan file's path (set by whoever wrote the file). */
    public ResultRow withPlanPath(String path) {
        return new ResultRow(caseKey, specHash, graph, setting, budget, budgetBytes, planner, solver, timeLimit,
                threads, repeat, status, trafficCompulsory, trafficNonCompulsory, loads, spills, bound, gap, seconds,
                vars, cons, peakFootprint, peakAddress, mR, mP, path, machine, memplanVersion, finishedAt, error,
                workLimit, workUsed, reproducible, memplanCommit, solverVersions, seed, recomputes, recomputeCost,
                recomputeWeight, objective);
    }

    /** The same row with the spec's hash (cases are shared between specs; the row records the one that ran it). */
    public ResultRow withSpecHash(String hash) {
        return new ResultRow(caseKey, hash, graph, setting, budget, budgetBytes, planner, solver, timeLimit,
                threads, repeat, status, trafficCompulsory, trafficNonCompulsory, loads, spills, bound, gap, seconds,
                vars, cons, peakFootprint, peakAddress, mR, mP, planPath, machine, memplanVersion, finishedAt, error,
                workLimit, workUsed, reproducible, memplanCommit, solverVersions, seed, recomputes, recomputeCost,
                recomputeWeight, objective);
    }
}
