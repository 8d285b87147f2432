package dev.memplan.formulations.cosma;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.datasets.Examples;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.SolveStatus;
import dev.memplan.model.Tensor;
import dev.memplan.model.TensorSetting;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Issue 12, item 2: big byte counts. With fig1's sizes times 2^27 (budget M_H = 48 * 2^27, 6 GiB) the joint
 * program in bytes made SCIP and CBC claim plans with 3 to 5 times the optimum OPTIMAL and HiGHS claim
 * INFEASIBLE; counted in units of the sizes' gcd ({@link ByteUnit}) every back-end proves the true optimum,
 * 24 * 2^27.
 */
class ByteUnitTest {
    private static Graph scaled(Graph g, long factor, long alignment) {
        List<Tensor> tensors = g.tensors().stream().map(t -> new Tensor(t.name(), t.size() * factor, t.kind()))
                .collect(Collectors.toList());
        return new Graph(g.name(), alignment, tensors, g.operators(), g.outputs());
    }

    @Test
    void bigSizesSharingAFactorAreSolvedExactlyOnEveryBackEnd() {
        long factor = 1L << 27;
        Graph g = scaled(Examples.graph("fig1"), factor, 1);
        for (Backend backend : List.of(Backend.SCIP, Backend.HIGHS, Backend.CBC, Backend.CPSAT)) {
            CosmaResult r = CosmaSolver.solve(g, TensorSetting.ALL, 48 * factor, CosmaSolver.Options.traffic(backend),
                    Limits.DEFAULT);
            assertEquals(SolveStatus.OPTIMAL, r.status(), backend.id());
            assertEquals(24 * factor, r.objective(), backend.id());
            assertEquals(24 * factor, (long) r.bound(), backend.id());
            assertEquals(48 * factor, r.plan().budget());
            assertTrue(PlanChecker.check(g, r.plan()).valid(), backend.id());
        }
    }

    @Test
    void theUnitIncludesTheAlignmentAndKeepsTheBudgetsRemainder() {
        Graph g = scaled(Examples.graph("fig1"), 4, 8);
        assertEquals(8, ByteUnit.of(g, null), "gcd(32, 64, 8)");
        // 48 * 4 + 7 bytes: floor to 24 units of 8; the plan in bytes keeps the budget given
        CosmaResult r = CosmaSolver.solve(g, TensorSetting.ALL, 48 * 4 + 7, CosmaSolver.Options.traffic(Backend.CPSAT),
                Limits.DEFAULT);
        assertEquals(SolveStatus.OPTIMAL, r.status());
        assertEquals(48 * 4 + 7, r.plan().budget());
        assertEquals(24L * 4, r.objective());
        r.plan().segments().values().forEach(list -> list.forEach(s -> assertEquals(0, s.offset() % 8)));
    }

    @Test
    void theScaledGraphKeepsEveryOperatorsCost() {
        Graph g = scaled(Examples.graph("fig1"), 4, 8);
        Graph units = ByteUnit.scaled(g, 8);
        for (int o = 0; o < g.operatorCount(); o++) {
            assertEquals(g.cost(o), units.cost(o), g.operator(o).name());
        }
    }
}
