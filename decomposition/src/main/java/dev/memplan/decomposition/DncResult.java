package dev.memplan.decomposition;

import dev.memplan.model.CheckReport;
import dev.memplan.model.Plan;
import dev.memplan.model.SolveStatus;
import java.util.List;

/**
 * What divide and conquer delivers: the checked plan, its status (OPTIMAL only when its traffic meets the lower
 * bound), the bound (the forced traffic, the live-bytes bound or the stem's ({@link StemBound}) of the whole graph
 * with a free schedule, whichever is highest; null when it was not computed in time) and gap, and what each stage reached, so that a table can show what each buys.
 *
 * @param spillAtCut traffic of the parts' plans put together as the paper does (everything crossing a cut spilled);
 *     null (like the other stages) when a starting plan already met the lower bound and nothing was divided
 * @param handover traffic after handing the on-chip state over across the cuts
 * @param polished traffic of the fixed-schedule optimum of the stitched order (null: the graph was too large or no
 *     time was left)
 * @param start traffic of the best starting plan given (null: none given)
 * @param source which stage produced the plan returned
 * @param steps what each step did, in order ({@link StepReport})
 */
public record DncResult(Plan plan, CheckReport check, SolveStatus status, long traffic, Long bound, Double gap,
                        double seconds, Partition partition, Long spillAtCut, Long handover, Long polished, Long start,
                        int windowsTried, int windowsAccepted, String source,
                        List<StepReport> steps) {
}
