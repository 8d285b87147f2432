package dev.memplan.baselines.replacement;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The choice each policy makes at one replacement event, pinned on hand-made address maps. */
class PoliciesTest {
    // Budget 40: a [0,20) next use 9, b [20,30) next use 5, c [30,40) used now (pinned). Need 10 bytes.
    private static final ReplacementEvent EVENT = new ReplacementEvent(3, 10, 1, 40, List.of(
            new Resident(0, 0, 20, true, 9, 0, true),
            new Resident(1, 20, 10, true, 5, 2, true),
            new Resident(2, 30, 10, false, 3, 3, true)));

    @Test
    void beladyEvictsTheFurthestNextUseEvenWhenItIsTheDearest() {
        assertEquals(List.of(0), new BeladyReplacement().victims(EVENT));
    }

    @Test
    void greedyEvictsTheCheapestSetThatOpensAGap() {
        // Windows: [0,10) hits a (cost 40), [20,30) hits b (cost 20), [30,40) hits the pinned c.
        assertEquals(List.of(1), new GreedyReplacement().victims(EVENT));
    }

    @Test
    void lruEvictsTheLeastRecentlyUsed() {
        assertEquals(List.of(0), new LruReplacement().victims(EVENT));
    }

    @Test
    void greedyCountsTheSpillOnlyWithoutAHostCopy() {
        // a already has a host copy: evicting it costs its reload, 20, less than b's spill + reload, 2 x 15.
        ReplacementEvent e = new ReplacementEvent(3, 10, 1, 35, List.of(
                new Resident(0, 0, 20, true, 9, 0, false),
                new Resident(1, 20, 15, true, 5, 2, true)));
        assertEquals(List.of(0), new GreedyReplacement().victims(e));
    }

    @Test
    void greedyTakesSeveralVictimsWhenTheGapSpansThem() {
        // 16 bytes needed: [0,16) hits a and b (cost 2x8 + 2x8 = 32); [16,32) hits c (cost 2x16 = 32) but
        // frees as many bytes... tie on cost, fewer bytes evicted wins; both evict 16, so the lower address.
        ReplacementEvent e = new ReplacementEvent(0, 16, 1, 32, List.of(
                new Resident(0, 0, 8, true, 5, 0, true),
                new Resident(1, 8, 8, true, 6, 0, true),
                new Resident(2, 16, 16, true, 7, 0, true)));
        assertEquals(List.of(0, 1), new GreedyReplacement().victims(e));
    }

    @Test
    void greedyRespectsAlignmentAndTheBudget() {
        // Alignment 8: the end of a (5) rounds up to 8; [8,16) hits b only. [0,8) would hit a and b.
        ReplacementEvent e = new ReplacementEvent(0, 8, 8, 16, List.of(
                new Resident(0, 0, 5, true, 5, 0, true),
                new Resident(1, 8, 8, true, 6, 0, false)));
        assertEquals(List.of(1), new GreedyReplacement().victims(e));
    }

    @Test
    void nothingToOfferWhenEveryResidentIsPinned() {
        ReplacementEvent e = new ReplacementEvent(0, 8, 1, 16, List.of(new Resident(0, 4, 8, false, 0, 0, true)));
        assertEquals(List.of(), new GreedyReplacement().victims(e));
        assertEquals(List.of(), new BeladyReplacement().victims(e));
        assertEquals(List.of(), new LruReplacement().victims(e));
    }

    @Test
    void greedyOnBytesAloneSolvesTheCoveringKnapsackExactly() {
        // Bytes mode: 32 bytes resident, 10 needed, budget 40: 2 bytes missing, wherever they are. Cheapest cover:
        // d (3 bytes with a host copy: cost 3), not a (2 x 20) nor b (2 x 5).
        ReplacementEvent e = new ReplacementEvent(3, 10, 1, 40, List.of(
                new Resident(0, 0, 20, true, 9, 0, true),
                new Resident(1, 0, 5, true, 5, 0, true),
                new Resident(2, 0, 4, false, 3, 0, true),
                new Resident(3, 0, 3, true, 7, 0, false)), false);
        assertEquals(2, e.deficit());
        assertEquals(List.of(3), new GreedyReplacement().victims(e));
        // A 7-byte deficit: {b, d} costs 10 + 3 = 13 < a's 40; {d} alone is too small.
        ReplacementEvent f = new ReplacementEvent(3, 15, 1, 40, e.residents(), false);
        assertEquals(7, f.deficit());
        assertEquals(List.of(3, 1), new GreedyReplacement().victims(f));
    }

    /**
     * The windows counted through sorted starts choose what testing every window against every resident chooses
     * (the pairwise scan, written here as the reference), on random address maps: tight packings with gaps,
     * pinned residents, alignment, zero-size residents and ties in cost.
     */
    @Test
    void greedyChoosesWhatThePairwiseScanChoosesOnRandomAddressMaps() {
        Random random = new Random(34);
        for (int round = 0; round < 3000; round++) {
            long alignment = 1L << random.nextInt(3);
            List<Resident> rs = new ArrayList<>();
            long cursor = 0;
            for (int i = 0; i < random.nextInt(12); i++) {
                cursor += random.nextInt(3) == 0 ? random.nextInt(6) : 0;
                long size = random.nextInt(5) == 0 ? 0 : 1 + random.nextInt(8);
                rs.add(new Resident(i, cursor, size, random.nextInt(4) != 0, 0, 0, random.nextBoolean()));
                cursor += size;
            }
            long budget = cursor + random.nextInt(6);
            ReplacementEvent e = new ReplacementEvent(0, 1 + random.nextInt(10), alignment, budget, rs);
            assertEquals(pairwise(e), new GreedyReplacement().victims(e), "round " + round + ": " + e);
        }
    }

    /** Every window (at 0 and at each resident's aligned end) against every resident: the least cost, then bytes. */
    private static List<Integer> pairwise(ReplacementEvent e) {
        List<Long> starts = new ArrayList<>(List.of(0L));
        for (Resident r : e.residents()) {
            starts.add((r.end() + e.alignment() - 1) / e.alignment() * e.alignment());
        }
        long bestCost = Long.MAX_VALUE;
        long bestBytes = Long.MAX_VALUE;
        List<Integer> best = List.of();
        for (long start : starts) {
            long end = start + e.size();
            long cost = 0;
            long bytes = 0;
            List<Integer> victims = new ArrayList<>();
            boolean allowed = end <= e.budget();
            for (Resident r : e.residents()) {
                if (allowed && r.offset() < end && start < r.end()) {
                    allowed = r.evictable();
                    cost += r.evictionCost();
                    bytes += r.size();
                    victims.add(r.tensor());
                }
            }
            if (allowed && (cost < bestCost || cost == bestCost && bytes < bestBytes)) {
                bestCost = cost;
                bestBytes = bytes;
                best = victims;
            }
        }
        return best;
    }
}
