package dev.memplan.decomposition;

import dev.memplan.formulations.cosma.CosmaResult;
import dev.memplan.formulations.cosma.CosmaSolver;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.model.Budget;
import dev.memplan.model.Graph;
import dev.memplan.model.JustInTimePlanner;
import dev.memplan.model.Limits;
import dev.memplan.model.Origin;
import dev.memplan.model.Plan;
import dev.memplan.model.Schedule;
import dev.memplan.model.Segment;
import dev.memplan.model.Shares;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The anytime part of divide and conquer: a large neighbourhood search (Shaw, CP 1998) that re-solves windows of
 * neighbouring timesteps with a free schedule, everything outside the window fixed, and keeps a window's plan only
 * when the checked traffic of the whole plan falls; then the reruns of that search from the pipeline's restart
 * plans. Each window costs one free-schedule program of at most twice the part size, plus one fixed-schedule
 * program of the whole graph up to {@link DivideAndConquer#WHOLE_GRAPH_LIMIT} operators. Measured reasons for its
 * passes and shares: BENCHMARKS.md, "Divide and conquer".
 */
final class WindowSearch {

    private WindowSearch() {
    }

    /**
     * One pass of the window search: windows of {@code width} consecutive timesteps, half-overlapping, the first
     * starting at {@code offset}; {@code context} re-orders each window knowing what the rest of the plan keeps on
     * chip ({@link WindowOrder}), otherwise the window is solved alone like a part.
     */
    private record Pass(int width, int offset, boolean context) {
    }

    /**
     * The search from the run's current best plan. When a restart plan already beats the best plan so far, the
     * search gets 1/{@link Shares#WINDOWS_BEFORE_RERUNS_DIVISOR} of what is left and the reruns the rest, instead of
     * only what the search leaves.
     */
    static StepReport.Status windows(DncRun run) {
        if (!run.options.windows() || run.partition.size() <= 1) {
            return StepReport.Status.SKIPPED;
        }
        long cheapest = run.alternatives.stream().mapToLong(WindowSearch::recorded).min().orElse(Long.MAX_VALUE);
        long rest = run.shares.left();
        long until = cheapest < run.best.traffic() && rest != Budget.NONE
                ? run.shares.elapsed() + rest / Shares.WINDOWS_BEFORE_RERUNS_DIVISOR : Budget.NONE;
        if (until != Budget.NONE) {
            run.progress.accept("dnc: a restart plan (traffic " + cheapest + ") beats the best so far ("
                    + run.best.traffic() + "): the windows get half of what is left, the windows from the restarts"
                    + " the rest");
        }
        search(run, run.best, until);
        return run.shares.over() ? StepReport.Status.OUT_OF_BUDGET : StepReport.Status.DONE;
    }

    /**
     * The reruns: when every kind of pass has come up empty (or the search's share is over, when a restart plan beat
     * the best before it) and time (or work) is left, the window search runs again from each restart plan, the
     * cheapest first (ties in the order given), as a search of its own whose result is offered to the best; until
     * the budget is spent or the best meets the bound. Without a limit there are none (the search makes one round).
     */
    static StepReport.Status reruns(DncRun run) {
        if (!run.options.windows() || run.partition.size() <= 1 || !run.limits.budget().limited()
                || run.alternatives.isEmpty()) {
            return StepReport.Status.SKIPPED;
        }
        // Ordered by the traffic their makers recorded (checked plans), and each checked again only when its turn
        // comes: on a very large graph a check takes seconds, and the budget may be spent before the first.
        List<Plan> order = new ArrayList<>(run.alternatives);
        order.sort(Comparator.comparingLong(WindowSearch::recorded));
        for (Plan p : order) {
            if (run.shares.searchOver() || run.best.meets(run.bound)) {
                break;
            }
            BestPlan start = new BestPlan(run.g, run.admits);
            String from = "restart (" + (p.solver() == null ? "given" : p.solver().name()) + ")";
            long before = start.offer(p, from);
            run.progress.accept("dnc: the windows again, from " + from + ", traffic " + before);
            search(run, start, Budget.NONE);
            if (start.traffic() < before) {
                run.best.offer(start.plan(), from + ", windows");
            }
        }
        return run.shares.over() ? StepReport.Status.OUT_OF_BUDGET : StepReport.Status.DONE;
    }

    /** The non-compulsory traffic a plan's maker recorded (Long.MAX_VALUE when it recorded none). */
    private static long recorded(Plan p) {
        return p.traffic() == null ? Long.MAX_VALUE : p.traffic().nonCompulsory();
    }

    /** The search is over: the run's, or past {@code until} (elapsed time or work; NONE: no such point). */
    private static boolean over(RunShares shares, long until) {
        return shares.searchOver() || until != Budget.NONE && shares.elapsed() >= until;
    }

    /** The kinds of pass, the cheapest first. */
    private static List<Pass> passes(int n, int maxPart) {
        int width = Math.min(n, Math.max(2, maxPart));
        List<Pass> passes = new ArrayList<>();
        // The windows solved alone first: they find most of the gain soonest.
        passes.add(new Pass(width, 0, false));
        if (n <= DivideAndConquer.WHOLE_GRAPH_LIMIT) {
            // Half-width windows in context first: their programs are the smallest, and they find gain that the
            // later, slower passes reach too late.
            passes.add(new Pass(Math.max(2, width / 2), 0, true));
            passes.add(new Pass(width, 0, true));
            passes.add(new Pass(width, Math.max(1, width / 4), true));
            passes.add(new Pass(Math.min(n, 2 * width), 0, true));
        }
        passes.add(new Pass(width, Math.max(1, width / 4), false));
        return passes;
    }

    /**
     * Passes of windows improving {@code best}, each kind kept while it improves the plan; once a pass finds
     * nothing, the next kind, until every kind has come up empty since the last improvement, the search is over or
     * the plan meets the bound. Without a limit it makes at most as many passes as there are kinds.
     */
    private static void search(DncRun run, BestPlan best, long until) {
        List<Pass> passes = passes(run.g.operatorCount(), run.options.maxPart());
        int idle = 0;
        int k = 0;
        int ran = 0;
        while (idle < passes.size() && !over(run.shares, until) && !best.meets(run.bound)) {
            if (!run.limits.budget().limited() && ran == passes.size()) {
                break;
            }
            Pass pass = passes.get(k % passes.size());
            ran++;
            if (pass(run, best, pass, until)) {
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
     * tried and dropped.
     */
    private static boolean pass(DncRun run, BestPlan best, Pass pass, long until) {
        boolean improved = false;
        for (int[] w : windowsOf(run.g, best.plan(), pass)) {
            if (over(run.shares, until) || best.meets(run.bound)) {
                break;
            }
            int a = w[0];
            int b = w[1];
            run.windowsTried++;
            Long value = pass.context() ? contextWindow(run, best, a, b) : window(run, best, a, b);
            if (value != null) {
                run.windowsAccepted++;
                improved = true;
                run.progress.accept("dnc: window " + a + ".." + b + (pass.context() ? " (in context)" : "")
                        + " improved the plan to " + value);
            }
        }
        return improved;
    }

    /** The pass's windows [a, b] over the plan that have anything to gain. */
    private static List<int[]> windowsOf(Graph g, Plan plan, Pass pass) {
        int n = g.operatorCount();
        int stride = Math.max(1, pass.width() / 2);
        long[] weight = pass.context() ? offChipBytes(g, plan) : loadedBytes(g, plan);
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
        return windows;
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
    private static Long contextWindow(DncRun run, BestPlan best, int a, int b) {
        Graph g = run.g;
        Plan current = best.plan();
        int[] order = current.schedule().resolve(g);
        long proposeShare = run.shares.step() / Shares.WINDOW_PROPOSAL_DIVISOR;
        List<String> proposed = WindowOrder.propose(g, run.setting, current, order, a, b,
                windowBackend(run.options, run.limits), run.shares.step(proposeShare));
        if (proposed == null || run.shares.over()) {
            return null;
        }
        int[] ops = proposed.stream().mapToInt(g::operatorIndex).toArray();
        SubGraph sub = SubGraph.of(g, ops, g.name() + "/window" + a);
        Plan jit = new JustInTimePlanner(new Schedule(proposed)).plan(sub.graph(), run.setting, run.budget,
                Limits.DEFAULT);
        Plan spliced = PlanSplicer.splice(g, current, a, b, jit);
        Plan candidate = run.options.handover()
                ? StateHandover.apply(g, spliced, run.shares.limits().budget()) : spliced;
        long before = best.traffic();
        best.offer(candidate, "windows");
        Plan p = run.fixedSchedule(candidate, run.shares.step());
        if (p != null) {
            best.offer(p, "windows");
        }
        return best.traffic() < before ? best.traffic() : null;
    }

    /**
     * Re-solves timesteps [a, b] of the best plan with a free schedule and keeps the result when the whole plan's
     * checked traffic falls; returns the new traffic, or null.
     */
    private static Long window(DncRun run, BestPlan best, int a, int b) {
        Graph g = run.g;
        Plan current = best.plan();
        int[] order = current.schedule().resolve(g);
        int[] position = new int[order.length];
        for (int t = 0; t < order.length; t++) {
            position[order[t]] = t;
        }
        SubGraph sub = SubGraph.of(g, Arrays.copyOfRange(order, a, b + 1), g.name() + "/window" + a);
        long share = run.shares.step();
        Plan from = PlanSplicer.restrict(g, current, position, a, b, sub);
        CosmaResult r;
        try {
            r = CosmaSolver.solve(sub.graph(), run.setting, run.budget,
                    run.options.cosma().withSchedule(null).withStart(from), run.shares.step(share));
        } catch (IllegalStateException e) {
            // A bug of the solver on this window (its own check failed): the window is skipped, the bug reported
            // with the window's graph saved, so the search goes on from a plan that is still checked.
            run.progress.accept("dnc: window " + a + ".." + b + " skipped: " + e.getMessage() + " (window saved as "
                    + DncRun.saved(sub.graph(), from) + ")");
            return null;
        }
        if (r == null || r.plan() == null) {
            return null;
        }
        long before = best.traffic();
        Plan spliced = PlanSplicer.splice(g, current, a, b, r.plan());
        Plan candidate = run.options.handover()
                ? StateHandover.apply(g, spliced, run.shares.limits().budget()) : spliced;
        best.offer(candidate, "windows");
        if (g.operatorCount() <= DivideAndConquer.WHOLE_GRAPH_LIMIT && !run.shares.over()) {
            Plan p = run.fixedSchedule(candidate, run.shares.step());
            if (p != null) {
                best.offer(p, "windows");
            }
        }
        return best.traffic() < before ? best.traffic() : null;
    }

    /**
     * The back-end of a window's program without addresses: SCIP where COSMA's is CP-SAT, as CosmaSolver's decoupled
     * step does for the same program (its LP bound decides small programs of this kind); under a work limit CP-SAT,
     * since SCIP counts no deterministic work and the window's order would depend on the machine's load.
     */
    private static Backend windowBackend(DivideAndConquer.Options options, Limits limits) {
        Backend b = options.cosma().backend();
        return b == Backend.CPSAT && !limits.workMode() ? Backend.SCIP : b;
    }
}
