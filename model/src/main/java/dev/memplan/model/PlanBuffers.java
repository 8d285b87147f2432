package dev.memplan.model;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The conversion between a plan's segments and fixed-schedule buffers (memory-model.md, "Fixed-schedule
 * buffers"): one buffer per segment, live over [start, end + 1), with the tensor's size and the graph's
 * alignment, id {@code tensor#k} for the k-th segment in the plan's order. Any {@link Allocator} can then place
 * the segments a replacement policy chose, and the placement can be put back into the plan.
 */
public final class PlanBuffers {

    private PlanBuffers() {
    }

    /** The plan's segments as buffers, with the plan's budget as capacity. The graph is taken in the plan's setting. */
    public static BufferSet toBufferSet(Graph graph, Plan plan) {
        Graph g = graph.withSetting(plan.setting());
        List<Buffer> buffers = new ArrayList<>();
        for (Map.Entry<String, List<Segment>> e : plan.segments().entrySet()) {
            int tensor = g.tensorIndex(e.getKey());
            if (tensor < 0) {
                throw new IllegalArgumentException("tensor '" + e.getKey() + "' of the plan is not in graph '"
                        + g.name() + "'");
            }
            List<Segment> segments = e.getValue();
            for (int k = 0; k < segments.size(); k++) {
                Segment s = segments.get(k);
                buffers.add(new Buffer(id(e.getKey(), k), s.start(), s.end() + 1L, g.size(tensor), g.alignment(), null));
            }
        }
        return new BufferSet(buffers, plan.budget());
    }

    /** The plan's own offsets as a placement of {@link #toBufferSet(Graph, Plan)}. */
    public static Placement placementOf(Graph graph, Plan plan) {
        BufferSet set = toBufferSet(graph, plan);
        long[] offsets = plan.segments().values().stream().flatMap(List::stream).mapToLong(Segment::offset).toArray();
        return new Placement(set, offsets);
    }

    /**
     * The plan with every segment moved to the offset the placement gives its buffer.
     *
     * @throws IllegalArgumentException when the placement is not of this plan's buffers
     */
    public static Plan withPlacement(Plan plan, Placement placement) {
        BufferSet set = placement.buffers();
        if (set.size() != plan.segmentCount()) {
            throw new IllegalArgumentException("the placement has " + set.size() + " buffers; the plan has "
                    + plan.segmentCount() + " segments");
        }
        Map<String, List<Segment>> moved = new LinkedHashMap<>();
        int i = 0;
        for (Map.Entry<String, List<Segment>> e : plan.segments().entrySet()) {
            List<Segment> segments = new ArrayList<>();
            for (int k = 0; k < e.getValue().size(); k++, i++) {
                Segment s = e.getValue().get(k);
                Buffer b = set.get(i);
                if (!b.id().equals(id(e.getKey(), k)) || b.lower() != s.start() || b.upper() != s.end() + 1L) {
                    throw new IllegalArgumentException("buffer " + i + " ('" + b.id() + "') does not match segment "
                            + k + " of tensor '" + e.getKey() + "'");
                }
                segments.add(s.at(placement.offset(i)));
            }
            moved.put(e.getKey(), segments);
        }
        return plan.withSegments(moved);
    }

    /** The buffer id of the k-th segment of a tensor; unique because the suffix after the last '#' is digits. */
    public static String id(String tensor, int k) {
        return tensor + "#" + k;
    }
}
