package dev.memplan.baselines.replacement;

import dev.memplan.baselines.scheduling.ScheduleResult;
import dev.memplan.baselines.scheduling.Scheduler;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Plan;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.CheckReport;
import dev.memplan.model.Planner;
import dev.memplan.model.SolveStatus;
import dev.memplan.model.SolverInfo;
import dev.memplan.model.TensorSetting;

/**
 * A comparison scheme of the COSMA paper (Section 5): an operator schedule, a replacement policy and an online
 * allocator, run by the {@link ReplacementSimulator} into a checked plan. Named
 * {@code scheduler/policy/allocator}, e.g. {@code default/belady/tflite}. The plan is a heuristic (status
 * HEURISTIC); the schedule's own status (e.g. whether the minimum-peak order is proven) is in
 * {@link #lastSchedule()}.
 */
public final class Scheme implements Planner {
    private final Scheduler scheduler;
    private final ReplacementPolicy policy;
    private final AddressRule rule;
    private ScheduleResult lastSchedule;

    public Scheme(Scheduler scheduler, ReplacementPolicy policy, AddressRule rule) {
        this.scheduler = scheduler;
        this.policy = policy;
        this.rule = rule;
    }

    @Override
    public String name() {
        return scheduler.name() + "/" + policy.name() + "/" + rule.id();
    }

    @Override
    public Plan plan(Graph graph, TensorSetting setting, long budget, Limits limits) {
        long began = System.nanoTime();
        Graph g = graph.withSetting(setting);
        ScheduleResult s = scheduler.schedule(g, limits);
        lastSchedule = s;
        Plan plan = new Plan(g.name(), setting, budget, s.schedule(),
                new ReplacementSimulator(policy, rule).simulate(g, s.schedule(), budget), null, null);
        CheckReport report = PlanChecker.requireValid(g, plan, name());
        return plan.withResult(report.traffic(), new SolverInfo(name(), SolveStatus.HEURISTIC,
                (System.nanoTime() - began) / 1e9, null));
    }

    /** The schedule of the last {@link #plan} call, with its method, peak and status. */
    public ScheduleResult lastSchedule() {
        return lastSchedule;
    }
}
