package dev.memplan.decomposition;

import dev.memplan.formulations.cosma.CosmaResult;
import dev.memplan.formulations.cosma.CosmaSolver;
import dev.memplan.model.Graph;
import dev.memplan.model.JustInTimePlanner;
import dev.memplan.model.Limits;
import dev.memplan.model.Plan;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.Schedule;
import dev.memplan.model.Shares;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Divide and conquer's first step (the paper's scheme): each part of the partition solved alone with a free schedule
 * from its stretch of the best start (or its just-in-time plan), within its share of the parts' time, then the parts
 * stitched spilling at the cuts. Cost: one program per part, of the part's size.
 */
final class DncParts {

    private DncParts() {
    }

    /** The parts, each solved alone with a free schedule (the paper's scheme), then stitched spilling at the cuts. */
    static StepReport.Status parts(DncRun run) {
        Graph g = run.g;
        Plan startPlan = run.best.plan();
        int[] startPosition = startPlan == null ? null : PlanSplicer.positions(g, startPlan);
        List<Plan> partPlans = new ArrayList<>();
        int at = 0;
        int left = g.operatorCount();
        long partsEnd = run.shares.fraction(g.operatorCount() <= DivideAndConquer.WHOLE_GRAPH_LIMIT ? Shares.PARTS
                : Shares.LARGE_PARTS);
        for (int k = 0; k < run.partition.size(); k++) {
            if (run.shares.over()) {
                // Past the end nothing is stitched: the parts so far are no plan of the whole graph.
                run.progress.accept(String.format(Locale.ROOT, "dnc: the time is up after %d of %d parts; the best "
                        + "plan so far is kept", k, run.partition.size()));
                run.finished = true;
                run.cut = true;
                return StepReport.Status.OUT_OF_BUDGET;
            }
            int[] ops = run.partition.parts().get(k);
            SubGraph part = SubGraph.of(g, ops, g.name() + "/part" + k);
            long share = run.shares.shareUntil(partsEnd, ops.length, left);
            left -= ops.length;
            Plan partStart = run.contiguous
                    ? PlanSplicer.restrict(g, startPlan, startPosition, at, at + ops.length - 1, part) : null;
            at += ops.length;
            if (partStart == null) {
                partStart = new JustInTimePlanner(startPosition == null ? null : inOrder(g, part, startPosition))
                        .plan(part.graph(), run.setting, run.budget, Limits.DEFAULT);
            }
            partPlans.add(solvePart(run, k, part, partStart, share));
        }
        Plan stitched = PlanSplicer.concatenate(g, run.setting, run.budget, partPlans);
        run.spillAtCut = PlanChecker.requireValid(g, stitched, "divide and conquer (spill at cut)").traffic()
                .nonCompulsory();
        run.best.offer(stitched, "parts, spill at cut");
        run.current = stitched;
        return StepReport.Status.DONE;
    }

    /** A part's plan: its program's within {@code share}, or its starting plan when that found nothing. */
    private static Plan solvePart(DncRun run, int k, SubGraph part, Plan partStart, long share) {
        int count = run.partition.size();
        int size = part.operators().length;
        if (share < Math.round(Shares.MIN_SOLVE * 1e9)) {
            // No budget left for a program: the part's starting plan as it is.
            run.progress.accept(String.format(Locale.ROOT, "dnc: part %d/%d (%d operators): its starting plan (no "
                    + "time left)", k + 1, count, size));
            return partStart;
        }
        CosmaResult r;
        try {
            r = CosmaSolver.solve(part.graph(), run.setting, run.budget,
                    run.options.cosma().withSchedule(null).withStart(partStart), run.shares.step(share));
        } catch (IllegalStateException e) {
            run.progress.accept("dnc: part " + (k + 1) + " keeps its starting plan: " + e.getMessage()
                    + " (part saved as " + DncRun.saved(part.graph(), partStart) + ")");
            r = null;
        }
        if (r == null || r.plan() == null) {
            run.progress.accept(String.format(Locale.ROOT, "dnc: part %d/%d (%d operators): its starting plan (the "
                    + "solve found none within its share)", k + 1, count, size));
            return partStart;
        }
        run.progress.accept(String.format(Locale.ROOT, "dnc: part %d/%d (%d operators) %s, traffic %d, %.1f s",
                k + 1, count, size, r.status(), r.objective(), r.seconds()));
        return r.plan();
    }

    /** The part's operators in the order of the given positions (a topological order of the part). */
    private static Schedule inOrder(Graph g, SubGraph part, int[] position) {
        return new Schedule(Arrays.stream(part.operators()).boxed().sorted(Comparator.comparingInt(o -> position[o]))
                .map(o -> g.operator(o).name()).toList());
    }
}
