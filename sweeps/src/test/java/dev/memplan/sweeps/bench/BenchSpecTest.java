package dev.memplan.sweeps.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.memplan.model.TensorSetting;
import dev.memplan.sweeps.SweepException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The benches' specs refuse counts out of their bounds when made; a bench's rows as it hands them. */
class BenchSpecTest {
    @Test
    void countsOutOfTheirBoundsAreRefusedNamingTheOptionAndTheBound() {
        assertEquals("--repeats must be >= 0, got -1",
                assertThrows(SweepException.class, () -> new ImportBench.Spec(List.of(), -1)).getMessage());
        assertEquals("--repeats must be <= 1000, got 1000000000",
                assertThrows(SweepException.class, () -> new ImportBench.Spec(List.of(), 1_000_000_000)).getMessage());
        assertEquals("--widths must be beam widths >= 1, got 0", assertThrows(SweepException.class,
                () -> new SchedulerBench.Spec(List.of("fig1"), List.of(4, 0), TensorSetting.ALL, 1)).getMessage());
        assertEquals("--sizes must be operator counts <= 1000000, got 2000000", assertThrows(SweepException.class,
                () -> new CheckerBench.Spec(List.of(10, 2_000_000), 50, 1, 1)).getMessage());
        assertThrows(SweepException.class, () -> new AllocatorsBench.Spec(null, null, 1001, null, 1, false));
        assertThrows(SweepException.class, () -> new AllocatorsBench.Spec(List.of("nosuch"), null, 0, null, 1, false));
    }

    @Test
    void limitsChecksItsGraphsAndLimitsWhenMade() {
        assertThrows(SweepException.class, () -> new LimitsBench.Spec(List.of("nosuchgraph"), List.of(5.0), "M_H", "",
                "", "Main"));
        assertEquals("--limits must be positive seconds, got 0.0", assertThrows(SweepException.class,
                () -> new LimitsBench.Spec(List.of("fig1"), List.of(0.0), "M_H", "", "", "Main")).getMessage());
        // The default graphs: the zoo, then three generated ones.
        List<String> graphs = new LimitsBench.Spec(null, List.of(5.0), "M_H", "", "", "Main").graphs();
        assertEquals("gen:layered:20000", graphs.get(graphs.size() - 1));
    }

    @Test
    void aFailedChildsErrorLineIsTheFirstThatSaysErrorWithoutMemplansPrefix() {
        ChildRun failed = new ChildRun(2, "", "fig1 M_H ...\nmemplan: error: budget 1 is below M_R\nTry it.\n", 1, 1, 1);
        assertEquals("error: budget 1 is below M_R", failed.errorLine());
        assertEquals("Killed", new ChildRun(137, "", "\nKilled\n", 1, 1, 1).errorLine());
        assertEquals("-", new ChildRun(3, "", "", 1, 1, 1).errorLine());
        assertEquals("-", new ChildRun(0, "", "memplan: error: ignored after a success", 1, 1, 1).errorLine());
    }

    @Test
    void theCheckerBenchHandsARowPerSizeEachPlanValid() {
        List<String[]> rows = new ArrayList<>();
        CheckerBench.run(new CheckerBench.Spec(List.of(20, 40), 5, 1, 1), rows::add);
        assertEquals(2, rows.size());
        assertEquals("20", rows.get(0)[0]);
        assertEquals("yes", rows.get(0)[6]);
        assertEquals(CheckerBench.HEADER.length, rows.get(1).length);
    }
}
