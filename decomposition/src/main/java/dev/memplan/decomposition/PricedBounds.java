package dev.memplan.decomposition;

import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Shares;
import java.util.Locale;

/**
 * Divide and conquer's spill-only bounds made bounds on traffic + lambda x recompute cost over every plan with a free
 * schedule, reruns allowed, by pricing each tensor's traffic for reruns ({@link TrafficPrices#withReruns}, whose class
 * comment has the argument): the live-bytes bound ({@link PeakBound}, its priced cover weighing a rerun's inputs at the
 * moment), then the growing stems solved exactly ({@link StemBound#growing}), the two divide and conquer runs at its
 * end ({@link DncBounds#last}). Both arguments hold for any nonnegative price per load and per spill of each tensor.
 */
final class PricedBounds {

    /**
     * The bound and what each part reached.
     *
     * @param value the larger of the two, 0 for none
     * @param stem the growing stems' bound (0: none or not run)
     * @param peak the live-bytes bound (0: none or not run)
     * @param work the work units both took, or null without a work limit
     */
    record Result(long value, long stem, long peak, Double work) {

        /** Which gave the value, what each reached and the work, in words. */
        String note() {
            return "the live bytes " + (peak == 0 ? "none" : PipelineReport.lowerBound(peak)) + ", the stem "
                    + (stem == 0 ? "none" : PipelineReport.lowerBound(stem))
                    + (work == null ? "" : String.format(Locale.ROOT, ", %.2f units", work));
        }

        /** Which of the two gave the value. */
        String source() {
            return peak >= stem ? "the live bytes priced for reruns" : "the stem priced for reruns";
        }
    }

    private PricedBounds() {
    }

    /**
     * The bound within {@code limits}: the live-bytes bound with {@link Shares#PRICED_LIVE_BYTES} of it, raised by
     * lower targets ({@link #raised}) with part of the rest when it was cut short, then, unless that met
     * {@code target} (the best plan's objective; infinity: none), the growing stems with the rest, stopped once a
     * stem reaches the target. Nothing above {@link DivideAndConquer#WHOLE_GRAPH_LIMIT} operators; a part whose
     * heap runs out gives 0.
     *
     * @param g the graph in its tensor setting, with a budget at or above its M_R
     */
    static Result of(Graph g, long budget, double lambda, double target, Limits limits) {
        if (g.operatorCount() > DivideAndConquer.WHOLE_GRAPH_LIMIT) {
            return new Result(0, 0, 0, null);
        }
        TrafficPrices prices = TrafficPrices.withReruns(g, lambda);
        long goal = target >= Long.MAX_VALUE ? Long.MAX_VALUE : (long) Math.ceil(target);
        Limits all = limits.child();
        long stem = 0;
        long peak = 0;
        try {
            PeakBound.Result first = PeakBound.of(g, prices, budget, goal, PeakBound.DEFAULT_STATE_CAP,
                    all.child(Shares.PRICED_LIVE_BYTES));
            peak = first.proven() || first.forwardLayers() == g.operatorCount() ? first.traffic()
                    : raised(g, prices, budget, first.traffic(), goal, all);
        } catch (OutOfMemoryError e) {
            peak = 0;
        }
        if (peak < goal && !all.stopped()) {
            try {
                stem = StemBound.growing(g, prices, budget, () -> goal, all.child(), order -> { });
            } catch (OutOfMemoryError e) {
                stem = 0;
            }
        }
        return new Result(Math.max(stem, peak), stem, peak, all.workMode() ? all.budget().workUsed() : null);
    }

    /** Of what is left of the limits, what each run with a lower target takes ({@link #raised}), and the most runs. */
    static final double PROBE_SHARE = 0.5;
    static final int MOST_PROBES = 6;

    /**
     * The live-bytes bound ({@link PeakBound}) raised by runs with lower targets, when its run with {@code goal} as
     * the target was cut short at {@code lo}. The program drops every state whose value reaches its target; when a
     * whole layer is dropped, no order costs less than the target, which is then a bound (PeakBound's class comment);
     * when none is, the least value of its last complete layer is one. With the best plan's objective as the target
     * few states are dropped and the program is cut short by its work (resnext50:train at M_R and lambda 1: 105 of
     * 214 layers, 23,638,992); with a target just above that value most states are dropped at once and a whole layer
     * goes within a fraction of the work (23,700,000 proven in 0.2 units). So up to {@link #MOST_PROBES} runs, each
     * with {@link #PROBE_SHARE} of what {@code limits} has left, at a target t between lo and {@code goal}, the first
     * a 32nd of the way up: a run that drops a whole layer proves t (lo = t, the next step twice as long); one that
     * does not still gives its last complete layer's least value (lo is the larger of the two) and t is an upper end
     * for the targets that follow (the next step a quarter of what is left below it). Every number kept is a bound
     * of the kind a single run gives, so the result is one; each target depends only on the runs before it, and each
     * run is counted in work as the first, so under a work limit the result is the same on every machine. The target
     * never passes {@code goal}: a run that proves it proves the best plan optimal.
     *
     * @param lo a lower bound (the cut-short run's)
     * @param goal the best plan's objective, rounded up (Long.MAX_VALUE: none; then no run)
     */
    static long raised(Graph g, TrafficPrices prices, long budget, long lo, long goal, Limits limits) {
        if (goal == Long.MAX_VALUE) {
            return lo;
        }
        long hi = goal + 1; // no target at or above hi
        long step = Math.max(1, (hi - lo) / 32);
        for (int i = 0; i < MOST_PROBES && lo + 1 < hi && !limits.stopped(); i++) {
            long t = Math.min(hi - 1, lo + step);
            PeakBound.Result r = PeakBound.of(g, prices, budget, t, PeakBound.DEFAULT_STATE_CAP,
                    limits.child(PROBE_SHARE));
            if (r.proven()) {
                lo = Math.max(lo, t);
                step = Math.multiplyExact(step, 2);
            } else {
                lo = Math.max(lo, r.traffic());
                hi = t;
                step = Math.max(1, (hi - lo) / 4);
            }
        }
        return lo;
    }

    /** The growing stems alone with these prices, without a target or a limit: for tests. */
    static long stem(Graph g, long budget, double lambda) {
        return StemBound.growing(g, TrafficPrices.withReruns(g, lambda), budget, () -> Long.MAX_VALUE,
                Limits.DEFAULT, order -> { });
    }
}
