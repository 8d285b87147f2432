package dev.memplan.decomposition;

import dev.memplan.formulations.cosma.CosmaSolver;
import dev.memplan.formulations.cosma.ForcedTraffic;
import dev.memplan.formulations.cosma.ModelEstimate;
import dev.memplan.formulations.cosma.OperatorWindows;
import dev.memplan.model.CheckReport;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.HeapRoom;
import dev.memplan.model.Plan;
import dev.memplan.model.Budget;
import dev.memplan.model.Shares;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.SolveStatus;
import dev.memplan.model.SolverInfo;
import dev.memplan.model.TensorSetting;
import java.time.Duration;
import dev.memplan.model.Schedule;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * COSMA's divide and conquer (section IV-C, Table II "COSMA DnC") with three additions: break nodes chosen
 * automatically ({@link BreakNodes#automatic}), the on-chip state handed over across the cuts instead of
 * spilled ({@link StateHandover}, then, on graphs small enough, the fixed-schedule optimum of the stitched
 * order), and anytime improvement: a large neighbourhood search that re-solves windows of neighbouring parts
 * with a free schedule (everything outside the window fixed) and keeps a window's plan only when the checked
 * traffic of the whole plan falls. The result is never worse than the best starting plan given (the caller
 * passes the fixed-schedule optima FS(default), FS(MPMF) or the best scheme), and its lower bound is the forced
 * traffic of the whole graph with a free schedule ({@link ForcedTraffic}), computed beside the search.
 *
 * <p>Budget: every step takes a child of the run's {@link dev.memplan.model.Budget} ({@link RunShares}) and stops
 * on its own when that is spent; a part whose solve finds nothing keeps its starting plan. With a limit T, the
 * parts share {@link Shares#PARTS} of T ({@link Shares#LARGE_PARTS} above {@link #WHOLE_GRAPH_LIMIT} operators)
 * in proportion to their size, the fixed-schedule step gets {@link Shares#STITCHED_ORDER} of what is left, the
 * search the rest until {@link Shares#MARGIN} before the end. Without a limit each part and each step gets at most
 * {@link #STEP_CAP}, and the search makes one pass. Cost: one free-schedule program per part and per window.
 * Measured reasons for its constants and steps: BENCHMARKS.md, "Divide and conquer".
 */
public final class DivideAndConquer {
    /**
     * Default part size (operators): small enough that a part's free-schedule program is decided within a small
     * share, which leaves the windows their time.
     */
    public static final int DEFAULT_MAX_PART = 30;
    /**
     * Above this many operators {@code --decompose auto} splits the graph: below it the zoo's networks are proven
     * optimal whole, above it the NAS networks are not.
     */
    public static final int AUTO_THRESHOLD = 300;
    /**
     * Up to this many operators the whole graph's fixed-schedule program is built: the NAS networks' within
     * seconds, larger graphs' not usefully.
     */
    public static final int WHOLE_GRAPH_LIMIT = 600;
    /**
     * {@code --decompose auto} divides at once, without trying the whole graph first, when the whole graph's
     * free-schedule program without addresses would have at least this many nonzeros (estimated, {@link
     * ModelEstimate}): the NAS networks are above it and gain nothing from the whole program, generated layered
     * graphs of a few thousand operators are below it and proven whole.
     */
    public static final long WHOLE_FIRST_NONZEROS = 1_000_000;
    /**
     * {@code --decompose auto} on a graph of at most {@link #AUTO_THRESHOLD} operators runs the whole graph's program
     * first with {@link Shares#WHOLE_FIRST} of the limit and divide and conquer after it (as above the threshold)
     * when that program without addresses would have at least this many nonzeros (estimated, {@link ModelEstimate});
     * below it the whole program takes the whole limit. gen:cells:50:train (123 operators, about 577,000 nonzeros)
     * is above it: its whole program spent 57 of 60 units without proving anything, where divide and conquer after
     * 0.8 of them lowered its plan by 4.4% (BENCHMARKS.md, "Divide and conquer after the whole program below 300
     * operators"). Every zoo network's activations are below it (the transformer's, the largest, about 461,000).
     */
    public static final long SMALL_WHOLE_FIRST_NONZEROS = 500_000;
    /** Without a time limit, the most one part, one window or one fixed-schedule step may take. */
    public static final Duration STEP_CAP = Shares.STEP_CAP;
    // The shares of the limit (parts, bounds, window steps, margin) are named and explained in Shares.

    /**
     * @param cosma how each part and window is solved (its schedule and start are set here)
     * @param maxPart the most operators per part for automatic break nodes
     * @param breakNodes operators named by the user (null: automatic)
     * @param handover hand the state over across cuts and window edges (off: the paper's spill-at-cut plan, to
     *     measure what the handover buys)
     * @param windows run the large neighbourhood search
     * @param stemPlans offer the plans of the proven stems' orders ({@link StemPlans}; off: the stems give only
     *     their bound, to test the steps they would preempt)
     * @param admits the plans the run may keep (every plan; for the plans of a {@link RunGraph}, those that map back
     *     to valid plans of its graph); the starts must be admitted
     */
    public record Options(CosmaSolver.Options cosma, int maxPart, List<String> breakNodes, boolean handover,
                          boolean windows, boolean stemPlans, Predicate<Plan> admits) {

        public static Options of(CosmaSolver.Options cosma) {
            return new Options(cosma, DEFAULT_MAX_PART, null, true, true, true, EVERY_PLAN);
        }

        /** Every plan (one instance, so that two options made alike are equal). */
        private static final Predicate<Plan> EVERY_PLAN = p -> true;

        public Options withMaxPart(int value) {
            return new Options(cosma, value, breakNodes, handover, windows, stemPlans, admits);
        }

        public Options withBreakNodes(List<String> value) {
            return new Options(cosma, maxPart, value, handover, windows, stemPlans, admits);
        }

        public Options withHandover(boolean value) {
            return new Options(cosma, maxPart, breakNodes, value, windows, stemPlans, admits);
        }

        public Options withWindows(boolean value) {
            return new Options(cosma, maxPart, breakNodes, handover, value, stemPlans, admits);
        }

        public Options withStemPlans(boolean value) {
            return new Options(cosma, maxPart, breakNodes, handover, windows, value, admits);
        }

        Options withAdmits(Predicate<Plan> value) {
            return new Options(cosma, maxPart, breakNodes, handover, windows, stemPlans, value);
        }
    }

    private DivideAndConquer() {
    }

    /**
     * Whether {@code --decompose auto} should try the whole graph (in its tensor setting) first: its free-schedule
     * program without addresses is estimated below {@link #WHOLE_FIRST_NONZEROS} nonzeros and to fit the heap
     * ({@link HeapRoom#fits(long, Limits)}: under a work limit, half of -Xmx, whatever is free at the moment).
     * Null when it should; otherwise the reason, for the report.
     */
    public static String wholeFirstDoesNotPayOff(Graph g, Limits limits) {
        // The estimate itself needs every operator's ancestor set: n^2 bits (5 GB on 200,000 operators).
        long ancestorBytes = (long) g.operatorCount() * g.operatorCount() / 8;
        if (!HeapRoom.fits(ancestorBytes, limits)) {
            return "the whole graph (" + g.operatorCount() + " operators) is too large even to estimate its program:"
                    + " its ancestor sets alone need " + (ancestorBytes >> 20) + " MB";
        }
        ModelEstimate e = freeEstimate(g);
        if (e.nonzeros() >= WHOLE_FIRST_NONZEROS) {
            return "the whole graph's free program without addresses (" + e + ") has " + WHOLE_FIRST_NONZEROS
                    + " nonzeros or more";
        }
        if (!HeapRoom.fits(e.bytes(), limits)) {
            return "the whole graph's free program without addresses (" + e + ") would not fit: "
                    + HeapRoom.shortfall("it", e.bytes(), limits);
        }
        return null;
    }

    /**
     * Whether {@code --decompose auto} should follow the whole program of a graph of at most {@link #AUTO_THRESHOLD}
     * operators (in its tensor setting) by divide and conquer: its free-schedule program without addresses is
     * estimated at {@link #SMALL_WHOLE_FIRST_NONZEROS} nonzeros or more. A deterministic rule of the graph alone.
     * Null when the whole program should take the whole limit; otherwise the reason, for the report.
     */
    public static String smallGraphWholeFirst(Graph g) {
        ModelEstimate e = freeEstimate(g);
        return e.nonzeros() < SMALL_WHOLE_FIRST_NONZEROS ? null : "the whole graph's free program without addresses ("
                + e + ") has " + SMALL_WHOLE_FIRST_NONZEROS + " nonzeros or more";
    }

    /** The estimate of the whole graph's free-schedule program without addresses, pruned. */
    private static ModelEstimate freeEstimate(Graph g) {
        return ModelEstimate.of(g, OperatorWindows.of(g, null, true), true, false);
    }

    /** The partition the options ask for. */
    public static Partition partition(Graph g, Options options) {
        return options.breakNodes() != null ? BreakNodes.given(g, options.breakNodes())
                : BreakNodes.automatic(g, options.maxPart());
    }

    /**
     * Divide and conquer on a graph in its tensor setting at a budget.
     *
     * @param starts checked plans to start from (may be empty): the result is never worse than the best
     * @param progress receives one line per stage (stderr in the CLI)
     * @throws IllegalArgumentException when the budget is below M_R or a break node is unknown
     */
    public static DncResult solve(Graph graph, TensorSetting setting, long budget, Options options, Limits limits,
                                  List<Plan> starts, Consumer<String> progress) {
        return solve(graph, setting, budget, options, limits, starts, List.of(), progress);
    }

    /**
     * Divide and conquer as above, with {@code alternatives}: checked plans that neither decide the cuts nor become
     * the plan the windows first improve (the pipeline's restarts: a start with less traffic but a high peak leaves
     * the search less to gain); the windows rerun from each of them once the search has come up empty with budget
     * left ({@link WindowSearch#reruns}), and all are offered at the end, before the final bound. The result is never
     * worse than the best of them.
     */
    public static DncResult solve(Graph graph, TensorSetting setting, long budget, Options options, Limits limits,
                                  List<Plan> starts, List<Plan> alternatives, Consumer<String> progress) {
        Graph g = graph.withSetting(setting);
        RunShares shares = new RunShares(limits, graph.operatorCount() <= WHOLE_GRAPH_LIMIT ? Shares.FINAL_BOUND : 0);
        if (limits.workMode()) {
            // Each stage line says how much work the run has used: the measure its shares are taken of.
            Consumer<String> lines = progress;
            progress = line -> lines.accept(line + String.format(Locale.ROOT, " [work %.3f]",
                    limits.budget().workUsed()));
        }
        DncRun run = new DncRun(g, setting, budget, options, shares, starts, alternatives, progress);
        begin(run);
        List<StepReport> reports = new ArrayList<>();
        for (Step step : STEPS) {
            reports.add(step.run(run));
        }
        return finish(run, reports);
    }

    /** A step of divide and conquer over its run: it reads and updates the run and says whether it ran. */
    private record Step(String name, Function<DncRun, StepReport.Status> body) {

        /** Runs the step (skipped once an earlier step decided the result) and reports what it did and spent. */
        StepReport run(DncRun run) {
            long began = System.nanoTime();
            Double workBefore = run.shares.workUsed();
            StepReport.Status status = run.finished && !name.equals(BOUND_STEP) ? StepReport.Status.SKIPPED
                    : body.apply(run);
            Double workAfter = run.shares.workUsed();
            return new StepReport(name, status, run.best.plan() == null ? null : run.best.traffic(),
                    run.bound.getNow(null), (System.nanoTime() - began) / 1e9,
                    workAfter == null ? null : workAfter - workBefore);
        }
    }

    private static final String BOUND_STEP = "bound";

    /** The steps, in order; each returns what it did and the driver reports it ({@link StepReport}). */
    private static final List<Step> STEPS = List.of(
            new Step("parts", DncParts::parts),
            new Step("stitch", DivideAndConquer::stitch),
            new Step("stitched order", DivideAndConquer::stitchedOrder),
            new Step("stem", StemPlans::step),
            new Step("windows", WindowSearch::windows),
            new Step("reruns", WindowSearch::reruns),
            new Step(BOUND_STEP, DivideAndConquer::bound));

    /**
     * Before the steps: the starts offered to the best, the lower bound started beside the search, the cuts; the
     * run is finished at once when the best start meets the bound.
     */
    private static void begin(DncRun run) {
        Graph g = run.g;
        for (Plan s : run.starts) {
            long t = run.best.offer(s, "start (" + (s.solver() == null ? "given" : s.solver().name()) + ")");
            run.startTraffic = run.startTraffic == null ? t : Math.min(run.startTraffic, t);
        }
        run.bound = DncBounds.lower(g, run.budget, run.best.plan() == null ? Long.MAX_VALUE : run.best.traffic(),
                run.shares);
        if (run.shares.work()) {
            // Under a work limit the bound is known before the search, so that no decision depends on when it
            // arrives (it charges its own share of the work).
            run.bound.join();
        }
        // Automatic break nodes cut the best start's order, so that each part is a stretch of consecutive timesteps
        // of that plan and starts from it; given break nodes start from the part's just-in-time plan in that order.
        Plan startPlan = run.best.plan();
        run.partition = run.options.breakNodes() != null || startPlan == null ? partition(g, run.options)
                : BreakNodes.automatic(g, run.options.maxPart(), startPlan.schedule().resolve(g));
        run.contiguous = run.options.breakNodes() == null && startPlan != null;
        run.progress.accept(String.format(Locale.ROOT, "dnc: %d parts (largest %d operators), %d bytes cross the cuts",
                run.partition.size(), run.partition.largestPart(), run.partition.totalCutBytes()));
        if (run.best.plan() != null && (run.best.traffic() == 0 || run.best.meets(run.bound))) {
            run.progress.accept("dnc: the starting plan meets the lower bound; nothing to divide");
            run.finished = true;
        }
    }

    /** The on-chip state handed over across the cuts instead of spilled ({@link StateHandover}). */
    private static StepReport.Status stitch(DncRun run) {
        run.handover = run.spillAtCut;
        if (run.options.handover()) {
            run.current = StateHandover.apply(run.g, run.current, run.shares.limits().budget());
            run.handover = PlanChecker.requireValid(run.g, run.current, "divide and conquer (state handover)")
                    .traffic().nonCompulsory();
            run.best.offer(run.current, "parts, state handed over");
        }
        run.progress.accept("dnc: stitched, traffic " + run.spillAtCut + " spilling at the cuts, " + run.handover
                + " with the state handed over");
        return run.options.handover() ? StepReport.Status.DONE : StepReport.Status.SKIPPED;
    }

    /**
     * The fixed-schedule optimum of the stitched order with {@link Shares#STITCHED_ORDER} of what is left, unless
     * that order is a start's order, which has had its fixed-schedule program (FS(default), FS(MPMF)): a second
     * program on it gains nothing.
     */
    private static StepReport.Status stitchedOrder(DncRun run) {
        Schedule stitchedOrder = run.current.schedule();
        boolean startOrder = run.starts.stream().anyMatch(p -> p.schedule().equals(stitchedOrder));
        if (startOrder) {
            run.progress.accept("dnc: the stitched order is a starting plan's order; no second fixed-schedule "
                    + "program");
        }
        if (!run.options.handover() || run.g.operatorCount() > WHOLE_GRAPH_LIMIT || run.shares.over() || startOrder) {
            return StepReport.Status.SKIPPED;
        }
        Plan p = run.fixedSchedule(run.current, run.shares.fractionOfRest(Shares.STITCHED_ORDER));
        if (p != null) {
            run.polished = run.best.offer(p, "parts, fixed-schedule optimum of their order");
            run.progress.accept("dnc: fixed-schedule optimum of the stitched order, traffic " + run.polished);
        }
        return StepReport.Status.DONE;
    }

    /**
     * The restart plans offered, then the bound: the larger of the one computed beside the search and the stems'
     * (from the stem step, {@link StemPlans#step}) and, with budget left, the last bound step with the final traffic
     * as its target ({@link DncBounds#last}, which offers each proven stem's plans too). After the parts ran out, the
     * bound known then.
     */
    private static StepReport.Status bound(DncRun run) {
        run.offerAlternatives();
        if (run.cut) {
            run.lower = run.bound.getNow(null);
            return StepReport.Status.SKIPPED;
        }
        Long lower = DncBounds.waitFor(run.bound, run.shares);
        if (run.stemBound > 0) {
            lower = lower == null ? run.stemBound : Math.max(lower, run.stemBound);
        }
        run.lower = DncBounds.last(run.g, run.budget, run.best, lower, run.shares,
                (order, room) -> StemPlans.offerIfAsked(run, order, room));
        return StepReport.Status.DONE;
    }

    private static DncResult finish(DncRun run, List<StepReport> reports) {
        Plan plan = run.best.plan();
        CheckReport report = plan == null ? PlanChecker.requireValid(run.g, plan, "divide and conquer")
                : run.best.report();
        long traffic = report.traffic().nonCompulsory();
        Long lower = run.lower;
        SolveStatus status = traffic == 0 || (lower != null && traffic <= lower) ? SolveStatus.OPTIMAL
                : SolveStatus.FEASIBLE;
        if (traffic == 0) {
            lower = 0L;
        }
        Double gap = lower == null ? null : traffic == 0 ? 0.0 : Math.max(0, traffic - lower) / (double) traffic;
        double seconds = run.shares.wallSeconds();
        Plan labelled = plan.withResult(report.traffic(), new SolverInfo("dnc/" + run.options.cosma().backend().id()
                + " (" + run.best.source() + ")", status, seconds, lower));
        return new DncResult(labelled, report, status, traffic, lower, gap, seconds, run.partition, run.spillAtCut,
                run.handover, run.polished, run.startTraffic, run.windowsTried, run.windowsAccepted,
                run.best.source(), List.copyOf(reports));
    }

}
