/**
 * A small solver-neutral modelling layer for mixed-integer linear programs, with back-ends.
 *
 * <p>Build a {@link dev.memplan.formulations.milp.Model} (variables, linear constraints, an objective, an
 * optional starting solution), pick a back-end with {@link dev.memplan.formulations.milp.Solvers#create} and
 * solve it under {@link dev.memplan.model.Limits}. Every back-end returns a
 * {@link dev.memplan.formulations.milp.SolverResult} that states only what the solver proved: {@code OPTIMAL},
 * {@code FEASIBLE} (with a bound and gap when the solver has one), {@code INFEASIBLE} (proven, never because a
 * time limit was hit) or {@code UNKNOWN}. Values returned by a back-end are checked against the model
 * ({@link dev.memplan.formulations.milp.Model#maxScaledViolation}); integer variables come back as exact integers.
 *
 * <p>Back-ends: OR-Tools MPSolver with SCIP (the default MILP solver), CBC and HiGHS
 * ({@link dev.memplan.formulations.milp.MpSolverBackend}), OR-Tools CP-SAT for pure integer models with integer
 * data ({@link dev.memplan.formulations.milp.CpSatBackend}), and ojAlgo, pure Java
 * ({@link dev.memplan.formulations.milp.OjAlgoBackend}), which is also the fallback when the OR-Tools native
 * libraries cannot be loaded.
 */
package dev.memplan.formulations.milp;
