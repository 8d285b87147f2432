package dev.memplan.decomposition;

import dev.memplan.formulations.cosma.CosmaResult;
import dev.memplan.formulations.cosma.CosmaSolver;
import dev.memplan.formulations.cosma.ForcedTraffic;
import dev.memplan.formulations.cosma.ModelEstimate;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.formulations.cosma.OperatorWindows;
import dev.memplan.model.CheckReport;
import dev.memplan.model.Graph;
import dev.memplan.model.JustInTimePlanner;
import dev.memplan.model.Limits;
import dev.memplan.model.Origin;
import dev.memplan.model.HeapRoom;
import dev.memplan.model.Plan;
import dev.memplan.model.Budget;
import dev.memplan.model.Shares;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.Segment;
import dev.memplan.model.SolveStatus;
import dev.memplan.model.SolverInfo;
import dev.memplan.model.TensorSetting;
import java.time.Duration;
import dev.memplan.model.Schedule;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

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
 */
public final class DivideAndConquer {
    /**
     * Default part size (operators), measured on NASNet at M_R with a 60 s limit (BENCHMARKS.md, "Divide and
     * conquer"): parts of at most 60 operators took 3-27 s each on the free-schedule program, parts of 30 took
     * 0.5-5 s, which leaves time for the windows.
     */
    public static final int DEFAULT_MAX_PART = 30;
    /**
     * Above this many operators {@code --decompose auto} splits the graph: the ten human-designed networks (47 to
     * 212 operators) are proven optimal whole within seconds, the NAS networks (383 to 510) are not within minutes.
     */
    public static final int AUTO_THRESHOLD = 300;
    /**
     * Up to this many operators the whole graph's fixed-schedule program is built (NAS networks, 383-510 operators:
     * 1-6 s; a 1,000-operator generated graph: over 30 s without proving anything, BENCHMARKS.md).
     */
    public static final int WHOLE_GRAPH_LIMIT = 600;
    /**
     * {@code --decompose auto} divides at once, without trying the whole graph first, when the whole graph's
     * free-schedule program without addresses would have at least this many nonzeros (estimated). Measured
     * (BENCHMARKS.md, "Divide and conquer"): the NAS networks have 1.2-3.7 million and their whole pipeline returns
     * only its starting plan (NASNet at M_R with 60 s: 1,409,472 B whole first against 344,960 B divided at once);
     * gen:layered:1,000-5,000 have 72,000-357,000 and are proven optimal whole within seconds; gen:cells:1,000 has
     * 1.6 million, gen:layered:20,000 1.4 million.
     */
    public static final long WHOLE_FIRST_NONZEROS = 1_000_000;
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
     */
    public record Options(CosmaSolver.Options cosma, int maxPart, List<String> breakNodes, boolean handover,
                          boolean windows) {

        public static Options of(CosmaSolver.Options cosma) {
            return new Options(cosma, DEFAULT_MAX_PART, null, true, true);
        }

        public Options withMaxPart(int value) {
            return new Options(cosma, value, breakNodes, handover, windows);
        }

        public Options withBreakNodes(List<String> value) {
            return new Options(cosma, maxPart, value, handover, windows);
        }

        public Options withHandover(boolean value) {
            return new Options(cosma, maxPart, breakNodes, value, windows);
        }

        public Options withWindows(boolean value) {
            return new Options(cosma, maxPart, breakNodes, handover, value);
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
        ModelEstimate e = ModelEstimate.of(g, OperatorWindows.of(g, null, true), true, false);
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
     * the search less to gain, measured on PNASNet and AmoebaNet at M_R, BENCHMARKS.md "Deterministic work limits",
     * session 11); the windows search from each of them once the main search has come up empty with time left,
     * or after half of what is left when one of them beats the best plan before the search ({@link #restarts}),
     * and all are offered at the end, before the final bound. The result is never worse than the best of them.
     */
    public static DncResult solve(Graph graph, TensorSetting setting, long budget, Options options, Limits limits,
                                  List<Plan> starts, List<Plan> alternatives, Consumer<String> progress) {
        Graph g = graph.withSetting(setting);
        RunShares run = new RunShares(limits, graph.operatorCount() <= WHOLE_GRAPH_LIMIT ? Shares.FINAL_BOUND : 0);
        if (limits.workMode()) {
            // Each stage line says how much work the run has used: the measure its shares are taken of.
            Consumer<String> lines = progress;
            progress = line -> lines.accept(line + String.format(Locale.ROOT, " [work %.3f]", limits.budget().workUsed()));
        }

        Best best = new Best(g);
        Long startTraffic = null;
        for (Plan s : starts) {
            long t = best.offer(s, "start (" + (s.solver() == null ? "given" : s.solver().name()) + ")");
            startTraffic = startTraffic == null ? t : Math.min(startTraffic, t);
        }
        CompletableFuture<Long> bound = lowerBound(g, budget, best.plan() == null ? Long.MAX_VALUE : best.traffic(),
                run);
        if (run.work()) {
            // Under a work limit the bound is known before the search, so that no decision depends on when it
            // arrives (it charges its own share of the work).
            bound.join();
        }

        // Automatic break nodes cut the best start's order, so that each part is a stretch of consecutive timesteps
        // of that plan and starts from it; given break nodes start from the part's just-in-time plan in that order.
        Plan startPlan = best.plan();
        Partition partition = options.breakNodes() != null || startPlan == null ? partition(g, options)
                : BreakNodes.automatic(g, options.maxPart(), startPlan.schedule().resolve(g));
        boolean contiguous = options.breakNodes() == null && startPlan != null;
        progress.accept(String.format(Locale.ROOT, "dnc: %d parts (largest %d operators), %d bytes cross the cuts",
                partition.size(), partition.largestPart(), partition.totalCutBytes()));
        if (best.plan() != null && (best.traffic() == 0 || best.meets(bound))) {
            progress.accept("dnc: the starting plan meets the lower bound; nothing to divide");
            offerAll(best, alternatives);
            return finish(g, options, best, finalBound(g, budget, best, waitFor(bound, run), run), run,
                    partition, null, null, null, startTraffic, 0, 0);
        }
        // The parts, each solved alone with a free schedule (the paper's scheme).
        int[] startPosition = startPlan == null ? null : PlanSplicer.positions(g, startPlan);
        List<Plan> partPlans = new ArrayList<>();
        int at = 0;
        int left = g.operatorCount();
        long partsEnd = run.fraction(g.operatorCount() <= WHOLE_GRAPH_LIMIT ? Shares.PARTS : Shares.LARGE_PARTS);
        for (int k = 0; k < partition.size(); k++) {
            if (run.over()) {
                // Past the deadline nothing is stitched: the parts so far are no plan of the whole graph.
                progress.accept(String.format(Locale.ROOT, "dnc: the time is up after %d of %d parts; the best "
                        + "plan so far is kept", k, partition.size()));
                offerAll(best, alternatives);
                return finish(g, options, best, bound.getNow(null), run, partition, null, null, null,
                        startTraffic, 0, 0);
            }
            int[] ops = partition.parts().get(k);
            SubGraph part = SubGraph.of(g, ops, g.name() + "/part" + k);
            long share = run.shareUntil(partsEnd, ops.length, left);
            left -= ops.length;
            Plan partStart = contiguous ? PlanSplicer.restrict(g, startPlan, startPosition, at, at + ops.length - 1, part)
                    : null;
            at += ops.length;
            if (partStart == null) {
                partStart = new JustInTimePlanner(startPosition == null ? null : inOrder(g, part, startPosition))
                        .plan(part.graph(), setting, budget, Limits.DEFAULT);
            }
            if (share < Math.round(Shares.MIN_SOLVE * 1e9)) {
                // No time left for a program: the part's starting plan as it is.
                partPlans.add(partStart);
                progress.accept(String.format(Locale.ROOT, "dnc: part %d/%d (%d operators): its starting plan (no "
                        + "time left)", k + 1, partition.size(), ops.length));
                continue;
            }
            Plan partFrom = partStart;
            CosmaResult r;
            try {
                r = CosmaSolver.solve(part.graph(), setting, budget,
                        options.cosma().withSchedule(null).withStart(partFrom), run.step(share));
            } catch (IllegalStateException e) {
                progress.accept("dnc: part " + (k + 1) + " keeps its starting plan: " + e.getMessage()
                        + " (part saved as " + saved(part.graph(), partFrom) + ")");
                r = null;
            }
            if (r == null || r.plan() == null) {
                partPlans.add(partStart);
                progress.accept(String.format(Locale.ROOT, "dnc: part %d/%d (%d operators): its starting plan (the "
                        + "solve overran its time)", k + 1, partition.size(), ops.length));
                continue;
            }
            partPlans.add(r.plan());
            progress.accept(String.format(Locale.ROOT, "dnc: part %d/%d (%d operators) %s, traffic %d, %.1f s",
                    k + 1, partition.size(), ops.length, r.status(), r.objective(), r.seconds()));
        }
        Plan stitched = PlanSplicer.concatenate(g, setting, budget, partPlans);
        long spillAtCut = PlanChecker.requireValid(g, stitched, "divide and conquer (spill at cut)").traffic()
                .nonCompulsory();
        best.offer(stitched, "parts, spill at cut");
        long handover = spillAtCut;
        Plan current = stitched;
        if (options.handover()) {
            current = StateHandover.apply(g, stitched);
            handover = PlanChecker.requireValid(g, current, "divide and conquer (state handover)").traffic()
                    .nonCompulsory();
            best.offer(current, "parts, state handed over");
        }
        progress.accept("dnc: stitched, traffic " + spillAtCut + " spilling at the cuts, " + handover
                + " with the state handed over");
        Long polished = null;
        // A stitched order that is a start's order has had its fixed-schedule program (FS(default), FS(MPMF)) unless
        // that overran:
        // on PNASNet at M_R the parts kept FS(MPMF)'s order and a second program on it took 10.7 of 60 work units
        // for nothing; the windows get them instead.
        Schedule stitchedOrder = current.schedule();
        boolean startOrder = starts.stream().anyMatch(p -> p.schedule().equals(stitchedOrder));
        if (startOrder) {
            progress.accept("dnc: the stitched order is a starting plan's order; no second fixed-schedule program");
        }
        if (options.handover() && g.operatorCount() <= WHOLE_GRAPH_LIMIT && !run.over() && !startOrder) {
            Plan p = fixedSchedule(g, setting, budget, options, current, run.fractionOfRest(Shares.STITCHED_ORDER), run, limits);
            if (p != null) {
                polished = best.offer(p, "parts, fixed-schedule optimum of their order");
                progress.accept("dnc: fixed-schedule optimum of the stitched order, traffic " + polished);
            }
        }

        int[] counts = new int[2];
        if (options.windows() && partition.size() > 1) {
            // When a restart plan already beats the best plan so far, the main search gets half of what is left and
            // the restarts the rest, instead of only what the main search leaves (AmoebaNet at M_H, BENCHMARKS.md).
            long cheapest = alternatives.stream().mapToLong(DivideAndConquer::recorded).min().orElse(Long.MAX_VALUE);
            long rest = run.left();
            long until = cheapest < best.traffic() && rest != Budget.NONE
                    ? run.elapsed() + rest / Shares.WINDOWS_BEFORE_RERUNS_DIVISOR : Budget.NONE;
            if (until != Budget.NONE) {
                progress.accept("dnc: a restart plan (traffic " + cheapest + ") beats the best so far (" + best.traffic()
                        + "): the windows get half of what is left, the windows from the restarts the rest");
            }
            search(g, setting, budget, options, best, bound, run, limits, progress, counts, until);
            restarts(g, setting, budget, options, best, bound, run, limits, progress, counts, alternatives);
        }
        int tried = counts[0];
        int accepted = counts[1];

        offerAll(best, alternatives);
        return finish(g, options, best, finalBound(g, budget, best, waitFor(bound, run), run), run, partition,
                spillAtCut, handover, polished, startTraffic, tried, accepted);
    }

    /**
     * Restarts: when every kind of pass has come up empty (or the main search's half of the time is over, when a
     * restart plan beat the best before it) and time (or work) is left, the window search runs again from each
     * alternative plan, the cheapest first (ties in the order given), as a search of its own whose result is offered
     * to the best; until the time is up or the best meets the bound. Without a limit there are none (the search
     * makes one round).
     */
    private static void restarts(Graph g, TensorSetting setting, long budget, Options options, Best best,
                                 CompletableFuture<Long> bound, RunShares run, Limits limits,
                                 Consumer<String> progress, int[] counts, List<Plan> alternatives) {
        if (!limits.budget().limited() || alternatives.isEmpty()) {
            return;
        }
        // Ordered by the traffic their makers recorded (checked plans), and each checked again only when its turn
        // comes: on a very large graph a check takes seconds, and the time may be up before the first.
        List<Plan> order = new ArrayList<>(alternatives);
        order.sort(Comparator.comparingLong(DivideAndConquer::recorded));
        for (Plan p : order) {
            if (run.searchOver() || best.meets(bound)) {
                return;
            }
            Best start = new Best(g);
            String from = "restart (" + (p.solver() == null ? "given" : p.solver().name()) + ")";
            long before = start.offer(p, from);
            progress.accept("dnc: the windows again, from " + from + ", traffic " + before);
            search(g, setting, budget, options, start, bound, run, limits, progress, counts, Budget.NONE);
            if (start.traffic() < before) {
                best.offer(start.plan(), from + ", windows");
            }
        }
    }

    /** The non-compulsory traffic a plan's maker recorded (Long.MAX_VALUE when it recorded none). */
    private static long recorded(Plan p) {
        return p.traffic() == null ? Long.MAX_VALUE : p.traffic().nonCompulsory();
    }

    /** The search is over: the run's, or past {@code until} (elapsed time or work; NONE: no such point). */
    private static boolean over(RunShares run, long until) {
        return run.searchOver() || until != Budget.NONE && run.elapsed() >= until;
    }

    /**
     * One pass of the window search: windows of {@code width} consecutive timesteps, half-overlapping, the first
     * starting at {@code offset}; {@code context} re-orders each window knowing what the rest of the plan keeps on
     * chip ({@link WindowOrder}), otherwise the window is solved alone like a part.
     */
    private record Pass(int width, int offset, boolean context) {
    }

    /**
     * The large neighbourhood search: passes of windows, each kept while it improves the plan; once a pass finds
     * nothing, the next kind of pass (another width, another offset, with or without the context) until every kind
     * has come up empty since the last improvement, the time is up or the plan meets the bound. Without a time
     * limit it makes at most as many passes as there are kinds.
     */
    private static void search(Graph g, TensorSetting setting, long budget, Options options, Best best,
                               CompletableFuture<Long> bound, RunShares run, Limits limits, Consumer<String> progress,
                               int[] counts, long until) {
        int n = g.operatorCount();
        int width = Math.min(n, Math.max(2, options.maxPart()));
        List<Pass> passes = new ArrayList<>();
        boolean small = n <= WHOLE_GRAPH_LIMIT;
        // The windows solved alone first: on NASNet they find most of the gain within seconds (BENCHMARKS.md).
        passes.add(new Pass(width, 0, false));
        if (small) {
            // Half-width windows in context first: their programs are decided within a second, and on PNASNet at
            // M_R they found the gain (1,199,360 -> 413,952 B) that later, slower passes reached too late.
            passes.add(new Pass(Math.max(2, width / 2), 0, true));
            passes.add(new Pass(width, 0, true));
            passes.add(new Pass(width, Math.max(1, width / 4), true));
            passes.add(new Pass(Math.min(n, 2 * width), 0, true));
        }
        passes.add(new Pass(width, Math.max(1, width / 4), false));
        int idle = 0;
        int k = 0;
        int ran = 0;
        while (idle < passes.size() && !over(run, until) && !best.meets(bound)) {
            if (!limits.budget().limited() && ran == passes.size()) {
                break;
            }
            Pass pass = passes.get(k % passes.size());
            ran++;
            boolean improved = pass(g, setting, budget, options, best, bound, run, limits, progress, counts, pass,
                    until);
            if (improved) {
                idle = 0;
            } else {
                idle++;
                k++;
            }
        }
    }

    /**
     * One pass: the pass's windows, left to right, that can gain anything (alone: some bytes are loaded again in it;
     * in context: some tensor is off chip during it while still needed). Ranking them by those bytes instead was
     * tried and dropped: on PNASNet at M_R it ended at 533,120 B against 495,488 B left to right, and on
     * AmoebaNet's solve it changed nothing.
     */
    private static boolean pass(Graph g, TensorSetting setting, long budget, Options options, Best best,
                                CompletableFuture<Long> bound, RunShares run, Limits limits, Consumer<String> progress,
                                int[] counts, Pass pass, long until) {
        int n = g.operatorCount();
        int stride = Math.max(1, pass.width() / 2);
        long[] weight = pass.context() ? offChipBytes(g, best.plan()) : loadedBytes(g, best.plan());
        long[] prefix = new long[n + 1];
        for (int t = 0; t < n; t++) {
            prefix[t + 1] = prefix[t] + weight[t];
        }
        List<int[]> windows = new ArrayList<>();
        for (int a = pass.offset(); a < n - 1; a += stride) {
            int b = Math.min(n - 1, a + pass.width() - 1);
            // No reload in a window (alone), or no tensor off chip during it (in context): nothing to save there.
            if (prefix[b + 1] - prefix[a] > 0) {
                windows.add(new int[] {a, b});
            }
            if (b == n - 1) {
                break;
            }
        }
        boolean improved = false;
        for (int[] w : windows) {
            if (over(run, until) || best.meets(bound)) {
                break;
            }
            int a = w[0];
            int b = w[1];
            counts[0]++;
            Long value = pass.context()
                    ? contextWindow(g, setting, budget, options, best, a, b, run, limits)
                    : window(g, setting, budget, options, best, a, b, run, limits, progress);
            if (value != null) {
                counts[1]++;
                improved = true;
                progress.accept("dnc: window " + a + ".." + b + (pass.context() ? " (in context)" : "")
                        + " improved the plan to " + value);
            }
        }
        return improved;
    }

    /** The bytes of the plan's non-compulsory loads by the timestep they start at. */
    private static long[] loadedBytes(Graph g, Plan plan) {
        long[] at = new long[g.operatorCount()];
        plan.segments().forEach((name, list) -> {
            int x = g.tensorIndex(name);
            for (int i = 0; i < list.size(); i++) {
                Segment s = list.get(i);
                if (s.origin() == Origin.LOADED && (i > 0 || !g.isHost(x))) {
                    at[s.start()] += g.size(x);
                }
            }
        });
        return at;
    }

    /** The bytes off chip at each timestep while still needed (between two segments of a tensor, the later loaded). */
    private static long[] offChipBytes(Graph g, Plan plan) {
        int n = g.operatorCount();
        long[] delta = new long[n + 1];
        plan.segments().forEach((name, list) -> {
            int x = g.tensorIndex(name);
            for (int i = 1; i < list.size(); i++) {
                if (list.get(i).origin() == Origin.LOADED) {
                    int from = list.get(i - 1).end() + 1;
                    int to = list.get(i).start();
                    delta[from] += g.size(x);
                    delta[to + 1] -= g.size(x);
                }
            }
        });
        long[] at = new long[n];
        long sum = 0;
        for (int t = 0; t < n; t++) {
            sum += delta[t];
            at[t] = sum;
        }
        return at;
    }

    /**
     * Re-orders timesteps [a, b] of the best plan knowing the rest of it ({@link WindowOrder}), then decides the new
     * order with the whole graph's fixed-schedule program, started from the old plan with the window's just-in-time
     * plan spliced in and the state handed over; returns the new traffic when it fell, or null.
     */
    private static Long contextWindow(Graph g, TensorSetting setting, long budget, Options options, Best best, int a,
                                      int b, RunShares run, Limits limits) {
        Plan current = best.plan();
        int[] order = current.schedule().resolve(g);
        long proposeShare = run.step() / Shares.WINDOW_PROPOSAL_DIVISOR;
        List<String> proposed = WindowOrder.propose(g, setting, current, order, a, b, windowBackend(options, limits),
                run.step(proposeShare));
        if (proposed == null || run.over()) {
            return null;
        }
        int[] ops = proposed.stream().mapToInt(g::operatorIndex).toArray();
        SubGraph sub = SubGraph.of(g, ops, g.name() + "/window" + a);
        Plan jit = new JustInTimePlanner(new Schedule(proposed)).plan(sub.graph(), setting, budget, Limits.DEFAULT);
        Plan spliced = PlanSplicer.splice(g, current, a, b, jit);
        Plan candidate = options.handover() ? StateHandover.apply(g, spliced) : spliced;
        long before = best.traffic();
        best.offer(candidate, "windows");
        Plan p = fixedSchedule(g, setting, budget, options, candidate, run.step(), run, limits);
        if (p != null) {
            best.offer(p, "windows");
        }
        return best.traffic() < before ? best.traffic() : null;
    }

    private static DncResult finish(Graph g, Options options, Best best, Long lower, RunShares run, Partition partition,
                                    Long spillAtCut, Long handover, Long polished, Long startTraffic, int tried,
                                    int accepted) {
        Plan plan = best.plan();
        CheckReport report = PlanChecker.requireValid(g, plan, "divide and conquer");
        long traffic = report.traffic().nonCompulsory();
        SolveStatus status = traffic == 0 || (lower != null && traffic <= lower) ? SolveStatus.OPTIMAL
                : SolveStatus.FEASIBLE;
        if (traffic == 0) {
            lower = 0L;
        }
        Double gap = lower == null ? null : traffic == 0 ? 0.0 : Math.max(0, traffic - lower) / (double) traffic;
        double seconds = run.wallSeconds();
        Plan labelled = plan.withResult(report.traffic(),
                new SolverInfo("dnc/" + options.cosma().backend().id() + " (" + best.source() + ")", status, seconds,
                        lower));
        return new DncResult(labelled, report, status, traffic, lower, gap, seconds, partition, spillAtCut, handover,
                polished, startTraffic, tried, accepted, best.source());
    }

    /** Offers each alternative plan (labelled by its maker) to the best so far. */
    private static void offerAll(Best best, List<Plan> alternatives) {
        for (Plan p : alternatives) {
            best.offer(p, "start (" + (p.solver() == null ? "given" : p.solver().name()) + ")");
        }
    }

    /** The part's operators in the order of the given positions (a topological order of the part). */
    private static Schedule inOrder(Graph g, SubGraph part, int[] position) {
        return new Schedule(Arrays.stream(part.operators()).boxed().sorted(Comparator.comparingInt(o -> position[o]))
                .map(o -> g.operator(o).name()).toList());
    }

    /**
     * Re-solves timesteps [a, b] of the best plan with a free schedule and keeps the result when the whole plan's
     * checked traffic falls; returns the new traffic, or null.
     */
    private static Long window(Graph g, TensorSetting setting, long budget, Options options, Best best, int a, int b,
                               RunShares run, Limits limits, Consumer<String> progress) {
        Plan current = best.plan();
        int[] order = current.schedule().resolve(g);
        int[] position = new int[order.length];
        for (int t = 0; t < order.length; t++) {
            position[order[t]] = t;
        }
        int[] ops = Arrays.copyOfRange(order, a, b + 1);
        SubGraph sub = SubGraph.of(g, ops, g.name() + "/window" + a);
        long share = run.step();
        Plan from = PlanSplicer.restrict(g, current, position, a, b, sub);
        CosmaResult r;
        try {
            r = CosmaSolver.solve(sub.graph(), setting, budget, options.cosma().withSchedule(null).withStart(from),
                    run.step(share));
        } catch (IllegalStateException e) {
            // A bug of the solver on this window (its own check failed): the window is skipped, the bug reported
            // with the window's graph saved, so the search goes on from a plan that is still checked.
            progress.accept("dnc: window " + a + ".." + b + " skipped: " + e.getMessage() + " (window saved as "
                    + saved(sub.graph(), from) + ")");
            return null;
        }
        if (r == null || r.plan() == null) {
            return null;
        }
        long before = best.traffic();
        Plan spliced = PlanSplicer.splice(g, current, a, b, r.plan());
        Plan candidate = options.handover() ? StateHandover.apply(g, spliced) : spliced;
        best.offer(candidate, "windows");
        if (g.operatorCount() <= WHOLE_GRAPH_LIMIT && !run.over()) {
            Plan p = fixedSchedule(g, setting, budget, options, candidate, run.step(), run, limits);
            if (p != null) {
                best.offer(p, "windows");
            }
        }
        return best.traffic() < before ? best.traffic() : null;
    }

    /**
     * The back-end of a window's program without addresses: SCIP where COSMA's is CP-SAT, as CosmaSolver's decoupled
     * step does for the same program (its LP bound decides small programs of this kind). Not shown better by
     * measurement: `solve amoebanet --budget M_R --time-limit 60` ended at 1,390,656 B with CP-SAT here and at
     * 1,428,288 B with SCIP, within the run-to-run spread (BENCHMARKS.md). Under a work limit CP-SAT: SCIP counts
     * no deterministic work, so it would read its share of work as wall seconds, and the window's order (and the
     * plan) would depend on the machine's load (gen:cells:400:3 at 2 units differed about one run in two).
     */
    private static Backend windowBackend(Options options, Limits limits) {
        Backend b = options.cosma().backend();
        return b == Backend.CPSAT && !limits.workMode() ? Backend.SCIP : b;
    }

    /**
     * Writes a graph and the plan its solve started from (which a solver bug may need to show again) to temporary
     * files for a bug report; the graph's path (the plan's is beside it, {@code .start.json}), or why they could
     * not be written.
     */
    private static String saved(Graph graph, Plan start) {
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

    /** The fixed-schedule optimum of a plan's order, started from the plan; null when nothing better came out. */
    private static Plan fixedSchedule(Graph g, TensorSetting setting, long budget, Options options, Plan start,
                                      long share, RunShares run, Limits limits) {
        CosmaResult r = CosmaSolver.solve(g, setting, budget,
                options.cosma().withSchedule(start.schedule()).withStart(start), run.step(share));
        return r == null ? null : r.plan();
    }

    /**
     * The lower bound of the whole graph with a free schedule, computed on a daemon thread beside the search: the
     * forced traffic ({@link ForcedTraffic}) and, up to {@link #WHOLE_GRAPH_LIMIT} operators, the live-bytes bound
     * ({@link PeakBound}) with the best starting traffic as its target, whichever is higher.
     */
    private static CompletableFuture<Long> lowerBound(Graph g, long budget, long target, RunShares run) {
        CompletableFuture<Long> f = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                // The free windows keep every operator's ancestor set (n^2 bits): beyond the heap, no bound.
                long n = g.operatorCount();
                if (!HeapRoom.fits(n * n / 8, run.limits())) {
                    f.complete(null);
                    return;
                }
                long forced = ForcedTraffic.of(g, OperatorWindows.free(g, true), budget).bound();
                long live = 0;
                if (g.operatorCount() <= WHOLE_GRAPH_LIMIT && forced < target && !run.over()) {
                    live = PeakBound.of(g, budget, target, PeakBound.DEFAULT_STATE_CAP, run.early()).traffic();
                }
                f.complete(Math.max(forced, live));
            } catch (RuntimeException | OutOfMemoryError e) {
                f.complete(null);
            }
        }, "dnc-lower-bound");
        t.setDaemon(true);
        t.start();
        return f;
    }

    /**
     * The bound once the search is over: when the plan is not proven and time is left (up to
     * {@link #WHOLE_GRAPH_LIMIT} operators), the live-bytes bound again with the final traffic as its target, which
     * prunes more and may prove the plan optimal (PNASNet at M_H: 123,872 B proven in 0.1 s).
     */
    private static Long finalBound(Graph g, long budget, Best best, Long lower, RunShares run) {
        if (best.plan() == null || best.traffic() == 0 || g.operatorCount() > WHOLE_GRAPH_LIMIT
                || (lower != null && best.traffic() <= lower) || run.over()) {
            return lower;
        }
        try {
            Limits room = run.left() == Budget.NONE ? run.step(STEP_CAP.toNanos()) : run.rest();
            PeakBound.Result r = PeakBound.of(g, budget, best.traffic(), PeakBound.DEFAULT_STATE_CAP, room);
            return lower == null ? r.traffic() : Math.max(lower, r.traffic());
        } catch (OutOfMemoryError e) {
            return lower;
        }
    }

    private static Long waitFor(CompletableFuture<Long> bound, RunShares run) {
        try {
            long left = run.left();
            return left == Budget.NONE ? bound.get() : bound.get(Math.max(1, left / 1_000_000), TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** The best checked plan so far and where it came from. */
    private static final class Best {
        private final Graph g;
        private Plan plan;
        private long traffic = Long.MAX_VALUE;
        private String source;

        Best(Graph g) {
            this.g = g;
        }

        /** Checks the plan, keeps it when it is strictly better; returns its traffic. */
        Long offer(Plan candidate, String from) {
            long t = PlanChecker.requireValid(g, candidate, "divide and conquer (" + from + ")").traffic()
                    .nonCompulsory();
            if (t < traffic) {
                traffic = t;
                plan = candidate;
                source = from;
            }
            return t;
        }

        long traffic() {
            return traffic;
        }

        boolean meets(CompletableFuture<Long> bound) {
            Long b = bound.getNow(null);
            return b != null && traffic <= b;
        }

        Plan plan() {
            return plan;
        }

        String source() {
            return source;
        }
    }
}
