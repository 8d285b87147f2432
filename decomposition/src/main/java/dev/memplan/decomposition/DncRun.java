package dev.memplan.decomposition;

import dev.memplan.formulations.cosma.CosmaResult;
import dev.memplan.formulations.cosma.CosmaSolver;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Plan;
import dev.memplan.model.TensorSetting;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * One run of divide and conquer: the graph in its setting, the budget, the options, the run's limits and how its
 * steps share them ({@link RunShares}), the best checked plan so far, the lower bound computed beside the search,
 * and what each step left for the next (the partition, the stitched plan, the stage traffics, the window counts).
 * Every step of {@link DivideAndConquer} reads and writes this object instead of a dozen parameters.
 */
final class DncRun {
    final Graph g;
    final TensorSetting setting;
    final long budget;
    final DivideAndConquer.Options options;
    final Limits limits;
    final RunShares shares;
    final BestPlan best;
    final Consumer<String> progress;
    /** Checked plans that start the run; the best decides the cuts and is the plan the windows first improve. */
    final List<Plan> starts;
    /** The pipeline's restarts: plans the windows rerun from at the end, offered before the final bound. */
    final List<Plan> alternatives;
    /** Which checked plans the run may keep (every one, unless the graph is a {@link RunGraph}). */
    final Predicate<Plan> admits;

    CompletableFuture<Long> bound;
    Partition partition;
    /** The best start's order cut into parts (each a stretch of its timesteps), or null. */
    boolean contiguous;
    Long startTraffic;
    Long spillAtCut;
    Long handover;
    Long polished;
    /** The plan the windows start from: the stitched parts, with the state handed over. */
    Plan current;
    int windowsTried;
    int windowsAccepted;
    /** A step decided the result: the steps after it are skipped. */
    boolean finished;
    /** The parts ran out of budget: no stitched plan, and no final bound. */
    boolean cut;
    /** The stems' bound found before the window search ({@link StemBound#growing}; 0: none). */
    long stemBound;
    /** The lower bound the result reports (set by the last step). */
    Long lower;

    DncRun(Graph g, TensorSetting setting, long budget, DivideAndConquer.Options options, RunShares shares,
           List<Plan> starts, List<Plan> alternatives, Consumer<String> progress) {
        this.g = g;
        this.setting = setting;
        this.budget = budget;
        this.options = options;
        this.limits = shares.limits();
        this.shares = shares;
        this.admits = options.admits();
        this.best = new BestPlan(g, admits);
        this.starts = starts;
        this.alternatives = alternatives;
        this.progress = progress;
    }

    /** The fixed-schedule optimum of a plan's order with {@code share}, started from the plan; null: none found. */
    Plan fixedSchedule(Plan start, long share) {
        CosmaResult r = CosmaSolver.solve(g, setting, budget,
                options.cosma().withSchedule(start.schedule()).withStart(start), shares.step(share));
        return r == null ? null : r.plan();
    }

    /** Offers each alternative plan (labelled by its maker) to the best so far. */
    void offerAlternatives() {
        for (Plan p : alternatives) {
            best.offer(p, "start (" + (p.solver() == null ? "given" : p.solver().name()) + ")");
        }
    }

    /**
     * Writes a graph and the plan its solve started from (which a solver bug may need to show again) to temporary
     * files for a bug report; the graph's path (the plan's is beside it, {@code .start.json}), or why they could
     * not be written.
     */
    static String saved(Graph graph, Plan start) {
        try {
            java.nio.file.Path file = java.nio.file.Files.createTempFile("memplan-dnc-window-", ".json");
            dev.memplan.model.io.GraphJson.write(graph, file);
            if (start != null) {
                dev.memplan.model.io.PlanJson.write(start, java.nio.file.Path.of(
                        file.toString().replaceFirst("\\.json$", ".start.json")));
            }
            return file + (start == null ? "" : ", its starting plan beside it (.start.json)");
        } catch (java.io.IOException | RuntimeException e) {
            return "nowhere: " + e.getMessage();
        }
    }
}
