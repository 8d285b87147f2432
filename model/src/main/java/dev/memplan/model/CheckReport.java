package dev.memplan.model;

import java.util.List;

/**
 * What the {@link PlanChecker} found: every violation (empty for a valid plan), the traffic (with the recomputes
 * and their cost), the peak footprint (max over t of the bytes resident at t) and the peak address (max offset +
 * size). The figures are computed for broken plans too, over the segments that make sense.
 */
public record CheckReport(List<Violation> violations, Traffic traffic, long peakFootprint, long peakAddress) {

    public CheckReport {
        violations = List.copyOf(violations);
    }

    public boolean valid() {
        return violations.isEmpty();
    }

    /**
     * The figures of plan {@code p} on graph {@code g} as (figure, value) rows, as {@code memplan check} prints them:
     * the graph in the plan's setting, the budget, the traffic (with the recomputes when there are any) and the peaks.
     */
    public List<String[]> figures(Graph g, Plan p) {
        Graph s = g.withSetting(p.setting());
        List<String[]> rows = new java.util.ArrayList<>();
        rows.add(new String[] {"graph", s.name() + " (" + s.operatorCount() + " operators, " + s.tensorCount()
                + " tensors, setting " + p.setting().fileName() + ")"});
        rows.add(new String[] {"budget", Long.toString(p.budget())});
        rows.add(new String[] {"compulsory", Long.toString(traffic.compulsory())});
        rows.add(new String[] {"non-compulsory", Long.toString(traffic.nonCompulsory())});
        rows.add(new String[] {"loads", Long.toString(traffic.loads())});
        rows.add(new String[] {"spills", Long.toString(traffic.spills())});
        if (traffic.recomputing()) {
            rows.add(new String[] {"recomputes", Long.toString(traffic.recomputes())});
            rows.add(new String[] {"recompute cost", Long.toString(traffic.recomputeCost())});
        }
        rows.add(new String[] {"peak footprint", Long.toString(peakFootprint)});
        rows.add(new String[] {"peak address", Long.toString(peakAddress)});
        return rows;
    }
}
