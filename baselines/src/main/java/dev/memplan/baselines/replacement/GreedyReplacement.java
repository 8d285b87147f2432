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
 *
 * <p>In the bytes-only mode ({@link AddressRule#BYTES}) the victims must free the deficit wherever they are: a
 * minimum-cost covering knapsack, solved exactly by depth-first branch and bound (items by cost per byte, bound:
 * the remaining deficit at the best remaining cost per byte).
 */
public final class GreedyReplacement implements ReplacementPolicy {

    @Override
    public String name() {
        return "greedy";
    }

    @Override
    public List<Integer> victims(ReplacementEvent event) {
        if (!event.contiguous()) {
            return new Cover(event).solve();
        }
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

    /** The least-cost set of evictable residents whose (aligned) bytes cover the deficit. */
    private static final class Cover {
        private final Resident[] items;
        private final long[] bytes;
        private final long deficit;
        private long bestCost = Long.MAX_VALUE;
        private boolean[] best;
        private final boolean[] chosen;

        Cover(ReplacementEvent e) {
            items = e.residents().stream().filter(Resident::evictable)
                    .sorted(java.util.Comparator.comparingDouble((Resident r) -> r.evictionCost() / (double) r.size())
                            .thenComparing(java.util.Comparator.comparingLong(Resident::size).reversed()))
                    .toArray(Resident[]::new);
            bytes = new long[items.length];
            for (int i = 0; i < items.length; i++) {
                bytes[i] = Budgets.roundUp(items[i].size(), e.alignment());
            }
            deficit = e.deficit();
            chosen = new boolean[items.length];
        }

        List<Integer> solve() {
            long total = 0;
            for (long b : bytes) {
                total += b;
            }
            if (deficit > 0 && total >= deficit) {
                search(0, deficit, 0);
            }
            List<Integer> victims = new ArrayList<>();
            for (int i = 0; best != null && i < items.length; i++) {
                if (best[i]) {
                    victims.add(items[i].tensor());
                }
            }
            return victims;
        }

        private void search(int i, long missing, long cost) {
            if (missing <= 0) {
                if (cost < bestCost) {
                    bestCost = cost;
                    best = chosen.clone();
                }
                return;
            }
            if (i == items.length) {
                return;
            }
            // Items come in increasing cost per byte, so no completion is cheaper than this.
            double perByte = items[i].evictionCost() / (double) items[i].size();
            if (cost + Math.ceil(missing * perByte) >= bestCost) {
                return;
            }
            chosen[i] = true;
            search(i + 1, missing - bytes[i], cost + items[i].evictionCost());
            chosen[i] = false;
            search(i + 1, missing, cost);
        }
    }
}
