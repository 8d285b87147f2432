package dev.memplan.formulations.cosma;

import dev.memplan.formulations.milp.Backend;
import dev.memplan.formulations.milp.SolverResult;
import dev.memplan.formulations.milp.Solvers;
import dev.memplan.formulations.placement.PlacementCpSat;
import dev.memplan.model.Allocation;
import dev.memplan.model.Budgets;
import dev.memplan.model.CheckReport;
import dev.memplan.model.ClockGuard;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Objective;
import dev.memplan.model.Plan;
import dev.memplan.model.PlanBuffers;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.Schedule;
import dev.memplan.model.Shares;
import dev.memplan.model.SolveStatus;
import dev.memplan.model.TensorSetting;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Builds a {@link RecomputeFormulation}, solves it on a back-end and turns the answer into a checked
 * {@code memplan-plan/2} plan (memory-model.md, "Recomputation"), never worse than the starting plan it is given.
 */
public final class RecomputeSolver {

    /**
     * What to solve, beside the graph, tensor setting and budget. Build one with {@link #of} and the {@code with}
     * methods, so that a field added later does not break a caller.
     *
     * @param extraRuns k >= 0: the most recomputes a plan may make
     * @param lambda the recompute weight, bytes per cost unit (finite, >= 0)
     * @param backend the back-end of the program
     * @param start a valid plan of the graph in this setting, within the budget (typically the best spill-only
     *     plan: feasible with no recompute), given to the back-end as its starting solution when the program can
     *     hold it, and returned when the program finds nothing better; null for none
     * @param schedule the order of the original operators' first runs (a topological order, without recomputes),
     *     the recomputes inserted between them; null for a free schedule
     * @param reruns the operators that may run again
     * @param without techniques switched off; the program reads {@link Technique#PRUNE} (the lifetime windows of
     *     {@link RecomputeFormulation}, which lose no plan) and {@link Technique#START_ORDER} (with a free schedule
     *     and a starting plan: first the program in the starting plan's order of first runs, a quarter of the
     *     budget, whose plan then starts the free steps)
     */
    public record Request(int extraRuns, double lambda, Backend backend, Plan start, Schedule schedule,
                          Reruns reruns, Set<Technique> without) {

        public Request {
            if (extraRuns < 0) {
                throw new IllegalArgumentException("extra runs must be >= 0, got " + extraRuns);
            }
            if (!(lambda >= 0) || Double.isInfinite(lambda)) {
                throw new IllegalArgumentException("the recompute weight lambda must be a finite number >= 0, got "
                        + lambda);
            }
            without = without == null || without.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(without));
        }

        /** Free schedule, no starting plan, every operator may rerun, every technique on. */
        public static Request of(int extraRuns, double lambda, Backend backend) {
            return new Request(extraRuns, lambda, backend, null, null, Reruns.ANY, Set.of());
        }

        public Request withStart(Plan value) {
            return new Request(extraRuns, lambda, backend, value, schedule, reruns, without);
        }

        public Request withSchedule(Schedule value) {
            return new Request(extraRuns, lambda, backend, start, value, reruns, without);
        }

        public Request withReruns(Reruns value) {
            return new Request(extraRuns, lambda, backend, start, schedule, value, without);
        }

        public Request without(Set<Technique> value) {
            return new Request(extraRuns, lambda, backend, start, schedule, reruns, value);
        }

        public boolean uses(Technique technique) {
            return !without.contains(technique);
        }
    }

    /**
     * @param status OPTIMAL only when proven and the objective was stated exactly
     *     ({@link RecomputeFormulation#exact()}); optimal means among the plans of the request (at most k
     *     recomputes, of the operators of its {@link Reruns} set, in its schedule's order when fixed; the program
     *     reruns only those that {@link Reruns#mayPay}, which loses none of these optima); INFEASIBLE when proven
     *     (below M_R, or by the back-end)
     * @param plan the checked plan, null without one
     * @param check the checker's report on it, null without a plan
     * @param objective the plan's objective from the checked traffic, null without a plan
     * @param bound a lower bound on traffic + lambda x recompute cost over the same plans (all of them, the reruns
     *     that may not pay included, by {@link Reruns}' dominance argument), null when there is none
     * @param startOnly the plan is the request's starting plan: the program found nothing better
     * @param built whether any program was built and solved; false when each was skipped (too large for the heap
     *     or the limits, {@link ModelEstimate}) and the notes say why
     * @param notes what was skipped and why (a program too large for the limits), empty when nothing was
     */
    public record Result(SolveStatus status, Plan plan, CheckReport check, Objective objective, Double bound,
                         boolean startOnly, boolean built, List<String> notes) {
        public Result {
            notes = List.copyOf(notes);
        }

        /** (objective - bound) / objective, 0 for a zero objective; null without a plan or a bound. */
        public Double gap() {
            if (objective == null || bound == null) {
                return null;
            }
            double value = objective.value();
            return value <= 0 ? 0.0 : Math.max(0, value - bound) / value;
        }
    }

    private RecomputeSolver() {
    }

    /**
     * Solves the joint program with at most {@code extraRuns} recomputes and weight {@code lambda}: free schedule,
     * no starting plan, every operator may rerun ({@link Request#of}).
     *
     * @throws IllegalStateException when the plan of the solution fails the checker (a bug)
     */
    public static Result solve(Graph graph, TensorSetting setting, long budget, int extraRuns, double lambda,
                               Backend backend, Limits limits) {
        return solve(graph, setting, budget, Request.of(extraRuns, lambda, backend), limits);
    }

    /**
     * Solves the request: the program (with the request's windows, schedule and reruns), given the starting plan
     * as a hint when it can hold it; the better of its plan and the starting plan is returned, with the program's
     * bound. Sizes are counted in units of the largest power of two dividing them all ({@link ByteUnit}; a power
     * of two keeps lambda / unit a binary fraction, so the objective stays exact).
     *
     * @throws IllegalArgumentException when the starting plan is not a valid plan of the graph within the budget, or
     *     the schedule is not a topological order of the graph's operators
     * @throws IllegalStateException when the plan of a solution fails the checker (a bug)
     */
    public static Result solve(Graph graph, TensorSetting setting, long budget, Request request, Limits limits) {
        Graph g = graph.withSetting(setting);
        if (budget < Budgets.minimumRequired(g)) {
            return new Result(SolveStatus.INFEASIBLE, null, null, null, null, false, false, List.of());
        }
        if (request.schedule() != null) {
            request.schedule().validate(g);
        }
        Plan start = request.start();
        if (start != null) {
            if (start.budget() > budget) {
                throw new IllegalArgumentException("the starting plan's budget " + start.budget()
                        + " is above the budget " + budget);
            }
            PlanChecker.requireValid(g, start, "the starting plan");
        }
        long unit = Long.lowestOneBit(ByteUnit.of(g, start));
        if (unit <= 1) {
            return solveInUnits(g, setting, budget, request, limits);
        }
        Graph scaled = ByteUnit.scaled(g, unit);
        Request inUnits = new Request(request.extraRuns(), request.lambda() / unit, request.backend(),
                start == null ? null : ByteUnit.rescaled(start, unit, true, budget / unit), request.schedule(),
                request.reruns(), request.without());
        Result r = solveInUnits(scaled, setting, budget / unit, inUnits, limits);
        Double bound = r.bound() == null ? null : r.bound() * unit;
        if (r.plan() == null) {
            return new Result(r.status(), null, null, null, bound, false, r.built(), r.notes());
        }
        Plan plan = r.startOnly() ? start : ByteUnit.rescaled(r.plan(), unit, false, budget);
        CheckReport report = requireValid(g, plan, budget);
        return new Result(r.status(), plan, report, Objective.of(report.traffic(), request.lambda()), bound,
                r.startOnly(), r.built(), r.notes());
    }

    /**
     * With a free schedule and a starting plan, first the program in the starting plan's order ({@link
     * Technique#START_ORDER}). Then two steps, each stopping at a proof: the program without addresses (half the
     * budget: its optimum is a lower bound, and its residency, packed by the CP-SAT placement model, a plan), then
     * the joint program with what is left, hinted with the best plan so far, unless its eq. 10 pairs pass
     * {@link #MAX_PAIRS}. Each program is sized first ({@link ModelEstimate#ofRecompute}) and skipped with a note
     * when it would not fit the heap or the limits, as {@link CosmaSolver} does.
     */
    private static Result solveInUnits(Graph g, TensorSetting setting, long budget, Request request, Limits limits) {
        List<String> notes = new ArrayList<>();
        Best best = new Best(request.start(), request.start() == null ? null
                : Objective.of(PlanChecker.check(g, request.start()).traffic(), request.lambda()));
        boolean built = false;
        if (request.schedule() == null && request.start() != null && request.uses(Technique.START_ORDER)) {
            // The starting plan's order of first runs fixed, recomputes inserted: a program a fraction of the free
            // one's size (BENCHMARKS.md, "Recomputation at scale"), whose plan is the free steps' hint.
            Request fixed = request.withSchedule(firstRuns(request.start().schedule()));
            Result r = solveInUnits(g, setting, budget, fixed, limits.part(Shares.START_ORDER_DIVISOR));
            r.notes().forEach(note -> notes.add("on the starting plan's order: " + note));
            built = r.built();
            if (r.plan() != null) {
                best.offer(r.plan(), r.objective());
            }
        }
        // The windows count every operator's ancestors and descendants (seconds on thousands of operators): within
        // the run's clock, past which the programs are skipped (gen:layered:5000:train at 12 s: 3 s past the limit
        // for programs its estimate then skipped as hundreds of gigabytes).
        RecomputeWindows windows;
        try (ClockGuard guard = ClockGuard.until(limits.budget())) {
            windows = limits.stopped() ? null : RecomputeFormulation.windows(g, budget, request.extraRuns(),
                    request.lambda(), request.schedule(), request.reruns(), request.uses(Technique.PRUNE));
        } catch (ClockGuard.TimeUpException e) {
            windows = null;
        }
        if (windows == null) {
            notes.add("the programs skipped: " + limits.budget().whyStopped());
            return best.plan == null ? new Result(SolveStatus.UNKNOWN, null, null, null, null, false, built, notes)
                    : best.result(g, SolveStatus.FEASIBLE, null, best.plan == request.start(), built, notes);
        }
        Double bound = null;
        boolean exact = true;
        try (HeldProgram<RecomputeFormulation> program = build(g, setting, budget, request, windows, false, limits,
                notes)) {
            if (program != null) {
                RecomputeFormulation relaxed = program.formulation();
                built = true;
                exact = relaxed.exact();
                hint(relaxed, best.plan, notes);
                SolverResult r = Solvers.create(request.backend()).solve(relaxed.model(),
                        limits.part(Shares.RECOMPUTE_RELAXATION_DIVISOR));
                bound = bound(r, relaxed);
                if (r.status() == SolveStatus.INFEASIBLE) {
                    // No plan of the request's kind exists at all (the addresses only remove plans).
                    return best.plan == null ? new Result(SolveStatus.INFEASIBLE, null, null, null, null, false, true,
                            notes) : best.result(g, SolveStatus.FEASIBLE, null, best.plan == request.start(), true,
                            notes);
                }
                if (r.hasSolution()) {
                    Plan residency = relaxed.plan(r);
                    Allocation packing = new PlacementCpSat(false).allocate(PlanBuffers.toBufferSet(g, residency),
                            budget, limits.part(Shares.RECOMPUTE_PACKING_DIVISOR));
                    if (packing.solved()) {
                        Plan packed = PlanBuffers.withPlacement(residency, packing.placement());
                        best.offer(packed, Objective.of(requireValid(g, packed, budget).traffic(), request.lambda()));
                    } else {
                        notes.add("the program without addresses: its plan did not pack within the budget");
                    }
                }
                if (best.provenBy(bound, exact)) {
                    return best.result(g, SolveStatus.OPTIMAL, bound, best.plan == request.start(), true, notes);
                }
            }
        }
        HeldProgram<RecomputeFormulation> jointProgram = null;
        if (limits.stopped()) {
            notes.add("the joint program skipped: " + limits.budget().whyStopped());
        } else if (windows.addressPairs(MAX_PAIRS) > MAX_PAIRS) {
            notes.add("the joint program skipped: more than " + MAX_PAIRS + " pairs of tensors for eq. 10");
        } else {
            jointProgram = build(g, setting, budget, request, windows, true, limits, notes);
        }
        try (HeldProgram<RecomputeFormulation> program = jointProgram) {
            if (program != null) {
                RecomputeFormulation joint = program.formulation();
                built = true;
                exact = joint.exact();
                hint(joint, best.plan, notes);
                SolverResult r = Solvers.create(request.backend()).solve(joint.model(), limits);
                Double jointBound = bound(r, joint);
                if (jointBound != null) {
                    bound = bound == null ? jointBound : Math.max(bound, jointBound);
                }
                if (r.status() == SolveStatus.INFEASIBLE) {
                    return best.plan == null ? new Result(SolveStatus.INFEASIBLE, null, null, null, null, false, true,
                            notes) : best.result(g, SolveStatus.FEASIBLE, null, best.plan == request.start(), true,
                            notes);
                }
                if (r.hasSolution()) {
                    Plan plan = joint.plan(r);
                    best.offer(plan, Objective.of(requireValid(g, plan, budget).traffic(), request.lambda()));
                }
            }
        }
        if (best.plan == null) {
            return new Result(SolveStatus.UNKNOWN, null, null, null, bound, false, built, notes);
        }
        SolveStatus status = best.provenBy(bound, exact) ? SolveStatus.OPTIMAL : SolveStatus.FEASIBLE;
        return best.result(g, status, bound, best.plan == request.start(), built, notes);
    }

    /** The order of each operator's first run. */
    private static Schedule firstRuns(Schedule schedule) {
        return new Schedule(new ArrayList<>(new LinkedHashSet<>(schedule.operators())));
    }

    /** Above this many eq. 10 pairs (two variables, three rows each) the joint program is not built. */
    static final long MAX_PAIRS = 1_000_000;

    /** The best checked plan so far and its objective. */
    private static final class Best {
        private Plan plan;
        private Objective objective;

        Best(Plan plan, Objective objective) {
            this.plan = plan;
            this.objective = objective;
        }

        /** Keeps the plan when it is strictly better (the first of equals stays). */
        void offer(Plan candidate, Objective value) {
            if (objective == null || value.value() < objective.value()) {
                plan = candidate;
                objective = value;
            }
        }

        boolean provenBy(Double bound, boolean exact) {
            return plan != null && status(objective, bound, exact) == SolveStatus.OPTIMAL;
        }

        Result result(Graph g, SolveStatus status, Double bound, boolean startOnly, boolean built,
                      List<String> notes) {
            return new Result(status, plan, PlanChecker.check(g, plan), objective,
                    status == SolveStatus.OPTIMAL ? Double.valueOf(objective.value()) : bound, startOnly, built,
                    notes);
        }
    }

    /** The back-end's bound in objective units (at least 0; the objective itself when proven optimal). */
    private static Double bound(SolverResult r, RecomputeFormulation f) {
        Double bound = r.bound() == null ? null : Math.max(0, r.bound() / f.unit());
        if (r.status() == SolveStatus.OPTIMAL && r.hasSolution()) {
            bound = Math.max(bound == null ? 0 : bound, r.objective() / f.unit());
        }
        return bound;
    }

    private static void hint(RecomputeFormulation f, Plan plan, List<String> notes) {
        if (plan != null && !f.hint(plan)) {
            notes.add("the starting plan is not one of the program's (its runs or segments are outside the windows,"
                    + " the schedule or the reruns): not given as a hint");
        }
    }

    /**
     * The program over these windows, or null with a note when it is not built: its {@link ModelEstimate} says it
     * would not fit the heap (under a work limit half of -Xmx, else the heap free now) or could not be built in half
     * of what is left, as {@link CosmaSolver} decides; or its build is abandoned (the limits; the heap, when the
     * estimate was short). Under a work limit the program holds its estimate of the room from its build to the end of
     * its solve, waiting for the holds of the other cases in the JVM (a sweep's jobs) to leave room.
     */
    private static HeldProgram<RecomputeFormulation> build(Graph g, TensorSetting setting, long budget,
                                                           Request request, RecomputeWindows windows,
                                                           boolean addresses, Limits limits, List<String> notes) {
        String what = addresses ? "the joint program" : "the program without addresses";
        ModelEstimate estimate = ModelEstimate.ofRecompute(windows, addresses);
        return HeldProgram.build(what, estimate, limits, notes,
                () -> new RecomputeFormulation(g, setting, budget, windows, request.lambda(), addresses));
    }

    /** OPTIMAL when the bound meets the objective (up to the back-end's rounding) and the program was exact. */
    private static SolveStatus status(Objective objective, Double bound, boolean exact) {
        return exact && objective != null && bound != null && objective.value() <= bound + 1e-9 * Math.max(1,
                objective.value()) ? SolveStatus.OPTIMAL : SolveStatus.FEASIBLE;
    }

    private static CheckReport requireValid(Graph g, Plan plan, long budget) {
        CheckReport report = PlanChecker.check(g, plan);
        if (!report.valid()) {
            throw new IllegalStateException("the recompute program's plan for '" + g.name() + "' at budget " + budget
                    + " fails the checker: " + report.violations());
        }
        return report;
    }
}
