package dev.memplan.decomposition;

import dev.memplan.baselines.allocation.minimalloc.MiniMallocAllocator;
import dev.memplan.baselines.replacement.AddressRule;
import dev.memplan.baselines.replacement.BeladyReplacement;
import dev.memplan.baselines.replacement.GreedyReplacement;
import dev.memplan.baselines.replacement.ReplacementPolicy;
import dev.memplan.baselines.replacement.Scheme;
import dev.memplan.baselines.scheduling.GivenOrderScheduler;
import dev.memplan.baselines.scheduling.LeximaxScheduler;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Plan;
import dev.memplan.model.PlanResult;
import dev.memplan.model.Schedule;
import dev.memplan.model.Shares;
import dev.memplan.model.TensorSetting;
import dev.memplan.model.TrainingStep;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Starting plans of a training step ({@link TrainingStep}) with a free schedule: the default order levelled
 * ({@link LeximaxScheduler}: the weight gradients moved off the peaks of the backward pass) with Belady and greedy
 * replacement and TFLite's arena, named {@code leximax/belady/tflite} and {@code leximax/greedy/tflite}, and Belady's
 * choices made on bytes alone and packed by MiniMalloc ({@code leximax/belady/minimalloc}, with
 * {@link Shares#LEVELLED_PACKING} of what is left; none when it finds no packing). They join the schemes' plans, so
 * the best of them decides divide and conquer's cuts and the plan its windows improve. Other graphs get none: their
 * road stays as it was. Cost: the order's search (counted in work), two schemes, each only while the time left
 * allows a scheme, and the packing's share.
 */
final class LevelledStarts {

    private LevelledStarts() {
    }

    /** The plans (none when {@code full} is not a training step or no time is left). */
    static List<Plan> plans(Graph full, TensorSetting s, long budget, Limits limits, Consumer<String> progress) {
        Graph g = full.withSetting(s);
        long needs = limits.budget().schemeNeeds(full.operatorCount());
        if (TrainingStep.forwardCount(g) < 0 || limits.budget().left() < needs) {
            return List.of();
        }
        Schedule order = new LeximaxScheduler().schedule(g, limits).schedule();
        List<Plan> plans = new ArrayList<>();
        for (ReplacementPolicy policy : List.of(new BeladyReplacement(), new GreedyReplacement())) {
            if (limits.budget().left() < needs) {
                break;
            }
            PlanResult r = new Scheme(new GivenOrderScheduler(order, "leximax"), policy, AddressRule.TFLITE)
                    .solve(full, s, budget, limits);
            if (r.planned()) {
                plans.add(r.plan());
            }
        }
        if (limits.budget().left() >= needs) {
            // Belady's choices on bytes alone, packed exactly: within its share MiniMalloc (its node budget, as in the
            // decoupled program) finds room that TFLite's arena, placing as tensors arrive, does not.
            Limits share = limits.child(Shares.LEVELLED_PACKING);
            PlanResult r = new Scheme(new GivenOrderScheduler(order, "leximax"), new BeladyReplacement(),
                    new MiniMallocAllocator()).solve(full, s, budget, share);
            if (share.workMode()) {
                // The packer's nodes are not counted as work; its share is charged whole, found or not.
                share.budget().charge(share.budget().workLeft());
            }
            if (r.planned()) {
                plans.add(r.plan());
            }
        }
        Plan best = CosmaPipeline.best(plans);
        if (best != null) {
            progress.accept("levelled order: " + best.solver().name() + " traffic " + best.traffic().nonCompulsory());
        }
        return plans;
    }
}
