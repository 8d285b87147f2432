package dev.memplan.baselines.replacement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.model.CheckReport;
import dev.memplan.model.Graph;
import dev.memplan.model.Origin;
import dev.memplan.model.Plan;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.Schedule;
import dev.memplan.model.Segment;
import dev.memplan.model.TensorSetting;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReplacementSimulatorTest {

    /**
     * makeA -> a(20), makeB -> b(10), makeC -> c(10), useB(b, c) -> d(1), useA(a, d) -> e(1); M_R = 22. At budget 31
     * the first event is at t=2 (c needs 10 bytes; a [0,20), b [20,30) leave [30,31)).
     */
    static Graph twoCandidates() {
        return Graph.builder("two-candidates")
                .activation("a", 20).activation("b", 10).activation("c", 10).activation("d", 1).activation("e", 1)
                .operator("makeA", List.of(), List.of("a"))
                .operator("makeB", List.of(), List.of("b"))
                .operator("makeC", List.of(), List.of("c"))
                .operator("useB", List.of("b", "c"), List.of("d"))
                .operator("useA", List.of("a", "d"), List.of("e"))
                .output("e").build();
    }

    private static CheckReport run(Graph g, ReplacementPolicy policy, long budget) {
        Schedule s = Schedule.defaultOrder(g);
        Map<String, List<Segment>> segments = new ReplacementSimulator(policy, AddressRule.TFLITE).simulate(g, s, budget);
        CheckReport r = PlanChecker.check(g, new Plan(g.name(), TensorSetting.ALL, budget, s, segments, null, null));
        assertTrue(r.valid(), r.violations().toString());
        return r;
    }

    @Test
    void beladyEvictsTheFurthestAndPaysItsSpillAndReload() {
        // Belady evicts a at t=2 (spill 20), c goes to [0,10), a comes back at t=4: 20 + 20.
        assertEquals(40, run(twoCandidates(), new BeladyReplacement(), 31).traffic().nonCompulsory());
    }

    @Test
    void greedyIsOnlyLocallyOptimal() {
        // Greedy evicts the cheaper b at t=2 (spill 10); at t=3 b must come back, no gap fits beside a and c, so a
        // goes too (spill 20): 10 + 10 + 20 + 20. Locally least, globally worse than Belady here.
        assertEquals(60, run(twoCandidates(), new GreedyReplacement(), 31).traffic().nonCompulsory());
    }

    @Test
    void noTrafficWhenEverythingFits() {
        for (ReplacementPolicy p : List.of(new BeladyReplacement(), new GreedyReplacement(), new LruReplacement())) {
            assertEquals(0, run(twoCandidates(), p, 41).traffic().nonCompulsory(), p.name());
        }
    }

    @Test
    void fragmentationEvictsThoughEnoughBytesAreFree() {
        // Budget 22 = M_R. a [0,5), b [5,10), c [10,15), d [15,20), f [20,21); after t=4 b and d leave: 11 bytes
        // free, but in gaps of 5, 5 and 1, so big (10) fits nowhere and a is evicted (spill 5, reload 5).
        Graph g = Graph.builder("fragmented")
                .activation("a", 5).activation("b", 5).activation("c", 5).activation("d", 5).activation("f", 1)
                .activation("big", 10).activation("out", 1)
                .operator("makeA", List.of(), List.of("a"))
                .operator("makeB", List.of(), List.of("b"))
                .operator("makeC", List.of(), List.of("c"))
                .operator("makeD", List.of(), List.of("d"))
                .operator("useBD", List.of("b", "d"), List.of("f"))
                .operator("makeBig", List.of(), List.of("big"))
                .operator("useAll", List.of("a", "c", "big", "f"), List.of("out"))
                .output("out").build();
        CheckReport r = run(g, new BeladyReplacement(), 22);
        assertEquals(10, r.traffic().nonCompulsory());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> run(g, new BeladyReplacement(), 21));
        assertTrue(e.getMessage().contains("M_R = 22"), e.getMessage());
    }

    @Test
    void compactionMovesScatteredInputsThroughHost() {
        // p and q are used by the last operator; r sits between them and leaves; at M_R the output of the last
        // operator fits in no gap, nothing is evictable, so p and q move: their segments end and restart.
        Graph g = Graph.builder("scattered")
                .activation("p", 4).activation("r", 2).activation("q", 4).activation("s", 1).activation("out", 4)
                .operator("makeP", List.of(), List.of("p"))
                .operator("makeR", List.of(), List.of("r"))
                .operator("makeQ", List.of(), List.of("q"))
                .operator("useR", List.of("r"), List.of("s"))
                .operator("last", List.of("p", "q", "s"), List.of("out"))
                .output("out").build();
        // M_R = 4 + 4 + 1 + 4 = 13. Placement: p [0,4), r [4,6), q [6,10), s best fit [10,11); r leaves: gaps
        // [4,6) and [11,13): out (4) fits in neither.
        Schedule s = Schedule.defaultOrder(g);
        Map<String, List<Segment>> segments = new ReplacementSimulator(new BeladyReplacement(), AddressRule.TFLITE)
                .simulate(g, s, 13);
        CheckReport r = PlanChecker.check(g, new Plan(g.name(), TensorSetting.ALL, 13, s, segments, null, null));
        assertTrue(r.valid(), r.violations().toString());
        assertEquals(Origin.LOADED, segments.get("p").get(1).origin());
        assertEquals(4, segments.get("p").get(1).start());
        assertTrue(r.traffic().nonCompulsory() > 0);
    }
}
