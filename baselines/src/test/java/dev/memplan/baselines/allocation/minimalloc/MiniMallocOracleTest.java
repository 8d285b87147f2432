package dev.memplan.baselines.allocation.minimalloc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.model.Allocation;
import dev.memplan.model.BruteForcePacking;
import dev.memplan.model.Buffer;
import dev.memplan.model.BufferChecker;
import dev.memplan.model.BufferSet;
import dev.memplan.model.Limits;
import dev.memplan.model.SolveStatus;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * MiniMalloc against {@link BruteForcePacking} on random tiny buffer sets (up to 6 buffers, small sizes, some
 * aligned, some fixed): the same feasibility at the minimum capacity and one below it, and the same minimum
 * from {@link MiniMallocAllocator#minimize}; with every option as shipped and with each switch turned off,
 * since pruning must never cut off the last packing.
 */
class MiniMallocOracleTest {
    private static final int INSTANCES = 150;

    static Stream<Arguments> variants() {
        MiniMallocOptions d = MiniMallocOptions.DEFAULT;
        Map<String, MiniMallocOptions> v = new LinkedHashMap<>();
        v.put("default", d);
        for (MiniMallocOptions.Technique t : MiniMallocOptions.Technique.values()) {
            v.put("no " + t.id(), d.without(t));
        }
        v.put("other heuristics", d.withPreorderings(List.of("L", "U", "O", "Z", "C")));
        v.put("everything off", new MiniMallocOptions(java.util.EnumSet.allOf(MiniMallocOptions.Technique.class),
                List.of("A")));
        return v.entrySet().stream().map(e -> Arguments.of(e.getKey(), e.getValue()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variants")
    void agreesWithBruteForce(String label, MiniMallocOptions options) {
        MiniMallocAllocator allocator = new MiniMallocAllocator(options);
        Random random = new Random(20240917L);
        int infeasibleSeen = 0;
        // Instances whose minimum exceeds the largest live total: there only the search can prove minimum - 1
        // infeasible.
        int searchProofs = 0;
        for (int k = 0; k < INSTANCES; k++) {
            BufferSet set = randomSet(random);
            long minimum = BruteForcePacking.minimumCapacity(set);
            if (minimum > new Instance(set).maxLive) {
                searchProofs++;
            }
            Limits limits = new Limits(null, 1 + k % 2, 0, 0);
            Allocation best = allocator.minimize(set, limits);
            if (minimum < 0) {
                assertEquals(SolveStatus.INFEASIBLE, best.status(), label + " #" + k + " " + set);
                assertEquals(SolveStatus.INFEASIBLE, allocator.allocate(set, 64, limits).status());
                infeasibleSeen++;
                continue;
            }
            assertEquals(SolveStatus.OPTIMAL, best.status(), label + " #" + k + " " + set);
            assertEquals(minimum, best.placement().height(), label + " #" + k + " " + set);
            Allocation at = allocator.allocate(set, minimum, limits);
            assertEquals(SolveStatus.FEASIBLE, at.status(), label + " #" + k + " at " + minimum + " " + set);
            assertTrue(BufferChecker.check(at.placement(), minimum).isEmpty());
            if (minimum > 0) {
                Allocation below = allocator.allocate(set, minimum - 1, limits);
                assertEquals(SolveStatus.INFEASIBLE, below.status(),
                        label + " #" + k + " at " + (minimum - 1) + " " + set);
                infeasibleSeen++;
            }
        }
        assertTrue(infeasibleSeen > INSTANCES / 2, "the random sets exercise infeasible cases");
        assertTrue(searchProofs >= 15, "the random sets need search to prove infeasibility: " + searchProofs);
    }

    /**
     * Seven buffers without alignment or fixed offsets, found by random search: the largest live total is 12,
     * yet no packing fits 12 (t=16 forces b8 to an edge, t=12 forces b7 to an edge with b3 and b11 beside it,
     * and b9 then has no 4 free addresses over [13, 16)); 13 is enough.
     */
    static BufferSet fragmented() {
        return new BufferSet(List.of(
                new Buffer("b1", 1, 12, 4), new Buffer("b3", 12, 16, 1), new Buffer("b7", 11, 13, 8),
                new Buffer("b8", 15, 17, 5), new Buffer("b9", 13, 16, 4), new Buffer("b11", 12, 15, 3),
                new Buffer("b15", 16, 18, 7)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variants")
    void fragmentationIsProvenInfeasibleBySearch(String label, MiniMallocOptions options) {
        MiniMallocAllocator allocator = new MiniMallocAllocator(options);
        BufferSet set = fragmented();
        assertEquals(12, new Instance(set).maxLive);
        assertEquals(13, BruteForcePacking.minimumCapacity(set));
        assertEquals(SolveStatus.INFEASIBLE, allocator.allocate(set, 12, Limits.DEFAULT).status(), label);
        Allocation at13 = allocator.allocate(set, 13, Limits.DEFAULT);
        assertEquals(SolveStatus.FEASIBLE, at13.status(), label);
        assertTrue(BufferChecker.check(at13.placement(), 13).isEmpty());
        Allocation best = allocator.minimize(set, new Limits(null, 2, 0, 0));
        assertEquals(SolveStatus.OPTIMAL, best.status(), label);
        assertEquals(13, best.placement().height(), label);
    }

    /** 1 to 6 buffers over times 0..7, sizes 1..4; a quarter aligned to 2 or 3, a seventh fixed. */
    private static BufferSet randomSet(Random random) {
        int n = 1 + random.nextInt(6);
        List<Buffer> buffers = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            long lower = random.nextInt(7);
            long upper = lower + 1 + random.nextInt((int) (8 - lower));
            long size = 1 + random.nextInt(4);
            long alignment = random.nextInt(4) == 0 ? 2 + random.nextInt(2) : 1;
            Long fixed = random.nextInt(7) == 0 ? alignment * random.nextInt(4) : null;
            buffers.add(new Buffer("b" + i, lower, upper, size, alignment, fixed));
        }
        return new BufferSet(buffers);
    }
}
