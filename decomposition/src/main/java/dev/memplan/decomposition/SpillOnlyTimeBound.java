package dev.memplan.decomposition;

import dev.memplan.formulations.cosma.CosmaResult;
import dev.memplan.formulations.cosma.RecomputeBound;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Plan;
import dev.memplan.model.PlanResult;
import dev.memplan.model.RaisedBound;
import dev.memplan.model.Schedule;
import dev.memplan.model.SolveStatus;
import java.util.ArrayList;
import java.util.List;

/**
 * The spill-only pipeline's bound raised to the cover summed over time without reruns
 * ({@link RecomputeBound#spillOnly}: the caching program of a chain of the graph, or of the fixed order) where that is
 * higher, after the run, so that the plan is the one the run gives without it: the bound, the gap and the status
 * (OPTIMAL once the plan pays no more) of the answer, of the whole graph's result or of divide and conquer's. The
 * program is deterministic and not charged in work; the run's wall end (or Ctrl-C) stops it with the best bound so
 * far.
 */
final class SpillOnlyTimeBound {

    private SpillOnlyTimeBound() {
    }

    static CosmaPipeline.Outcome raise(Graph g, long budget, Schedule fixed, Limits limits, CosmaPipeline.Outcome o) {
        PlanResult r = o.result();
        if (r.plan() == null || r.objective() == null || r.status() == SolveStatus.OPTIMAL
                || r.plan().schedule().recomputes() > 0) {
            return o;
        }
        long bound = RecomputeBound.spillOnly(g, budget, fixed == null ? null : fixed.resolve(g), limits.budget());
        if (bound == 0 || r.bound() != null && bound <= r.bound()) {
            return o;
        }
        long value = r.objective();
        RaisedBound raised = RaisedBound.of(r.plan(), value, r.status(), bound, r.planner(), r.seconds());
        SolveStatus status = raised.status();
        long shown = raised.bound();
        double gap = raised.gap();
        Plan plan = raised.plan();
        String note = "bound " + shown + " from the cover summed over time without recomputes (before "
                + (r.bound() == null ? "none" : r.bound()) + ")";
        List<String> notes = new ArrayList<>(r.notes());
        notes.add(note);
        PlanResult result = new PlanResult(r.planner(), status, plan, r.check(), value, shown, gap, r.seconds(),
                r.work(), r.wallStopped(), notes);
        CosmaResult w = o.whole();
        if (o.dnc() == null && w != null && w.objective() != null && w.objective() == value) {
            List<String> wholeNotes = new ArrayList<>(w.notes());
            wholeNotes.add(note);
            w = new CosmaResult(status, plan, w.check(), w.objective(), shown, gap, w.seconds(), w.backend(),
                    w.pruned(), w.unpruned(), w.startingPlanOnly(), wholeNotes);
        }
        DncResult d = o.dnc();
        if (d != null && d.traffic() == value) {
            d = new DncResult(plan, d.check(), status, d.traffic(), shown, gap, d.seconds(), d.partition(),
                    d.spillAtCut(), d.handover(), d.polished(), d.start(), d.windowsTried(), d.windowsAccepted(),
                    d.source(), d.steps());
        }
        return new CosmaPipeline.Outcome(result, w, d, o.fsDefault(), o.fsMpmf(), o.bestStart(), o.dncOptions());
    }
}
