package dev.memplan.sweeps;

import dev.memplan.baselines.replacement.PackingFailedException;
import dev.memplan.baselines.replacement.Scheme;
import dev.memplan.baselines.replacement.Schemes;
import dev.memplan.decomposition.CosmaPipeline;
import dev.memplan.decomposition.PipelineReport;
import dev.memplan.decomposition.RecomputeOutcome;
import dev.memplan.model.CheckReport;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Objective;
import dev.memplan.model.Plan;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.PlanResult;
import dev.memplan.model.TensorSetting;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * {@code memplan compare}'s run: the comparison schemes (COSMA paper Section 5), the recompute baselines and COSMA
 * (started from the schemes' plans) on one graph, setting and budget, every plan checked; and its table, with or
 * without a recompute weight. One pass over the planners in order: a scheme's plan is a row and a start of COSMA.
 */
public final class Comparison {
    /** One planner's checked plan: its status, checked figures, seconds and a note. */
    public record Row(String name, String status, CheckReport report, double seconds, String note) {
    }

    /** The rows in table order (schemes, recompute baselines, COSMA), COSMA's row (null: none) and the notes. */
    public record Result(List<Row> rows, Row cosma, List<String> notes) {
    }

    /** Where the run says what it does: a line per planner started, the pipeline's progress and the report's lines. */
    public record Listeners(Consumer<String> running, Consumer<String> pipeline, Consumer<String> report) {
    }

    private Comparison() {
    }

    /**
     * Runs {@code schemes}, then COSMA with {@code settings} (null: no COSMA; without COSMA and with a recompute
     * weight the recompute baselines run on their own) within {@code limits}; a scheme that cannot pack its segments
     * is reported and skipped, one the budget stops is a note.
     *
     * @throws SweepException when a scheme refuses the graph or budget (a user mistake)
     */
    public static Result run(Graph full, TensorSetting s, long bytes, Limits limits, List<Scheme> schemes,
                             CosmaPipeline.Settings settings, Double lambda, Listeners say) {
        Graph g = full.withSetting(s);
        List<Row> rows = new ArrayList<>();
        List<Plan> starts = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        for (Scheme scheme : schemes) {
            if (limits.stopped()) {
                notes.add(scheme.name() + " skipped: " + limits.budget().whyStopped());
                continue;
            }
            say.running().accept("running " + scheme.name() + " ...");
            Plan p;
            try {
                p = scheme.plan(full, s, bytes, limits);
            } catch (PackingFailedException e) {
                say.report().accept(e.getMessage());
                continue;
            } catch (IllegalArgumentException e) {
                throw new SweepException(scheme.name() + ": " + e.getMessage());
            }
            CheckReport r = PlanChecker.requireValid(g, p, scheme.name());
            rows.add(new Row(scheme.name(), "HEURISTIC", r, p.solver().seconds(), scheme.lastSchedule().method()
                    + ", peak " + scheme.lastSchedule().peak()));
            starts.add(p);
        }
        if (lambda != null && settings == null) {
            for (Scheme scheme : Schemes.recompute(full, lambda)) {
                say.running().accept("running " + scheme.name() + " ...");
                add(rows, notes, scheme.name(), scheme.solve(full, s, bytes, limits));
            }
        }
        Row cosma = settings == null ? null : cosma(full, s, bytes, limits, starts, settings, rows, notes, say);
        if (cosma != null) {
            rows.add(cosma);
        }
        return new Result(rows, cosma, notes);
    }

    /** COSMA from the schemes' plans (the best of them), as solve starts from the paper's schemes; its row or null. */
    private static Row cosma(Graph full, TensorSetting s, long bytes, Limits limits, List<Plan> starts,
                             CosmaPipeline.Settings settings, List<Row> rows, List<String> notes, Listeners say) {
        say.running().accept("running cosma ...");
        CosmaPipeline.Outcome o = new CosmaPipeline(settings, say.pipeline()).run(full, s, bytes, limits, starts);
        PlanResult c = o.result();
        c.notes().forEach(n -> notes.add("cosma: " + n));
        RecomputeOutcome rc = o.recompute();
        if (rc != null) {
            // The recompute baselines the pipeline ran are rows of their own, beside the spill-only schemes.
            rc.baselines().forEach(b -> add(rows, notes, b.name(), b.result()));
        }
        if (!c.planned()) {
            say.report().accept("cosma: " + c.status() + " after " + String.format(Locale.ROOT, "%.2f s", c.seconds())
                    + ", no plan");
            return null;
        }
        String note = rc != null ? "plan from " + rc.source() + ", bound " + PipelineReport.lowerBound(rc.bound())
                + ", gap " + PipelineReport.gap(rc.gap())
                : (o.dnc() == null && o.whole() != null && o.whole().startingPlanOnly() ? "starting plan (best scheme), "
                        : "") + "bound " + PipelineReport.orDash(c.bound())
                        + (c.gap() == null ? "" : ", gap " + PipelineReport.gap(c.gap()));
        return new Row(c.planner(), c.status().name(), c.check(), c.seconds(), note);
    }

    /** A recompute baseline's row when it planned, else a note saying why not. */
    private static void add(List<Row> rows, List<String> notes, String name, PlanResult p) {
        if (p.planned()) {
            rows.add(new Row(name, p.status().name(), p.check(), p.seconds(), ""));
        } else {
            notes.add(name + ": no plan (" + String.join("; ", p.notes()) + ")");
        }
    }

    /**
     * The table: header first, then a line per row. Spill-only (lambda null): every planner's traffic and how much
     * less COSMA's is; with lambda also recomputes, recompute cost and objective (traffic + lambda x recompute
     * cost), the reduction then of the objective.
     */
    public static List<String[]> table(Result r, Double lambda) {
        List<String[]> lines = new ArrayList<>();
        lines.add(lambda == null
                ? new String[] {"planner", "status", "non-compulsory", "cosma reduction", "loads", "spills",
                    "peak address", "seconds", "notes"}
                : new String[] {"planner", "status", "non-compulsory", "recomputes", "recompute cost", "objective",
                    "cosma reduction", "loads", "spills", "peak address", "seconds", "notes"});
        Row cosma = r.cosma();
        for (Row row : r.rows()) {
            var t = row.report().traffic();
            List<String> cells = new ArrayList<>(List.of(row.name(), row.status(), Long.toString(t.nonCompulsory())));
            if (lambda == null) {
                cells.add(cosma == null ? "-"
                        : PipelineReport.reduction(cosma.report().traffic().nonCompulsory(), t.nonCompulsory()));
            } else {
                double value = Objective.of(t, lambda).value();
                cells.addAll(List.of(Long.toString(t.recomputes()), Long.toString(t.recomputeCost()),
                        Objective.number(value),
                        cosma == null ? "-" : reduction(Objective.of(cosma.report().traffic(), lambda).value(), value)));
            }
            cells.addAll(List.of(Long.toString(t.loads()), Long.toString(t.spills()),
                    Long.toString(row.report().peakAddress()), String.format(Locale.ROOT, "%.2f", row.seconds()),
                    row.note()));
            lines.add(cells.toArray(String[]::new));
        }
        return lines;
    }

    /** How much lower COSMA's objective is than a planner's, as {@link PipelineReport#reduction} for traffic. */
    static String reduction(double cosma, double other) {
        if (other == 0) {
            return cosma == 0 ? "0.0%" : "-";
        }
        return String.format(Locale.ROOT, "%.1f%%", 100.0 * (other - cosma) / other);
    }
}
