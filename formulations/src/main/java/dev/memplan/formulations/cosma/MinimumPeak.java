package dev.memplan.formulations.cosma;

import dev.memplan.formulations.milp.Backend;
import dev.memplan.formulations.milp.Solvers;
import dev.memplan.formulations.milp.SolverResult;
import dev.memplan.model.Budgets;
import dev.memplan.model.Graph;
import dev.memplan.model.Lifetimes;
import dev.memplan.model.Limits;
import dev.memplan.model.Origin;
import dev.memplan.model.Plan;
import dev.memplan.model.Schedule;
import dev.memplan.model.Segment;
import dev.memplan.model.SolveStatus;
import dev.memplan.model.TensorSetting;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * M_P, the minimum peak footprint over all schedules with no spills and only compulsory loads (COSMA eq. 13-15,
 * without the allocation), and the schedule that reaches it. The value reported is always the footprint of a
 * real schedule, recomputed by {@link Budgets#footprint}; when the solver does not prove it, the best bound comes
 * with it and the status says FEASIBLE.
 */
public final class MinimumPeak {

    /**
     * @param value the footprint of {@code schedule} (an upper bound on M_P; equal to it when OPTIMAL)
     * @param bound the best proven lower bound on M_P (at least M_R)
     */
    public record Result(SolveStatus status, long value, long bound, Schedule schedule, double seconds, String backend,
                         ModelSize size) {
    }

    private MinimumPeak() {
    }

    public static Result solve(Graph graph, TensorSetting setting, Backend backend, Limits limits) {
        Graph g = graph.withSetting(setting);
        long began = System.nanoTime();
        CosmaFormulation f = new CosmaFormulation(g, setting, Long.MAX_VALUE / 4, CosmaObjective.PEAK, null, false, true);
        Schedule fallback = Schedule.defaultOrder(g);
        f.hint(noSpillPlan(g, setting, fallback));
        SolverResult r = Solvers.create(backend).solve(f.model(), limits);
        double seconds = (System.nanoTime() - began) / 1e9;
        long lower = Budgets.minimumRequired(g);
        if (r.bound() != null) {
            lower = Math.max(lower, (long) Math.ceil(r.bound() - 1e-6));
        }
        Schedule best = fallback;
        long value = Budgets.footprint(g, fallback);
        SolveStatus status = SolveStatus.FEASIBLE;
        if (r.values() != null && (r.status() == SolveStatus.OPTIMAL || r.status() == SolveStatus.FEASIBLE)) {
            Schedule found = f.schedule(r);
            long footprint = Budgets.footprint(g, found);
            if (footprint > f.peak(r)) {
                throw new IllegalStateException("bug: the minimum-peak program claims " + f.peak(r)
                        + " but its schedule needs " + footprint);
            }
            if (footprint <= value) {
                best = found;
                value = footprint;
            }
            if (r.status() == SolveStatus.OPTIMAL) {
                lower = value;
                status = SolveStatus.OPTIMAL;
            }
        }
        if (value == lower) {
            status = SolveStatus.OPTIMAL;
        }
        return new Result(status, value, lower, best, seconds, r.backend(), ModelSize.of(f.model()));
    }

    /** The no-spill residency of a schedule as segments (offsets 0: a hint for the program without addresses). */
    static Plan noSpillPlan(Graph g, TensorSetting setting, Schedule schedule) {
        Lifetimes life = Lifetimes.of(g, schedule);
        Map<String, List<Segment>> segments = new LinkedHashMap<>();
        for (int a = 0; a < g.tensorCount(); a++) {
            if (life.first(a) >= 0) {
                Origin origin = g.isHost(a) ? Origin.LOADED : Origin.CREATED;
                segments.put(g.tensor(a).name(), List.of(new Segment(life.first(a), life.last(a), 0, origin)));
            }
        }
        return new Plan(g.name(), setting, 0, schedule, segments, null, null);
    }
}
