package dev.memplan.formulations.cosma;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * The techniques of {@link CosmaSolver} beyond the formulation itself, each of which can be switched off to measure
 * what it buys (all are on by default; every one is sound, so switching one off never changes an optimum, only
 * how soon it is found or proven). Every list of them (help, error messages, sweep specs, tests) is generated
 * from {@link #values()}.
 */
public enum Technique {
    /** {@link ForcedTraffic}: the lower bound from precedence and the budget, and its valid inequalities. */
    FORCED("forced", Stage.SOLVER),
    /** The fixed-schedule program of the starting plan's order, solved before the free schedule. */
    START_ORDER("start-order", Stage.SOLVER),
    /** With parameters: the activations solved at the budget minus the parameters' reserve, lifted. */
    LIFT("lift", Stage.SOLVER),
    /** The lifetime windows: no variable for a tensor at a step where it can be neither live nor moved. */
    PRUNE("prune", Stage.SOLVER),
    /**
     * The solve pipeline's restarts: more starting plans from the minimum-peak beam at narrower widths (read by
     * {@code CosmaPipeline}, not by the program).
     */
    RESTARTS("restarts", Stage.PIPELINE),
    /**
     * With a recompute weight: the best recompute baseline's plan re-planned around its recomputes by the
     * fixed-schedule program and divide and conquer on its runs (read by {@code CosmaPipeline}'s recompute step).
     */
    REPLAN("replan", Stage.PIPELINE),
    /**
     * With a recompute weight: the bound over every plan's cover over time ({@link RecomputeBound}) also solved as an
     * integer program on CP-SAT, with a share of the run (read by {@code CosmaPipeline}'s recompute step).
     */
    INTEGRAL_BOUND("integral-bound", Stage.PIPELINE),
    /**
     * With a recompute weight: recomputes chosen on the best plan so far by a local search (a rerun in place of a
     * load, a rerun dropped), then re-planned around them (read by {@code CosmaPipeline}'s recompute step).
     */
    CHOOSE("choose", Stage.PIPELINE),
    /**
     * With a recompute weight: reruns placed at once on the best plan's runs, wherever a return could be a rerun of
     * an operator that may pay, the runs covered exactly and each rerun kept only where it pays (read by
     * {@code CosmaPipeline}'s recompute step).
     */
    RERUN_COVER("rerun-cover", Stage.PIPELINE),
    /**
     * With a recompute weight and a free schedule: divide and conquer's bounds (the stem solved exactly, the live
     * bytes) with every tensor's traffic priced for reruns, bounds on every plan beside {@link RecomputeBound}'s, with
     * a share of the run (read by {@code CosmaPipeline}'s recompute step).
     */
    PRICED_BOUNDS("priced-bounds", Stage.PIPELINE),
    /**
     * With a recompute weight, on a training step of up to 300 operators whose best plan recomputes nothing: that
     * plan's order moved one operator at a time while its caching LP falls, the order reached covered exactly (read
     * by {@code CosmaPipeline}'s recompute step; {@code OrderMoves}).
     */
    ORDER_MOVES("order-moves", Stage.PIPELINE),
    /**
     * With a recompute weight, on a graph of at most 64 tensors and 64 operators: the exact search over runs without
     * addresses ({@code RunPathSearch}), a bound over every plan, its plan offered when it packs (read by
     * {@code CosmaPipeline}'s recompute step).
     */
    RUN_PATHS("run-paths", Stage.PIPELINE);

    /** Who reads a technique's switch: {@link CosmaSolver}'s program steps, or the solve pipeline around it. */
    public enum Stage {
        SOLVER, PIPELINE
    }

    private final String id;
    private final Stage stage;

    Technique(String id, Stage stage) {
        this.id = id;
        this.stage = stage;
    }

    /** The techniques read at that stage. */
    public static Set<Technique> of(Stage stage) {
        Set<Technique> s = EnumSet.noneOf(Technique.class);
        for (Technique t : values()) {
            if (t.stage == stage) {
                s.add(t);
            }
        }
        return s;
    }

    /** Every id, comma-separated, in declaration order: for help texts and error messages. */
    public static String ids() {
        return String.join(", ", Arrays.stream(values()).map(Technique::id).toList());
    }

    public String id() {
        return id;
    }

    /** The technique of that id; the message lists the ids. */
    public static Technique parse(String text) {
        for (Technique t : values()) {
            if (t.id.equals(text.toLowerCase(Locale.ROOT))) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown technique '" + text + "': use one of " + ids());
    }
}
