package dev.memplan.sweeps;

import dev.memplan.baselines.scheduling.MinimumPeakScheduler;
import dev.memplan.decomposition.CosmaPipeline;
import dev.memplan.decomposition.DivideAndConquer;
import dev.memplan.formulations.cosma.CosmaObjective;
import dev.memplan.formulations.cosma.CosmaSolver;
import dev.memplan.formulations.cosma.Technique;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.model.BudgetSpec;
import dev.memplan.model.ClockGuard;
import dev.memplan.model.Graph;
import dev.memplan.model.LimitValues;
import dev.memplan.model.Limits;
import dev.memplan.model.Plan;
import dev.memplan.model.Schedule;
import dev.memplan.model.TensorSetting;
import dev.memplan.model.io.AtomicFiles;
import dev.memplan.model.io.OperatorLists;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * One planning case as a command line names it (solve, compare, budgets and the benches): the tensor setting and
 * budget, the recompute weight, the back-end and its limits, COSMA's encoding and the techniques switched off, the
 * minimum-peak beam, and how the graph decomposes. Every value is checked where the record is made, in one line
 * naming the option ({@link IllegalArgumentException}; the budget's form by {@link BudgetSpec#parse}). A sweep's
 * COSMA case runs as one too ({@code SweepCase.solveCase}); a command line's case becomes a spec's COSMA planner
 * through {@link #planner} and its solver axes through {@link #solverAxes}.
 *
 * @param setting null: the command's own default
 * @param budget as written (M_R, M_H, M_P, a fraction, bytes); null for a command without one
 * @param recomputeWeight lambda (bytes of traffic per cost unit), null for spill-only planning
 * @param timeLimit seconds, null for none; with a work limit the outer guard
 * @param workLimit deterministic work units, null for none (CP-SAT alone counts them)
 * @param off COSMA's techniques switched off
 * @param mpBeam the minimum-peak beam width pinned, null for {@link MinimumPeakScheduler#forCase}'s choice
 * @param decompose {@code auto}, {@code none} or a file of break nodes
 * @param breakNodes operator names (implies divide and conquer), null for none
 */
public record SolveCase(TensorSetting setting, String budget, Double recomputeWeight, Backend backend,
                        Double timeLimit, Double workLimit, int threads, PlannerChoice.Encoding encoding,
                        Set<Technique> off, Integer mpBeam, String decompose, int maxPart, List<String> breakNodes) {

    public SolveCase {
        off = Collections.unmodifiableSet(off.isEmpty() ? EnumSet.noneOf(Technique.class) : EnumSet.copyOf(off));
        breakNodes = breakNodes == null ? null : List.copyOf(breakNodes);
        if (budget != null) {
            // A mistyped budget fails before the graph is read; its bytes need the graph (BudgetChoice).
            BudgetSpec.parse(budget);
        }
        if (recomputeWeight != null && !(recomputeWeight >= 0 && Double.isFinite(recomputeWeight))) {
            throw new IllegalArgumentException("--recompute-weight: '" + recomputeWeight + "' is not a finite number"
                    + " >= 0 (bytes of traffic per cost unit)");
        }
        LimitValues.wall(timeLimit, "--time-limit");
        LimitValues.threads(threads, "--threads");
        if (workLimit != null) {
            LimitValues.work(workLimit, "--work-limit");
            if (backend != Backend.CPSAT) {
                throw new IllegalArgumentException("--work-limit needs --solver cpsat: CP-SAT counts deterministic "
                        + "time; SCIP, CBC, HiGHS and ojAlgo report no deterministic work memplan can count (use "
                        + "--time-limit with them)");
            }
        }
        if (mpBeam != null && mpBeam < 1) {
            throw new IllegalArgumentException("--mp-beam must be >= 1, got " + mpBeam);
        }
        if (maxPart < 1) {
            throw new IllegalArgumentException("--max-part must be >= 1, got " + maxPart);
        }
    }

    /**
     * lambda as the command line writes it, or null for none.
     *
     * @throws IllegalArgumentException for anything but a finite number >= 0
     */
    public static Double recomputeWeight(String text) {
        if (text == null) {
            return null;
        }
        double value;
        try {
            value = Double.parseDouble(text.strip());
        } catch (NumberFormatException e) {
            value = Double.NaN;
        }
        if (!(value >= 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException("--recompute-weight: '" + text + "' is not a finite number >= 0 (bytes"
                    + " of traffic per cost unit)");
        }
        return value;
    }

    /** The limits of one solve: the work under a work limit (the wall limit guards the command), else the wall. */
    public Limits limits() {
        if (workLimit != null) {
            return new Limits(threads, 0.0, 0L, LimitValues.budget(workLimit, null), null);
        }
        return new Limits(LimitValues.wall(timeLimit, "--time-limit"), threads, 0.0, 0L);
    }

    /**
     * The limits of a command whose time limit bounds its whole wall time, started at {@code startedNanos}: one budget
     * ({@link LimitValues#commandBudget}) every step reads what is left of.
     */
    public Limits commandLimits(long startedNanos) {
        Limits limits = limits();
        Duration wall = LimitValues.wall(timeLimit, "--time-limit");
        return timeLimit == null ? limits : limits.withBudget(LimitValues.commandBudget(workLimit, wall, startedNanos));
    }

    /** The "work" figure under a work limit ({@link LimitValues#workUsed}), null without one. */
    public String workUsed(Limits limits) {
        return limits.workMode() ? LimitValues.workUsed(limits.budget(), workLimit) : null;
    }

    /** The limits, threads, encoding and techniques off, as a report's solver line ends. */
    public String describe() {
        return (workLimit == null ? "" : "work limit " + workLimit + " units, ") + "time limit "
                + (timeLimit == null ? "none" : timeLimit + " s") + ", threads "
                + (workLimit == null ? threads : 1 + " (a work limit runs CP-SAT on one worker)") + ", encoding "
                + encoding + (off.isEmpty() ? "" : ", without " + offIds());
    }

    /** The encoding, with the techniques switched off if any (e.g. "decoupled without forced"). */
    public String encodingLabel() {
        return encoding + (off.isEmpty() ? "" : " without " + offIds());
    }

    private String offIds() {
        return String.join(",", off.stream().map(Technique::id).toList());
    }

    /** COSMA as a sweep case names it: this case's encoding and techniques, with more options (e.g. schedule=mpmf). */
    public PlannerChoice planner(Map<String, String> more) {
        Map<String, String> options = new java.util.HashMap<>(more);
        options.put("encoding", encoding.toString());
        return PlannerChoice.cosma(options, off);
    }

    /** The COSMA options of this case: objective, fixed schedule (or null), start plan (or null). */
    public CosmaSolver.Options cosma(CosmaObjective objective, Schedule schedule, Plan start) {
        return planner(Map.of()).cosmaOptions(objective, schedule, backend, start);
    }

    /** Whether the model keeps its lifetime windows (PRUNE is on). */
    public boolean pruned() {
        return !off.contains(Technique.PRUNE);
    }

    /** The axes this case fixes on a sweep spec: solver, time limit (and work limit), threads. */
    public SpecBuilder solverAxes(SpecBuilder spec) {
        return spec.solver(backend.id(), timeLimit, workLimit, threads);
    }

    /** The minimum-peak scheduler of this case on {@code g} ({@link MinimumPeakScheduler#forCase}). */
    public MinimumPeakScheduler minimumPeak(Graph g) {
        return MinimumPeakScheduler.forCase(mpBeam, workLimit != null, g.operatorCount(), backend);
    }

    /**
     * The pipeline's settings on {@code g}: how it decomposes (break nodes from the option or the file, each checked
     * to be an operator of {@code g}), the part size, the recompute weight.
     *
     * @throws IllegalArgumentException for an unreadable or empty break-node file or an unknown break node
     */
    public CosmaPipeline.Settings pipeline(Graph g, CosmaSolver.Options cosma, MinimumPeakScheduler mpmf) {
        CosmaPipeline.Settings settings = CosmaPipeline.Settings.of(cosma, mpmf).withMaxPart(maxPart)
                .withDecompose(decompose.equals("none") ? CosmaPipeline.Decompose.NONE : CosmaPipeline.Decompose.AUTO)
                .withRecomputeWeight(recomputeWeight);
        List<String> names = breakNodes;
        if (names == null && !decompose.equals("auto") && !decompose.equals("none")) {
            names = readBreakNodes(Path.of(decompose));
        }
        if (names == null) {
            return settings;
        }
        for (String name : names) {
            if (g.operatorIndex(name.strip()) < 0) {
                throw new IllegalArgumentException((breakNodes != null ? "--break-nodes" : decompose) + ": break node '"
                        + name.strip() + "' is not an operator of graph '" + g.name() + "'");
            }
        }
        return settings.withBreakNodes(names.stream().map(String::strip).toList());
    }

    /** How divide and conquer cut the graph, in a few words. */
    public static String describe(DivideAndConquer.Options options) {
        return options.breakNodes() != null ? options.breakNodes().size() + " break nodes given"
                : "automatic break nodes, parts of at most " + options.maxPart() + " operators";
    }

    private static List<String> readBreakNodes(Path file) {
        List<String> names;
        try {
            names = OperatorLists.names(Files.readString(file));
        } catch (IOException e) {
            throw new IllegalArgumentException("--decompose " + file + ": cannot read the break-node file: "
                    + AtomicFiles.reason(e) + "; use auto, none or a file with one operator name a line");
        }
        if (names.isEmpty()) {
            throw new IllegalArgumentException(file + ": no break node (one operator name a line)");
        }
        return names;
    }

    /**
     * The case read: the graph (every tensor), it in this case's setting, the minimum-peak scheduler and the budget
     * chosen; read under {@code limits}' clock (reading the graph and computing its budget poll it). {@code first}
     * gets the scheduler before the budget is computed, {@code stage} hears when that starts.
     */
    public Read read(java.util.function.Supplier<Graph> graph, Limits limits, Consumer<MinimumPeakScheduler> first,
                     Consumer<String> stage) {
        try (ClockGuard guard = ClockGuard.until(limits.budget())) {
            Graph full = graph.get();
            Graph g = full.withSetting(setting);
            MinimumPeakScheduler mpmf = minimumPeak(g);
            first.accept(mpmf);
            stage.accept("computing the budget " + budget);
            return new Read(full, g, setting, mpmf, BudgetChoice.resolve(budget, g, setting, mpmf, limits));
        }
    }

    /** A case read: the graph (every tensor), it in the setting, the setting, the scheduler, the budget. */
    public record Read(Graph full, Graph g, TensorSetting s, MinimumPeakScheduler mpmf, BudgetChoice chosen) {
        /** "NAME (N operators, M tensors, setting S)". */
        public String describe() {
            return g.name() + " (" + g.operatorCount() + " operators, " + g.tensorCount() + " tensors, setting "
                    + s.fileName() + ")";
        }
    }
}
