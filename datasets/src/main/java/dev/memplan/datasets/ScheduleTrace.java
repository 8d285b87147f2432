package dev.memplan.datasets;

import dev.memplan.model.Buffer;
import dev.memplan.model.BufferSet;
import dev.memplan.model.Graph;
import dev.memplan.model.Lifetimes;
import dev.memplan.model.Schedule;
import java.util.ArrayList;
import java.util.List;

/**
 * A graph run in an order as the buffer list a fixed-schedule allocator packs ({@code memplan trace}): one buffer
 * per tensor of the graph's setting that is resident at some step, live over [first step, last use + 1), at the
 * graph's alignment. O(operators + tensors).
 */
public final class ScheduleTrace {
    private ScheduleTrace() {
    }

    /** The buffers of {@code g} run in {@code order}, in tensor order. */
    public static BufferSet of(Graph g, Schedule order) {
        Lifetimes life = Lifetimes.of(g, order);
        List<Buffer> list = new ArrayList<>();
        for (int t = 0; t < g.tensorCount(); t++) {
            if (life.first(t) >= 0) {
                list.add(new Buffer(g.tensor(t).name(), life.first(t), life.last(t) + 1L, g.size(t), g.alignment(),
                        null));
            }
        }
        return new BufferSet(list);
    }
}
