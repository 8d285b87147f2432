package dev.memplan.formulations.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.datasets.MiniMallocSuite;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.formulations.milp.Solvers;
import dev.memplan.model.Allocation;
import dev.memplan.model.Allocator;
import dev.memplan.model.BruteForcePacking;
import dev.memplan.model.Buffer;
import dev.memplan.model.BufferChecker;
import dev.memplan.model.BufferSet;
import dev.memplan.model.Limits;
import dev.memplan.model.Placement;
import dev.memplan.model.SolveStatus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/** The TelaMalloc placement ILP and the CP-SAT NoOverlap2D model against a brute-force oracle and known cases. */
class PlacementModelsTest {

    @BeforeAll
    static void natives() {
        assertTrue(Solvers.nativeAvailable(), () -> "OR-Tools natives: " + Solvers.nativeFailure());
    }

    /** An exact allocator and whether it minimises the height. */
    record Exact(Allocator allocator, boolean minimize, String label) {
        @Override
        public String toString() {
            return label;
        }
    }

    /** Feasibility mode: SCIP ILP, CP-SAT without and with the address-axis cumulative constraint. */
    static Stream<Exact> feasibility() {
        return Stream.of(new Exact(new PlacementIlp(Backend.SCIP, false), false, "ilp-scip"),
                new Exact(new PlacementCpSat(false), false, "cpsat"),
                new Exact(new PlacementCpSat(false, true), false, "cpsat-address-cumulative"));
    }

    static Stream<Exact> minimizing() {
        return Stream.of(new Exact(new PlacementIlp(Backend.SCIP, true), true, "ilp-scip-min"),
                new Exact(new PlacementCpSat(true), true, "cpsat-min"),
                new Exact(new PlacementCpSat(true, true), true, "cpsat-min-address-cumulative"));
    }

    static Stream<Exact> all() {
        return Stream.concat(feasibility(), minimizing());
    }

    private static void assertLegal(Allocation a, long capacity) {
        assertTrue(a.solved(), a::toString);
        assertEquals(List.of(), BufferChecker.check(a.placement(), capacity));
    }

    @Test
    void namesAreTheOnesTheBenchmarkUses() {
        assertEquals("ilp", new PlacementIlp(Backend.SCIP, false).name());
        assertEquals("cpsat", new PlacementCpSat(true).name());
    }

    @ParameterizedTest
    @MethodSource("feasibility")
    void paperExampleIsFeasibleAt12AndThatIsAllFeasibilityModeClaims(Exact exact) {
        Allocation a = exact.allocator().allocate(MiniMallocSuite.paperExample(), 12, Limits.DEFAULT);
        assertEquals(SolveStatus.FEASIBLE, a.status(), "no objective: a packing is feasible, not optimal");
        assertLegal(a, 12);
    }

    @ParameterizedTest
    @MethodSource("minimizing")
    void paperExampleMinimisedIsProvenAt12(Exact exact) {
        Allocation a = exact.allocator().allocate(MiniMallocSuite.paperExample(), 20, Limits.DEFAULT);
        assertEquals(SolveStatus.OPTIMAL, a.status());
        assertLegal(a, 20);
        assertEquals(12, a.placement().height());
    }

    @ParameterizedTest
    @MethodSource("all")
    void paperExampleIsProvenInfeasibleAt11(Exact exact) {
        Allocation a = exact.allocator().allocate(MiniMallocSuite.paperExample(), 11, Limits.DEFAULT);
        assertEquals(SolveStatus.INFEASIBLE, a.status());
        assertNull(a.placement());
    }

    /**
     * Infeasible instances whose peak load fits, so the solver has to prove it: a fixed buffer at [1, 3) leaves
     * gaps of one byte for a two-byte buffer; two buffers aligned to 4 below a capacity of 4 both need offset 0.
     */
    static Stream<BufferSet> solverProvenInfeasible() {
        return Stream.of(
                new BufferSet(List.of(new Buffer("F", 0, 2, 2, 1, 1L), new Buffer("A", 1, 3, 2)), 4L),
                new BufferSet(List.of(new Buffer("B", 0, 2, 1, 4, null), new Buffer("C", 1, 3, 1, 4, null)), 4L));
    }

    @ParameterizedTest
    @MethodSource("all")
    void handMadeInfeasibleInstancesAreProvenBySolving(Exact exact) {
        solverProvenInfeasible().forEach(set -> {
            assertNull(PlacementProblem.infeasibility(set, set.capacity()), "the solver, not the precheck, decides");
            assertEquals(SolveStatus.INFEASIBLE, exact.allocator().allocate(set, set.capacity(), Limits.DEFAULT).status());
        });
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void everyMilpBackEndSolvesTheIlp(Backend backend) {
        BufferSet paper = MiniMallocSuite.paperExample();
        Allocation feasible = new PlacementIlp(backend, false).allocate(paper, 12, Limits.DEFAULT);
        assertEquals(SolveStatus.FEASIBLE, feasible.status());
        assertLegal(feasible, 12);
        Allocation minimal = new PlacementIlp(backend, true).allocate(paper, 16, Limits.DEFAULT);
        assertEquals(SolveStatus.OPTIMAL, minimal.status());
        assertEquals(12, minimal.placement().height());
        solverProvenInfeasible().forEach(set -> assertEquals(SolveStatus.INFEASIBLE,
                new PlacementIlp(backend, false).allocate(set, set.capacity(), Limits.DEFAULT).status()));
    }

    @ParameterizedTest
    @MethodSource("all")
    void alignmentAndFixedOffsetsAreKept(Exact exact) {
        // F is fixed at [2, 4); A (aligned to 4) and B (aligned to 2) share its moment; capacity 8 is tight for A.
        BufferSet set = new BufferSet(List.of(new Buffer("F", 0, 3, 2, 2, 2L), new Buffer("A", 1, 4, 3, 4, null),
                new Buffer("B", 0, 2, 2, 2, null)));
        Allocation a = exact.allocator().allocate(set, 8, Limits.DEFAULT);
        assertLegal(a, 8);
        assertEquals(2, a.placement().offset(0));
        assertEquals(4, a.placement().offset(1), "A at 0 would hit F; 4 is the only other multiple of 4");
        assertEquals(0, a.placement().offset(2) % 2);
    }

    @ParameterizedTest
    @MethodSource("all")
    void degenerateSetsNeedNoSearch(Exact exact) {
        Allocation empty = exact.allocator().allocate(new BufferSet(List.of()), 0, Limits.DEFAULT);
        assertTrue(empty.solved());
        BufferSet fixedOnly = new BufferSet(List.of(new Buffer("F", 0, 2, 3, 1, 1L), new Buffer("G", 1, 3, 1, 1, 0L)));
        Allocation fixed = exact.allocator().allocate(fixedOnly, 4, Limits.DEFAULT);
        assertLegal(fixed, 4);
        BufferSet colliding = new BufferSet(List.of(new Buffer("F", 0, 2, 3, 1, 1L), new Buffer("G", 1, 3, 1, 1, 2L)));
        assertEquals(SolveStatus.INFEASIBLE, exact.allocator().allocate(colliding, 100, Limits.DEFAULT).status());
        BufferSet tooBig = new BufferSet(List.of(new Buffer("A", 0, 1, 5)));
        assertEquals(SolveStatus.INFEASIBLE, exact.allocator().allocate(tooBig, 4, Limits.DEFAULT).status());
        assertThrows(IllegalArgumentException.class, () -> exact.allocator().allocate(tooBig, -1, Limits.DEFAULT));
    }

    /**
     * Random tiny sets: feasibility at the oracle's minimum height and one below agrees with the oracle for both
     * modes, and minimising finds exactly the oracle's minimum, proven.
     */
    @ParameterizedTest
    @MethodSource("all")
    void randomTinySetsAgreeWithTheBruteForceOracle(Exact exact) {
        Random random = new Random(11);
        boolean minimize = exact.minimize();
        for (int round = 0; round < 25; round++) {
            BufferSet set = randomSet(random);
            long minimum = BruteForcePacking.minimumCapacity(set);
            Allocation at = exact.allocator().allocate(set, minimum, Limits.DEFAULT);
            assertLegal(at, minimum);
            assertEquals(minimize ? SolveStatus.OPTIMAL : SolveStatus.FEASIBLE, at.status());
            assertEquals(minimum, at.placement().height(), "nothing fits lower, so every packing reaches it");
            assertEquals(SolveStatus.INFEASIBLE, exact.allocator().allocate(set, minimum - 1, Limits.DEFAULT).status(),
                    set::toString);
            if (minimize) {
                Allocation loose = exact.allocator().allocate(set, minimum + 5, Limits.DEFAULT);
                assertEquals(SolveStatus.OPTIMAL, loose.status());
                assertEquals(minimum, loose.placement().height(), set::toString);
            }
        }
    }

    /** Two to five buffers, sizes 1..4, some aligned to 2, some fixed; fixed offsets never collide. */
    static BufferSet randomSet(Random random) {
        while (true) {
            int n = 2 + random.nextInt(4);
            List<Buffer> buffers = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                long lower = random.nextInt(5);
                long upper = lower + 1 + random.nextInt(4);
                long size = 1 + random.nextInt(4);
                long alignment = random.nextInt(4) == 0 ? 2 : 1;
                Long fixed = random.nextInt(8) == 0 ? Long.valueOf(2L * random.nextInt(3)) : null;
                buffers.add(new Buffer("b" + i, lower, upper, size, alignment, fixed));
            }
            BufferSet set = new BufferSet(buffers);
            if (PlacementProblem.infeasibility(set, Long.MAX_VALUE / 4) == null) {
                return set;
            }
        }
    }

    @Test
    void minimumHeightAgreesWithTheOracleFromAStartOrWithout() {
        Random random = new Random(5);
        for (int round = 0; round < 15; round++) {
            BufferSet set = randomSet(random);
            long minimum = BruteForcePacking.minimumCapacity(set);
            Allocation loose = new PlacementCpSat(false).allocate(set, minimum + 6, Limits.DEFAULT);
            for (Placement start : new Placement[] {null, loose.placement()}) {
                Allocation ilp = PlacementIlp.minimumHeight(Backend.SCIP, set, start, Limits.DEFAULT);
                Allocation cpsat = PlacementCpSat.minimumHeight(set, start, Limits.DEFAULT);
                for (Allocation a : List.of(ilp, cpsat)) {
                    assertEquals(SolveStatus.OPTIMAL, a.status(), set::toString);
                    assertEquals(minimum, a.placement().height(), set::toString);
                }
            }
        }
        BufferSet colliding = new BufferSet(List.of(new Buffer("F", 0, 2, 3, 1, 1L), new Buffer("G", 1, 3, 1, 1, 2L)));
        assertEquals(SolveStatus.INFEASIBLE, PlacementCpSat.minimumHeight(colliding, null, Limits.DEFAULT).status());
    }

    @Test
    void anIllegalHintIsRefused() {
        BufferSet paper = MiniMallocSuite.paperExample();
        Placement stacked = new Placement(paper, new long[] {0, 4, 8, 12, 16});
        assertThrows(IllegalArgumentException.class,
                () -> new PlacementCpSat(true).allocate(paper, 12, Limits.DEFAULT, stacked), "above the capacity");
        Placement clash = new Placement(paper, new long[] {0, 0, 0, 0, 0});
        assertThrows(IllegalArgumentException.class,
                () -> new PlacementIlp(Backend.SCIP, true).allocate(paper, 20, Limits.DEFAULT, clash));
        Allocation fromStacked = new PlacementIlp(Backend.SCIP, true).allocate(paper, 20, Limits.DEFAULT, stacked);
        assertEquals(12, fromStacked.placement().height());
    }

    /**
     * Buffers planted in a 64 x 1000 strip without overlap, so that the strip's height is a feasible capacity:
     * whatever a time limit cuts short, the answer must not be INFEASIBLE.
     */
    static BufferSet planted(Random random, int n, long capacity) {
        List<long[]> boxes = new ArrayList<>();
        List<Buffer> buffers = new ArrayList<>();
        while (buffers.size() < n) {
            long lower = random.nextInt(60);
            long upper = lower + 1 + random.nextInt(8);
            long size = 20 + random.nextInt(120);
            long offset = random.nextInt((int) (capacity - size));
            boolean free = boxes.stream().noneMatch(o -> o[0] < upper && lower < o[1]
                    && o[2] < offset + size && offset < o[2] + o[3]);
            if (free) {
                boxes.add(new long[] {lower, upper, offset, size});
                buffers.add(new Buffer("p" + buffers.size(), lower, upper, size));
            }
        }
        return new BufferSet(buffers, capacity);
    }

    @ParameterizedTest
    @MethodSource("all")
    void aTinyTimeLimitNeverClaimsInfeasible(Exact exact) {
        BufferSet set = planted(new Random(3), 120, 1000);
        for (Duration limit : new Duration[] {Duration.ZERO, Duration.ofMillis(1), Duration.ofMillis(20)}) {
            Allocation a = exact.allocator().allocate(set, 1000, new Limits(limit, 1, 0.0, 1));
            assertNotEquals(SolveStatus.INFEASIBLE, a.status(), () -> exact + " at " + limit);
            if (a.solved()) {
                assertLegal(a, 1000);
            }
        }
    }
}
