package dev.memplan.decomposition;

import dev.memplan.formulations.cosma.Reruns;
import dev.memplan.model.CheckReport;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Objective;
import dev.memplan.model.Plan;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.Shares;
import java.util.ArrayList;
import java.util.List;

/**
 * Reruns of a fan-out inserted into a plan's order, each order covered exactly: the option the priced live bytes
 * ({@link PeakBound}) grant a gradient's fan-out (an operator that may pay, {@link Reruns#mayPay}, with two or more
 * outputs, such as {@code add/backward}): while both copies are live, keep its input instead of the copies and run it
 * again before a later reader. {@link RecomputeSearch} cannot make it, since it turns one load into a rerun with the
 * plan's other segments in place, and this rerun pays only once both copies leave and the spills around them are
 * chosen again.
 *
 * <p>A candidate is the plan's runs with one more run of such an operator just before a reader of its outputs that is
 * not their first (the readers after it read the new copies). It is unrolled ({@link RunGraph#ofRuns}), its order
 * covered by {@link OrderCover} (the order's least traffic without addresses, then packed), mapped back and checked;
 * the lowest candidate below the plan, by traffic + lambda x recompute cost, is kept, and the candidates are tried
 * again on its runs while one pays. Each round gets {@link Shares#FAN_OUT_ROUND} of what is left, each candidate an
 * equal part of what the round has left, so a round never spends more than its limits. Nothing on a graph of more
 * than {@link DivideAndConquer#WHOLE_GRAPH_LIMIT} operators. Time per round O(candidates x a cover).
 */
final class FanOutReruns {

    /**
     * The result.
     *
     * @param plan the lowest plan made, checked, or null when no candidate went below the start
     * @param check its check
     * @param objective its objective
     * @param added reruns inserted
     * @param tried candidates covered
     */
    record Result(Plan plan, CheckReport check, Objective objective, int added, int tried) {

        /** One line for the report. */
        String note(Objective from) {
            return tried + " orders covered, " + added + " reruns inserted; "
                    + (plan == null ? "nothing below " + from : objective + " from " + from);
        }
    }

    private FanOutReruns() {
    }

    /** The reruns inserted into {@code start} (a valid plan of g, in its setting), within {@code limits}. */
    static Result run(Graph g, Plan start, Objective from, double lambda, Limits limits) {
        if (g.operatorCount() > DivideAndConquer.WHOLE_GRAPH_LIMIT) {
            return new Result(null, null, null, 0, 0);
        }
        List<String> runs = start.schedule().operators();
        Result best = new Result(null, null, from, 0, 0);
        int tried = 0;
        boolean kept = true;
        while (kept && !limits.stopped()) {
            kept = false;
            List<List<String>> candidates = candidates(g, runs, lambda);
            Limits round = limits.budget().limited() ? limits.child(Shares.FAN_OUT_ROUND) : limits.child();
            List<String> lowest = null;
            for (int i = 0; i < candidates.size() && !round.stopped(); i++) {
                Limits part = round.budget().limited() ? round.part(candidates.size() - i) : round.child();
                tried++;
                Result r = cover(g, candidates.get(i), start, lambda, part);
                if (r != null && r.objective().value() < best.objective().value()) {
                    best = new Result(r.plan(), r.check(), r.objective(), best.added() + 1, 0);
                    lowest = candidates.get(i);
                }
            }
            if (lowest != null) {
                runs = lowest;
                kept = true;
            }
        }
        return new Result(best.plan(), best.check(), best.objective(), best.added(), tried);
    }

    /**
     * The runs with one more run of a fan-out that may pay just before a reader of its outputs that is not their
     * first after its latest run, in run order.
     */
    private static List<List<String>> candidates(Graph g, List<String> runs, double lambda) {
        List<List<String>> out = new ArrayList<>();
        for (int p = 0; p < g.operatorCount(); p++) {
            if (g.outputs(p).length < 2 || !Reruns.mayPay(g, lambda, p)) {
                continue;
            }
            String name = g.operator(p).name();
            boolean first = true;
            for (int t = runs.lastIndexOf(name) + 1; t < runs.size(); t++) {
                if (reads(g, g.operatorIndex(runs.get(t)), p)) {
                    if (!first) {
                        List<String> c = new ArrayList<>(runs);
                        c.add(t, name);
                        out.add(c);
                    }
                    first = false;
                }
            }
        }
        return out;
    }

    /** Whether operator o reads an output of p. */
    private static boolean reads(Graph g, int o, int p) {
        for (int x : g.inputs(o)) {
            if (g.producer(x) == p) {
                return true;
            }
        }
        return false;
    }

    /** The runs' order covered, mapped back and checked, or null when any of it fails. */
    private static Result cover(Graph g, List<String> runs, Plan start, double lambda, Limits limits) {
        RunGraph rg = RunGraph.ofRuns(g, runs, start.setting(), start.budget());
        Plan covered = OrderCover.of(rg.graph(), rg.plan(), start.budget(), limits);
        Plan back = covered == null ? null : rg.back(covered);
        if (back == null) {
            return null;
        }
        CheckReport c = PlanChecker.check(g, back);
        return c.valid() ? new Result(back.withResult(c.traffic(), start.solver()), c, Objective.of(c.traffic(),
                lambda), 1, 1) : null;
    }
}
