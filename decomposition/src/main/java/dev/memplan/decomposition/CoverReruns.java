package dev.memplan.decomposition;

import dev.memplan.formulations.cosma.Reruns;
import dev.memplan.model.CheckReport;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Objective;
import dev.memplan.model.Plan;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.Segment;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A start for the recompute search that follows the bound's priced cover: a tensor the plan holds on chip through its
 * longest wait (on a training step, from the forward pass to the backward) whose producer's rerun is cheap per byte is
 * ended there and made again by one more run of its producer just before the reader that ends the wait; then the
 * plan's other reruns are dropped one at a time, the dearest first, each kept when the plan is lower. The priced live
 * bytes ({@link PeakBound.Cheap}) take the live tensors off chip at a moment cheapest per byte first, a rerun at its
 * share lambda c(p) size(x) / out(p); the plans the baselines and {@link RecomputeSearch} make can miss such a rerun:
 * on lraspp_mobilenet_v3_large:train M_H at lambda 2^-8 the bound's cover at the loss reruns {@code backbone.2.expand}
 * (802,816 bytes for 50,176, 0.0625 per byte) and the best plan (checkpoint-cheap-4's) does not; it pays instead for
 * reruns of depthwise convolutions and {@code backbone.4.expand} that the held bytes forced. RecomputeSearch cannot
 * make this plan: it turns one load into a rerun with the other segments in place, and this plan has no load; the
 * rerun pays only once the reruns it frees room for are dropped and the order covered again.
 *
 * <p>A candidate is a tensor x of an operator p that may pay ({@link Reruns#mayPay}) with a reader t that is the
 * read of x with the most runs since x's previous write or read (x's longest wait), with no run of p in between, where
 * the plan holds x resident through the wait (one segment from the previous use to t) and the wait is at least a
 * {@link #WAIT}-th of the runs. The candidates are ranked by
 * p's rerun price per byte it frees (its outputs' bytes less its inputs' that the plan does not hold through the
 * wait: the cover's dead inputs, kept or returned; none when that is not positive), the cheapest first (the order
 * the fractional cover takes them), then by
 * the wait, the longest first; only the first {@link #CANDIDATES} are tried, one on the other: each is inserted and
 * the runs covered exactly ({@link RunGraph#ofRuns}, {@link OrderCover}, mapped back and checked by
 * {@link RunGraph#back} and {@link PlanChecker}); then the plan's reruns (later runs of an operator, other than the
 * one inserted) are dropped one at a time, the dearest first, at most {@link #DROPS} of them, each covered again and
 * kept when the objective (traffic + lambda x recompute cost) falls. A candidate is kept when its plan is below the
 * plan it started from. Each cover gets at most {@link #COVER_WORK} and never more than the caller's limits leave:
 * at most candidates x (drops + 1) covers. Nothing on a graph of more than
 * {@link DivideAndConquer#WHOLE_GRAPH_LIMIT} operators. Time O(covers x (a cover + runs x tensors)).
 */
final class CoverReruns {

    /**
     * A candidate's wait is at least the runs over this: on a training step the waits from the forward pass to the
     * backward, the tensors the priced cover at the loss takes, not a gradient's short waits in the backward.
     */
    static final int WAIT = 4;

    /** The most candidates tried (each on the plan the ones before left). */
    static final int CANDIDATES = 4;

    /** The most reruns of the plan dropped (tried) after each candidate's insertion. */
    static final int DROPS = 16;

    /** The most one cover gets: a quarter work unit (in billionths), or a quarter second without a work limit. */
    static final long COVER_WORK = 250_000_000L;

    /** What the source of a plan this made ends with. */
    static final String SOURCE = "the bound's cheap reruns inserted, others dropped, the order covered exactly";

    /**
     * The result.
     *
     * @param plan the lowest plan made, checked, or null when nothing went below the start
     * @param check its check
     * @param objective its objective (the start's when plan is null)
     * @param inserted candidates kept
     * @param dropped reruns dropped in the kept candidates
     * @param covers orders covered
     */
    record Result(Plan plan, CheckReport check, Objective objective, int inserted, int dropped, int covers)
            implements CoveredReruns {

        @Override
        public int covered() {
            return covers;
        }

        @Override
        public String note(Objective from) {
            return covers + " orders covered, " + inserted + " reruns inserted, " + dropped + " dropped; "
                    + (plan == null ? "nothing below " + from : objective + " from " + from);
        }
    }

    /** A candidate: operator p's run inserted before run t, its price per byte and the runs it waited. */
    record Candidate(int operator, int at, double perByte, int waited) {
    }

    private CoverReruns() {
    }

    /** The candidates inserted into {@code start} (a valid plan of g, in its setting), within {@code limits}. */
    static Result run(Graph g, Plan start, Objective from, double lambda, Limits limits) {
        if (g.operatorCount() > DivideAndConquer.WHOLE_GRAPH_LIMIT || start == null || from == null) {
            return new Result(null, null, from, 0, 0, 0);
        }
        Result best = new Result(null, null, from, 0, 0, 0);
        Plan current = start;
        int covers = 0;
        List<Integer> tried = new ArrayList<>();
        for (int k = 0; k < CANDIDATES && !limits.stopped(); k++) {
            Candidate c = candidates(g, current, lambda).stream().filter(d -> !tried.contains(d.operator()))
                    .findFirst().orElse(null);
            if (c == null) {
                break;
            }
            tried.add(c.operator());
            List<String> runs = new ArrayList<>(current.schedule().operators());
            runs.add(c.at(), g.operator(c.operator()).name());
            covers++;
            Result now = cover(g, current, runs, c.at(), 1, lambda, limits.upTo(COVER_WORK));
            if (now == null) {
                continue;
            }
            int dropped = 0;
            List<int[]> reruns = dearest(g, now.plan(), c.at());
            for (int i = 0; i < reruns.size() && !limits.stopped(); i++) {
                int[] d = reruns.get(i);
                List<String> less = new ArrayList<>(now.plan().schedule().operators());
                int at = position(g, now.plan(), d[0], d[1]);
                less.remove(at);
                covers++;
                Result r = cover(g, now.plan(), less, at, -1, lambda, limits.upTo(COVER_WORK));
                if (r != null && r.objective().value() < now.objective().value()) {
                    now = r;
                    dropped++;
                    // The operator's later runs are one fewer before them now.
                    for (int[] e : reruns.subList(i + 1, reruns.size())) {
                        e[1] -= e[0] == d[0] && e[1] > d[1] ? 1 : 0;
                    }
                }
            }
            if (now.objective().value() < best.objective().value()) {
                best = new Result(now.plan(), now.check(), now.objective(), best.inserted() + 1,
                        best.dropped() + dropped, 0);
                current = now.plan();
            }
        }
        return new Result(best.plan(), best.check(), best.objective(), best.inserted(), best.dropped(), covers);
    }

    /**
     * The candidates of the class comment in {@code plan}, ranked, all of them. O(runs x tensors read + segments).
     */
    static List<Candidate> candidates(Graph g, Plan plan, double lambda) {
        List<String> runs = plan.schedule().operators();
        int[] used = new int[g.tensorCount()];
        java.util.Arrays.fill(used, -1);
        int[] longest = new int[g.tensorCount()];
        int[] reader = new int[g.tensorCount()];
        java.util.Arrays.fill(reader, -1);
        int[] lastRun = new int[g.operatorCount()];
        java.util.Arrays.fill(lastRun, -1);
        int[] waitStart = new int[g.tensorCount()];
        for (int t = 0; t < runs.size(); t++) {
            int o = g.operatorIndex(runs.get(t));
            for (int x : g.inputs(o)) {
                int p = g.producer(x);
                if (p >= 0 && used[x] >= 0 && lastRun[p] <= used[x] && t - used[x] > longest[x]) {
                    longest[x] = t - used[x];
                    reader[x] = t;
                    waitStart[x] = used[x];
                }
                used[x] = t;
            }
            for (int x : g.outputs(o)) {
                used[x] = t;
            }
            lastRun[o] = t;
        }
        List<Candidate> out = new ArrayList<>();
        for (int x = 0; x < g.tensorCount(); x++) {
            int p = g.producer(x);
            if (reader[x] < 0 || longest[x] * WAIT < runs.size() || g.size(x) == 0 || !Reruns.mayPay(g, lambda, p)
                    || !heldThrough(plan.segmentsOf(g.tensor(x).name()), waitStart[x], reader[x])) {
                continue;
            }
            // The bytes the rerun frees through the wait: its outputs less its inputs the plan does not hold then
            // (the rerun needs them back, as the cover's dead inputs kept or returned).
            long bytes = 0;
            for (int y : g.outputs(p)) {
                bytes += g.size(y);
            }
            for (int y : java.util.Arrays.stream(g.inputs(p)).distinct().toArray()) {
                bytes -= heldThrough(plan.segmentsOf(g.tensor(y).name()), waitStart[x], reader[x]) ? 0 : g.size(y);
            }
            if (bytes > 0) {
                out.add(new Candidate(p, reader[x], lambda * g.cost(p) / bytes, longest[x]));
            }
        }
        out.sort(Comparator.comparingDouble(Candidate::perByte).thenComparingInt(d -> -d.waited())
                .thenComparingInt(Candidate::at).thenComparingInt(Candidate::operator));
        return out;
    }

    /** Whether one segment of the list holds its tensor from timestep s through t. */
    private static boolean heldThrough(List<Segment> segments, int s, int t) {
        for (Segment sg : segments) {
            if (sg.start() <= s && sg.end() >= t) {
                return true;
            }
        }
        return false;
    }

    /**
     * The reruns of {@code plan} (later runs of an operator) other than the run at {@code inserted}, each as its
     * operator and the number of its run (1: its first rerun), the dearest first (a tie: the earlier), at most
     * {@link #DROPS}. O(runs log runs).
     */
    private static List<int[]> dearest(Graph g, Plan plan, int inserted) {
        List<String> runs = plan.schedule().operators();
        int[] count = new int[g.operatorCount()];
        List<int[]> reruns = new ArrayList<>();
        for (int t = 0; t < runs.size(); t++) {
            int o = g.operatorIndex(runs.get(t));
            if (count[o]++ > 0 && t != inserted) {
                reruns.add(new int[] {o, count[o] - 1, t});
            }
        }
        reruns.sort(Comparator.comparingLong((int[] r) -> -g.cost(r[0])).thenComparingInt(r -> r[2]));
        return new ArrayList<>(reruns.subList(0, Math.min(DROPS, reruns.size())));
    }

    /** Where in {@code plan}'s runs operator o's n-th run after its first is. */
    private static int position(Graph g, Plan plan, int o, int n) {
        List<String> runs = plan.schedule().operators();
        int seen = 0;
        for (int t = 0; t < runs.size(); t++) {
            if (g.operatorIndex(runs.get(t)) == o && seen++ == n) {
                return t;
            }
        }
        throw new IllegalStateException("bug: rerun " + n + " of " + g.operator(o).name() + " not in the plan");
    }

    /** The runs covered exactly, mapped back and checked ({@link FanOutReruns#cover}); null when any of it fails. */
    private static Result cover(Graph g, Plan from, List<String> runs, int at, int delta, double lambda,
                                Limits limits) {
        FanOutReruns.Covered c = FanOutReruns.cover(g, from, runs, at, delta, limits);
        return c == null ? null : new Result(c.plan(), c.check(), Objective.of(c.check().traffic(), lambda), 1, 0, 1);
    }
}
