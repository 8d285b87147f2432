package dev.memplan.decomposition;

import dev.memplan.formulations.cosma.RecomputeBound;
import dev.memplan.formulations.cosma.Technique;
import dev.memplan.model.CheckReport;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Objective;
import dev.memplan.model.Plan;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.Shares;
import dev.memplan.model.TensorSetting;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The recompute road's search step ({@link RecomputeStep}, step 4): recomputes chosen by {@link RecomputeSearch} on
 * the best plan so far and on other starts, the lowest few plans re-planned around their recomputes
 * ({@link RecomputeReplan}), and the search again on the lowest re-planned plan. Every plan made is offered to the
 * step's best plan so far, which keeps it only when it is lower.
 */
final class RecomputeChoice {

    private final CosmaPipeline.Settings settings;
    private final double lambda;
    private final Consumer<String> progress;

    RecomputeChoice(CosmaPipeline.Settings settings, double lambda, Consumer<String> progress) {
        this.settings = settings;
        this.lambda = lambda;
        this.progress = progress;
    }

    /**
     * The most raw plans (not re-planned) the recompute search starts from besides the best plan so far and the
     * spill-only plan: another basin than theirs (on lraspp_mobilenet_v3_large:train M_R at lambda 2^-8 the search
     * went lower from a raw Belady plan than the best plan's objective then).
     */
    static final int CHOOSE_RAW_STARTS = 8;

    /**
     * The recompute search's starts, in the order they run: {@code displaced} when given (the best plan before
     * {@link RerunCover}'s replaced it), {@code best}, {@code spillPlan} when it is another plan, then the lowest by
     * objective of the raw plans the step has (the recompute baselines', on the given order and on the spill-only
     * plan's, and the spill-only pipeline's best scheme plan), valid, other than the plans before and than each other:
     * {@link #CHOOSE_RAW_STARTS} of them, one fewer with {@code displaced} (every start's share is an equal part of
     * what the ones before it left, so the same number of starts keeps the first ones' shares).
     * O(plans x plan size).
     *
     * <p>{@code displaced} runs first: the search from the plan RerunCover replaced went lower than from RerunCover's
     * own plan on resnext50:train M_R, fcn_resnet50:train M_H and r2plus1d18:train M_R at lambda 2^-8, and higher on
     * deeplabv3_resnet50:train M_R, fcn_resnet50:train M_R and lraspp_mobilenet_v3_large:train M_R (BENCHMARKS.md,
     * "Both starts of the recompute search"), so both run.
     */
    List<Start> starts(Graph g, List<RecomputeOutcome.Candidate> raw, Plan scheme, Start best, Start displaced,
                       Plan spillPlan) {
        List<Start> all = new ArrayList<>();
        for (RecomputeOutcome.Candidate c : raw) {
            if (c.objective() != null && c.result().check() != null && c.result().check().valid()) {
                all.add(new Start(c.name(), c.result().plan(), c.objective()));
            }
        }
        if (scheme != null) {
            CheckReport c = PlanChecker.check(g, scheme);
            if (c.valid()) {
                all.add(new Start(scheme.solver() == null ? "the spill-only best start" : scheme.solver().name(),
                        scheme, Objective.of(c.traffic(), lambda)));
            }
        }
        // Stable: ties keep the order above (the baselines', the schemes' on the spill-only order, the scheme's).
        all.sort(java.util.Comparator.comparingDouble(c -> c.objective().value()));
        List<Start> out = new ArrayList<>();
        if (displaced != null) {
            out.add(displaced);
        }
        out.add(best);
        if (spillPlan != null && out.stream().noneMatch(s -> s.plan().equals(spillPlan))) {
            out.add(new Start(RecomputeOutcome.SPILL_ONLY, spillPlan, null));
        }
        List<Plan> taken = new ArrayList<>(out.stream().map(Start::plan).toList());
        taken.add(spillPlan);
        int ranked = displaced == null ? 0 : 1;
        for (Start c : all) {
            if (ranked < CHOOSE_RAW_STARTS && taken.stream().noneMatch(t -> t != null
                    && t.schedule().equals(c.plan().schedule()) && t.segments().equals(c.plan().segments()))) {
                out.add(c);
                taken.add(c.plan());
                ranked++;
            }
        }
        return out;
    }

    /** A plan the recompute search may start from, its name, its objective (null: unranked). */
    record Start(String name, Plan plan, Objective objective) {
    }

    /**
     * The most plans of the recompute search that are re-planned around their recomputes ({@link RecomputeReplan}),
     * the lowest first: which one re-plans lowest is not the order of their objectives before it (on
     * deeplabv3_resnet50:train M_R at lambda 2^-8 a search's plan 0.07% lower re-planned 5% higher).
     */
    static final int CHOOSE_REPLANS = 3;

    /**
     * How many of the recompute searches the limit cut go on, the lowest first, with {@link Shares#CHOOSE_CONTINUE}
     * of what their first shares left: all. A move costs a plan's copy and check (about 570 elements on
     * resnet50:train, 0.00015 units); on resnet50:train M_R at lambda 2^-8 each of the twelve starts was cut after
     * about 200 moves (0.03 units), in the pass that would have ended it: given more, every search ended (256 to 382
     * moves) for 0.04 units more each, so whether a start's search goes to its end no longer depends on its rank.
     */
    static final int CHOOSE_CONTINUED = Integer.MAX_VALUE;

    /** What the source of a plan the recompute search made again on its lowest plan re-planned ends with. */
    static final String AGAIN = "re-planned, searched again";

    /** A plan the recompute search made ({@code result}, improved) from the plan named {@code start}. */
    private record Found(String start, RecomputeSearch.Result result) {
    }

    /**
     * The {@code most} lowest plans of {@code found} by objective, one of each plan (order and segments; a tie keeps
     * the earlier start). O(found^2 x plan size).
     */
    private static List<Found> lowestDistinct(List<Found> found, int most) {
        List<Found> sorted = new ArrayList<>(found);
        sorted.sort(java.util.Comparator.comparingDouble(f -> f.result().objective().value()));
        List<Found> out = new ArrayList<>();
        for (Found f : sorted) {
            Plan p = f.result().plan();
            if (out.size() < most && out.stream().map(d -> d.result().plan()).noneMatch(
                    d -> d.schedule().equals(p.schedule()) && d.segments().equals(p.segments()))) {
                out.add(f);
            }
        }
        return out;
    }

    /**
     * Recomputes chosen ({@link RecomputeSearch}: reruns that replace loads, reruns dropped) on each start given, in
     * order ({@link #starts}: the best plan so far, the spill-only plan and raw plans), with
     * {@link Shares#RECOMPUTE_CHOOSE} of what is left, unless switched off ({@link Technique#CHOOSE}); the searches
     * take {@link Shares#CHOOSE_SEARCH} of that, each start an equal part of what the ones before it left, and the
     * {@link #CHOOSE_REPLANS} lowest distinct plans they made are re-planned around their recomputes
     * ({@link RecomputeReplan}), with the plan of the bound's cheap reruns inserted into the searches' lowest plan and
     * searched again ({@link #coverLowest}), with 1 - {@link Shares#CHOOSE_AGAIN} of the rest, the lowest first, each
     * {@link Shares#CHOOSE_REPLAN_EACH} of what is left, the last all of it; when a re-planned plan is the lowest, the
     * search runs again on it with what is left. Every plan replaces the best when lower; the step's note names the
     * search whose plan ended lowest.
     */
    void choose(Graph graph, TensorSetting setting, long budget, Limits limits, List<Start> order,
                        RecomputeStep.Best best, RecomputeBound.Result lower, List<StepReport> steps) {
        choose(graph, setting, budget, limits, order, best, null, lower, steps);
    }

    /**
     * The same, and when {@code replaced} (the best plan before the re-planning, which a re-planned plan displaced)
     * is given, the fan-outs' reruns inserted into its order too, the second start: the re-planned plan's basin is
     * not the old best's (resnet50:train M_R at lambda 2^-8: the search from the spill-only plan's fan-out rerun went
     * to 14,718,992, from a re-planned rung's to 14,971,832).
     */
    void choose(Graph graph, TensorSetting setting, long budget, Limits limits, List<Start> order,
                RecomputeStep.Best best, Start replaced, RecomputeBound.Result lower, List<StepReport> steps) {
        String why = skipped(best, lower, limits);
        if (why != null) {
            steps.add(new StepReport(RecomputeOutcome.CHOOSE, StepReport.Status.SKIPPED, null, null, 0, null, why));
            return;
        }
        Limits step = limits.budget().limited() ? limits.child(Shares.RECOMPUTE_CHOOSE) : limits.child();
        Graph g = graph.withSetting(setting);
        List<String> notes = new ArrayList<>();
        List<Start> first = new ArrayList<>();
        Start inserted = fanOut(g, step, new Start(best.source(), best.plan(), best.objective()), best, notes);
        if (inserted != null) {
            first.add(inserted);
        }
        Start again = replaced == null ? null : fanOut(g, step, replaced, best, notes);
        if (again != null) {
            first.add(again);
        }
        Start guided = coverReruns(g, step, new Start(best.source(), best.plan(), best.objective()), best, notes);
        if (guided != null) {
            first.add(guided);
        }
        Limits searches = step.budget().limited() ? step.child(Shares.CHOOSE_SEARCH) : step.child();
        List<Plan> starts = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (Start c : java.util.stream.Stream.concat(first.stream(), order.stream()).toList()) {
            starts.add(c.plan());
            names.add(c.name());
        }
        List<RecomputeSearch.Walk> walks = new ArrayList<>();
        List<RecomputeSearch.Result> results = new ArrayList<>();
        List<Objective> froms = new ArrayList<>();
        for (int i = 0; i < starts.size() && !searches.stopped(); i++) {
            Limits share = searches.budget().limited() ? searches.part(starts.size() - i) : searches.child();
            progress.accept("recompute: choosing recomputes on the plan of " + names.get(i) + " ...");
            // The walk checks its start: its objective before any move is the start's.
            RecomputeSearch.Walk walk = new RecomputeSearch.Walk(g, starts.get(i), lambda);
            froms.add(walk.objective());
            RecomputeSearch.Result r = walk.advance(share, progress);
            progress.accept("recompute: chosen on the plan of " + names.get(i) + ": " + r.note(froms.get(i)));
            walks.add(walk);
            results.add(r);
        }
        // The searches the limit cut, the lowest first (a tie: the earlier start), go on with more work.
        List<Integer> lowest = new ArrayList<>();
        for (int i = 0; i < walks.size(); i++) {
            if (!walks.get(i).done()) {
                lowest.add(i);
            }
        }
        lowest.sort(java.util.Comparator.comparingDouble((Integer i) -> walks.get(i).objective().value())
                .thenComparingInt(i -> i));
        lowest = lowest.subList(0, Math.min(CHOOSE_CONTINUED, lowest.size()));
        Limits more = step.budget().limited() && !lowest.isEmpty() ? step.child(Shares.CHOOSE_CONTINUE) : null;
        for (int j = 0; more != null && j < lowest.size() && !more.stopped(); j++) {
            int i = lowest.get(j);
            progress.accept("recompute: choosing recomputes on the plan of " + names.get(i)
                    + " again, with more work ...");
            results.set(i, walks.get(i).advance(more.part(lowest.size() - j), progress));
            progress.accept("recompute: chosen on the plan of " + names.get(i) + " with more work: "
                    + results.get(i).note(froms.get(i)));
        }
        List<Found> found = new ArrayList<>();
        for (int i = 0; i < results.size(); i++) {
            RecomputeSearch.Result r = results.get(i);
            notes.add("from the plan of " + names.get(i) + ": " + r.note(froms.get(i))
                    + (lowest.contains(i) ? " (continued)" : ""));
            if (r.improved()) {
                found.add(new Found(names.get(i), r));
            }
        }
        Found covered = coverLowest(g, step, found, best, notes);
        if (covered != null) {
            found.add(covered);
        }
        found = lowestDistinct(found, CHOOSE_REPLANS);
        for (Found f : found) {
            best.offer(f.result().plan(), f.result().check(), f.result().objective(), RecomputeOutcome.CHOOSE);
        }
        Objective made = found.isEmpty() ? null : replanLowest(graph, setting, budget, g, step, found, best, notes);
        steps.add(new StepReport(RecomputeOutcome.CHOOSE, step.stopped() ? StepReport.Status.OUT_OF_BUDGET
                : StepReport.Status.DONE, made == null ? null : made.traffic(), null, step.budget().wallSeconds(),
                RecomputeStep.work(step), String.join(" | ", notes)));
    }

    /**
     * The fan-outs' reruns inserted into the order of {@code from}'s plan ({@link FanOutReruns}) with at most
     * {@link Shares#CHOOSE_FAN_OUT} of {@code step}; the plan is offered to {@code best}, the note added to
     * {@code notes} when a candidate was covered. Returns its plan as a start for the searches (they start from it
     * first), or null.
     */
    private Start fanOut(Graph g, Limits step, Start from, RecomputeStep.Best best, List<String> notes) {
        return covered(from, "fan-outs' reruns inserted into the order of ", "fan-outs' reruns in the order of ",
                FanOutReruns.SOURCE, best, notes, () -> FanOutReruns.run(g, from.plan(), from.objective(), lambda,
                        step.budget().limited() ? step.child(Shares.CHOOSE_FAN_OUT) : step.child()));
    }

    /**
     * The bound's cheap reruns inserted into {@code from}'s plan and its other reruns dropped ({@link CoverReruns})
     * with at most {@link Shares#CHOOSE_COVER} of {@code step}; the plan is offered to {@code best}, the note added to
     * {@code notes} when an order was covered. Returns its plan as a start for the searches, or null.
     */
    private Start coverReruns(Graph g, Limits step, Start from, RecomputeStep.Best best, List<String> notes) {
        return covered(from, "the bound's cheap reruns inserted into the plan of ",
                "the bound's cheap reruns in the plan of ", CoverReruns.SOURCE, best, notes,
                () -> CoverReruns.run(g, from.plan(), from.objective(), lambda,
                        step.budget().limited() ? step.child(Shares.CHOOSE_COVER) : step.child()));
    }

    /**
     * One start that inserts reruns into {@code from}'s runs and covers the orders exactly ({@code run}): its
     * progress, its note (added to {@code notes} only when an order was covered), its plan offered to {@code best}
     * and returned as a start named {@code from}'s name and {@code source}, or null.
     */
    private Start covered(Start from, String doing, String done, String source, RecomputeStep.Best best,
                          List<String> notes, Supplier<CoveredReruns> run) {
        progress.accept("recompute: " + doing + from.name() + " ...");
        CoveredReruns r = run.get();
        String note = done + from.name() + ": " + r.note(from.objective());
        progress.accept("recompute: " + note);
        if (r.covered() > 0) {
            // The step's row names the start only where an order was covered.
            notes.add(note);
        }
        if (r.plan() == null) {
            return null;
        }
        String named = from.name() + ", " + source;
        best.offer(r.plan(), r.check(), r.objective(), named);
        return new Start(named, r.plan(), r.objective());
    }

    /**
     * The bound's cheap reruns inserted into the lowest plan the searches made ({@link #coverReruns}), then the
     * search from that plan, each with at most {@link Shares#CHOOSE_COVER} of {@code step}: the cover start runs on the
     * best plan when the step starts, and where a search then goes lower (lraspp_mobilenet_v3_large:train M_R at
     * lambda 2^-8: the cover start 2,677,708, the searches' lowest 1,863,338.125) its plan holds long-waiting tensors
     * of its own (there the cover on the searches' lowest plan took it to 1,778,869.125 and the search from that to
     * 1,767,109.125, BENCHMARKS.md, session 30). Returns the plan made as one more found plan for the re-planning
     * (the search's, else the cover's), or null when the cover went no lower than the searches' lowest.
     */
    private Found coverLowest(Graph g, Limits step, List<Found> found, RecomputeStep.Best best, List<String> notes) {
        Found low = lowestDistinct(found, 1).stream().findFirst().orElse(null);
        if (low == null || step.stopped()) {
            return null;
        }
        String name = "the search from " + low.start();
        Start from = coverReruns(g, step, new Start(name, low.result().plan(), low.result().objective()), best,
                notes);
        if (from == null || step.stopped()) {
            return null;
        }
        Limits share = step.budget().limited() ? step.child(Shares.CHOOSE_COVER) : step.child();
        progress.accept("recompute: choosing recomputes on the plan of " + from.name() + " ...");
        RecomputeSearch.Result r = RecomputeSearch.run(g, from.plan(), lambda, share, progress);
        progress.accept("recompute: chosen on the plan of " + from.name() + ": " + r.note(from.objective()));
        notes.add("from the plan of " + from.name() + ": " + r.note(from.objective()));
        if (r.improved()) {
            return new Found(from.name(), r);
        }
        CheckReport c = PlanChecker.check(g, from.plan());
        // The cover's plan itself: inserted and dropped reruns count as the plan's changes.
        return new Found(from.name(), new RecomputeSearch.Result(from.plan(), c, from.objective(), 1, 0, 0, 0,
                false));
    }

    /**
     * Why the search is skipped (switched off, no plan, the plan meets the bound, the limit spent), or null when it
     * runs.
     */
    private String skipped(RecomputeStep.Best best, RecomputeBound.Result lower, Limits limits) {
        if (!settings.cosma().uses(Technique.CHOOSE) || best.objective() == null
                || best.objective().value() <= lower.value() || limits.stopped()) {
            return !settings.cosma().uses(Technique.CHOOSE) ? "switched off (without " + Technique.CHOOSE.id()
                    + ")" : best.objective() == null ? "no plan to start from" : best.objective().value() == 0
                    ? "a plan with objective 0 is optimal" : best.objective().value() <= lower.value() ? "the plan of "
                    + best.source() + " meets the bound over every plan: it is optimal" : "the limit is spent";
        }
        return null;
    }

    /**
     * The searches' lowest distinct plans ({@code found}, lowest first) re-planned around their recomputes, then the
     * search again on the lowest re-planned plan when one went below the searches' lowest (see {@link #choose}).
     * Returns the lowest objective made; every plan is offered to {@code best}, every note added to {@code notes}.
     */
    private Objective replanLowest(Graph graph, TensorSetting setting, long budget, Graph g, Limits step,
                                   List<Found> found, RecomputeStep.Best best, List<String> notes) {
        Objective made = found.get(0).result().objective();
        Limits replans = step.budget().limited() ? step.child(1 - Shares.CHOOSE_AGAIN) : step.child();
        String won = null;
        RecomputeReplan.Result lowest = null;
        for (int i = 0; i < found.size() && !replans.stopped(); i++) {
            Found f = found.get(i);
            Limits share = replans.budget().limited() && i < found.size() - 1
                    ? replans.child(Shares.CHOOSE_REPLAN_EACH) : replans.child();
            progress.accept("recompute: the plan the search made from the plan of " + f.start()
                    + " re-planned around its recomputes ...");
            RecomputeReplan.Result again = RecomputeReplan.run(graph, setting, budget, f.result().plan(), lambda,
                    settings, share, progress);
            progress.accept("recompute: re-planned the search's plan from the plan of " + f.start() + ": "
                    + again.note());
            notes.add("re-planned the search's plan from the plan of " + f.start() + ": " + again.note());
            if (again.plan() != null) {
                best.offer(again.plan(), again.check(), again.objective(), RecomputeOutcome.CHOOSE
                        + ", re-planned");
                if (again.objective().value() < made.value()) {
                    made = again.objective();
                    won = f.start();
                    lowest = again;
                }
            }
        }
        notes.add("the lowest: the search's plan from the plan of " + (won == null ? found.get(0).start()
                + " (no re-planning went below it)" : won + " (after its re-planning)"));
        if (lowest != null && !step.stopped()) {
            // The re-planning moved the plan's loads and spills: the moves the search refused may pay now.
            progress.accept("recompute: choosing recomputes again on the lowest plan re-planned ...");
            RecomputeSearch.Result r = RecomputeSearch.run(g, lowest.plan(), lambda, step.child(), progress);
            progress.accept("recompute: chosen again on the lowest plan re-planned: " + r.note(made));
            notes.add("again on the lowest plan re-planned: " + r.note(made));
            if (r.improved()) {
                best.offer(r.plan(), r.check(), r.objective(), RecomputeOutcome.CHOOSE + ", " + AGAIN);
                made = r.objective().value() < made.value() ? r.objective() : made;
            }
        }
        return made;
    }
}
