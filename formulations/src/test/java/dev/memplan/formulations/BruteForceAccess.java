package dev.memplan.formulations;

import dev.memplan.model.Graph;
import dev.memplan.model.Plan;
import dev.memplan.model.Schedule;
import dev.memplan.model.TensorSetting;
import java.util.Random;

/** The brute-force oracle, for tests in other packages of this module. */
public final class BruteForceAccess {

    private BruteForceAccess() {
    }

    public static long minTraffic(Graph graph, TensorSetting setting, long budget, Schedule fixedSchedule) {
        BruteForce.Optimum o = BruteForce.minTraffic(graph, setting, budget, fixedSchedule);
        if (o == null) {
            throw new AssertionError("brute force found no plan at budget " + budget);
        }
        return o.traffic();
    }

    /** An optimal plan over every schedule, or over {@code fixedSchedule} when it is not null. */
    public static Plan optimalPlan(Graph graph, TensorSetting setting, long budget, Schedule fixedSchedule) {
        BruteForce.Optimum o = BruteForce.minTraffic(graph, setting, budget, fixedSchedule);
        if (o == null) {
            throw new AssertionError("brute force found no plan at budget " + budget);
        }
        return o.plan();
    }

    public static long minPeak(Graph graph) {
        return BruteForce.minPeak(graph);
    }

    public static Graph randomTinyGraph(Random random, int operators, boolean withParameters) {
        return BruteForce.randomTinyGraph(random, operators, withParameters);
    }
}
