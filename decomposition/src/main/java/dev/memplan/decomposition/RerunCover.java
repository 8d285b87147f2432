package dev.memplan.decomposition;

import dev.memplan.formulations.cosma.Reruns;
import dev.memplan.model.CheckReport;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Objective;
import dev.memplan.model.Plan;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.Schedule;
import dev.memplan.model.Shares;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reruns placed at once wherever a tensor's return could be a rerun of an operator that may pay, then the runs
 * covered exactly ({@link OrderCover} on the runs unrolled, {@link RunGraph}), and each rerun kept only when the cover
 * without it pays more.
 *
 * <p>The candidates, in a plan's sequence of runs: a read of a tensor x at run r whose previous touch of the same copy
 * (its write or a read) lies two or more runs before, where x's producer p {@link Reruns#mayPay} at lambda. A rerun of
 * p just before r stands in for x's return there; it needs p's inputs: one that no run at or after r reads is made by
 * a rerun of its own producer just before when that one may pay, whose inputs are made the same way, up to
 * {@link RecomputeSearch#CHAIN_DEPTH} reruns deep; any other is kept on chip or loaded for it, as the cover chooses,
 * and a candidate whose inputs kept so weigh at least p's outputs is not tried (keeping them frees nothing).
 * The recompute search ({@link RecomputeSearch}) adds one rerun at a time into a plan whose other
 * segments stay where they are, so a rerun that pays only once the loads and spills around it are chosen again is
 * refused there: on lraspp_mobilenet_v3_large:train at M_H and lambda 1 the search's plan reran six of the nine
 * squeeze-and-excitation products, and its own runs covered exactly paid more than the same runs with the other three
 * and the head's resize (BENCHMARKS.md, "Reruns placed at once and covered exactly").
 *
 * <p>Every plan that leaves is a plan of the graph mapped back from the unrolled one and checked
 * ({@link RunGraph#back}); it has the start's runs plus some of the candidates. Within the caller's limits: the
 * cover with every candidate takes {@link Shares#RERUN_COVER_ALL}, each drop an equal part of what is left, in the
 * runs' order.
 */
final class RerunCover {
    /** What "plan from" adds to the start's source when this made the best plan. */
    static final String SOURCE = "reruns placed at once and covered exactly";

    /**
     * The best plan made and what it did.
     *
     * @param plan the plan, checked
     * @param check the checker's report on it
     * @param objective its objective at lambda
     * @param candidates the reruns tried (chains counted once)
     * @param kept those the plan keeps
     */
    record Result(Plan plan, CheckReport check, Objective objective, int candidates, int kept) {
    }

    private RerunCover() {
    }

    /**
     * The lowest plan of {@code from}'s runs with the candidates of the class comment, or null when there is none,
     * no cover gives a plan within the limits, or the graph has more than {@link DivideAndConquer#WHOLE_GRAPH_LIMIT}
     * operators (each candidate may cost a cover, each cover builds its program before it can read the clock).
     *
     * @param g the graph in {@code from}'s tensor setting
     * @param from a valid plan (it may recompute)
     * @param budget the budget in bytes
     * @param lambda the recompute weight
     * @param limits the step's limits
     */
    static Result of(Graph g, Plan from, long budget, double lambda, Limits limits) {
        if (from == null || limits.stopped() || g.operatorCount() > DivideAndConquer.WHOLE_GRAPH_LIMIT) {
            return null;
        }
        int[] runs = from.schedule().operators().stream().mapToInt(g::operatorIndex).toArray();
        List<int[]> candidates = candidates(g, runs, Reruns.ANY.of(g, lambda));
        if (candidates.isEmpty()) {
            return null;
        }
        boolean[] on = new boolean[candidates.size()];
        Arrays.fill(on, true);
        Result best = cover(g, from, runs, candidates, on, budget, lambda, limits.child(Shares.RERUN_COVER_ALL));
        for (int i = 0; i < on.length && best != null && !limits.stopped(); i++) {
            on[i] = false;
            Result without = cover(g, from, runs, candidates, on, budget, lambda, limits.part(on.length - i));
            if (without != null && without.objective().value() < best.objective().value()) {
                best = without;
            } else {
                on[i] = true;
            }
        }
        return best;
    }

    /**
     * Each candidate as {position of the read, operators to rerun just before it in order (the chain's deepest
     * first)}, in the runs' order, one per read position and producer.
     */
    static List<int[]> candidates(Graph g, int[] runs, boolean[] may) {
        int[] lastRead = new int[g.tensorCount()];
        Arrays.fill(lastRead, -1);
        for (int r = 0; r < runs.length; r++) {
            for (int x : g.inputs(runs[r])) {
                lastRead[x] = r;
            }
        }
        int[] touched = new int[g.tensorCount()];
        Arrays.fill(touched, -1);
        List<int[]> found = new ArrayList<>();
        for (int r = 0; r < runs.length; r++) {
            List<Integer> producers = new ArrayList<>();
            for (int x : g.inputs(runs[r])) {
                int p = g.producer(x);
                if (p >= 0 && may[p] && touched[x] >= 0 && r - touched[x] >= 2 && !producers.contains(p)) {
                    producers.add(p);
                    long[] kept = {0};
                    List<Integer> chain = chain(g, p, r, may, lastRead, 0, kept);
                    if (kept[0] >= out(g, p)) {
                        continue;
                    }
                    int[] c = new int[chain.size() + 1];
                    c[0] = r;
                    for (int k = 0; k < chain.size(); k++) {
                        c[k + 1] = chain.get(k);
                    }
                    found.add(c);
                }
            }
            for (int x : g.inputs(runs[r])) {
                touched[x] = r;
            }
            for (int x : g.outputs(runs[r])) {
                touched[x] = r;
            }
        }
        return found;
    }

    /** The bytes of an operator's outputs. */
    private static long out(Graph g, int p) {
        long bytes = 0;
        for (int x : g.outputs(p)) {
            bytes += g.size(x);
        }
        return bytes;
    }

    /**
     * The reruns that make p's output before run r, p last: an input of p that no run at or after r reads is made by
     * a rerun of its own producer when that one may pay (and the chain is not too deep), else kept or loaded for it,
     * its bytes added to {@code kept[0]}.
     */
    private static List<Integer> chain(Graph g, int p, int r, boolean[] may, int[] lastRead, int depth, long[] kept) {
        List<Integer> chain = new ArrayList<>();
        for (int y : Arrays.stream(g.inputs(p)).distinct().toArray()) {
            int q = g.producer(y);
            if (lastRead[y] >= r) {
                continue;
            }
            if (q >= 0 && may[q] && depth + 1 < RecomputeSearch.CHAIN_DEPTH) {
                chain.addAll(chain(g, q, r, may, lastRead, depth + 1, kept));
            } else {
                kept[0] += g.size(y);
            }
        }
        chain.add(p);
        return chain;
    }

    /** The runs with the candidates that are on, covered exactly and mapped back; null when nothing comes of it. */
    private static Result cover(Graph g, Plan from, int[] runs, List<int[]> candidates, boolean[] on, long budget,
                                double lambda, Limits limits) {
        List<String> order = new ArrayList<>();
        int next = 0;
        for (int r = 0; r < runs.length; r++) {
            for (; next < candidates.size() && candidates.get(next)[0] == r; next++) {
                for (int k = 1; on[next] && k < candidates.get(next).length; k++) {
                    order.add(g.operator(candidates.get(next)[k]).name());
                }
            }
            order.add(g.operator(runs[r]).name());
        }
        RunGraph unrolled = RunGraph.ofRuns(g, new Schedule(order), from.setting(), budget);
        Plan covered = OrderCover.of(unrolled.graph(), unrolled.plan(), budget, limits);
        Plan back = covered == null ? null : unrolled.back(covered);
        if (back == null) {
            return null;
        }
        CheckReport check = PlanChecker.check(g, back);
        int kept = 0;
        for (boolean b : on) {
            kept += b ? 1 : 0;
        }
        return check.valid() ? new Result(back, check, Objective.of(check.traffic(), lambda), candidates.size(), kept)
                : null;
    }
}
