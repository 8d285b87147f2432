package dev.memplan.decomposition;

import dev.memplan.baselines.replacement.AddressRule;
import dev.memplan.baselines.replacement.BeladyReplacement;
import dev.memplan.baselines.replacement.GreedyReplacement;
import dev.memplan.baselines.replacement.Scheme;
import dev.memplan.baselines.replacement.Schemes;
import dev.memplan.baselines.scheduling.GivenOrderScheduler;
import dev.memplan.baselines.scheduling.MinimumPeakScheduler;
import dev.memplan.formulations.cosma.CosmaObjective;
import dev.memplan.formulations.cosma.CosmaResult;
import dev.memplan.formulations.cosma.CosmaSolver;
import dev.memplan.formulations.cosma.FixedOrderBound;
import dev.memplan.formulations.cosma.Technique;
import dev.memplan.model.Budgets;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Plan;
import dev.memplan.model.PlanResult;
import dev.memplan.model.Budget;
import dev.memplan.model.ClockGuard;
import dev.memplan.model.Planner;
import dev.memplan.model.Schedule;
import dev.memplan.model.Shares;
import dev.memplan.model.SolveStatus;
import dev.memplan.model.TensorSetting;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The COSMA solve sequence, the one every entry point runs ({@code solve}, {@code compare}, the sweep engine, the
 * bench commands), so that one case gives one answer whichever command runs it:
 * <ol>
 *   <li>below the least aligned budget no plan exists: COSMA proves INFEASIBLE at once, nothing else runs;</li>
 *   <li>the starting plans: the caller's (compare's scheme rows), else the best of the paper's four schemes (on a
 *       fixed schedule: Belady and greedy replacement on that order), and with a free schedule the training step's
 *       levelled order ({@link LevelledStarts}) and the restarts from narrower minimum-peak orders
 *       ({@link Restarts}), each only while the time or work left allows it
 *       ({@link Shares#SCHEME_NANOS_PER_OPERATOR});</li>
 *   <li>traffic with a free schedule on a graph whose whole program without addresses is estimated too large
 *       ({@link DivideAndConquer#wholeFirstDoesNotPayOff}, whatever its size), above
 *       {@link DivideAndConquer#AUTO_THRESHOLD} operators or with a program large for its size
 *       ({@link DivideAndConquer#smallGraphWholeFirst}), or with break nodes: divide and conquer, after the whole
 *       graph's program with {@link Shares#WHOLE_FIRST} of what is left unless that program is estimated too large,
 *       and from its plan unless that plan is proven ({@link DncStep}): the schemes, the fixed-schedule optima FS(default) and FS(MPMF) of graphs up to
 *       {@link DivideAndConquer#WHOLE_GRAPH_LIMIT} operators ({@link Shares#FIXED_START} each), then
 *       {@link DivideAndConquer} with the rest;</li>
 *   <li>otherwise the whole graph's program ({@link CosmaSolver}) from the best starting plan; with a fixed
 *       schedule its bound is then raised to the fixed-order caching bound of the plan's order
 *       ({@link FixedOrderBound}) where that is higher (the plan stays the one the program gave);</li>
 *   <li>without a recompute weight, the traffic bound of either road is raised to the cover summed over time
 *       without recomputes ({@link SpillOnlyTimeBound}) where that is higher.</li>
 * </ol>
 * With a recompute weight ({@link Settings#recomputeWeight()}) and the traffic objective, these steps are the
 * spill-only part of {@link RecomputeStep}: the recompute baselines run before them, the joint program after them,
 * and the answer is the best plan by traffic + lambda x recompute cost.
 * 
 * Every plan it returns is checked. Progress goes to the listener given (one line per stage; divide and conquer's
 * part and window lines are many); the pipeline prints nothing itself. Measured reasons: BENCHMARKS.md, "Divide and
 * conquer".
 */
public final class CosmaPipeline implements Planner {

    /** How the pipeline treats a graph with a free schedule and the traffic objective. */
    public enum Decompose {
        /**
         * Divide and conquer when the whole graph's program is estimated too large, else above
         * {@link DivideAndConquer#AUTO_THRESHOLD} operators (or with a program large for its size) with the whole
         * graph first.
         */
        AUTO,
        /** The whole graph's program only. */
        NONE,
        /** Divide and conquer at once, at the given break nodes or automatic ones. */
        ALWAYS
    }

    /**
     * What the pipeline runs.
     *
     * @param cosma the COSMA options (objective, fixed schedule or null, back-end, encoding, techniques); its
     *     start plan is ignored: the pipeline chooses the start
     * @param breakNodes operator names (implies {@link Decompose#ALWAYS}); null for automatic ones
     * @param mpmf the minimum-peak scheduler of the case (FS(MPMF) and the mpmf schemes); null to skip them
     * @param schemeStart false to start COSMA from the just-in-time plan instead of the best scheme (a sweep's
     *     {@code start: jit})
     * @param recomputeWeight lambda, bytes of traffic per unit of recompute cost, when operators may run again
     *     (the objective is traffic + lambda x recompute cost); null for spill-only planning
     */
    public record Settings(CosmaSolver.Options cosma, Decompose decompose, List<String> breakNodes, int maxPart,
                           MinimumPeakScheduler mpmf, boolean schemeStart, Double recomputeWeight) {

        public Settings {
            if (maxPart < 1) {
                throw new IllegalArgumentException("the most operators per part must be >= 1, got " + maxPart);
            }
            breakNodes = breakNodes == null ? null : List.copyOf(breakNodes);
            decompose = breakNodes != null ? Decompose.ALWAYS : decompose;
            if (recomputeWeight != null && !(recomputeWeight >= 0 && Double.isFinite(recomputeWeight))) {
                throw new IllegalArgumentException("the recompute weight must be a finite number >= 0, got "
                        + recomputeWeight);
            }
        }

        /** Automatic decomposition, parts of the default size, the schemes as starts. */
        public static Settings of(CosmaSolver.Options cosma, MinimumPeakScheduler mpmf) {
            return new Settings(cosma, Decompose.AUTO, null, DivideAndConquer.DEFAULT_MAX_PART, mpmf, true, null);
        }

        public Settings withDecompose(Decompose value) {
            return new Settings(cosma, value, breakNodes, maxPart, mpmf, schemeStart, recomputeWeight);
        }

        public Settings withBreakNodes(List<String> value) {
            return new Settings(cosma, value == null ? decompose : Decompose.ALWAYS, value, maxPart, mpmf, schemeStart,
                    recomputeWeight);
        }

        public Settings withMaxPart(int value) {
            return new Settings(cosma, decompose, breakNodes, value, mpmf, schemeStart, recomputeWeight);
        }

        public Settings withSchemeStart(boolean value) {
            return new Settings(cosma, decompose, breakNodes, maxPart, mpmf, value, recomputeWeight);
        }

        /** Operators may run again at lambda = {@code value} bytes per cost unit; null for spill-only planning. */
        public Settings withRecomputeWeight(Double value) {
            return new Settings(cosma, decompose, breakNodes, maxPart, mpmf, schemeStart, value);
        }

        /** The divide-and-conquer options these settings give. */
        public DivideAndConquer.Options dnc() {
            DivideAndConquer.Options o = DivideAndConquer.Options.of(cosma.withStart(null)).withMaxPart(maxPart);
            return breakNodes == null ? o : o.withBreakNodes(breakNodes);
        }
    }

    /**
     * A run in detail: the result, and what each step reached (null where a step did not run), for the tables of
     * {@code solve} and {@code bench dnc}.
     *
     * @param whole the whole graph's program (the only step, or the first of {@code --decompose auto})
     * @param dnc divide and conquer's result, when it ran
     * @param bestStart the best starting plan no program made (a scheme's), null when none ran
     * @param recompute the recompute step, with a recompute weight (null without one); then {@code result} is its
     *     answer (objective and bound rounded to whole bytes; the exact ones are here) and the other components
     *     are those of its spill-only steps
     */
    public record Outcome(PlanResult result, CosmaResult whole, DncResult dnc, CosmaResult fsDefault,
                          CosmaResult fsMpmf, Plan bestStart, DivideAndConquer.Options dncOptions,
                          RecomputeOutcome recompute) {

        /** A run without a recompute weight. */
        public Outcome(PlanResult result, CosmaResult whole, DncResult dnc, CosmaResult fsDefault,
                       CosmaResult fsMpmf, Plan bestStart, DivideAndConquer.Options dncOptions) {
            this(result, whole, dnc, fsDefault, fsMpmf, bestStart, dncOptions, null);
        }
    }

    private final Settings settings;
    private final Consumer<String> progress;

    public CosmaPipeline(Settings settings, Consumer<String> progress) {
        this.settings = settings;
        this.progress = progress == null ? line -> { } : progress;
    }

    public Settings settings() {
        return settings;
    }

    @Override
    public String name() {
        return "cosma/" + settings.cosma().backend().id();
    }

    @Override
    public PlanResult solve(Graph graph, TensorSetting setting, long budget, Limits limits) {
        return run(graph, setting, budget, limits, null).result();
    }

    /**
     * One run of the sequence.
     *
     * @param graph the graph with every tensor (the setting selects)
     * @param givenStarts checked plans to start from (compare's scheme rows, spill only); null: the pipeline runs
     *     the schemes
     */
    public Outcome run(Graph graph, TensorSetting setting, long budget, Limits limits, List<Plan> givenStarts) {
        Double lambda = settings.recomputeWeight();
        if (lambda == null || settings.cosma().objective() != CosmaObjective.TRAFFIC) {
            Graph g = graph.withSetting(setting);
            boolean cover = settings.cosma().objective() == CosmaObjective.TRAFFIC
                    && SpillOnlyCover.applies(g, settings.cosma().schedule(), limits);
            Outcome o = spillOnly(graph, setting, budget, cover ? limits.child(1 - Shares.ORDER_COVER) : limits,
                    givenStarts);
            o = cover ? SpillOnlyCover.lower(g, budget, limits.child(), o,
                    settings.cosma().uses(Technique.ORDER_MOVES)) : o;
            return settings.cosma().objective() != CosmaObjective.TRAFFIC ? o : SpillOnlyTimeBound.raise(
                    g, budget, settings.cosma().schedule(), limits, o);
        }
        return new RecomputeStep(settings, lambda, progress).run(graph, setting, budget, limits,
                share -> spillOnly(graph, setting, budget, share, givenStarts));
    }

    /** The sequence without recomputation (the steps of the class comment). */
    private Outcome spillOnly(Graph graph, TensorSetting setting, long budget, Limits limits, List<Plan> givenStarts) {
        RunShares clock = new RunShares(limits, 0);
        Graph g = graph.withSetting(setting);
        CosmaSolver.Options cosma = settings.cosma();
        // Below the least aligned budget no plan exists: COSMA proves INFEASIBLE at once, nothing else runs.
        boolean traffic = cosma.objective() == CosmaObjective.TRAFFIC && budget >= Budgets.minimumFeasible(g);
        boolean free = cosma.schedule() == null;
        List<Plan> starts = new ArrayList<>();
        if (traffic) {
            if (givenStarts != null) {
                starts.addAll(givenStarts);
            } else if (settings.schemeStart()) {
                progress.accept("the starting plans (the paper's schemes) ...");
                starts.addAll(schemePlans(graph, setting, budget, limits));
            }
            if (free && (givenStarts != null || settings.schemeStart())) {
                starts.addAll(LevelledStarts.plans(graph, setting, budget, limits, progress));
            }
        }
        // The restarts: starts of the whole graph's program, and divide and conquer's alternatives (see there).
        List<Plan> restarts = traffic && free && (givenStarts != null || settings.schemeStart())
                ? new Restarts(settings.mpmf(), settings.cosma(), progress).plans(graph, setting, budget, limits)
                : List.of();
        Plan bestStart = best(concat(starts, restarts));
        Route route = traffic && free ? route(g, limits) : Route.WHOLE;
        DivideAndConquer.Options dnc = route == Route.WHOLE ? null : settings.dnc();
        CosmaResult whole = null;
        if (route == Route.WHOLE_FIRST) {
            whole = wholeFirst(graph, setting, budget, cosma.withStart(bestStart), limits);
            if (!decomposeAfter(whole, limits)) {
                dnc = null;
            }
        }
        if (dnc != null) {
            List<Plan> dncStarts = new ArrayList<>();
            if (whole != null && whole.plan() != null) {
                dncStarts.add(whole.plan());
            }
            Plan bestScheme = best(starts);
            if (bestScheme != null) {
                dncStarts.add(bestScheme);
            }
            return new DncStep(settings, progress).run(graph, setting, budget, dnc, limits, dncStarts,
                    new DncStep.Starts(starts, restarts, whole, givenStarts != null || settings.schemeStart()), clock);
        }
        CosmaResult r = whole;
        if (r == null) {
            progress.accept("solving at budget " + budget + " (Ctrl-C stops and keeps the best checked plan so far) ...");
            r = CosmaSolver.solve(graph, setting, budget, cosma.withStart(bestStart), limits);
            if (traffic && !free && settings.recomputeWeight() == null) {
                // After the run, so that the plan is the one the run would give without it. Not with recomputes:
                // the bound covers plans that run each operator once.
                r = FixedOrderBound.raise(g, r, budget);
            }
        }
        PlanResult result = new PlanResult(name(), r.status(), r.plan(), r.check(), r.objective(), r.bound(), r.gap(),
                clock.wallSeconds(), clock.workUsed(), limits.budget().wallStopped(), r.notes());
        return new Outcome(result, r, null, null, null, bestStart, null);
    }

    /** Where a graph with a free schedule and the traffic objective goes. */
    private enum Route {
        /** The whole graph's program only. */
        WHOLE,
        /** The whole graph's program with {@link Shares#WHOLE_FIRST} of what is left, then divide and conquer. */
        WHOLE_FIRST,
        /** Divide and conquer at once. */
        DIVIDE
    }

    /**
     * The route of this graph. With {@link Decompose#AUTO}: a graph whose whole program without addresses is
     * estimated too large ({@link DivideAndConquer#wholeFirstDoesNotPayOff}: the NAS networks, the zoo's training
     * graphs) is divided at once whatever its size, since that program spends the run and finds nothing; otherwise
     * a graph of up to {@link DivideAndConquer#AUTO_THRESHOLD} operators is solved whole unless its program is large
     * for its size ({@link DivideAndConquer#smallGraphWholeFirst}), a larger one or that one whole first.
     */
    private Route route(Graph g, Limits limits) {
        return switch (settings.decompose()) {
            case NONE -> Route.WHOLE;
            case ALWAYS -> Route.DIVIDE;
            case AUTO -> {
                String whyNot = wholeProgramDoesNotPayOff(g, limits);
                if (whyNot != null) {
                    progress.accept("decompose auto: divide and conquer at once: " + whyNot);
                    yield Route.DIVIDE;
                }
                if (g.operatorCount() > DivideAndConquer.AUTO_THRESHOLD) {
                    yield Route.WHOLE_FIRST;
                }
                String large = DivideAndConquer.smallGraphWholeFirst(g);
                if (large == null) {
                    yield Route.WHOLE;
                }
                progress.accept("decompose auto: the whole graph first, then divide and conquer: " + large);
                yield Route.WHOLE_FIRST;
            }
        };
    }

    /**
     * {@link DivideAndConquer#wholeFirstDoesNotPayOff} within the run's clock: the estimate needs every operator's
     * ancestor set (seconds to tens of seconds on tens of thousands of operators), and a graph whose estimate the
     * clock stops is divided at once. With a wall limit it keeps a scheme's time ({@link Budget#schemeNeeds}): divide
     * and conquer makes the default scheme's plan next when no start has one, whatever is left (gen:layered:5000:train
     * at 12 s under load: the estimate ran to the end of the limit, then that plan took 9 s past it).
     */
    private static String wholeProgramDoesNotPayOff(Graph g, Limits limits) {
        Budget clock = limits.budget();
        long left = clock.left();
        Budget estimate = clock.workMode() || left == Budget.NONE ? clock
                : clock.upTo(Math.max(0, left - clock.schemeNeeds(g.operatorCount())));
        try (ClockGuard guard = ClockGuard.until(estimate)) {
            return DivideAndConquer.wholeFirstDoesNotPayOff(g, limits);
        } catch (ClockGuard.TimeUpException e) {
            if (limits.workMode()) {
                limits.budget().markWallStop();
            }
            return e.getMessage();
        }
    }

    /**
     * With {@link Decompose#AUTO} on a graph above {@link DivideAndConquer#AUTO_THRESHOLD} operators whose program
     * is not estimated too large (or on a smaller one whose program is large for its size,
     * {@link DivideAndConquer#smallGraphWholeFirst}), the whole graph's program runs first, with
     * {@link Shares#WHOLE_FIRST} of what is left ({@link DivideAndConquer#STEP_CAP} without a limit); divide and
     * conquer follows only when that did not prove its plan optimal and starts from its plan, so auto is never worse
     * than the whole graph's program within its share.
     */
    private CosmaResult wholeFirst(Graph full, TensorSetting s, long budget, CosmaSolver.Options options,
                                   Limits limits) {
        long left = limits.budget().left();
        long amount = left == Budget.NONE ? Shares.STEP_CAP.toNanos() : Math.round(left * Shares.WHOLE_FIRST);
        Limits share = limits.upTo(amount);
        progress.accept("decompose auto: the whole graph first (" + amount / 1_000_000 / 1000.0
                + " s), divide and conquer after it unless its plan is proven optimal ...");
        CosmaResult r = CosmaSolver.solve(full, s, budget, options, share);
        progress.accept("decompose auto: the whole graph gave " + r.status() + ", traffic "
                + (r.objective() == null ? "-" : r.objective()));
        return r;
    }

    /** Whether divide and conquer should follow the whole graph's result: not proven, and time is left. */
    private static boolean decomposeAfter(CosmaResult whole, Limits limits) {
        return whole.status() != SolveStatus.OPTIMAL && whole.status() != SolveStatus.INFEASIBLE && !limits.stopped();
    }

    /**
     * The schemes' plans: the paper's four on a free schedule; Belady and greedy replacement (TFLite's arena) on a
     * fixed one. Each runs only while twice {@link Shares#SCHEME_NANOS_PER_OPERATOR} per operator is left: a scheme
     * spills far less than the just-in-time plan, so a tight limit that leaves no time for a program still returns a
     * good plan. A scheme whose packing fails offers nothing.
     */
    private List<Plan> schemePlans(Graph full, TensorSetting s, long budget, Limits limits) {
        Schedule fixed = settings.cosma().schedule();
        List<String> paper = Schemes.PAPER.stream()
                .filter(name -> settings.mpmf() != null || !name.startsWith("mpmf/")).toList();
        List<Scheme> schemes = fixed == null ? Schemes.byNames(paper, settings.mpmf())
                : List.of(new Scheme(new GivenOrderScheduler(fixed), new BeladyReplacement(), AddressRule.TFLITE),
                        new Scheme(new GivenOrderScheduler(fixed), new GreedyReplacement(), AddressRule.TFLITE));
        long needs = limits.budget().schemeNeeds(full.operatorCount());
        List<Plan> plans = new ArrayList<>();
        for (Scheme scheme : schemes) {
            if (limits.budget().left() < needs) {
                progress.accept("scheme " + scheme.name() + " skipped: no time left within the limit");
                continue;
            }
            PlanResult r = scheme.solve(full, s, budget, limits);
            if (r.planned()) {
                plans.add(r.plan());
            }
        }
        return plans;
    }

    static List<Plan> concat(List<Plan> a, List<Plan> b) {
        List<Plan> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    /** The least-traffic plan of {@code plans}, null when there is none. */
    static Plan best(List<Plan> plans) {
        Plan best = null;
        for (Plan p : plans) {
            if (p != null && p.traffic() != null
                    && (best == null || p.traffic().nonCompulsory() < best.traffic().nonCompulsory())) {
                best = p;
            }
        }
        return best;
    }

}
