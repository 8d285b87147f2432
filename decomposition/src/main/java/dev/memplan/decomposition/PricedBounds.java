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
     * The bound within {@code limits}: the live-bytes bound with {@link Shares#PRICED_LIVE_BYTES} of it, then, unless
     * that met {@code target} (the best plan's objective; infinity: none), the growing stems with the rest, stopped
     * once a stem reaches the target. Nothing above {@link DivideAndConquer#WHOLE_GRAPH_LIMIT} operators; a part whose
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
            peak = PeakBound.of(g, prices, budget, goal, PeakBound.DEFAULT_STATE_CAP,
                    all.child(Shares.PRICED_LIVE_BYTES)).traffic();
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

    /** The growing stems alone with these prices, without a target or a limit: for tests. */
    static long stem(Graph g, long budget, double lambda) {
        return StemBound.growing(g, TrafficPrices.withReruns(g, lambda), budget, () -> Long.MAX_VALUE,
                Limits.DEFAULT, order -> { });
    }
}
