package dev.memplan.decomposition;

import dev.memplan.formulations.cosma.CosmaObjective;
import dev.memplan.formulations.cosma.CosmaResult;
import dev.memplan.model.Budget;
import dev.memplan.model.CheckReport;
import dev.memplan.model.PlanResult;
import dev.memplan.model.SolveStatus;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The report of one {@link CosmaPipeline} run as labelled rows, whichever way it went (the whole graph's program,
 * or divide and conquer): what {@code solve} prints and {@code bench dnc} tabulates ({@link #dncColumns}),
 * formatted in one place. The
 * command adds its own rows (graph, budget, objective, limits) around these.
 */
public final class PipelineReport {

    /** One row: a label and its value. */
    public record Row(String label, String value) {
    }

    private PipelineReport() {
    }

    /** The solver that made the plan: the back-end of the whole graph's program, or divide and conquer's label. */
    public static String solver(CosmaPipeline.Outcome o) {
        if (o.dnc() != null) {
            return o.recompute() != null ? o.result().planner() : o.result().plan().solver().name();
        }
        return o.whole().backend();
    }

    /**
     * The result's rows, before the work line: the model (whole graph), status, objective, bound, gap and time, and
     * for divide and conquer its stages and starts and the checked plan's figures.
     *
     * @param pruned whether the programs were pruned (the model row says so when not)
     */
    public static List<Row> result(CosmaPipeline.Outcome o, CosmaObjective objective, boolean pruned) {
        List<Row> rows = o.recompute() != null ? recompute(o)
                : o.dnc() != null ? dnc(o) : whole(o.whole(), objective, pruned);
        if (o.result().wallStopped()) {
            rows.replaceAll(r -> r.label().equals("status") ? new Row("status", r.value().endsWith(")")
                    ? r.value().substring(0, r.value().length() - 1) + "; " + Budget.WALL_CUT + ")"
                    : r.value() + " (" + Budget.WALL_CUT + ")") : r);
        }
        return rows;
    }

    /** The rows after the work line: the whole graph's checked plan's figures and its notes (none for dnc). */
    public static List<Row> details(CosmaPipeline.Outcome o) {
        List<Row> rows = new ArrayList<>();
        CosmaResult r = o.whole();
        if (o.recompute() != null) {
            if (o.result().check() != null) {
                checked(rows, o.result().check());
            }
            o.result().notes().forEach(n -> rows.add(new Row("note", n)));
            return rows;
        }
        if (o.dnc() != null) {
            return rows;
        }
        if (r.check() != null) {
            checked(rows, r.check());
        }
        for (String note : r.notes()) {
            rows.add(new Row("note", note));
        }
        return rows;
    }

    private static List<Row> whole(CosmaResult r, CosmaObjective objective, boolean pruned) {
        List<Row> rows = new ArrayList<>();
        rows.add(new Row("model", r.pruned() == null ? (r.plan() == null ? "none built" : r.notes().isEmpty()
                ? "none built: the starting plan meets the lower bound" : "none built (see the notes)")
                : r.pruned() + (!pruned ? " (no pruning)" : r.unpruned() == null ? ""
                        : " (before pruning: " + r.unpruned() + ")")));
        rows.add(new Row("status", r.status().name()
                + (r.startingPlanOnly() ? " (the starting plan; the solver found nothing better)" : "")));
        rows.add(new Row(objective == CosmaObjective.TRAFFIC ? "non-compulsory traffic" : "peak footprint",
                orDash(r.objective())));
        rows.add(new Row("bound", orDash(r.bound())));
        rows.add(new Row("gap", gap(r.gap())));
        rows.add(new Row("time", String.format("%.2f s", r.seconds())));
        return rows;
    }

    private static List<Row> dnc(CosmaPipeline.Outcome o) {
        DncResult r = o.dnc();
        List<Row> rows = new ArrayList<>();
        if (o.whole() != null) {
            rows.add(new Row("whole graph first", o.whole().status() + ", traffic " + orDash(o.whole().objective())
                    + String.format(Locale.ROOT, ", %.2f s (--decompose auto)", o.whole().seconds())));
        }
        rows.add(new Row("status", r.status().name()));
        rows.add(new Row("non-compulsory traffic", Long.toString(r.traffic())));
        rows.add(new Row("bound", r.bound() == null ? "- (the forced bound was not computed in time)"
                : r.bound() + " (whole graph, free schedule: forced traffic, live bytes and the stem)"));
        rows.add(new Row("gap", gap(r.gap())));
        rows.add(new Row("time", String.format(Locale.ROOT, "%.2f s (divide and conquer %.2f s after the starting "
                + "plans)", o.result().seconds(), r.seconds())));
        rows.add(new Row("parts", r.partition().size() + " (largest " + r.partition().largestPart() + " operators; "
                + r.partition().totalCutBytes() + " bytes cross the cuts)"));
        rows.add(new Row("stages", stages(r)));
        if (o.fsDefault() != null) {
            rows.add(new Row("FS(default)", o.fsDefault().objective() + " (" + o.fsDefault().status() + ")"));
        }
        if (o.fsMpmf() != null) {
            rows.add(new Row("FS(MPMF)", o.fsMpmf().objective() + " (" + o.fsMpmf().status() + ")"));
        }
        if (o.bestStart() != null) {
            rows.add(new Row("best start", o.bestStart().traffic().nonCompulsory() + " ("
                    + o.bestStart().solver().name() + ")"));
        }
        rows.add(new Row("plan from", r.source()));
        checked(rows, r.check());
        return rows;
    }

    /**
     * The recompute step's rows: the answer's status, objective (traffic + lambda x recompute cost, apart), bound,
     * gap and time, where it came from, then each candidate: the spill-only steps, the baselines, the re-planned
     * baseline, the joint program.
     */
    private static List<Row> recompute(CosmaPipeline.Outcome o) {
        RecomputeOutcome rc = o.recompute();
        PlanResult result = o.result();
        List<Row> rows = new ArrayList<>();
        rows.add(new Row("status", rc.status().name()));
        rows.add(new Row("objective", rc.objective() == null ? "-" : rc.objective()
                + " (traffic + lambda x recompute cost)"));
        if (result.check() != null) {
            rows.add(new Row("non-compulsory traffic", Long.toString(result.check().traffic().nonCompulsory())));
            rows.add(new Row("recomputes", Long.toString(result.check().traffic().recomputes())));
            rows.add(new Row("recompute cost", Long.toString(result.check().traffic().recomputeCost())));
        }
        rows.add(new Row("bound", boundText(rc)));
        rows.add(new Row("gap", gap(rc.gap())));
        rows.add(new Row("time", String.format(Locale.ROOT, "%.2f s", result.seconds())));
        rows.add(new Row("plan from", rc.source() == null ? "-" : rc.source()));
        rows.add(new Row("spill-only", spillOnly(o)));
        for (RecomputeOutcome.Candidate c : rc.baselines()) {
            rows.add(new Row(c.name(), c.objective() == null ? "no plan (" + String.join("; ", c.result().notes())
                    + ")" : c.objective().toString()));
        }
        for (StepReport step : rc.steps()) {
            if (step.status() == StepReport.Status.SKIPPED) {
                rows.add(new Row(step.name(), "skipped: " + step.note()));
            } else if (step.name().equals(RecomputeOutcome.REPLAN) || step.name().equals(RecomputeOutcome.BOUND)
                    || step.name().equals(RecomputeOutcome.CHOOSE)) {
                rows.add(new Row(step.name(), step.note()));
            }
        }
        if (rc.joint() != null) {
            RecomputeOutcome.Joint j = rc.joint();
            rows.add(new Row(RecomputeOutcome.JOINT, j.status() + (j.objective() == null ? ", no plan"
                    : ", " + j.objective()) + ", bound "
                    + (j.bound() == null ? "-" : dev.memplan.model.Objective.number(j.bound()))
                    + String.format(Locale.ROOT, ", %.2f s (at most %d recomputes)", j.seconds(), rc.extraRuns())
                    + (j.startOnly() ? "; nothing better than its starting plan" : "")
                    + (j.notes().isEmpty() ? "" : "; " + String.join("; ", j.notes()))));
        }
        return rows;
    }

    /**
     * The recompute answer's bound row: the bound and what it is over; 0 is said to be no bound at all when the
     * bound step was skipped or found none (a limit spent before it), not a bound the live bytes gave.
     */
    static String boundText(RecomputeOutcome rc) {
        if (rc.objective() == null) {
            return "-";
        }
        boolean found = rc.steps().stream().anyMatch(step -> step.name().equals(RecomputeOutcome.BOUND)
                && step.status() != StepReport.Status.SKIPPED && !"none".equals(step.note()));
        return lowerBound(rc.bound()) + (rc.bound() == 0 && !found
                ? " (no bound over every plan within the limits: no objective is below 0)"
                : " (over every plan, any recomputes: the live bytes over the budget at one operator or summed over"
                + " time, each priced at its load or its producer's recompute)");
    }

    /** The columns of {@link #dncColumns}, in order: bench dnc's header between the case and its cost. */
    public static final List<String> DNC_COLUMNS = List.of("parts", "best start", "FS(default)", "FS(MPMF)",
            "spill at cut", "handover", "stitched order", "dnc", "vs best FS", "bound", "gap");

    /**
     * Divide and conquer's figures as {@code bench dnc} tabulates them, one row a column ({@link #DNC_COLUMNS}): the
     * parts, the best start, the fixed-schedule starts, each stage, the result with its status, its reduction against
     * the better fixed-schedule start, the bound and the gap.
     */
    public static List<Row> dncColumns(CosmaPipeline.Outcome o) {
        DncResult r = o.dnc();
        Long bestFs = null;
        for (CosmaResult fs : new CosmaResult[] {o.fsDefault(), o.fsMpmf()}) {
            if (fs != null && fs.objective() != null && (bestFs == null || fs.objective() < bestFs)) {
                bestFs = fs.objective();
            }
        }
        List<String> values = List.of(Integer.toString(r.partition().size()), orDash(r.start()),
                fixedStart(o.fsDefault()), fixedStart(o.fsMpmf()), orDash(r.spillAtCut()), orDash(r.handover()),
                orDash(r.polished()), r.traffic() + " " + r.status(),
                bestFs == null ? "-" : reduction(r.traffic(), bestFs), orDash(r.bound()), gap(r.gap()));
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < values.size(); i++) {
            rows.add(new Row(DNC_COLUMNS.get(i), values.get(i)));
        }
        return rows;
    }

    /** The spill-only steps' answer in one line: status, traffic, bound and the way it went. */
    private static String spillOnly(CosmaPipeline.Outcome o) {
        RecomputeOutcome rc = o.recompute();
        if (rc.spillOnly() == null) {
            return "no plan";
        }
        String way = o.dnc() != null ? "divide and conquer" : o.whole() != null && o.whole().pruned() != null
                && !o.whole().startingPlanOnly() ? "the whole graph's program" : "the starting plan";
        CosmaResult whole = o.whole();
        SolveStatus status = o.dnc() != null ? o.dnc().status() : whole != null ? whole.status() : null;
        Long bound = o.dnc() != null ? o.dnc().bound() : whole != null ? whole.bound() : null;
        return (status == null ? "" : status + ", ") + "traffic " + rc.spillOnly().traffic() + ", bound on the "
                + "traffic without recomputes " + orDash(bound) + " (" + way + ")";
    }

    /** A double as an integer when it is one. */
    /**
     * A lower bound in bytes, in plain digits: an integer as it is, else rounded down to three decimals (rounding to
     * nearest could show a figure above the bound).
     */
    public static String lowerBound(double x) {
        return x == Math.rint(x) && Math.abs(x) < 1e15 ? Long.toString((long) x)
                : new java.math.BigDecimal(x).setScale(3, java.math.RoundingMode.FLOOR).stripTrailingZeros()
                .toPlainString();
    }

    /** How much less traffic a plan has than another's, in percent of the other's ("-" when that is 0 and this not). */
    public static String reduction(long traffic, long other) {
        if (other == 0) {
            return traffic == 0 ? "0.0%" : "-";
        }
        return String.format(Locale.ROOT, "%.1f%%", 100.0 * (other - traffic) / other);
    }

    private static String stages(DncResult r) {
        if (r.spillAtCut() == null) {
            return r.bound() != null && r.traffic() <= r.bound() ? "none: a starting plan meets the lower bound"
                    : "none: the time was up before the parts were solved";
        }
        return "spill at cut " + r.spillAtCut() + ", state handed over " + orDash(r.handover())
                + ", fixed-schedule optimum of the stitched order " + orDash(r.polished())
                + ", windows " + r.windowsAccepted() + " of " + r.windowsTried() + " improved";
    }

    private static void checked(List<Row> rows, CheckReport check) {
        rows.add(new Row("compulsory traffic", Long.toString(check.traffic().compulsory())));
        rows.add(new Row("peak footprint", Long.toString(check.peakFootprint())));
        rows.add(new Row("peak address", Long.toString(check.peakAddress())));
    }

    /** A value, or "-" for none. */
    public static String orDash(Long value) {
        return value == null ? "-" : Long.toString(value);
    }

    /** A gap as a percentage with two decimals, or "-" for none; see {@link #percent(double, int)}. */
    public static String gap(Double gap) {
        return gap == null ? "-" : percent(gap, 2);
    }

    /**
     * A gap in [0, 1] as a percentage with the given decimals, except that a gap above zero never reads as zero: one
     * that would round to 0.00% is given to two significant digits ({@code 0.0012%}), so a plan that is not proven
     * never looks proven; one below 100% that would round to 100.00% (a bound above 0) is cut, not rounded, after two
     * digits of what it misses of 100% ({@code 99.9987%}).
     */
    public static String percent(double gap, int decimals) {
        double p = 100 * gap;
        double half = 0.5 * Math.pow(10, -decimals);
        if (p > 0 && p < half) {
            return new BigDecimal(p).round(new MathContext(2)).stripTrailingZeros().toPlainString() + "%";
        }
        if (p < 100 && p >= 100 - half) {
            // Below 100% (a bound above 0) never reads as 100%: cut after two digits of what 100% is missing.
            int scale = Math.max(decimals, 1 - (int) Math.floor(Math.log10(100 - p)));
            return BigDecimal.valueOf(p).setScale(scale, java.math.RoundingMode.DOWN).toPlainString() + "%";
        }
        return String.format(Locale.ROOT, "%." + decimals + "f%%", p);
    }

    /** A fixed-schedule start's objective, with its status unless OPTIMAL; "-" when it did not run. */
    public static String fixedStart(CosmaResult r) {
        return r == null ? "-" : r.objective() + (r.status() == SolveStatus.OPTIMAL ? "" : " " + r.status());
    }
}
