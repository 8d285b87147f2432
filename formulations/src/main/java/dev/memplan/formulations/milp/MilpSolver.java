package dev.memplan.formulations.milp;

import dev.memplan.model.Limits;

/** A back-end that solves a {@link Model}. Instances hold no state between calls and may be shared. */
public interface MilpSolver {

    /** The {@link Backend#id()} this solver reports in {@link SolverResult#backend()}. */
    String name();

    /**
     * Solves {@code model} within {@code limits} (null means {@link Limits#DEFAULT}): time limit, threads,
     * relative gap at which to stop, random seed (each where the back-end supports it).
     *
     * @throws UnsupportedOperationException when this back-end cannot express the model
     * @throws IllegalStateException         when the solver rejects the model or returns values that break it
     *                                       (a bug or numerical trouble)
     */
    SolverResult solve(Model model, Limits limits);
}
