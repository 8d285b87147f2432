package dev.memplan.decomposition;

import dev.memplan.baselines.replacement.AddressRule;
import dev.memplan.baselines.replacement.BeladyReplacement;
import dev.memplan.baselines.replacement.Scheme;
import dev.memplan.baselines.scheduling.GivenOrderScheduler;
import dev.memplan.baselines.allocation.heuristics.GreedyBySizeAllocator;
import dev.memplan.baselines.allocation.telamalloc.SkylineAllocator;
import dev.memplan.model.Budget;
import dev.memplan.model.Shares;
import dev.memplan.model.Allocation;
import dev.memplan.model.Allocator;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Plan;
import dev.memplan.model.Origin;
import dev.memplan.model.PlanBuffers;
import dev.memplan.model.PlanResult;
import dev.memplan.model.Segment;
import dev.memplan.model.TensorSetting;
import dev.memplan.model.Schedule;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Whole-graph plans from the stems {@link StemBound} proved (issue 35, item 3: the stem's best plans as starting
 * plans of divide and conquer): each proven stem's least-traffic order, extended to the whole graph by the order of
 * a plan the run already has ({@link StemBound#extend}: the stem's operators in the stem's order, each after its
 * ancestors, then the rest in that plan's order), planned twice: by Belady's replacement with TFLite's addresses, and
 * by the least traffic of that order without addresses (the stem's search with the order fixed), its path replayed as
 * segments and packed by an allocator; each checked and offered to the run's best plan. Where the stem holds the whole
 * graph's pressure and the addresses cost nothing, this meets the stem's bound (NASNet and AmoebaNet at M_H:
 * BENCHMARKS.md, "Plans from the stem"). Cost: per stem and reference order, one Belady plan, one search over the
 * fixed order (charged to the run's work), one packing and the checks.
 */
final class StemPlans {

    private StemPlans() {
    }

    /**
     * Up to {@link DivideAndConquer#WHOLE_GRAPH_LIMIT} operators, the growing stems ({@link StemBound#growing}) with
     * {@link Shares#STEM_PLANS} of what is left, the target the best plan's traffic: each proven stem's order gives
     * plans offered to the best, so that the windows start from the best of them; when the best meets the stems'
     * bound (or the bound beside the search), the run is finished.
     */
    static StepReport.Status step(DncRun run) {
        if (run.g.operatorCount() > DivideAndConquer.WHOLE_GRAPH_LIMIT || run.best.plan() == null
                || run.shares.over()) {
            return StepReport.Status.SKIPPED;
        }
        Limits room = run.shares.left() == Budget.NONE ? run.shares.step(Shares.STEP_CAP.toNanos())
                : run.shares.step(run.shares.fractionOfRest(Shares.STEM_PLANS));
        long before = run.best.traffic();
        try {
            run.stemBound = StemBound.growing(run.g, run.budget, run.best::traffic, room,
                    order -> offerIfAsked(run, order, room));
        } catch (OutOfMemoryError e) {
            run.progress.accept("dnc: the stems ran out of heap; no stem plans");
            return StepReport.Status.DONE;
        }
        run.progress.accept(String.format(Locale.ROOT, "dnc: the stems' bound %d, best traffic %d (before %d)",
                run.stemBound, run.best.traffic(), before));
        if (run.best.traffic() <= run.stemBound || run.best.meets(run.bound)) {
            run.progress.accept("dnc: the best plan meets the lower bound; no window search");
            run.finished = true;
        }
        return StepReport.Status.DONE;
    }

    /** The plans of a proven stem's order offered to the best ({@link #offer}), unless the options say not. */
    static void offerIfAsked(DncRun run, int[] stemOrder, Limits room) {
        if (run.options.stemPlans()) {
            offer(run, stemOrder, room);
        }
    }

    /**
     * Offers the plans of a proven stem's order, extended by the orders of the run's best plan, its starts and its
     * alternatives (each distinct order once), to the run's best, the searches within {@code limits}.
     */
    static void offer(DncRun run, int[] stemOrder, Limits limits) {
        Set<Schedule> references = new LinkedHashSet<>();
        if (run.best.plan() != null) {
            references.add(run.best.plan().schedule());
        }
        run.starts.forEach(p -> references.add(p.schedule()));
        run.alternatives.forEach(p -> references.add(p.schedule()));
        long before = run.best.traffic();
        List<Plan> plans = plans(run.g, run.setting, run.budget, List.of(stemOrder), references, limits);
        plans.forEach(p -> run.best.offer(p, "the stem's order"));
        run.progress.accept(String.format(Locale.ROOT, "dnc: %d plans from the order of a stem of %d operators, best "
                + "traffic %d (before %d)", plans.size(), stemOrder.length, run.best.traffic(), before));
    }

    /**
     * The plans of each stem order extended by each reference order, each distinct whole order once: Belady's
     * (TFLite's addresses), and the least traffic of that order without addresses ({@link StemBound#fixedOrder},
     * charged to {@code limits}) replayed and packed ({@link #replay}) when it packs; unchecked (the caller checks
     * them). The searches find nothing once {@code limits}
     * are spent.
     *
     * @param g the graph in its tensor setting
     */
    static List<Plan> plans(Graph g, TensorSetting setting, long budget, List<int[]> stemOrders,
                            Collection<Schedule> references, Limits limits) {
        Set<Schedule> orders = new LinkedHashSet<>();
        for (int[] stemOrder : stemOrders) {
            for (Schedule reference : references) {
                orders.add(StemBound.extend(g, stemOrder, reference.resolve(g)));
            }
        }
        List<Plan> plans = new ArrayList<>();
        for (Schedule order : orders) {
            PlanResult r = new Scheme(new GivenOrderScheduler(order, "stem"), new BeladyReplacement(),
                    AddressRule.TFLITE).solve(g, setting, budget, limits);
            if (r.planned()) {
                plans.add(r.plan());
            }
            List<StemBound.Step> path = StemBound.fixedOrder(g, budget, order, StemBound.DEFAULT_STATE_CAP, limits);
            Plan replayed = path == null ? null : replay(g, setting, budget, order, path);
            if (replayed != null) {
                plans.add(replayed);
            }
        }
        return plans;
    }

    /**
     * The plan that follows a search path of the whole graph ({@link StemBound#fixedOrder}): each tensor resident from
     * its creation or a read that finds it off chip until the path drops it (ending at its last use before that) or
     * until its last read; the segments then packed in the budget (greedy by size, else the skyline). Null when
     * neither packs them: without addresses they fit, with them they may not.
     *
     * @param g the graph in its tensor setting
     * @param order the path's order
     */
    static Plan replay(Graph g, TensorSetting setting, long budget, Schedule order, List<StemBound.Step> path) {
        int n = g.tensorCount();
        int[] openedAt = new int[n];
        int[] lastUse = new int[n];
        Origin[] origin = new Origin[n];
        java.util.Arrays.fill(openedAt, -1);
        List<List<Segment>> segments = new ArrayList<>();
        for (int x = 0; x < n; x++) {
            segments.add(new ArrayList<>());
        }
        long[] done = new long[(g.operatorCount() + 63) / 64];
        for (int t = 0; t < path.size(); t++) {
            StemBound.Step step = path.get(t);
            for (int x : step.drops()) {
                segments.get(x).add(new Segment(openedAt[x], lastUse[x], 0, origin[x]));
                openedAt[x] = -1;
            }
            int o = step.op();
            int[] own = PeakBound.own(g, o);
            for (int x : own) {
                if (openedAt[x] < 0) {
                    openedAt[x] = t;
                    origin[x] = g.producer(x) == o ? Origin.CREATED : Origin.LOADED;
                }
                lastUse[x] = t;
            }
            done[o >> 6] |= 1L << (o & 63);
            for (int x : own) {
                if (!PeakBound.isLive(g, x, done, false)) {
                    segments.get(x).add(new Segment(openedAt[x], lastUse[x], 0, origin[x]));
                    openedAt[x] = -1;
                }
            }
        }
        Map<String, List<Segment>> byName = new LinkedHashMap<>();
        for (int x = 0; x < n; x++) {
            if (!segments.get(x).isEmpty()) {
                byName.put(g.tensor(x).name(), segments.get(x));
            }
        }
        Plan plan = new Plan(g.name(), setting, budget, order, byName, null, null);
        for (Allocator packer : List.of(new GreedyBySizeAllocator(), new SkylineAllocator())) {
            Allocation packed = packer.allocate(PlanBuffers.toBufferSet(g, plan), budget, Limits.DEFAULT);
            if (packed.solved()) {
                return PlanBuffers.withPlacement(plan, packed.placement());
            }
        }
        return null;
    }
}
