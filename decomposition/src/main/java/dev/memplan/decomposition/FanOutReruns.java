package dev.memplan.decomposition;

import dev.memplan.formulations.cosma.Reruns;
import dev.memplan.model.CheckReport;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Objective;
import dev.memplan.model.Origin;
import dev.memplan.model.Plan;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.Schedule;
import dev.memplan.model.Segment;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reruns of a fan-out inserted into a plan's order one at a time, each order covered exactly: the option the priced
 * live bytes ({@link PeakBound}, {@link FanOutCases}) grant a gradient's fan-out (an operator that may pay,
 * {@link Reruns#mayPay}, with two or more outputs, such as {@code add/backward}): keep its input instead of its
 * copies and run it again before a later reader. {@link RecomputeSearch} cannot make it (it turns one load into a
 * rerun with the plan's other segments in place, and this rerun pays only once the spills around it are chosen
 * again), nor {@link RerunCover} (it places every rerun at once and drops them one by one in the runs' order).
 *
 * <p>A candidate is the plan's runs with one more run of such an operator p just before a run t that reads one of
 * its outputs and is not the first to read them after p's latest run (the readers from t on read the new copies),
 * where the plan pays traffic on p's outputs after that run: their spill and each load, at least the rerun's cost
 * at lambda (a rerun can spare at most the traffic of the copies it replaces, plus what their bytes displace, and a
 * plan that keeps the copies on chip has nothing of theirs to spare). The candidates are ranked by that traffic, the
 * most first, then by how near t is to p's run (the input is held that long); only the first
 * {@link #CANDIDATES} are covered: each cover needs about a unit of work to go below its start (a few hundredths
 * found nothing on resnext50:train M_H lambda 1, BENCHMARKS.md, "A gradient fan-out's rerun at one moment").
 *
 * <p>Each candidate is unrolled ({@link RunGraph#ofRuns}), its order covered by {@link OrderCover} with the start
 * plan's residency shifted past the new run as the solver's hint, mapped back and checked ({@link RunGraph#back});
 * the lowest candidate below the plan by traffic + lambda x recompute cost is kept, and the candidates of its plan are
 * tried the same way, at most {@link #ROUNDS} rounds. Each cover gets at most {@link #COVER_WORK} of the governing
 * quantity (work units; seconds without a work limit) and never more than the caller's limits leave, so the whole is
 * at most rounds x candidates x that. Nothing on a graph of more than {@link DivideAndConquer#WHOLE_GRAPH_LIMIT}
 * operators. Time per round O(candidates x a cover + runs x tensors).
 */
final class FanOutReruns {

    /** The most candidates covered per round. */
    static final int CANDIDATES = 6;

    /** The most rounds (reruns inserted one on another). */
    static final int ROUNDS = 3;

    /** The most one cover gets: one work unit (in billionths), or one second without a work limit. */
    static final long COVER_WORK = 1_000_000_000L;

    /** What the source of a plan this made ends with. */
    static final String SOURCE = "fan-outs rerun, the order covered exactly";

    /**
     * The result.
     *
     * @param plan the lowest plan made, checked, or null when no candidate went below the start
     * @param check its check
     * @param objective its objective
     * @param added reruns inserted
     * @param tried candidates covered
     */
    record Result(Plan plan, CheckReport check, Objective objective, int added, int tried) implements CoveredReruns {

        @Override
        public int covered() {
            return tried;
        }

        @Override
        public String note(Objective from) {
            return tried + " orders covered, " + added + " reruns inserted; "
                    + (plan == null ? "nothing below " + from : objective + " from " + from);
        }
    }

    /** A candidate: the run p inserted before position t of the runs, and its rank. */
    record Candidate(int operator, int at, long traffic, int distance) {
    }

    private FanOutReruns() {
    }

    /** The reruns inserted into {@code start} (a valid plan of g, in its setting), within {@code limits}. */
    static Result run(Graph g, Plan start, Objective from, double lambda, Limits limits) {
        if (g.operatorCount() > DivideAndConquer.WHOLE_GRAPH_LIMIT || start == null || from == null) {
            return new Result(null, null, null, 0, 0);
        }
        Plan current = start;
        Result best = new Result(null, null, from, 0, 0);
        int tried = 0;
        for (int round = 0; round < ROUNDS && !limits.stopped(); round++) {
            List<Candidate> candidates = candidates(g, current, lambda);
            Result lowest = null;
            for (int i = 0; i < candidates.size() && i < CANDIDATES && !limits.stopped(); i++) {
                tried++;
                Result r = cover(g, current, candidates.get(i), lambda, limits.upTo(COVER_WORK));
                if (r != null && r.objective().value() < (lowest == null ? best.objective() : lowest.objective())
                        .value()) {
                    lowest = r;
                }
            }
            if (lowest == null) {
                break;
            }
            best = new Result(lowest.plan(), lowest.check(), lowest.objective(), best.added() + 1, 0);
            current = lowest.plan();
        }
        return new Result(best.plan(), best.check(), best.objective(), best.added(), tried);
    }

    /**
     * The candidates of the class comment in {@code plan}, ranked, all of them. O(runs x tensors read + segments).
     */
    static List<Candidate> candidates(Graph g, Plan plan, double lambda) {
        List<String> runs = plan.schedule().operators();
        int[] latest = new int[g.operatorCount()];
        java.util.Arrays.fill(latest, -1);
        List<Candidate> out = new ArrayList<>();
        for (int t = 0; t < runs.size(); t++) {
            int o = g.operatorIndex(runs.get(t));
            List<Integer> seen = new ArrayList<>();
            for (int x : g.inputs(o)) {
                int p = g.producer(x);
                if (p < 0 || seen.contains(p) || latest[p] < 0 || g.outputs(p).length < 2
                        || !Reruns.mayPay(g, lambda, p) || !readBetween(g, runs, p, latest[p], t)) {
                    continue;
                }
                seen.add(p);
                long traffic = trafficAfter(g, plan, p, latest[p]);
                if (traffic > 0 && traffic >= lambda * g.cost(p)) {
                    out.add(new Candidate(p, t, traffic, t - latest[p]));
                }
            }
            latest[o] = t;
        }
        out.sort(Comparator.comparingLong(Candidate::traffic).reversed().thenComparingInt(Candidate::distance)
                .thenComparingInt(Candidate::at));
        return out;
    }

    /** Whether a run strictly between s and t reads an output of p (so t is not the first reader after s). */
    private static boolean readBetween(Graph g, List<String> runs, int p, int s, int t) {
        for (int u = s + 1; u < t; u++) {
            for (int x : g.inputs(g.operatorIndex(runs.get(u)))) {
                if (g.producer(x) == p) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The plan's traffic on p's outputs after run s: each output's spill, once, when it has a load, and its loads. */
    private static long trafficAfter(Graph g, Plan plan, int p, int s) {
        long traffic = 0;
        for (int x : g.outputs(p)) {
            int loads = 0;
            for (Segment sg : plan.segmentsOf(g.tensor(x).name())) {
                if (sg.start() > s && sg.origin() == Origin.LOADED) {
                    loads++;
                }
            }
            traffic += loads == 0 ? 0 : (loads + 1) * g.size(x);
        }
        return traffic;
    }

    /** The runs with the candidate inserted, covered, mapped back and checked; null when any of it fails. */
    private static Result cover(Graph g, Plan from, Candidate c, double lambda, Limits limits) {
        List<String> runs = new ArrayList<>(from.schedule().operators());
        runs.add(c.at(), g.operator(c.operator()).name());
        Covered covered = cover(g, from, runs, c.at(), 1, limits);
        return covered == null ? null : new Result(covered.plan(), covered.check(),
                Objective.of(covered.check().traffic(), lambda), 1, 1);
    }

    /** A plan of unrolled runs covered exactly, mapped back, with its valid check. */
    record Covered(Plan plan, CheckReport check) {
    }

    /**
     * {@code runs} (those of {@code from} with one run inserted at {@code at}, delta +1, or the run at at dropped,
     * delta -1) unrolled ({@link RunGraph#ofRuns}), covered exactly ({@link OrderCover}, {@link #hint} from
     * {@code from}'s residency), mapped back and checked; null when any of it fails. Also {@link CoverReruns}'s.
     */
    static Covered cover(Graph g, Plan from, List<String> runs, int at, int delta, Limits limits) {
        RunGraph rg = RunGraph.ofRuns(g, new Schedule(runs), from.setting(), from.budget());
        Plan covered = OrderCover.of(rg.graph(), rg.plan(), hint(g, from, rg, at, delta), from.budget(), limits);
        Plan back = covered == null ? null : rg.back(covered);
        if (back == null) {
            return null;
        }
        CheckReport check = PlanChecker.check(g, back);
        return check.valid() ? new Covered(back.withResult(check.traffic(), from.solver()), check) : null;
    }

    /**
     * A hint for the cover of the unrolled runs: every copy of a tensor resident where {@code from} had the tensor
     * resident, its timesteps from {@code at} on moved by {@code delta} (+1: a run inserted at {@code at}, the new
     * run; -1: the run at {@code at} dropped). Only residency is read from it. Also {@link CoverReruns}'s.
     */
    static Plan hint(Graph g, Plan from, RunGraph rg, int at, int delta) {
        Map<String, List<Segment>> segments = new LinkedHashMap<>();
        for (int u = 0; u < rg.graph().tensorCount(); u++) {
            List<Segment> shifted = new ArrayList<>();
            for (Segment s : from.segmentsOf(g.tensor(rg.copyOf()[u]).name())) {
                int start = s.start() < at ? s.start() : Math.max(0, s.start() + delta);
                int end = s.end() < at ? s.end() : Math.max(start, s.end() + delta);
                shifted.add(new Segment(start, end, s.offset(), s.origin()));
            }
            if (!shifted.isEmpty()) {
                segments.put(rg.graph().tensor(u).name(), shifted);
            }
        }
        return new Plan(rg.graph().name(), from.setting(), from.budget(), rg.plan().schedule(), segments, null, null);
    }
}
