package dev.memplan.sweeps;

import dev.memplan.model.TensorSetting;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;

/**
 * One run of a sweep: a graph (or buffer file) in a tensor setting at a budget, planned by one planner on one
 * back-end with a time limit and thread count; {@code repeat} numbers identical runs. Serializable, so a
 * distributed engine can ship it to a worker.
 *
 * @param graph the graph as the spec names it (zoo or example name, generated name, or file path as written)
 * @param source where to read it: the absolute file path for files, else the name
 * @param setting {@code activations} or {@code all}; {@code buffers} for allocator cases
 * @param budget as written: M_R, M_H, M_P, a fraction between M_R and M_P, bytes; for buffers bytes or "file"
 * @param solver the back-end, empty for planners that solve no program
 * @param timeLimit seconds, null for none; with a work limit the outer guard of wall time
 * @param workLimit deterministic work units, null for none (then the time limit decides: machine-dependent)
 * @param recomputeWeight lambda, bytes per unit of recompute cost (memory-model.md, "Recomputation"): COSMA
 *     minimises traffic + lambda x recompute cost and a recompute scheme runs under it; null for spill-only planning
 */
public record SweepCase(String graph, String source, String setting, String budget, PlannerChoice planner,
                        String solver, Double timeLimit, Double workLimit, int threads, int repeat,
                        Double recomputeWeight)
        implements Serializable {
    private static final long serialVersionUID = 2L;

    public SweepCase {
        if (recomputeWeight != null && !(recomputeWeight >= 0 && Double.isFinite(recomputeWeight))) {
            throw new IllegalArgumentException("the recompute weight must be a finite number >= 0, got "
                    + recomputeWeight);
        }
    }

    /** A spill-only case (no recompute weight). */
    public SweepCase(String graph, String source, String setting, String budget, PlannerChoice planner, String solver,
                     Double timeLimit, Double workLimit, int threads, int repeat) {
        this(graph, source, setting, budget, planner, solver, timeLimit, workLimit, threads, repeat, null);
    }

    /**
     * The case's key: a hash of every parameter that changes the result (not the spec it came from, so that two
     * specs sharing a case share its row). Stable across runs and machines.
     */
    public String key() {
        String text = String.join("\u0001", graph, setting, budget, planner.label(), solver,
                timeLimit == null ? "none" : String.format(Locale.ROOT, "%.3f", timeLimit), Integer.toString(threads),
                Integer.toString(repeat))
                // Cases without a work limit keep the keys they had before work limits existed.
                + (workLimit == null ? "" : "\u0001work=" + String.format(Locale.ROOT, "%.3f", workLimit))
                // Spill-only cases keep the keys they had before recompute weights existed; a weight is written
                // exactly (every binary digit), so no two weights share a key.
                + (recomputeWeight == null ? "" : "\u0001recompute=" + exact(recomputeWeight));
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 10);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java platform", e);
        }
    }

    /**
     * This COSMA case as the record the command line makes ({@link SolveCase}): setting, budget, recompute weight,
     * back-end and limits, encoding and techniques off, its decomposition with the default part size.
     */
    SolveCase solveCase() {
        return new SolveCase(TensorSetting.parse(setting), budget, recomputeWeight,
                dev.memplan.formulations.milp.Backend.parse(solver), timeLimit, workLimit, threads,
                PlannerChoice.Encoding.parse(planner.option("encoding")), planner.techniquesOff(), null,
                planner.option("decompose"), dev.memplan.decomposition.DivideAndConquer.DEFAULT_MAX_PART, null);
    }

    /** One line for listings and progress: graph, setting, budget, planner, solver, limits, threads, repeat. */
    public String describe() {
        return graph + " " + setting + " " + budget + " " + planner.label() + (solver.isEmpty() ? "" : " " + solver)
                + (workLimit == null ? "" : " work=" + trim(workLimit))
                + " limit=" + (timeLimit == null ? "none" : trim(timeLimit)) + " threads=" + threads
                + (repeat > 0 ? " repeat=" + repeat : "")
                + (recomputeWeight == null ? "" : " lambda=" + weight(recomputeWeight));
    }

    /** A recompute weight as listings, filters and figures show it: a plain decimal ({@code 0.125}, {@code 8}). */
    public static String weight(double lambda) {
        return lambda == Math.rint(lambda) && Math.abs(lambda) < 1e15 ? Long.toString((long) lambda)
                : new java.math.BigDecimal(Double.toString(lambda)).stripTrailingZeros().toPlainString();
    }

    private static String exact(double value) {
        return new java.math.BigDecimal(value).stripTrailingZeros().toPlainString();
    }

    private static String trim(double seconds) {
        return seconds == Math.rint(seconds) ? Long.toString((long) seconds) : Double.toString(seconds);
    }
}
