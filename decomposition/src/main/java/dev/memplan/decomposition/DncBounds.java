package dev.memplan.decomposition;

import dev.memplan.formulations.cosma.ForcedTraffic;
import dev.memplan.formulations.cosma.OperatorWindows;
import dev.memplan.model.Budget;
import dev.memplan.model.ClockGuard;
import dev.memplan.model.Graph;
import dev.memplan.model.HeapRoom;
import dev.memplan.model.Limits;
import dev.memplan.model.Shares;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiConsumer;

/**
 * The lower bounds of a divide-and-conquer run on the whole graph with a free schedule: the forced traffic
 * ({@link ForcedTraffic}, O(tensors x operators)) and the live-bytes bound ({@link PeakBound}, a pruned DP over
 * down-sets, capped in states), the first computed beside the search, the second again at the end.
 */
final class DncBounds {

    private DncBounds() {
    }

    /**
     * The lower bound of the whole graph with a free schedule, computed on a daemon thread beside the search: the
     * forced traffic ({@link ForcedTraffic}) and, up to {@link DivideAndConquer#WHOLE_GRAPH_LIMIT} operators, the live-bytes bound
     * ({@link PeakBound}) with the best starting traffic as its target, whichever is higher.
     */
    static CompletableFuture<Long> lower(Graph g, long budget, long target, RunShares run) {
        CompletableFuture<Long> f = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            // Its loops over the operators stop with the run's clock (past it the bound comes too late to use and
            // takes the machine from the command's last steps): then no bound, as below.
            try (ClockGuard guard = ClockGuard.until(run.limits().budget())) {
                // The free windows keep every operator's ancestor set (n^2 bits): beyond the heap, no bound.
                long n = g.operatorCount();
                if (!HeapRoom.fits(n * n / 8, run.limits())) {
                    f.complete(null);
                    return;
                }
                long forced = ForcedTraffic.of(g, OperatorWindows.free(g, true), budget).bound();
                long live = 0;
                if (g.operatorCount() <= DivideAndConquer.WHOLE_GRAPH_LIMIT && forced < target && !run.over()) {
                    live = PeakBound.of(g, budget, target, PeakBound.DEFAULT_STATE_CAP, run.early()).traffic();
                }
                f.complete(Math.max(forced, live));
            } catch (RuntimeException | OutOfMemoryError e) {
                f.complete(null);
            }
        }, "dnc-lower-bound");
        t.setDaemon(true);
        t.start();
        return f;
    }

    /**
     * The bound once the search is over: when the plan is not proven and time is left (up to
     * {@link DivideAndConquer#WHOLE_GRAPH_LIMIT} operators), the stem solved exactly ({@link StemBound}, up to
     * {@link Shares#STEM_BOUND} of what is left), each proven stem's order handed to {@code grown} with the stem's limits
     * (it may offer plans to {@code best}, which lowers the stem's target), then, unless that proved the plan optimal, the live-bytes bound again
     * with the final traffic as its target, which prunes more and may prove the plan optimal (BENCHMARKS.md, "Divide
     * and conquer", "The stem exactly").
     */
    static Long last(Graph g, long budget, BestPlan best, Long lower, RunShares run,
                     BiConsumer<int[], Limits> grown) {
        if (best.plan() == null || best.traffic() == 0 || g.operatorCount() > DivideAndConquer.WHOLE_GRAPH_LIMIT
                || (lower != null && best.traffic() <= lower) || run.over()) {
            return lower;
        }
        lower = stem(g, budget, best, lower, run, grown);
        if ((lower != null && best.traffic() <= lower) || run.over()) {
            return lower;
        }
        try {
            Limits room = run.left() == Budget.NONE ? run.step(Shares.STEP_CAP.toNanos()) : run.rest();
            PeakBound.Result r = PeakBound.of(g, budget, best.traffic(), PeakBound.DEFAULT_STATE_CAP, room);
            return lower == null ? r.traffic() : Math.max(lower, r.traffic());
        } catch (OutOfMemoryError e) {
            return lower;
        }
    }

    /**
     * The bound raised to the stem's ({@link StemBound#growing}, its target the best plan's traffic), each proven
     * stem's order handed to {@code grown} with the stem's limits; unchanged when the heap runs out.
     */
    private static Long stem(Graph g, long budget, BestPlan best, Long lower, RunShares run,
                             BiConsumer<int[], Limits> grown) {
        try {
            Limits room = run.left() == Budget.NONE ? run.step(Shares.STEP_CAP.toNanos())
                    : run.step(run.fractionOfRest(Shares.STEM_BOUND));
            long stem = StemBound.growing(g, budget, best::traffic, room, order -> grown.accept(order, room));
            return lower == null ? stem : Math.max(lower, stem);
        } catch (OutOfMemoryError e) {
            return lower;
        }
    }

    static Long waitFor(CompletableFuture<Long> bound, RunShares run) {
        try {
            long left = run.left();
            return left == Budget.NONE ? bound.get() : bound.get(Math.max(1, left / 1_000_000), TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
