package dev.memplan.cli;

import dev.memplan.baselines.replacement.Scheme;
import dev.memplan.baselines.replacement.Schemes;
import dev.memplan.baselines.scheduling.MinimumPeakScheduler;
import dev.memplan.decomposition.DivideAndConquer;
import dev.memplan.decomposition.DncResult;
import dev.memplan.decomposition.HardDeadline;
import dev.memplan.formulations.cosma.CosmaResult;
import dev.memplan.formulations.cosma.CosmaSolver;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Plan;
import dev.memplan.model.TensorSetting;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One divide-and-conquer run as the commands make it: the starting plans first (the schemes default/belady/tflite
 * and, with a minimum-peak scheduler, mpmf/belady/tflite; then, when the graph is small enough for the whole
 * graph's fixed-schedule program, the fixed-schedule optima FS(default) and FS(MPMF) started from them, each
 * within an eighth of the time left: on a loaded machine a fixed-schedule solve overruns its share by seconds),
 * then {@link DivideAndConquer} with what is left of one deadline, so the limit bounds the whole run.
 */
final class DncRun {

    /** The result, with the traffic of the fixed-schedule optima it started from (null: not computed). */
    record Outcome(DncResult result, CosmaResult fsDefault, CosmaResult fsMpmf, Plan scheme, double seconds) {
    }

    private DncRun() {
    }

    /**
     * @param mpmf the minimum-peak order when known (null: FS(MPMF) is skipped)
     * @param began System.nanoTime() when the run started (for the reported wall time; the limit's deadline, when
     *     it has one, already counts from the command's start)
     */
    static Outcome run(Graph full, TensorSetting s, long budget, DivideAndConquer.Options options, Limits limits,
                       MinimumPeakScheduler mpmf, List<Plan> extraStarts, long began, PrintWriter err) {
        Graph g = full.withSetting(s);
        // One deadline for the whole run: from here on every limit read is what is left of it.
        Limits run = limits.startingNow();
        List<Plan> starts = new ArrayList<>(extraStarts);
        CosmaResult fsDefault = null;
        CosmaResult fsMpmf = null;
        boolean small = g.operatorCount() <= DivideAndConquer.WHOLE_GRAPH_LIMIT;
        // The schemes' plans: cheap, and far better starts for the fixed-schedule programs than just in time. On a
        // large graph a scheme among the caller's starting plans is enough: a scheme there takes seconds. Without
        // one (a tight limit left the caller none) the default scheme still beats the just-in-time plan by far
        // (20,000 operators: 0.65 MB against 111 MB).
        boolean given = extraStarts.stream().anyMatch(p -> p.solver() != null
                && Schemes.all().contains(p.solver().name()));
        Plan defaultScheme = small || !given ? scheme("default/belady/tflite", null, full, s, budget, run, err) : null;
        Plan mpmfScheme = small && mpmf != null ? scheme("mpmf/belady/tflite", mpmf, full, s, budget, run, err) : null;
        if (defaultScheme != null) {
            starts.add(defaultScheme);
        }
        if (mpmfScheme != null) {
            starts.add(mpmfScheme);
        }
        if (small) {
            fsDefault = fixed(full, s, budget, options, defaultScheme, run, err, "FS(default)");
            if (fsDefault != null) {
                starts.add(fsDefault.plan());
            }
            if (mpmfScheme != null) {
                fsMpmf = fixed(full, s, budget, options, mpmfScheme, run, err, "FS(MPMF)");
                if (fsMpmf != null) {
                    starts.add(fsMpmf.plan());
                }
            }
        }
        // The best plan the run started from that no program made (the schemes, the caller's starting plans).
        Plan bestScheme = null;
        for (Plan p : starts) {
            if (p.traffic() != null && p != (fsDefault == null ? null : fsDefault.plan()) && p != (fsMpmf == null ? null : fsMpmf.plan())
                    && (bestScheme == null || p.traffic().nonCompulsory() < bestScheme.traffic().nonCompulsory())) {
                bestScheme = p;
            }
        }
        DncResult r = DivideAndConquer.solve(full, s, budget, options, run, starts, new Heartbeat(err));
        return new Outcome(r, fsDefault, fsMpmf, bestScheme, (System.nanoTime() - began) / 1e9);
    }

    private static Plan scheme(String name, MinimumPeakScheduler mpmf, Graph full, TensorSetting s, long budget,
                               Limits limits, PrintWriter err) {
        Scheme sc = mpmf == null ? Schemes.byName(name) : Schemes.byNames(List.of(name), mpmf).get(0);
        Plan p = sc.plan(full, s, budget, limits);
        err.println("dnc: scheme " + name + ", traffic " + p.traffic().nonCompulsory());
        err.flush();
        return p;
    }

    private static CosmaResult fixed(Graph full, TensorSetting s, long budget, DivideAndConquer.Options options,
                                     Plan scheme, Limits limits, PrintWriter err, String label) {
        err.println("dnc: starting plan " + label + " ...");
        err.flush();
        Limits share = limits.timeLimit() == null ? limits : limits.withTimeLimit(limits.timeLimit().dividedBy(8));
        // Under a work limit the step ends at its work; only the command's wall deadline may abandon it (an
        // abandoned step would go on charging the shared work in the background).
        Duration wait = limits.workMode() ? limits.wallLeft() : share.timeLimit() == null ? null
                : share.timeLimit().plus(share.timeLimit().dividedBy(2)).plusMillis(500);
        CosmaResult r = HardDeadline.call(wait, "dnc-" + label, () -> CosmaSolver.solve(full, s, budget,
                options.cosma().withSchedule(scheme.schedule()).withStart(scheme), share));
        if (r == null || r.plan() == null) {
            err.println("dnc: " + label + " overran its time; left out");
            return null;
        }
        err.println(String.format(Locale.ROOT, "dnc: %s %s, traffic %d, %.1f s", label, r.status(), r.objective(),
                r.seconds()));
        return r;
    }

    static String orDash(Long value) {
        return value == null ? "-" : Long.toString(value);
    }

    /** The rows solve prints for a divide-and-conquer result. */
    static void describe(Table t, Outcome o) {
        DncResult r = o.result();
        t.row("status", r.status().name());
        t.row("non-compulsory traffic", Long.toString(r.traffic()));
        t.row("bound", r.bound() == null ? "- (the forced bound was not computed in time)"
                : r.bound() + " (whole graph, free schedule: forced traffic and live bytes)");
        t.row("gap", r.gap() == null ? "-" : String.format(Locale.ROOT, "%.2f%%", 100 * r.gap()));
        t.row("time", String.format(Locale.ROOT, "%.2f s (divide and conquer %.2f s after the starting plans)",
                o.seconds(), r.seconds()));
        t.row("parts", r.partition().size() + " (largest " + r.partition().largestPart() + " operators; "
                + r.partition().totalCutBytes() + " bytes cross the cuts)");
        t.row("stages", r.spillAtCut() == null ? (r.bound() != null && r.traffic() <= r.bound()
                ? "none: a starting plan meets the lower bound" : "none: the time was up before the parts were solved")
                : "spill at cut " + r.spillAtCut() + ", state handed over " + orDash(r.handover())
                + ", fixed-schedule optimum of the stitched order " + orDash(r.polished())
                + ", windows " + r.windowsAccepted() + " of " + r.windowsTried() + " improved");
        if (o.fsDefault() != null) {
            t.row("FS(default)", o.fsDefault().objective() + " (" + o.fsDefault().status() + ")");
        }
        if (o.fsMpmf() != null) {
            t.row("FS(MPMF)", o.fsMpmf().objective() + " (" + o.fsMpmf().status() + ")");
        }
        if (o.scheme() != null) {
            t.row("best start", o.scheme().traffic().nonCompulsory() + " (" + o.scheme().solver().name() + ")");
        }
        t.row("plan from", r.source());
        t.row("compulsory traffic", Long.toString(r.check().traffic().compulsory()));
        t.row("peak footprint", Long.toString(r.check().peakFootprint()));
        t.row("peak address", Long.toString(r.check().peakAddress()));
    }
}
