package dev.memplan.decomposition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Objective;
import dev.memplan.model.Operator;
import dev.memplan.model.Plan;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.Schedule;
import dev.memplan.model.Tensor;
import dev.memplan.model.TensorSetting;
import dev.memplan.formulations.milp.Solvers;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class FanOutRerunsTest {

    /**
     * A fan-out F (g -> y1, y2, 4 bytes each, cost 1) whose two copies are live across a peak (P, Q) before their
     * later readers: at budget 13 its order pays a spill and a load of 4 bytes (8); keeping g in place of both copies
     * and running F again before R1 pays one rerun (objective 1 at lambda 1), the plan checked.
     */
    private static Graph fanOut() {
        List<Tensor> tensors = List.of(Tensor.activation("x", 4), Tensor.activation("g", 4), Tensor.activation("y1", 4),
                Tensor.activation("y2", 4), Tensor.activation("e", 1), Tensor.activation("p", 8),
                Tensor.activation("q", 1), Tensor.activation("r1", 1), Tensor.activation("r2", 1));
        List<Operator> ops = List.of(new Operator("A", "op", List.of("x"), List.of("g"), 4L),
                new Operator("F", "add_grad", List.of("g"), List.of("y1", "y2"), 1L),
                new Operator("E", "op", List.of("y1"), List.of("e"), 100L),
                new Operator("P", "op", List.of("e"), List.of("p"), 100L),
                new Operator("Q", "op", List.of("p"), List.of("q"), 100L),
                new Operator("R1", "op", List.of("y1", "q"), List.of("r1"), 100L),
                new Operator("R2", "op", List.of("y2"), List.of("r2"), 100L));
        return new Graph("fan-out", 1, tensors, ops, List.of("r1", "r2"));
    }

    @Test
    void aFanOutsRerunBeatsItsCopiesSpill() {
        Assumptions.assumeTrue(Solvers.nativeAvailable(), "OR-Tools natives");
        Graph g = fanOut().withSetting(TensorSetting.ACTIVATIONS);
        long budget = 13;
        Plan order = new Plan(g.name(), TensorSetting.ACTIVATIONS, budget, Schedule.defaultOrder(g), Map.of(), null,
                null);
        Plan start = OrderCover.of(g, order, budget, Limits.DEFAULT);
        assertNotNull(start);
        Objective from = Objective.of(PlanChecker.check(g, start).traffic(), 1);
        assertEquals(8, from.value());
        FanOutReruns.Result r = FanOutReruns.run(g, start, from, 1, Limits.DEFAULT);
        assertNotNull(r.plan());
        assertTrue(PlanChecker.check(g, r.plan()).valid());
        assertEquals(1, r.objective().value());
        assertEquals(1, r.added());
        assertEquals(List.of("A", "F", "E", "P", "Q", "F", "R1", "R2"), r.plan().schedule().operators());
    }

    /** Where the fan-out may not pay (lambda 16: a rerun costs its outputs' bytes and spills), none is tried. */
    @Test
    void aFanOutThatMayNotPayIsNotTried() {
        Assumptions.assumeTrue(Solvers.nativeAvailable(), "OR-Tools natives");
        Graph g = fanOut().withSetting(TensorSetting.ACTIVATIONS);
        Plan order = new Plan(g.name(), TensorSetting.ACTIVATIONS, 13, Schedule.defaultOrder(g), Map.of(), null, null);
        Plan start = OrderCover.of(g, order, 13, Limits.DEFAULT);
        FanOutReruns.Result r = FanOutReruns.run(g, start, Objective.of(PlanChecker.check(g, start).traffic(), 16), 16,
                Limits.DEFAULT);
        assertNull(r.plan());
        assertEquals(0, r.tried());
    }
}
