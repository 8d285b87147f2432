package dev.memplan.formulations.cosma;

import java.util.Arrays;
import java.util.Locale;

/**
 * The techniques of {@link CosmaSolver} beyond the formulation itself, each of which can be switched off to measure
 * what it buys (all are on by default; every one is sound, so switching one off never changes an optimum, only
 * how soon it is found or proven).
 */
public enum Technique {
    /** {@link ForcedTraffic}: the lower bound from precedence and the budget, and its valid inequalities. */
    FORCED("forced"),
    /** The fixed-schedule program of the starting plan's order, solved before the free schedule. */
    START_ORDER("start-order"),
    /** With parameters: the activations solved at the budget minus the parameters' reserve, lifted. */
    LIFT("lift"),
    /** The lifetime windows: no variable for a tensor at a step where it can be neither live nor moved. */
    PRUNE("prune"),
    /**
     * The solve pipeline's restarts: more starting plans from the minimum-peak beam at narrower widths (read by
     * {@code CosmaPipeline}, not by the program).
     */
    RESTARTS("restarts");

    private final String id;

    Technique(String id) {
        this.id = id;
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
        throw new IllegalArgumentException("unknown technique '" + text + "': use one of "
                + String.join(", ", Arrays.stream(values()).map(Technique::id).toList()));
    }
}
