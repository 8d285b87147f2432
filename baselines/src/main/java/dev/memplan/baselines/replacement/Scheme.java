package dev.memplan.baselines.replacement;

import dev.memplan.baselines.scheduling.ScheduleResult;
import dev.memplan.baselines.scheduling.Scheduler;
import dev.memplan.model.Allocation;
import dev.memplan.model.Allocator;
import dev.memplan.model.Graph;
import dev.memplan.model.PlanBuffers;
import dev.memplan.model.Limits;
import dev.memplan.model.Plan;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.CheckReport;
import dev.memplan.model.Planner;
import dev.memplan.model.PlanResult;
import dev.memplan.model.SolveStatus;
import dev.memplan.model.SolverInfo;
import dev.memplan.model.TensorSetting;

/**
 * A comparison scheme of the COSMA paper (Section 5): an operator schedule, a replacement policy and an online
 * allocator, run by the {@link ReplacementSimulator} into a checked plan. Named
 * {@code scheduler/policy/allocator}, e.g. {@code default/belady/tflite}. The plan is a heuristic (status
 * HEURISTIC); the schedule's own status (e.g. whether the minimum-peak order is proven) is in
 * {@link #lastSchedule()}.
 *
 * <p>With {@link AddressRule#BYTES} and a packer (e.g. {@code default/belady/minimalloc}), replacement decides on
 * bytes alone and the packer then places the resulting segments as fixed-schedule buffers in the budget: the
 * traffic is what replacement alone costs. If the packer finds no packing the scheme has no plan and throws
 * {@link PackingFailedException}: those decisions cannot be packed (or the packer gave up).
 */
public final class Scheme implements Planner {
    private final Scheduler scheduler;
    private final ReplacementPolicy policy;
    private final AddressRule rule;
    private final Allocator packer;
    private final Recomputation recompute;
    private ScheduleResult lastSchedule;

    /** A scheme whose online allocator places tensors as they arrive. */
    public Scheme(Scheduler scheduler, ReplacementPolicy policy, AddressRule rule) {
        this(scheduler, policy, rule, Recomputation.NONE);
    }

    /**
     * A scheme whose online allocator places tensors as they arrive and whose simulator also drops tensors and
     * reruns their producers as {@code recompute} says; named {@code scheduler/recompute/policy/allocator}, e.g.
     * {@code default/checkpoint-sqrt/belady/tflite}, unless {@code recompute} is {@link Recomputation#NONE}.
     */
    public Scheme(Scheduler scheduler, ReplacementPolicy policy, AddressRule rule, Recomputation recompute) {
        this(scheduler, policy, rule, null, recompute);
        if (rule == AddressRule.BYTES) {
            throw new IllegalArgumentException("the bytes-only rule needs a packer");
        }
    }

    /** A scheme that decides replacement on bytes alone, then packs the segments with {@code packer}. */
    public Scheme(Scheduler scheduler, ReplacementPolicy policy, Allocator packer) {
        this(scheduler, policy, AddressRule.BYTES, packer, Recomputation.NONE);
    }

    private Scheme(Scheduler scheduler, ReplacementPolicy policy, AddressRule rule, Allocator packer,
                   Recomputation recompute) {
        this.scheduler = scheduler;
        this.policy = policy;
        this.rule = rule;
        this.packer = packer;
        this.recompute = recompute;
    }

    @Override
    public String name() {
        String dropping = recompute.kind() == Recomputation.Kind.NONE ? "" : recompute.id() + "/";
        return scheduler.name() + "/" + dropping + policy.name() + "/" + (packer == null ? rule.id() : packer.name());
    }

    /**
     * The scheme's plan as a result: HEURISTIC with the checked plan, INFEASIBLE below the least aligned budget
     * (no plan exists), UNKNOWN when the packer found no packing of the scheme's decisions.
     */
    @Override
    public PlanResult solve(Graph graph, TensorSetting setting, long budget, Limits limits) {
        long began = System.nanoTime();
        Graph g = graph.withSetting(setting);
        long feasible = dev.memplan.model.Budgets.minimumFeasible(g);
        if (budget < feasible) {
            return PlanResult.none(name(), SolveStatus.INFEASIBLE, 0, "below " + feasible + " bytes no plan exists");
        }
        try {
            Plan p = plan(graph, setting, budget, limits);
            return PlanResult.heuristic(name(), g, p, p.solver().seconds());
        } catch (PackingFailedException e) {
            return PlanResult.none(name(), SolveStatus.UNKNOWN, (System.nanoTime() - began) / 1e9, e.getMessage());
        }
    }

    /**
     * The scheme's checked plan; throws {@link PackingFailedException} when its packer finds no packing (or, when
     * recomputing, the simulator finds no plan).
     */
    public Plan plan(Graph graph, TensorSetting setting, long budget, Limits limits) {
        long began = System.nanoTime();
        Graph g = graph.withSetting(setting);
        ScheduleResult s = scheduler.schedule(g, limits);
        lastSchedule = s;
        ReplacementSimulator.Simulation run = new ReplacementSimulator(policy, rule, recompute)
                .run(g, s.schedule(), budget);
        Plan plan = new Plan(g.name(), setting, budget, run.runs(), run.segments(), null, null);
        if (packer != null) {
            Allocation packed = packer.allocate(PlanBuffers.toBufferSet(g, plan), budget, limits);
            if (!packed.solved()) {
                throw new PackingFailedException(name() + ": " + packer.name() + " found no packing of the "
                        + plan.segmentCount() + " segments in " + budget + " bytes (" + packed.status() + ")");
            }
            plan = PlanBuffers.withPlacement(plan, packed.placement());
        }
        CheckReport report = PlanChecker.requireValid(g, plan, name());
        return plan.withResult(report.traffic(), new SolverInfo(name(), SolveStatus.HEURISTIC,
                (System.nanoTime() - began) / 1e9, null));
    }

    /** The same scheme, whose simulator drops and reruns as {@code r} says (an online allocator only). */
    public Scheme recomputing(Recomputation r) {
        if (packer != null) {
            throw new IllegalArgumentException(name() + ": a recompute scheme needs an online allocator");
        }
        return new Scheme(scheduler, policy, rule, null, r);
    }

    /** How the scheme recomputes ({@link Recomputation#NONE}: spill only). */
    public Recomputation recomputation() {
        return recompute;
    }

    /** The schedule of the last {@link #plan} call, with its method, peak and status. */
    public ScheduleResult lastSchedule() {
        return lastSchedule;
    }
}
