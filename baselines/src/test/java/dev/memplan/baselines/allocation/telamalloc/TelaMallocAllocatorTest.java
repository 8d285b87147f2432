package dev.memplan.baselines.allocation.telamalloc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.datasets.MiniMallocSuite;
import dev.memplan.model.Allocation;
import dev.memplan.model.BruteForcePacking;
import dev.memplan.model.Buffer;
import dev.memplan.model.BufferChecker;
import dev.memplan.model.BufferSet;
import dev.memplan.model.Limits;
import dev.memplan.model.Placement;
import dev.memplan.model.SolveStatus;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TelaMallocAllocatorTest {
    /** The paper's search with every technique on; the skyline-first shortcut off, so that the search is tested. */
    private static final TelaMallocOptions DEFAULT = TelaMallocOptions.DEFAULT.withHeuristicFirst(false);
    private static final TelaMallocOptions EXHAUSTIVE = DEFAULT.withExhaustive(true);

    private static Allocation allocate(TelaMallocOptions options, BufferSet set, long capacity) {
        return new TelaMallocAllocator(options).allocate(set, capacity, Limits.DEFAULT);
    }

    /** Three buffers of size 2 and alignment 4, live together: in 6 they have only the two places 0 and 4. */
    private static BufferSet threeAlignedPairs() {
        return new BufferSet(List.of(new Buffer("a", 0, 2, 2, 4, null), new Buffer("b", 0, 2, 2, 4, null),
                new Buffer("c", 0, 2, 2, 4, null)));
    }

    @Test
    void packsThePaperExampleIntoTwelve() {
        BufferSet set = MiniMallocSuite.paperExample();
        for (TelaMallocOptions options : List.of(DEFAULT, EXHAUSTIVE)) {
            Allocation a = allocate(options, set, 12);
            assertEquals(SolveStatus.FEASIBLE, a.status());
            assertTrue(BufferChecker.check(a.placement(), 12).isEmpty());
        }
        assertEquals(SolveStatus.INFEASIBLE, allocate(DEFAULT, set, 11).status(), "the peak is 12");
    }

    @Test
    void anEmptySetFitsAnywhere() {
        Allocation a = allocate(DEFAULT, new BufferSet(List.of()), 0);
        assertEquals(SolveStatus.FEASIBLE, a.status());
        assertEquals(0, a.placement().height());
    }

    @Test
    void solverGuidedPlacementSlidesABufferUnderOnePlacedEarlier() {
        // every heuristic ranks x1 first (it is the longest, ties on size, and the largest in area): x1 goes to 0,
        // then x2 on top of it at 2; x3 is live only with x2, so its lowest valid position is 0, under x2, while
        // the skyline over its lifetime is x2's top, 4, which leaves no room in 4
        BufferSet set = new BufferSet(List.of(new Buffer("x1", 0, 4, 2), new Buffer("x2", 3, 6, 2),
                new Buffer("x3", 5, 6, 2)));
        TelaMallocOptions greedy = DEFAULT.withBacktracking(false);
        Allocation guided = allocate(greedy, set, 4);
        assertEquals(SolveStatus.FEASIBLE, guided.status());
        assertEquals(List.of(0L, 2L, 0L), List.of(guided.placement().offset(0), guided.placement().offset(1),
                guided.placement().offset(2)));
        assertEquals(SolveStatus.UNKNOWN, allocate(greedy.withSolverGuidedPlacement(false), set, 4).status());
        assertEquals(SolveStatus.FEASIBLE, allocate(DEFAULT.withSolverGuidedPlacement(false), set, 4).status(),
                "with backtracking the skyline placement finds another order");
    }

    @Test
    void keepsAlignmentAndFixedOffsets() {
        BufferSet set = new BufferSet(List.of(new Buffer("f", 0, 4, 2, 1, 2L), new Buffer("a", 0, 2, 1, 4, null),
                new Buffer("b", 1, 3, 2, 1, null), new Buffer("c", 2, 4, 1, 2, null)));
        for (TelaMallocOptions options : List.of(DEFAULT, EXHAUSTIVE)) {
            Allocation a = allocate(options, set, 8);
            assertEquals(SolveStatus.FEASIBLE, a.status());
            Placement p = a.placement();
            assertEquals(2, p.offset(0));
            assertEquals(0, p.offset(1) % 4);
            assertEquals(0, p.offset(3) % 2);
            assertTrue(BufferChecker.check(p, 8).isEmpty());
        }
    }

    @Test
    void provesInfeasibilityBeforeSearchingWhenFixedBuffersLeaveNoRoom() {
        // f fixed at [2,4) leaves a size-3 buffer no place in 6, though the peak is only 5
        BufferSet set = new BufferSet(List.of(new Buffer("f", 0, 2, 2, 1, 2L), new Buffer("b", 0, 2, 3, 1, null)));
        assertTrue(!BruteForcePacking.feasible(set, 6));
        assertEquals(SolveStatus.INFEASIBLE, allocate(DEFAULT, set, 6).status());
        BufferSet collide = new BufferSet(List.of(new Buffer("f", 0, 2, 2, 1, 0L), new Buffer("g", 1, 3, 2, 1, 1L)));
        assertEquals(SolveStatus.INFEASIBLE, allocate(DEFAULT, collide, 10).status());
        BufferSet misaligned = new BufferSet(List.of(new Buffer("f", 0, 2, 2, 4, 2L)));
        assertEquals(SolveStatus.INFEASIBLE, allocate(DEFAULT, misaligned, 10).status());
    }

    @Test
    void onlyTheExhaustiveSearchProvesWhatNeedsSearching() {
        BufferSet set = threeAlignedPairs();
        assertTrue(!BruteForcePacking.feasible(set, 6));
        assertEquals(SolveStatus.UNKNOWN, allocate(DEFAULT, set, 6).status());
        assertEquals(SolveStatus.UNKNOWN, allocate(DEFAULT.withBacktracking(false), set, 6).status());
        assertEquals(SolveStatus.INFEASIBLE, allocate(EXHAUSTIVE, set, 6).status());
        assertEquals(SolveStatus.FEASIBLE, allocate(EXHAUSTIVE, set, 10).status());
    }

    @Test
    void aTimeLimitGivesUnknownNeverInfeasible() {
        Limits none = Limits.ofWall(Duration.ZERO);
        Allocation proof = new TelaMallocAllocator(EXHAUSTIVE).allocate(threeAlignedPairs(), 6, none);
        assertEquals(SolveStatus.UNKNOWN, proof.status());
        BufferSet hard = MiniMallocSuite.challenging("A");
        long start = System.nanoTime();
        Allocation a = new TelaMallocAllocator().allocate(hard, MiniMallocSuite.CHALLENGING_CAPACITY,
                Limits.ofWall(Duration.ofMillis(100)));
        assertEquals(SolveStatus.UNKNOWN, a.status());
        assertTrue(System.nanoTime() - start < 5_000_000_000L, "the limit is honoured");
    }

    /** The search polls the run budget's stop flag, not only its deadline and effort: a cancel ends it. */
    @Test
    void aCancelledBudgetStopsTheSearch() throws InterruptedException {
        BufferSet hard = MiniMallocSuite.challenging("A");
        dev.memplan.model.Budget run = dev.memplan.model.Budget.ofWall(Duration.ofHours(1));
        Thread canceller = new Thread(() -> {
            try {
                Thread.sleep(300);
            } catch (InterruptedException e) {
                return;
            }
            run.cancel();
        });
        canceller.start();
        long start = System.nanoTime();
        Allocation a = new TelaMallocAllocator(DEFAULT).allocate(hard, MiniMallocSuite.CHALLENGING_CAPACITY,
                Limits.DEFAULT.withBudget(run));
        canceller.join();
        assertEquals(SolveStatus.UNKNOWN, a.status());
        assertEquals("the search was stopped: interrupted", a.note());
        assertTrue(System.nanoTime() - start < 5_000_000_000L, "stopped within seconds of the cancel");
    }

    @Test
    void randomSetsAgreeWithTheBruteForceOracle() {
        Map<String, TelaMallocOptions> variants = Map.of(
                "default", DEFAULT,
                "no solver-guided placement", DEFAULT.withSolverGuidedPlacement(false),
                "no grouping", DEFAULT.withContentionGrouping(false),
                "no backjumping, no prepending", DEFAULT.withBackjumping(false).withPrependCandidates(false),
                "stuck after 1", DEFAULT.withStuckThreshold(1),
                "largest size only", DEFAULT.withHeuristics(false, true, false),
                "exhaustive", EXHAUSTIVE,
                "exhaustive, skyline placement, no grouping",
                EXHAUSTIVE.withSolverGuidedPlacement(false).withContentionGrouping(false));
        Random random = new Random(5);
        int feasible = 0;
        int infeasible = 0;
        int onlySearchProves = 0;
        for (int k = 0; k < 400; k++) {
            BufferSet set = RandomBuffers.next(random, 6, 1, k % 3 != 0);
            long capacity = set.capacity();
            boolean oracle = BruteForcePacking.feasible(set, capacity);
            if (oracle) {
                feasible++;
            } else {
                infeasible++;
            }
            for (Map.Entry<String, TelaMallocOptions> v : variants.entrySet()) {
                Allocation a = allocate(v.getValue(), set, capacity);
                String what = v.getKey() + " on " + set;
                if (a.solved()) {
                    assertEquals(SolveStatus.FEASIBLE, a.status());
                    assertTrue(BufferChecker.check(a.placement(), capacity).isEmpty(), what);
                }
                if (a.status() == SolveStatus.INFEASIBLE) {
                    assertTrue(!oracle, "claims infeasible: " + what);
                }
                if (v.getValue().exhaustive()) {
                    assertEquals(oracle ? SolveStatus.FEASIBLE : SolveStatus.INFEASIBLE, a.status(), what);
                }
            }
            if (!oracle && allocate(DEFAULT, set, capacity).status() == SolveStatus.UNKNOWN) {
                onlySearchProves++;
            }
        }
        String counts = feasible + " feasible, " + infeasible + " infeasible, " + onlySearchProves
                + " of them beyond the default's proofs";
        assertTrue(feasible > 100 && infeasible > 20 && onlySearchProves > 0, counts);
    }

    @Test
    void theStuckDetectorAbandonsDecisions() {
        // the three aligned pairs cannot share 8 (places 0 and 4 only), which propagation sees only once one of
        // them is placed; d and e live longer, elsewhere in time, and are placed first, so the failures below
        // them pile up as backtracks under their choices
        BufferSet set = new BufferSet(List.of(new Buffer("a", 0, 2, 2, 4, null), new Buffer("b", 0, 2, 2, 4, null),
                new Buffer("c", 0, 2, 2, 4, null), new Buffer("d", 2, 5, 1, 1, null),
                new Buffer("e", 2, 5, 1, 1, null)));
        TelaMallocOptions oneSearch = DEFAULT.withContentionGrouping(false);
        TelaMallocAllocator.Run stuck = new TelaMallocAllocator(oneSearch.withStuckThreshold(1)).run(set, 8,
                Limits.DEFAULT);
        assertEquals(SolveStatus.UNKNOWN, stuck.allocation().status());
        assertTrue(stuck.stuckJumps() > 0, stuck.toString());
        TelaMallocAllocator.Run plain = new TelaMallocAllocator(oneSearch.withStuckThreshold(0)).run(set, 8,
                Limits.DEFAULT);
        assertEquals(SolveStatus.UNKNOWN, plain.allocation().status());
        assertEquals(0, plain.stuckJumps());
        assertNotEquals(0, plain.majorBacktracks(), plain.toString());
    }

    /**
     * Section 7: production TelaMalloc tries the skyline heuristic first. Where the skyline packs a set into the
     * capacity, the default answers with it and searches nothing; where it does not, the search runs and packs
     * what the search alone packs. Random sets at their brute-force least height.
     */
    @Test
    void theSkylineRunsFirstAndTheSearchOnlyWhereItFails() {
        Random r = new Random(5);
        int skylineEnough = 0;
        int searched = 0;
        for (int round = 0; round < 300; round++) {
            BufferSet set = RandomBuffers.next(r, 6, 1, round % 3 != 0);
            long capacity = BruteForcePacking.minimumCapacity(set);
            if (capacity < 0) {
                continue; // fixed offsets that collide: no packing to compare
            }
            long skyline = new SkylineAllocator().pack(set).height();
            TelaMallocAllocator.Run first = new TelaMallocAllocator().run(set, capacity, Limits.DEFAULT);
            Allocation search = allocate(DEFAULT, set, capacity);
            if (skyline <= capacity) {
                skylineEnough++;
                assertEquals(SolveStatus.FEASIBLE, first.allocation().status(), set.toString());
                assertEquals(0, first.steps(), set.toString());
            } else {
                searched++;
                assertTrue(first.steps() > 0, set.toString());
                assertEquals(search.status(), first.allocation().status(), set.toString());
            }
            if (first.allocation().solved()) {
                assertTrue(BufferChecker.check(first.allocation().placement(), capacity).isEmpty(), set.toString());
            }
            if (search.solved()) {
                assertTrue(first.allocation().solved(), "skyline first lost a packing the search finds: " + set);
            }
        }
        assertTrue(skylineEnough > 0 && searched > 0, skylineEnough + " packed by the skyline, " + searched
                + " searched");
    }

    /**
     * The search holds one set of propagated bounds at a time, not one per point of its path (those bit sets made
     * the search O(n^2) in memory: an OutOfMemoryError on 4,000 buffers in a 3 GB heap). Challenging instance A
     * searched deep, with backtracks, for 20,000 steps.
     */
    @Test
    void theSearchPathHoldsOneSetOfBounds() {
        BufferSet hard = MiniMallocSuite.challenging("A");
        double units = 20_000.0 * hard.size() / TelaMallocAllocator.EFFORT_PER_UNIT;
        Limits work = Limits.DEFAULT.withBudget(dev.memplan.model.Budget.ofWork(units, null));
        TelaMallocAllocator.Run run = new TelaMallocAllocator(DEFAULT).run(hard, MiniMallocSuite.CHALLENGING_CAPACITY,
                work);
        assertTrue(run.deepest() > 50 && run.majorBacktracks() > 0, run.toString());
        assertEquals(1, run.mostBoundsHeld(), run.toString());
    }

    @Test
    void rejectsMeaninglessOptions() {
        assertThrows(IllegalArgumentException.class, () -> DEFAULT.withHeuristics(false, false, false));
        assertThrows(IllegalArgumentException.class, () -> EXHAUSTIVE.withBacktracking(false));
        assertThrows(IllegalArgumentException.class, () -> DEFAULT.withStuckThreshold(-1));
    }
}
