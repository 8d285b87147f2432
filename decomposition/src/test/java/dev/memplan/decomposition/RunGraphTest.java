package dev.memplan.decomposition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.formulations.RecomputeGraphs;
import dev.memplan.model.CheckReport;
import dev.memplan.model.Graph;
import dev.memplan.model.Origin;
import dev.memplan.model.Plan;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.Schedule;
import dev.memplan.model.Segment;
import dev.memplan.model.TensorSetting;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A plan with recomputes unrolled into a graph of runs ({@link RunGraph}) and back: the unrolled plan is a valid
 * spill-only plan of the unrolled graph, it maps back to the plan it came from, and a plan of the unrolled graph that
 * breaks a rule of recomputation maps to nothing.
 */
class RunGraphTest {

    /** early-late at budget 9 with a run again before d: y's first copy ends at b, its second is made at 3. */
    private static Plan recomputing(Graph g) {
        Map<String, List<Segment>> s = new LinkedHashMap<>();
        s.put("x", List.of(Segment.loaded(0, 3, 0)));
        s.put("y", List.of(Segment.created(0, 1, 1), Segment.recomputed(3, 4, 5)));
        s.put("z", List.of(Segment.created(1, 2, 5)));
        s.put("u", List.of(Segment.created(2, 4, 1)));
        s.put("v", List.of(Segment.created(4, 4, 0)));
        return new Plan(g.name(), TensorSetting.ALL, 9, new Schedule(List.of("a", "b", "c", "a", "d")), s, null, null);
    }

    @Test
    void aPlanWithARecomputeUnrollsIntoRunsAndMapsBack() {
        Graph g = RecomputeGraphs.readEarlyAndLate();
        Plan p = recomputing(g);
        CheckReport original = PlanChecker.check(g, p);
        assertTrue(original.valid(), original.violations().toString());
        assertEquals(1, original.traffic().recomputes());

        RunGraph runs = RunGraph.of(g, p);
        assertNotNull(runs);
        Graph u = runs.graph();
        assertEquals(List.of("a", "b", "c", "a@1", "d"), Schedule.defaultOrder(u).operators());
        assertEquals(List.of("x"), u.operator(u.operatorIndex("a@1")).inputs());
        assertEquals(List.of("y@1", "u"), u.operator(u.operatorIndex("d")).inputs(), "d reads the second copy");
        assertEquals(List.of("y"), u.operator(u.operatorIndex("b")).inputs(), "b reads the first");
        assertEquals(g.cost(g.operatorIndex("a")), u.cost(u.operatorIndex("a@1")));
        CheckReport unrolled = PlanChecker.check(u, runs.plan());
        assertTrue(unrolled.valid(), unrolled.violations().toString());
        assertEquals(0, unrolled.traffic().recomputes());
        assertEquals(List.of(Segment.created(3, 4, 5)), runs.plan().segmentsOf("y@1"));

        Plan back = runs.back(runs.plan());
        assertNotNull(back);
        assertEquals(p.schedule(), back.schedule());
        assertEquals(p.segments(), back.segments());
        assertEquals(original.traffic(), PlanChecker.check(g, back).traffic());
    }

    /**
     * The unrolled graph does not know that a recompute must come after every read of the copy before it, nor after
     * the first run: an order that breaks either maps to nothing, and the plan that keeps them maps back.
     */
    @Test
    void anOrderThatBreaksRecomputationMapsToNothing() {
        Graph g = RecomputeGraphs.readEarlyAndLate();
        RunGraph runs = RunGraph.of(g, recomputing(g));
        Graph u = runs.graph();
        // a@1 first (room for everything): the first run of a would be a recompute and y created later.
        Map<String, List<Segment>> s = new LinkedHashMap<>();
        s.put("x", List.of(Segment.loaded(0, 1, 0)));
        s.put("y@1", List.of(Segment.created(0, 4, 1)));
        s.put("y", List.of(Segment.created(1, 2, 5)));
        s.put("z", List.of(Segment.created(2, 3, 9)));
        s.put("u", List.of(Segment.created(3, 4, 13)));
        s.put("v", List.of(Segment.created(4, 4, 17)));
        Plan early = new Plan(u.name(), TensorSetting.ALL, 20, new Schedule(List.of("a@1", "a", "b", "c", "d")), s,
                null, null);
        assertTrue(PlanChecker.check(u, early).valid(), PlanChecker.check(u, early).violations().toString());
        assertNull(runs.back(early));
        assertTrue(!runs.admits(early) && runs.admits(runs.plan()));
    }

    /** Without recomputes the unrolled graph is the graph and the plan the plan, names and all. */
    @Test
    void aPlanWithoutRecomputesUnrollsToItself() {
        Graph g = RecomputeGraphs.readEarlyAndLate();
        Map<String, List<Segment>> s = new LinkedHashMap<>();
        s.put("x", List.of(Segment.loaded(0, 0, 0)));
        s.put("y", List.of(Segment.created(0, 1, 1), Segment.loaded(3, 3, 5)));
        s.put("z", List.of(Segment.created(1, 2, 5)));
        s.put("u", List.of(Segment.created(2, 3, 1)));
        s.put("v", List.of(Segment.created(3, 3, 0)));
        Plan p = new Plan(g.name(), TensorSetting.ALL, 9, Schedule.defaultOrder(g), s, null, null);
        assertTrue(PlanChecker.check(g, p).valid(), PlanChecker.check(g, p).violations().toString());
        RunGraph runs = RunGraph.of(g, p);
        assertEquals(Schedule.defaultOrder(g), Schedule.defaultOrder(runs.graph()));
        assertEquals(p.segments(), runs.plan().segments());
        assertEquals(p.segments(), runs.back(runs.plan()).segments());
        assertTrue(runs.plan().segments().values().stream().flatMap(List::stream)
                .noneMatch(x -> x.origin() == Origin.RECOMPUTED));
    }
}
