package dev.memplan.formulations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.model.Budgets;
import dev.memplan.model.Graph;
import dev.memplan.model.JustInTimePlanner;
import dev.memplan.model.Limits;
import dev.memplan.model.Plan;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.Schedule;
import dev.memplan.model.TensorSetting;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class BruteForceTest {

    private static final TensorSetting ALL = TensorSetting.ALL;

    // ---------------------------------------------------------------- hand-computed optima

    /** x(4) -> A -> a(6) -> B -> b(3) -> C -> c(5), c a graph output. M_R = max(4+6, 6+3, 3+5) = 10. */
    private static final Graph CHAIN = Graph.builder("chain").activation("x", 4).activation("a", 6)
            .activation("b", 3).activation("c", 5)
            .operator("A", List.of("x"), List.of("a"))
            .operator("B", List.of("a"), List.of("b"))
            .operator("C", List.of("b"), List.of("c"))
            .output("c").build();

    @Test
    void chainAtMinimumRequiredCostsNothing() {
        assertEquals(10, Budgets.minimumRequired(CHAIN));
        // Every tensor dies right after its one use: each timestep holds only its operator's tensors.
        assertOptimum(0, CHAIN, 10, null);
        assertOptimum(0, CHAIN, 10, Schedule.defaultOrder(CHAIN));
        assertEquals(10, BruteForce.minPeak(CHAIN));
    }

    @Test
    void noPlanBelowMinimumRequired() {
        assertNull(BruteForce.minTraffic(CHAIN, ALL, 9, null));
        assertTrue(BruteForce.optimum(CHAIN, ALL, 9, Schedule.defaultOrder(CHAIN)).isEmpty());
    }

    /**
     * A: x(2) -> a(4); B: a -> b(4); C: b -> c(4); D: a, c -> d(2), d a graph output. The only order is
     * A, B, C, D. M_R = max(6, 8, 8, 10) = 10; without spills C holds a, b, c = 12 bytes, so M_P = 12.
     */
    private static Graph spillGraph(boolean aIsOutput) {
        Graph.Builder b = Graph.builder("spill").activation("x", 2).activation("a", 4).activation("b", 4)
                .activation("c", 4).activation("d", 2)
                .operator("A", List.of("x"), List.of("a"))
                .operator("B", List.of("a"), List.of("b"))
                .operator("C", List.of("b"), List.of("c"))
                .operator("D", List.of("a", "c"), List.of("d"))
                .output("d");
        return (aIsOutput ? b.output("a") : b).build();
    }

    @Test
    void aTensorMustBeSpilledBelowThePeak() {
        Graph g = spillGraph(false);
        assertEquals(10, Budgets.minimumRequired(g));
        assertEquals(12, BruteForce.minPeak(g));
        // B = 10 or 11 < 12: at C (t=2) b and c must be resident (8 bytes) and a (4) does not fit with them, so
        // a's created segment ends before t=2 and a is loaded again at D (t=3): spill 4 + load 4 = 8. Nothing
        // cheaper exists (a needs a loaded segment in every plan). It fits: t1 a[0,4) b[4,8); t2 b[4,8)
        // c[0,4); t3 c[0,4) a[4,8) d[8,10).
        assertOptimum(8, g, 10, null);
        assertOptimum(8, g, 11, null);
        // B = 12: no spill; placement t0 a[0,4) x[4,6); t1 b[4,8); t2 c[8,12); t3 d[4,6).
        assertOptimum(0, g, 12, null);

        // The same with a a graph output: its spill is its compulsory write, only the load (4) is charged.
        Graph out = spillGraph(true);
        assertOptimum(4, out, 10, null);
        Plan plan = BruteForce.minTraffic(out, ALL, 10, null).plan();
        assertEquals(0, PlanChecker.check(out, plan).traffic().spills());
        assertEquals(2 + 4 + 2, PlanChecker.check(out, plan).traffic().compulsory()); // x loaded, a and d written
    }

    /**
     * Fragmentation, not total bytes, forces a spill. Default order op0..op4 (lifetimes in brackets):
     * <pre>
     *   op0: a -> b, c        a(3) [0,0] host input, b(4) [0,1], c(2) [0,2]
     *   op1: b -> d           d(1) [1,3]
     *   op2: c -> e, f        e(3) [2,4], f(3) [2,2] graph output, never read
     *   op3: d -> g           g(4) [3,4]
     *   op4: e, g -> h        h(2) [4,4] graph output
     * </pre>
     * Bytes resident without spills: 9, 7, 9, 8, 9, so B = 9 = M_R = the no-spill footprint and the bytes fit
     * at every timestep. But no placement of those lifetimes exists in [0, 9). By mirror symmetry let c be at
     * 0 or 3 (t0 is full: a, b, c in some order, so c is at 0, 3, 4 or 7).
     * <ul>
     *   <li>c at [3,5): then a [0,3), b [5,9); d is created at t1 in [0,3). At t2 c, d, e(3), f(3) are
     *       resident: the free space is [0,3) minus d (no 3 contiguous bytes) and [5,9), room for only one of
     *       e, f.</li>
     *   <li>c at [0,2): b is at 2 or 5, so d (t1) is in [6,9) or [2,5). At t2 e and f fill [2,9) with d, so d
     *       is at 2, 5 or 8: d = 2 (e at 3 or 6) or d = 8 (e at 2 or 5). At t4 e, g(4), h(2) fill [0,9), so e
     *       is at 0, 2, 4 or 6: (d, e) = (2, 6) or (8, 2). (2, 6): g is at 0 or 2 at t4, and at t3 it would
     *       cover d at 2. (8, 2): h [0,2), g [5,9), which covers d at 8 at t3.</li>
     * </ul>
     * So every plan spills. Each load costs at least 2: the only host tensor, a, is read once; f and h are
     * never read; any other tensor is produced and not a graph output, so its first load costs spill + load
     * = 2 * size >= 2. Spilling d (size 1) after t1 and loading it at t3 works: t0 a[0,3) c[3,5) b[5,9);
     * t1 d[0,1); t2 e[0,3) f[5,8); t3 g[5,9) d[3,4); t4 h[3,5). Optimum 2. The other two orders (op2 before
     * op1, or op3 before op2) hold b, c, e, f = 12 or c, e, f, g = 12 bytes at once, so they also pay >= 2:
     * the free optimum is 2 too. One more byte (B = 10) and nothing moves.
     */
    private static final Graph FRAGMENTED = Graph.builder("fragmented").activation("a", 3).activation("b", 4)
            .activation("c", 2).activation("d", 1).activation("e", 3).activation("f", 3).activation("g", 4)
            .activation("h", 2)
            .operator("op0", List.of("a"), List.of("b", "c"))
            .operator("op1", List.of("b"), List.of("d"))
            .operator("op2", List.of("c"), List.of("e", "f"))
            .operator("op3", List.of("d"), List.of("g"))
            .operator("op4", List.of("e", "g"), List.of("h"))
            .output("f").output("h").build();

    @Test
    void fragmentationForcesASpillWhenTheBytesFit() {
        Schedule order = Schedule.defaultOrder(FRAGMENTED);
        assertEquals(9, Budgets.minimumRequired(FRAGMENTED));
        assertEquals(9, Budgets.footprint(FRAGMENTED, order));
        assertEquals(9, BruteForce.minPeak(FRAGMENTED));
        BruteForce.Optimum fixed = assertOptimum(2, FRAGMENTED, 9, order);
        // the spilled tensor is d: one loaded segment, and nothing else loaded but the host input
        assertEquals(2, fixed.plan().segmentsOf("d").size());
        assertOptimum(2, FRAGMENTED, 9, null);
        assertOptimum(0, FRAGMENTED, 10, order);
    }

    /**
     * x(2) feeds P -> p(5) -> P2 -> p2(1) and Q -> q(3); J reads p2 and q and writes j(1), a graph output.
     * Orders (P before P2; P2 and Q before J): P,P2,Q,J peaks at t1 with x, p, p2 = 8; P,Q,P2,J at t1 with
     * x, p, q = 10; Q,P,P2,J at t1 with x, q, p = 10. So M_P = 8; M_R = max(7, 6, 5, 5) = 7.
     */
    private static final Graph DIAMOND = Graph.builder("diamond").activation("x", 2).activation("p", 5)
            .activation("p2", 1).activation("q", 3).activation("j", 1)
            .operator("P", List.of("x"), List.of("p"))
            .operator("P2", List.of("p"), List.of("p2"))
            .operator("Q", List.of("x"), List.of("q"))
            .operator("J", List.of("p2", "q"), List.of("j"))
            .output("j").build();

    @Test
    void minPeakOfTheDiamond() {
        assertEquals(8, BruteForce.minPeak(DIAMOND));
        assertEquals(7, Budgets.minimumRequired(DIAMOND));
        assertEquals(10, Budgets.footprint(DIAMOND, new Schedule(List.of("Q", "P", "P2", "J"))));
    }

    @Test
    void theFreeScheduleBeatsABadFixedOne() {
        Schedule bad = new Schedule(List.of("Q", "P", "P2", "J"));
        // B = 8 = M_P: the best order needs no spill (t0 x[0,2) p[2,7); t1 p2[7,8); t2 q[2,5); t3 j[5,6)).
        long free = assertOptimum(0, DIAMOND, 8, null).traffic();
        // Q first: q (needed at J, t3) cannot stay through t1 (x, p, q = 10) nor t2 (p, p2, q = 9), so it is
        // spilled and loaded again: 3 + 3 = 6.
        long fixed = assertOptimum(6, DIAMOND, 8, bad).traffic();
        assertTrue(free < fixed);
        // B = 7 = M_R: no order fits without traffic (M_P = 8), and every load costs >= 2 (x reloaded: 2; p2:
        // spill + load 2; others more). In P,P2,Q,J x is dropped after t0 and loaded again at Q: 2.
        assertOptimum(2, DIAMOND, 7, null);
        assertOptimum(6, DIAMOND, 7, bad); // still q: Q's own step already holds x, q = 5; t1 x, p = 7
    }

    /**
     * A: x(2), w(3) -> a(2); B: a -> b(3); C: b, w -> c(1), w a parameter read twice. All tensors: M_R = 7 and
     * at B (t1) a, b and w (needed at t2) would be 8 bytes, so w is dropped and loaded again at C: a host
     * tensor's reload costs its size, no spill: 3. Activations only: w is gone, M_R = 5 and nothing moves.
     */
    @Test
    void settingsAndAReloadedParameter() {
        Graph g = Graph.builder("params").activation("x", 2).parameter("w", 3).activation("a", 2)
                .activation("b", 3).activation("c", 1)
                .operator("A", List.of("x", "w"), List.of("a"))
                .operator("B", List.of("a"), List.of("b"))
                .operator("C", List.of("b", "w"), List.of("c"))
                .output("c").build();
        assertEquals(7, Budgets.minimumRequired(g));
        assertOptimum(3, g, 7, null);
        assertOptimum(0, g, 8, null);
        Graph activations = g.withSetting(TensorSetting.ACTIVATIONS);
        assertEquals(5, Budgets.minimumRequired(activations));
        BruteForce.Optimum o = BruteForce.minTraffic(g, TensorSetting.ACTIVATIONS, 5, null);
        assertEquals(0, o.traffic());
        assertEquals(TensorSetting.ACTIVATIONS, o.plan().setting());
    }

    // ---------------------------------------------------------------- properties on random tiny graphs

    /**
     * On random tiny graphs, from M_R up to M_P + 1: more budget never costs more; the free schedule never
     * costs more than the default order; the oracle never costs more than the just-in-time plan; at M_R a
     * plan exists; with enough room for every tensor at once nothing moves.
     */
    @Test
    void monotoneInTheBudgetAndBoundedByOtherPlans() {
        for (int seed = 0; seed < 8; seed++) {
            Random r = new Random(seed);
            Graph g = randomTinyGraph(r, 4 + seed % 3, seed % 2 == 1);
            Schedule order = Schedule.defaultOrder(g);
            long mr = Budgets.minimumRequired(g);
            long mp = BruteForce.minPeak(g);
            assertTrue(mr <= mp, g.toString());
            assertTrue(mp <= Budgets.footprint(g, order), g.toString());
            long previous = Long.MAX_VALUE;
            for (long b = mr; b <= mp + 1; b++) {
                BruteForce.Optimum free = BruteForce.minTraffic(g, ALL, b, null);
                BruteForce.Optimum fixed = BruteForce.minTraffic(g, ALL, b, order);
                assertNotNull(free, "seed " + seed + " B " + b);
                assertNotNull(fixed, "seed " + seed + " B " + b);
                String where = "seed " + seed + ", B = " + b;
                assertTrue(free.traffic() <= previous, where + ": traffic grows with the budget");
                assertTrue(free.traffic() <= fixed.traffic(), where + ": free schedule worse than the default");
                long jit = PlanChecker.check(g, new JustInTimePlanner(order).plan(g, ALL, b, Limits.DEFAULT))
                        .traffic().nonCompulsory();
                assertTrue(fixed.traffic() <= jit, where + ": oracle worse than just in time");
                previous = free.traffic();
            }
            long everything = g.tensors().stream().mapToLong(t -> t.size()).sum();
            assertOptimum(0, g, Math.max(mr, everything), null);
        }
    }

    /** Alignment only removes offsets: never cheaper than alignment 1 at the same budget. */
    @Test
    void alignmentNeverHelps() {
        for (int seed = 0; seed < 4; seed++) {
            Graph g1 = randomTinyGraph(new Random(100 + seed), 4, false);
            Graph g2 = new Graph(g1.name(), 2, g1.tensors(), g1.operators(), g1.outputs());
            long from = Budgets.minimumFeasible(g2);
            for (long b = from; b <= from + 3; b++) {
                BruteForce.Optimum one = BruteForce.minTraffic(g1, ALL, b, null);
                BruteForce.Optimum two = BruteForce.minTraffic(g2, ALL, b, null);
                assertNotNull(two, "a plan exists at minimumFeasible, seed " + seed);
                assertTrue(one.traffic() <= two.traffic(), "seed " + seed + " B " + b);
                two.plan().segments().values().forEach(list -> list.forEach(s -> assertEquals(0, s.offset() % 2)));
            }
        }
    }

    /**
     * Alignment 3 with sizes that are not multiples of it, free and fixed schedules: from the least aligned budget
     * up, a plan exists, every offset is a multiple of 3, the fixed schedule never beats the free one, more budget
     * never costs more, and alignment 1 is never dearer. Below the least aligned budget no plan exists.
     */
    @Test
    void alignedOptimaForFreeAndFixedSchedules() {
        for (int seed = 0; seed < 4; seed++) {
            Graph g1 = randomTinyGraph(new Random(200 + seed), 4, seed % 2 == 1);
            Graph g3 = new Graph(g1.name(), 3, g1.tensors(), g1.operators(), g1.outputs());
            Schedule order = Schedule.defaultOrder(g3);
            long from = Budgets.minimumFeasible(g3);
            if (from > Budgets.minimumRequired(g3)) {
                assertNull(BruteForce.minTraffic(g3, ALL, from - 1, null), "seed " + seed);
                assertNull(BruteForce.minTraffic(g3, ALL, from - 1, order), "seed " + seed);
            }
            long previous = Long.MAX_VALUE;
            for (long b = from; b <= from + 4; b++) {
                String where = "seed " + seed + " B " + b;
                BruteForce.Optimum free = BruteForce.minTraffic(g3, ALL, b, null);
                BruteForce.Optimum fixed = BruteForce.minTraffic(g3, ALL, b, order);
                assertNotNull(free, where);
                assertNotNull(fixed, where);
                assertTrue(free.traffic() <= fixed.traffic(), where);
                assertTrue(free.traffic() <= previous, where);
                assertTrue(BruteForce.minTraffic(g1, ALL, b, order).traffic() <= fixed.traffic(), where);
                for (BruteForce.Optimum o : List.of(free, fixed)) {
                    o.plan().segments().values().forEach(list -> list.forEach(s -> assertEquals(0, s.offset() % 3)));
                }
                previous = free.traffic();
            }
        }
        // x(1) -> A -> y(1) at alignment 2: M_R = 2, but y cannot start at 1; at 3, x at 0 and y at 2.
        Graph pair = Graph.builder("pair").alignment(2).activation("x", 1).activation("y", 1)
                .operator("A", List.of("x"), List.of("y")).output("y").build();
        assertNull(BruteForce.minTraffic(pair, ALL, 2, null));
        assertOptimum(0, pair, 3, null);
        assertOptimum(0, pair, 3, Schedule.defaultOrder(pair));
    }

    /** Asserts the optimum (the oracle itself asserts that its plan is valid and has this traffic). */
    private static BruteForce.Optimum assertOptimum(long expected, Graph g, long budget, Schedule schedule) {
        BruteForce.Optimum o = BruteForce.minTraffic(g, ALL, budget, schedule);
        assertNotNull(o, "no plan for " + g + " at B = " + budget);
        assertEquals(expected, o.traffic(), g + " at B = " + budget + (schedule == null ? "" : " in " + schedule));
        if (schedule != null) {
            assertEquals(schedule, o.plan().schedule());
        }
        assertEquals(budget, o.plan().budget());
        return o;
    }

    /**
     * A random tiny graph for oracle tests: 1-2 host inputs (read by the first operator), {@code operators}
     * operators in a topological default order, each reading 1-2 earlier tensors (biased towards recent ones)
     * plus, when {@code withParameters}, sometimes one parameter of its own; 20% of the operators have two
     * outputs. Sizes 1..6. The last operator's first output is always a graph output, other never-read
     * tensors are graph outputs half of the time, and a read tensor is a graph output now and then (so that
     * the "a graph output's spill is compulsory" rule gets exercised).
     */
    static Graph randomTinyGraph(Random r, int operators, boolean withParameters) {
        Graph.Builder b = Graph.builder("random");
        List<String> available = new ArrayList<>();
        List<String> produced = new ArrayList<>();
        int hosts = 1 + r.nextInt(2);
        for (int h = 0; h < hosts; h++) {
            String name = "in" + h;
            b.activation(name, 1 + r.nextInt(6));
            available.add(name);
        }
        List<String> read = new ArrayList<>();
        for (int o = 0; o < operators; o++) {
            List<String> inputs = new ArrayList<>();
            if (o == 0) {
                inputs.addAll(available);
            } else {
                int fanIn = 1 + r.nextInt(2);
                for (int k = 0; k < fanIn; k++) {
                    // bias towards recent tensors: pick among the last few half of the time
                    int from = r.nextBoolean() ? Math.max(0, available.size() - 3) : 0;
                    String t = available.get(from + r.nextInt(available.size() - from));
                    if (!inputs.contains(t)) {
                        inputs.add(t);
                    }
                }
            }
            read.addAll(inputs);
            if (withParameters && r.nextInt(3) > 0) {
                String w = "w" + o;
                b.parameter(w, 1 + r.nextInt(6));
                inputs.add(w);
            }
            List<String> outs = new ArrayList<>();
            int outCount = r.nextInt(5) == 0 ? 2 : 1;
            for (int k = 0; k < outCount; k++) {
                String t = "t" + o + (outCount > 1 ? "_" + k : "");
                b.activation(t, 1 + r.nextInt(6));
                outs.add(t);
                produced.add(t);
            }
            b.operator("op" + o, inputs, outs);
            available.addAll(outs);
        }
        String last = "t" + (operators - 1) + (produced.get(produced.size() - 1).contains("_") ? "_0" : "");
        for (String t : produced) {
            boolean isRead = read.contains(t);
            if (t.equals(last) || (!isRead && r.nextBoolean()) || (isRead && r.nextInt(6) == 0)) {
                b.output(t);
            }
        }
        return b.build();
    }
}
