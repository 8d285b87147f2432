package dev.memplan.cli;

import dev.memplan.baselines.replacement.Scheme;
import dev.memplan.baselines.replacement.Schemes;
import dev.memplan.decomposition.DivideAndConquer;
import dev.memplan.decomposition.DncResult;
import dev.memplan.formulations.cosma.CosmaResult;
import dev.memplan.formulations.cosma.CosmaSolver;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Plan;
import dev.memplan.model.Schedule;
import dev.memplan.model.TensorSetting;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One divide-and-conquer run as the commands make it: the starting plans first (the fixed-schedule optima
 * FS(default) and FS(MPMF) when the graph is small enough for the whole graph's fixed-schedule program, else the
 * default/belady/tflite scheme), each within a sixth of the time, then {@link DivideAndConquer} with what is left
 * of the limit counted from {@code began}, so the limit bounds the whole command.
 */
final class DncRun {

    /** The result, with the traffic of the fixed-schedule optima it started from (null: not computed). */
    record Outcome(DncResult result, CosmaResult fsDefault, CosmaResult fsMpmf, Plan scheme) {
    }

    private DncRun() {
    }

    /**
     * @param mpmf the minimum-peak order when known (null: FS(MPMF) is skipped)
     * @param began System.nanoTime() when the command started
     */
    static Outcome run(Graph full, TensorSetting s, long budget, DivideAndConquer.Options options, Limits limits,
                       Schedule mpmf, List<Plan> extraStarts, long began, PrintWriter err) {
        Graph g = full.withSetting(s);
        List<Plan> starts = new ArrayList<>(extraStarts);
        CosmaResult fsDefault = null;
        CosmaResult fsMpmf = null;
        Plan scheme = null;
        if (g.operatorCount() <= DivideAndConquer.WHOLE_GRAPH_LIMIT) {
            fsDefault = fixed(full, s, budget, options, Schedule.defaultOrder(g), limits, began, err, "FS(default)");
            starts.add(fsDefault.plan());
            if (mpmf != null) {
                fsMpmf = fixed(full, s, budget, options, mpmf, limits, began, err, "FS(MPMF)");
                starts.add(fsMpmf.plan());
            }
        } else {
            Scheme sc = Schemes.byName("default/belady/tflite");
            err.println("dnc: starting plan " + sc.name() + " ...");
            err.flush();
            scheme = sc.plan(full, s, budget, limits);
            starts.add(scheme);
        }
        DncResult r = DivideAndConquer.solve(full, s, budget, options, remaining(limits, began, 1), starts, line -> {
            err.println(line);
            err.flush();
        });
        return new Outcome(r, fsDefault, fsMpmf, scheme);
    }

    private static CosmaResult fixed(Graph full, TensorSetting s, long budget, DivideAndConquer.Options options,
                                     Schedule schedule, Limits limits, long began, PrintWriter err, String label) {
        err.println("dnc: starting plan " + label + " ...");
        err.flush();
        CosmaResult r = CosmaSolver.solve(full, s, budget, options.cosma().withSchedule(schedule).withStart(null),
                remaining(limits, began, 6));
        err.println(String.format(Locale.ROOT, "dnc: %s %s, traffic %d, %.1f s", label, r.status(), r.objective(),
                r.seconds()));
        return r;
    }

    /** 1/n of the time left since {@code began} (the limits unchanged without a time limit). */
    static Limits remaining(Limits limits, long began, int n) {
        if (limits.timeLimit() == null) {
            return limits;
        }
        Duration left = limits.timeLimit().minusNanos(System.nanoTime() - began);
        return limits.withTimeLimit(left.isNegative() ? Duration.ofMillis(1) : left.dividedBy(n));
    }

    /** The rows solve prints for a divide-and-conquer result. */
    static void describe(Table t, Outcome o) {
        DncResult r = o.result();
        t.row("status", r.status().name());
        t.row("non-compulsory traffic", Long.toString(r.traffic()));
        t.row("bound", r.bound() == null ? "- (the forced bound was not computed in time)"
                : r.bound() + " (forced traffic of the whole graph, free schedule)");
        t.row("gap", r.gap() == null ? "-" : String.format(Locale.ROOT, "%.2f%%", 100 * r.gap()));
        t.row("time", String.format(Locale.ROOT, "%.2f s", r.seconds()));
        t.row("parts", r.partition().size() + " (largest " + r.partition().largestPart() + " operators; "
                + r.partition().totalCutBytes() + " bytes cross the cuts)");
        t.row("stages", "spill at cut " + r.spillAtCut() + ", state handed over " + r.handover()
                + ", fixed-schedule optimum of the stitched order " + (r.polished() == null ? "-" : r.polished())
                + ", windows " + r.windowsAccepted() + " of " + r.windowsTried() + " improved");
        if (o.fsDefault() != null) {
            t.row("FS(default)", o.fsDefault().objective() + " (" + o.fsDefault().status() + ")");
        }
        if (o.fsMpmf() != null) {
            t.row("FS(MPMF)", o.fsMpmf().objective() + " (" + o.fsMpmf().status() + ")");
        }
        if (o.scheme() != null) {
            t.row("start", o.scheme().traffic().nonCompulsory() + " (" + o.scheme().solver().name() + ")");
        }
        t.row("plan from", r.source());
        t.row("compulsory traffic", Long.toString(r.check().traffic().compulsory()));
        t.row("peak footprint", Long.toString(r.check().peakFootprint()));
        t.row("peak address", Long.toString(r.check().peakAddress()));
    }
}
