package dev.memplan.datasets;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.memplan.model.Buffer;
import dev.memplan.model.BufferSet;
import dev.memplan.model.Budgets;
import dev.memplan.model.Graph;
import dev.memplan.model.LoadBound;
import dev.memplan.model.Schedule;
import dev.memplan.model.TensorSetting;
import org.junit.jupiter.api.Test;

/** A graph run in an order as buffers ({@link ScheduleTrace}): one per resident tensor, live as long as it is. */
class ScheduleTraceTest {
    @Test
    void theLargestLiveTotalIsTheOrdersFootprintWithoutSpills() {
        for (TensorSetting s : TensorSetting.values()) {
            Graph g = Examples.graph("fig1").withSetting(s);
            Schedule order = Schedule.defaultOrder(g);
            BufferSet trace = ScheduleTrace.of(g, order);
            assertEquals(g.tensorCount(), trace.size(), "every tensor of fig1 is resident at some step");
            assertEquals(Budgets.footprint(g, order), LoadBound.of(trace), s.fileName());
            for (Buffer b : trace.buffers()) {
                assertEquals(g.size(g.tensorIndex(b.id())), b.size());
            }
        }
    }
}
