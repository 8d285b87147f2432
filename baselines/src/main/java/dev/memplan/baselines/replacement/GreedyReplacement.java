package dev.memplan.baselines.replacement;

import dev.memplan.model.Budgets;
import java.util.ArrayList;
import java.util.List;

/**
 * The paper's greedy policy (COSMA, Section 5: "an ILP-based greedy algorithm which provides a locally optimal
 * decision that generates the least off-chip data accesses each time replacement is needed"): at each
 * replacement event, the set of victims of least total cost (a reload, plus a spill when the tensor has no host
 * copy) whose eviction opens a free window of the size needed.
 *
 * <p>Solved exactly by enumeration instead of a program: some optimal window can be slid down until it starts
 * at address 0 or at the end of a tensor that stays (it then overlaps a subset of the victims), so it suffices to
 * try windows starting at 0 and at the end of each resident, rounded up to the alignment; a window is allowed
 * when it lies below the budget and overlaps no tensor that must stay, and costs the sum over the evictable
 * tensors it overlaps. Ties: fewer bytes evicted, then the lower address. O(r^2) for r residents. Counting only
 * bytes (a knapsack) would ignore where the freed bytes are; this counts the contiguous gap the allocator needs.
 */
public final class GreedyReplacement implements ReplacementPolicy {

    @Override
    public String name() {
        return "greedy";
    }

    @Override
    public List<Integer> victims(ReplacementEvent event) {
        List<Long> starts = new ArrayList<>();
        starts.add(0L);
        for (Resident r : event.residents()) {
            starts.add(Budgets.roundUp(r.end(), event.alignment()));
        }
        long bestCost = Long.MAX_VALUE;
        long bestBytes = Long.MAX_VALUE;
        List<Integer> best = List.of();
        for (long start : starts) {
            long end = start + event.size();
            if (end > event.budget()) {
                continue;
            }
            long cost = 0;
            long bytes = 0;
            List<Integer> victims = new ArrayList<>();
            boolean allowed = true;
            for (Resident r : event.residents()) {
                if (r.offset() < end && start < r.end()) {
                    if (!r.evictable()) {
                        allowed = false;
                        break;
                    }
                    cost += r.evictionCost();
                    bytes += r.size();
                    victims.add(r.tensor());
                }
            }
            if (allowed && (cost < bestCost || (cost == bestCost && bytes < bestBytes))) {
                bestCost = cost;
                bestBytes = bytes;
                best = victims;
            }
        }
        return best;
    }
}
