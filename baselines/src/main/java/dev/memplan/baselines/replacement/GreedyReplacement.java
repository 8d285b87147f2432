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
 * tensors it overlaps. Ties: fewer bytes evicted, then the lower address (the first window in that order).
 * Counting only bytes (a knapsack) would ignore where the freed bytes are; this counts the contiguous gap the
 * allocator needs.
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
        Windows w = new Windows(event);
        int best = -1;
        for (int k = 0; k < w.starts.length; k++) {
            int j = w.position[k];
            if (w.starts[k] + event.size() > event.budget() || w.fixed[j] > 0) {
                continue;
            }
            if (best < 0 || w.cost[j] < w.cost[w.position[best]] || (w.cost[j] == w.cost[w.position[best]]
                    && w.bytes[j] < w.bytes[w.position[best]])) {
                best = k;
            }
        }
        List<Integer> victims = new ArrayList<>();
        if (best >= 0) {
            long start = w.starts[best];
            for (Resident r : event.residents()) {
                if (r.offset() < start + event.size() && start < r.end()) {
                    victims.add(r.tensor());
                }
            }
        }
        return victims;
    }

    /**
     * The candidate windows (at 0 and at each resident's aligned end, in that order) with what each overlaps: the
     * cost and bytes of the evictable residents and the number of residents that must stay. A resident overlaps
     * the windows whose start lies in (offset - size, end): one range of the starts sorted, added to a difference
     * array, so O(r log r) for r residents instead of testing every pair (the O(r^2) scan took 51 s of a 68 s
     * {@code compare} on gen:layered:5000:train).
     */
    private static final class Windows {
        final long[] starts;
        /** Where window k sits among the starts sorted (ties in the given order). */
        final int[] position;
        final long[] cost;
        final long[] bytes;
        final int[] fixed;

        Windows(ReplacementEvent event) {
            List<Resident> rs = event.residents();
            int m = rs.size() + 1;
            starts = new long[m];
            for (int i = 0; i < rs.size(); i++) {
                starts[i + 1] = Budgets.roundUp(rs.get(i).end(), event.alignment());
            }
            Integer[] order = new Integer[m];
            for (int k = 0; k < m; k++) {
                order[k] = k;
            }
            java.util.Arrays.sort(order, java.util.Comparator.comparingLong((Integer k) -> starts[k]));
            long[] sorted = new long[m];
            position = new int[m];
            for (int j = 0; j < m; j++) {
                sorted[j] = starts[order[j]];
                position[order[j]] = j;
            }
            cost = new long[m + 1];
            bytes = new long[m + 1];
            fixed = new int[m + 1];
            for (Resident r : rs) {
                int from = firstAbove(sorted, r.offset() - event.size());
                int to = firstAbove(sorted, r.end() - 1);
                if (from < to) {
                    add(from, to, r);
                }
            }
            for (int j = 1; j <= m; j++) {
                cost[j] += cost[j - 1];
                bytes[j] += bytes[j - 1];
                fixed[j] += fixed[j - 1];
            }
        }

        /** Adds r to the windows from..to-1 (sorted positions) of the difference arrays. */
        private void add(int from, int to, Resident r) {
            if (r.evictable()) {
                cost[from] += r.evictionCost();
                cost[to] -= r.evictionCost();
                bytes[from] += r.size();
                bytes[to] -= r.size();
            } else {
                fixed[from]++;
                fixed[to]--;
            }
        }

        /** The first position whose start is above {@code value} (the length when none is). */
        private static int firstAbove(long[] sorted, long value) {
            int lo = 0;
            int hi = sorted.length;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (sorted[mid] > value) {
                    hi = mid;
                } else {
                    lo = mid + 1;
                }
            }
            return lo;
        }
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
