package dev.memplan.decomposition;

import dev.memplan.formulations.cosma.CosmaResult;
import dev.memplan.formulations.cosma.CosmaSolver;
import dev.memplan.model.CheckReport;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Objective;
import dev.memplan.model.Plan;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.Shares;
import dev.memplan.model.TensorSetting;
import java.util.List;
import java.util.function.Consumer;

/**
 * The recompute step's road for large graphs (memory-model.md, "Recomputation"): a plan with recomputes (the best
 * recompute baseline's) unrolled into a graph whose runs each happen once ({@link RunGraph}), so that the spill-only
 * road re-plans its order, spills and addresses around its recomputes: the fixed-schedule program in the plan's
 * order (unrolled graphs up to {@link DivideAndConquer#WHOLE_GRAPH_LIMIT} runs; {@link Shares#REPLAN_FIXED} of the
 * step with a free schedule, all of it with a fixed one), then with a free schedule {@link DivideAndConquer} from
 * the better plan, keeping only plans that map back to valid plans of the graph. Recompute cost is that of the
 * start, so the objective falls exactly by the traffic saved. Every plan it returns has passed the checker on the
 * graph. Cost: that of the programs it runs.
 */
final class RecomputeReplan {

    /**
     * The step's answer.
     *
     * @param plan the best mapped plan, null when nothing beat the start (or the start did not unroll)
     * @param check its check on the graph
     * @param objective its objective
     * @param note what the step did, for the report
     */
    record Result(Plan plan, CheckReport check, Objective objective, String note) {
    }

    /** What the progress lines of divide and conquer on the runs begin with. */
    static final String PROGRESS = "recompute: ";

    private RecomputeReplan() {
    }

    /**
     * Re-plans {@code start}, a valid plan of the graph in its setting within the budget; with a free schedule
     * (no schedule in the settings) divide and conquer follows the fixed-schedule program.
     */
    static Result run(Graph graph, TensorSetting setting, long budget, Plan start, double lambda,
                      CosmaPipeline.Settings settings, Limits limits, Consumer<String> progress) {
        Graph g = graph.withSetting(setting);
        boolean free = settings.cosma().schedule() == null;
        RunGraph runs;
        try {
            runs = RunGraph.of(g, start);
        } catch (IllegalArgumentException e) {
            return new Result(null, null, null, e.getMessage());
        }
        Objective before = Objective.of(PlanChecker.check(g, start).traffic(), lambda);
        Plan best = runs.plan();
        long bestTraffic = PlanChecker.check(runs.graph(), best).traffic().nonCompulsory();
        Plan mapped = null;
        StringBuilder note = new StringBuilder(runs.graph().operatorCount() + " runs");
        if (runs.graph().operatorCount() <= DivideAndConquer.WHOLE_GRAPH_LIMIT && !limits.stopped()) {
            progress.accept("recompute: the fixed-schedule program on the runs of the best recompute plan ...");
            Limits share = free && limits.budget().limited() ? limits.child(Shares.REPLAN_FIXED) : limits.child();
            CosmaResult r = CosmaSolver.solve(runs.graph(), setting, budget,
                    settings.cosma().withSchedule(best.schedule()).withStart(best), share);
            Plan back = r.plan() == null ? null : runs.back(r.plan());
            if (back != null && r.objective() < bestTraffic) {
                best = r.plan();
                bestTraffic = r.objective();
                mapped = back;
            }
            note.append("; fixed schedule ").append(r.status()).append(", unrolled traffic ")
                    .append(r.objective() == null ? "-" : r.objective());
        }
        if (free && !limits.stopped()) {
            progress.accept("recompute: divide and conquer on the runs of the best recompute plan ...");
            DivideAndConquer.Options options = DivideAndConquer.Options.of(settings.cosma().withStart(null)
                    .withSchedule(null)).withMaxPart(settings.maxPart()).withAdmits(runs::admits);
            DncResult r = DivideAndConquer.solve(runs.graph(), setting, budget, options, limits.child(), List.of(best),
                    List.of(), line -> progress.accept(PROGRESS + line));
            if (r.traffic() < bestTraffic) {
                best = r.plan();
                bestTraffic = r.traffic();
                mapped = runs.back(best);
            }
            note.append("; divide and conquer, unrolled traffic ").append(r.traffic());
        }
        if (mapped == null) {
            return new Result(null, null, null, note + "; nothing below the start, " + before);
        }
        CheckReport check = PlanChecker.requireValid(g, mapped, "the recompute plan re-planned");
        Objective objective = Objective.of(check.traffic(), lambda);
        note.append("; ").append(objective).append(" from ").append(before);
        return new Result(mapped, check, objective, note.toString());
    }
}
