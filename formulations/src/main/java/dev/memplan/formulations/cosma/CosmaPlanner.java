package dev.memplan.formulations.cosma;

import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Plan;
import dev.memplan.model.Planner;
import dev.memplan.model.TensorSetting;

/** COSMA behind the {@link Planner} seam: the checked plan of {@link CosmaSolver}, or an exception when none was found. */
public final class CosmaPlanner implements Planner {
    private final CosmaSolver.Options options;

    public CosmaPlanner(CosmaSolver.Options options) {
        this.options = options;
    }

    @Override
    public String name() {
        return "cosma/" + options.backend().id() + (options.schedule() != null ? "/fixed-schedule" : "");
    }

    @Override
    public Plan plan(Graph graph, TensorSetting setting, long budget, Limits limits) {
        CosmaResult r = CosmaSolver.solve(graph, setting, budget, options, limits);
        if (r.plan() == null) {
            throw new IllegalStateException(name() + " found no plan: " + r.status());
        }
        return r.plan();
    }
}
