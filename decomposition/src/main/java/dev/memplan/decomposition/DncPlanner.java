package dev.memplan.decomposition;

import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Plan;
import dev.memplan.model.Planner;
import dev.memplan.model.TensorSetting;
import java.util.List;

/** Divide and conquer behind the {@link Planner} seam, without starting plans and without progress output. */
public final class DncPlanner implements Planner {
    private final DivideAndConquer.Options options;

    public DncPlanner(DivideAndConquer.Options options) {
        this.options = options;
    }

    @Override
    public String name() {
        return "dnc/" + options.cosma().backend().id() + (options.breakNodes() != null ? "/given-break-nodes"
                : "/max-part-" + options.maxPart());
    }

    @Override
    public Plan plan(Graph graph, TensorSetting setting, long budget, Limits limits) {
        return DivideAndConquer.solve(graph, setting, budget, options, limits, List.of(), line -> { }).plan();
    }
}
