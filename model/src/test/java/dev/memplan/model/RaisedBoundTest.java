package dev.memplan.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RaisedBoundTest {
    private static final Graph ONE = Graph.builder("one").activation("x", 8).activation("y", 8)
            .operator("a", List.of("x"), List.of("y")).output("y").build();

    private static Plan plan(SolverInfo info) {
        Map<String, List<Segment>> s = Map.of("x", List.of(Segment.loaded(0, 0, 0)),
                "y", List.of(Segment.created(0, 0, 8)));
        return new Plan("one", TensorSetting.ALL, 16, Schedule.defaultOrder(ONE), s, null, info);
    }

    @Test
    void aBoundBelowTheValueKeepsTheStatusAndGivesTheGap() {
        RaisedBound r = RaisedBound.of(plan(new SolverInfo("dnc", SolveStatus.FEASIBLE, 2.5, 10L)), 100,
                SolveStatus.FEASIBLE, 75, "unused", 9.0);
        assertEquals(SolveStatus.FEASIBLE, r.status());
        assertEquals(75, r.bound());
        assertEquals(0.25, r.gap(), 1e-12);
        assertEquals(new SolverInfo("dnc", SolveStatus.FEASIBLE, 2.5, 75L), r.plan().solver());
        assertEquals(plan(null).segments(), r.plan().segments());
    }

    @Test
    void aBoundAtOrAboveTheValueProvesThePlanAndIsShownAsTheValue() {
        RaisedBound r = RaisedBound.of(plan(null), 100, SolveStatus.FEASIBLE, 120, "cosma/cpsat", 3.0);
        assertEquals(SolveStatus.OPTIMAL, r.status());
        assertEquals(100, r.bound());
        assertEquals(0.0, r.gap());
        assertEquals(new SolverInfo("cosma/cpsat", SolveStatus.OPTIMAL, 3.0, 100L), r.plan().solver());
        RaisedBound zero = RaisedBound.of(plan(null), 0, SolveStatus.FEASIBLE, 0, "x", 0.0);
        assertEquals(SolveStatus.OPTIMAL, zero.status());
        assertEquals(0.0, zero.gap());
    }
}
