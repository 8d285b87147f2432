package dev.memplan.datasets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.model.Budgets;
import dev.memplan.model.CheckReport;
import dev.memplan.model.Graph;
import dev.memplan.model.JustInTimePlanner;
import dev.memplan.model.Limits;
import dev.memplan.model.Plan;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.Schedule;
import dev.memplan.model.TensorSetting;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ExamplesTest {

    @Test
    void everyExampleLoadsAndHasAJustInTimePlanAtMR() {
        assertEquals(List.of("chain", "diamond", "two-outputs", "params", "fig1"), Examples.names());
        for (String name : Examples.names()) {
            assertFalse(Examples.description(name).isBlank());
            Graph graph = Examples.graph(name);
            assertEquals(name, graph.name());
            for (TensorSetting setting : TensorSetting.values()) {
                long mr = Budgets.minimumRequired(graph.withSetting(setting));
                Plan plan = new JustInTimePlanner().plan(graph, setting, mr, Limits.DEFAULT);
                CheckReport report = PlanChecker.check(graph, plan);
                assertTrue(report.valid(), name + ": " + report.violations());
                assertTrue(report.peakAddress() <= mr);
            }
        }
    }

    @Test
    void examplesShowWhatTheirLineSays() {
        Graph twoOut = Examples.graph("two-outputs");
        assertEquals(2, twoOut.outputs(twoOut.operatorIndex("split")).length);
        Graph params = Examples.graph("params");
        assertTrue(IntStream.range(0, params.operatorCount()).allMatch(o -> IntStream.of(params.inputs(o))
                .filter(t -> params.tensor(t).kind() == dev.memplan.model.TensorKind.PARAMETER).count() == 1));
        assertTrue(Budgets.minimumRequired(params) > Budgets.minimumRequired(params.withSetting(TensorSetting.ACTIVATIONS)));
        Graph diamond = Examples.graph("diamond");
        assertEquals(170, Budgets.footprint(diamond, Schedule.defaultOrder(diamond)));
        assertEquals(160, Budgets.footprint(diamond, new Schedule(List.of("convL", "poolL", "convR", "add"))));
        Graph fig1 = Examples.graph("fig1");
        assertEquals(7, fig1.operatorCount());
        assertEquals(32, Budgets.minimumRequired(fig1));
        assertEquals(64, Budgets.footprint(fig1, Schedule.defaultOrder(fig1)));
    }

    @Test
    void fig1NeedsSixtyFourBytesWithoutSpillsWhateverTheOrder() {
        // M_P by brute force over every topological order: the claim "a budget between M_R and M_P forces
        // spills" needs M_P > M_R.
        Graph fig1 = Examples.graph("fig1");
        long best = Long.MAX_VALUE;
        for (List<String> order : TopologicalOrders.all(fig1)) {
            best = Math.min(best, Budgets.footprint(fig1, new Schedule(order)));
        }
        assertEquals(64, best);
    }

    @Test
    void unknownExampleNamesTheChoices() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Examples.graph("nope"));
        assertTrue(e.getMessage().contains("chain"), e.getMessage());
    }
}
