package dev.memplan.decomposition;

import dev.memplan.model.Graph;
import dev.memplan.model.Plan;
import dev.memplan.model.PlanChecker;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;

/**
 * The best checked plan of a run so far and where it came from; every plan offered is checked (O(plan size)), and
 * kept only when the run admits it (a plan of a {@link RunGraph} must map back to a valid plan of its graph).
 */
final class BestPlan {
    private final Graph g;
    private final Predicate<Plan> admits;
    private Plan plan;
    private long traffic = Long.MAX_VALUE;
    private String source;
    private dev.memplan.model.CheckReport report;

    BestPlan(Graph g, Predicate<Plan> admits) {
        this.g = g;
        this.admits = admits;
    }

    /** Checks the plan, keeps it when it is strictly better and admitted; returns its traffic. */
    long offer(Plan candidate, String from) {
        dev.memplan.model.CheckReport checked = PlanChecker.requireValid(g, candidate, "divide and conquer (" + from
                + ")");
        long t = checked.traffic().nonCompulsory();
        if (t < traffic && admits.test(candidate)) {
            traffic = t;
            plan = candidate;
            source = from;
            report = checked;
        }
        return t;
    }

    long traffic() {
        return traffic;
    }

    /** Whether the plan meets the bound once it is known. */
    boolean meets(CompletableFuture<Long> bound) {
        Long b = bound.getNow(null);
        return b != null && traffic <= b;
    }

    Plan plan() {
        return plan;
    }

    /** The check of the best plan (null without one): a large plan's check takes seconds, so it is not redone. */
    dev.memplan.model.CheckReport report() {
        return report;
    }

    String source() {
        return source;
    }
}
