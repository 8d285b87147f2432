package dev.memplan.formulations.cosma;

import dev.memplan.model.CheckReport;
import dev.memplan.model.Graph;
import dev.memplan.model.Plan;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.Segment;
import dev.memplan.model.SolverInfo;
import dev.memplan.model.Tensor;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The largest unit u that divides every tensor size of a graph (and its alignment when > 1), so that COSMA can be
 * solved with sizes, alignment and budget counted in units of u bytes: the budget becomes floor(B / u). Exact:
 * every plan at B can be pushed down (each segment, in the order of its offset, to the lowest aligned address
 * above the segments below it that share a timestep) into a plan with the same segments whose offsets are
 * multiples of u, and whose tops, multiples of u, stay within floor(B / u) * u. Why: the double-precision
 * back-ends (SCIP, CBC, HiGHS) accept constraint violations relative to the size of the numbers (about 1e-6), so
 * big-M rows in bytes mislead them long before 2^53: on fig1 with sizes scaled by 2^24 HiGHS claimed a plan with
 * 7 times the optimum's traffic OPTIMAL, and at 2^27 it claimed INFEASIBLE. Real tensor sizes share large powers
 * of two, so the unit often takes the program's numbers back to a range where the back-ends are exact. O(tensors
 * + segments).
 */
final class ByteUnit {
    private ByteUnit() {
    }

    /**
     * The unit of a graph (in its tensor setting) and a starting plan (null for none): the gcd of its sizes and,
     * when above 1, its alignment; 1 when the starting plan has an offset that is not a multiple of it.
     */
    static long of(Graph g, Plan start) {
        long unit = g.alignment() > 1 ? g.alignment() : 0;
        for (int a = 0; a < g.tensorCount(); a++) {
            unit = gcd(unit, g.size(a));
        }
        if (unit <= 1 || start == null) {
            return Math.max(unit, 1);
        }
        for (List<Segment> list : start.segments().values()) {
            for (Segment s : list) {
                if (s.offset() % unit != 0) {
                    return 1;
                }
            }
        }
        return unit;
    }

    /**
     * The graph with every size and the alignment divided by the unit; each operator keeps the cost it has in
     * {@code g} (a cost derived from bytes would otherwise shrink with them).
     */
    static Graph scaled(Graph g, long unit) {
        List<Tensor> tensors = new ArrayList<>(g.tensorCount());
        for (Tensor t : g.tensors()) {
            tensors.add(new Tensor(t.name(), t.size() / unit, t.kind(), t.shape(), t.dtype()));
        }
        long alignment = g.alignment() > 1 ? g.alignment() / unit : 1;
        return new Graph(g.name(), alignment, tensors, g.withCosts().operators(), g.outputs());
    }

    /** A plan's offsets divided (budget in units) or multiplied (budget given) by the unit. */
    static Plan rescaled(Plan plan, long unit, boolean toUnits, long budget) {
        Map<String, List<Segment>> segments = new LinkedHashMap<>();
        plan.segments().forEach((name, list) -> {
            List<Segment> moved = new ArrayList<>(list.size());
            for (Segment s : list) {
                moved.add(s.at(toUnits ? s.offset() / unit : s.offset() * unit));
            }
            segments.put(name, moved);
        });
        return new Plan(plan.graph(), plan.setting(), budget, plan.schedule(), segments, null, null);
    }

    /** A result in units as a result in bytes for the original graph (in its setting) and budget. */
    static CosmaResult inBytes(CosmaResult r, Graph g, long unit, long budget) {
        Long bound = r.bound() == null ? null : r.bound() * unit;
        Long objective = r.objective() == null ? null : r.objective() * unit;
        if (r.plan() == null) {
            return new CosmaResult(r.status(), null, null, objective, bound, r.gap(), r.seconds(), r.backend(),
                    r.pruned(), r.unpruned(), r.startingPlanOnly(), r.notes());
        }
        Plan plan = rescaled(r.plan(), unit, false, budget);
        CheckReport report = PlanChecker.requireValid(g, plan, "COSMA on " + r.backend() + " (in units of " + unit
                + " bytes)");
        SolverInfo info = r.plan().solver() == null ? null : new SolverInfo(r.plan().solver().name(),
                r.plan().solver().status(), r.plan().solver().seconds(), bound);
        return new CosmaResult(r.status(), plan.withResult(report.traffic(), info), report, objective, bound, r.gap(),
                r.seconds(), r.backend(), r.pruned(), r.unpruned(), r.startingPlanOnly(), r.notes());
    }

    private static long gcd(long a, long b) {
        while (b != 0) {
            long t = a % b;
            a = b;
            b = t;
        }
        return a;
    }
}
