package dev.memplan.decomposition;

import dev.memplan.model.CheckReport;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Plan;
import dev.memplan.model.PlanResult;
import dev.memplan.model.RaisedBound;
import dev.memplan.model.Schedule;
import dev.memplan.model.Shares;
import dev.memplan.model.SolveStatus;
import dev.memplan.model.TrainingStep;
import java.util.ArrayList;
import java.util.List;

/**
 * A training step's spill-only run through divide and conquer, its plan lowered by the exact cover of its order and
 * of the training step's other orders ({@link OrderCover#best}: the levelled order, the minimum-peak orders), with
 * {@link Shares#ORDER_COVER} of the limit kept aside before the run, as the recompute road does before its bound.
 * Divide and conquer's windows re-plan a few dozen timesteps at a time; the cover decides every spill of one whole
 * order exactly and packs it, and on the zoo's training graphs it pays less than the road's plan in that plan's own
 * order (BENCHMARKS.md, "The order cover on more than one order"); then, with what is left of that share, the lower
 * plan's order moved operator by operator. Other graphs, fixed schedules, runs without a limit and whole-graph results
 * are left as they are, so their numbers do not change.
 */
final class SpillOnlyCover {

    private SpillOnlyCover() {
    }

    /** Whether a spill-only run of {@code g} keeps a share for the cover. */
    static boolean applies(Graph g, Schedule fixed, Limits limits) {
        return fixed == null && limits.budget().limited() && TrainingStep.forwardCount(g) >= 0;
    }

    /**
     * {@code o} with divide and conquer's plan replaced by the lowest cover when that pays less: the plan, its check,
     * its traffic, the source ({@code plan from}) and, against the run's bound, the status and the gap. With
     * {@code moves}, what the cover leaves of the limits then goes to the lower plan's order moved operator by
     * operator ({@link OrderCover#moved}, as the recompute road does on its best plan), which replaces it when lower:
     * on gen:cells:50:train at M_R the recompute road's moves took its spill-only plan (no reruns) from 2,310,144 to
     * 2,244,608 while the spill-only road stopped at its cover.
     */
    static CosmaPipeline.Outcome lower(Graph g, long budget, Limits limits, CosmaPipeline.Outcome o, boolean moves) {
        PlanResult r = o.result();
        DncResult d = o.dnc();
        if (d == null || r.plan() == null || r.objective() == null || r.status() == SolveStatus.OPTIMAL
                || r.plan().schedule().recomputes() > 0 || d.traffic() != r.objective()) {
            return o;
        }
        OrderCover.Covered c = OrderCover.best(g, List.of(r.plan()), List.of(d.source()), budget, limits);
        if (c != null && c.plan().traffic().nonCompulsory() >= r.objective()) {
            c = null;
        }
        List<String> notes = new ArrayList<>(r.notes());
        if (c != null) {
            notes.add("the plan's order covered exactly: " + c.source() + ", traffic "
                    + c.check().traffic().nonCompulsory() + " (before " + r.objective() + ")");
        }
        if (moves) {
            Plan from = c == null ? r.plan() : c.plan();
            long before = c == null ? r.objective() : c.check().traffic().nonCompulsory();
            OrderCover.Covered m = OrderCover.moved(g, from, c == null ? d.source() : c.source(), budget, limits);
            if (m != null && m.check().traffic().nonCompulsory() < before) {
                c = m;
                notes.add("the plan's order moved operator by operator: " + m.source() + ", traffic "
                        + m.check().traffic().nonCompulsory() + " (before " + before + ")");
            }
        }
        if (c == null) {
            return o;
        }
        CheckReport check = c.check();
        long value = check.traffic().nonCompulsory();
        RaisedBound raised = RaisedBound.of(c.plan(), value, SolveStatus.FEASIBLE, r.bound() == null ? 0 : r.bound(),
                r.planner(), r.seconds());
        Long bound = r.bound() == null ? null : raised.bound();
        Double gap = r.bound() == null ? null : raised.gap();
        PlanResult result = new PlanResult(r.planner(), raised.status(), raised.plan(), check, value, bound, gap,
                r.seconds(), r.work(), r.wallStopped(), notes);
        DncResult lowered = new DncResult(raised.plan(), check, raised.status(), value, bound, gap, d.seconds(),
                d.partition(), d.spillAtCut(), d.handover(), d.polished(), d.start(), d.windowsTried(),
                d.windowsAccepted(), c.source(), d.steps());
        return new CosmaPipeline.Outcome(result, o.whole(), lowered, o.fsDefault(), o.fsMpmf(), o.bestStart(),
                o.dncOptions());
    }
}
