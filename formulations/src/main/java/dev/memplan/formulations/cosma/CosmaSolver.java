package dev.memplan.formulations.cosma;

import dev.memplan.formulations.milp.Backend;
import dev.memplan.formulations.milp.BuildAbandonedException;
import dev.memplan.formulations.milp.BuildGuard;
import dev.memplan.formulations.milp.MilpSolver;
import dev.memplan.formulations.milp.Model;
import dev.memplan.formulations.milp.Solvers;
import dev.memplan.formulations.milp.SolverResult;
import dev.memplan.formulations.placement.PlacementCpSat;
import dev.memplan.model.Allocation;
import dev.memplan.model.Allocator;
import dev.memplan.model.Budgets;
import dev.memplan.model.HeapRoom;
import dev.memplan.model.PlanBuffers;
import dev.memplan.model.CheckReport;
import dev.memplan.model.Graph;
import dev.memplan.model.JustInTimePlanner;
import dev.memplan.model.Limits;
import dev.memplan.model.Plan;
import dev.memplan.model.Shares;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.Schedule;
import dev.memplan.model.SolveStatus;
import dev.memplan.model.SolverInfo;
import dev.memplan.model.TensorSetting;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.List;
import java.util.Set;

/**
 * Builds a {@link CosmaFormulation}, gives it a starting solution, solves it on a back-end and turns the answer
 * into a checked plan. The starting solution is the just-in-time plan (always valid at B >= M_R), or any plan
 * passed in, so a time limit still returns a real plan with its gap. Measured reasons for its steps: BENCHMARKS.md,
 * "COSMA at scale: the zoo".
 */
public final class CosmaSolver {
    /** Above this estimate of variables the unreduced model is not built just to count it. */
    private static final long UNPRUNED_COUNT_LIMIT = 300_000;
    /**
     * Above this budget (in units of the sizes' gcd, {@link ByteUnit}) the double-precision back-ends misjudged
     * the joint program in tests (HiGHS at 48 * 2^24 bytes, SCIP and CBC at 48 * 2^27, all with gcd 1).
     */
    private static final long DOUBLE_EXACT_UNITS = 1L << 24;
    /** The warning about {@link #DOUBLE_EXACT_UNITS} is printed once per run. */
    private static final java.util.concurrent.atomic.AtomicBoolean WARNED = new java.util.concurrent.atomic.AtomicBoolean();
    /** The back-end label of an INFEASIBLE proven by {@link Budgets#minimumFeasible} alone. */
    public static final String ALIGNMENT_PROOF = "none (proven by alignment: the busiest operator's tensors, each at a"
            + " multiple of the alignment, do not fit)";

    /**
     * @param schedule null for a free schedule
     * @param start a starting plan (null: the just-in-time plan of the schedule or default order)
     * @param decoupled TRAFFIC only: first solve the program without addresses (bytes within the budget), whose
     *     optimum is a lower bound, and pack its residency with {@code packer}; when that packs, the plan is
     *     optimal as soon as the relaxation is, without the address model. Otherwise the joint program runs
     *     with the time left, and the relaxation's bound still counts.
     * @param packer the fixed-schedule allocator of the decoupled step (null: the CP-SAT placement model)
     * @param without the techniques switched off (to measure what they buy); every other one is on. This set is
     *     the only place a technique is switched: the solver asks {@link #uses}.
     */
    public record Options(CosmaObjective objective, Schedule schedule, Backend backend, Plan start,
                          boolean decoupled, Allocator packer, Set<Technique> without) {

        public Options {
            without = without == null || without.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(without));
        }

        /** The joint program only (no decoupled first step), every technique on. */
        public Options(CosmaObjective objective, Schedule schedule, Backend backend, Plan start) {
            this(objective, schedule, backend, start, false, null, Set.of());
        }

        public static Options traffic(Backend backend) {
            return new Options(CosmaObjective.TRAFFIC, null, backend, null);
        }

        public Options withSchedule(Schedule value) {
            return new Options(objective, value, backend, start, decoupled, packer, without);
        }

        public Options withStart(Plan value) {
            return new Options(objective, schedule, backend, value, decoupled, packer, without);
        }

        /** Decoupled first step on or off, with its packer (null: CP-SAT placement). */
        public Options withDecoupled(boolean value, Allocator valuePacker) {
            return new Options(objective, schedule, backend, start, value, valuePacker, without);
        }

        /** These techniques off (to measure what they buy). */
        public Options without(Set<Technique> value) {
            return new Options(objective, schedule, backend, start, decoupled, packer, value);
        }

        public boolean uses(Technique technique) {
            return !without.contains(technique);
        }
    }

    private CosmaSolver() {
    }

    /**
     * Solves COSMA for a graph in a tensor setting at a budget.
     *
     * @throws IllegalArgumentException when the budget is below M_R (the message states M_R)
     */
    public static CosmaResult solve(Graph graph, TensorSetting setting, long budget, Options options, Limits limits) {
        List<String> notes = new ArrayList<>();
        // One budget for every step: its own counters, charged to the caller's; each step takes a child of it.
        CosmaResult r = steps(graph, setting, budget, options, limits.child(), notes);
        return r.withNotes(notes);
    }

    /** {@link #solve} with the call's own budget; what is skipped is added to {@code notes}. */
    private static CosmaResult steps(Graph graph, TensorSetting setting, long budget, Options options, Limits limits,
                                     List<String> notes) {
        Graph g = graph.withSetting(setting);
        Checked checked = new Checked(g);
        long mr = Budgets.minimumRequired(g);
        if (budget < mr) {
            throw new IllegalArgumentException("budget " + budget + " is below M_R = " + mr
                    + ": no plan exists (the busiest operator alone needs M_R bytes)");
        }
        if (options.schedule() != null) {
            options.schedule().validate(g);
        }
        long unit = ByteUnit.of(g, options.start());
        if (unit > 1) {
            // Sizes counted in units of their gcd: the same optimum, smaller numbers for the back-ends (ByteUnit).
            Plan start = options.start() == null ? null
                    : ByteUnit.rescaled(options.start(), unit, true, budget / unit);
            CosmaResult r = solve(ByteUnit.scaled(g, unit), setting, budget / unit, options.withStart(start), limits);
            return ByteUnit.inBytes(r, g, unit, budget);
        }
        if (options.backend() != Backend.CPSAT && budget > DOUBLE_EXACT_UNITS && WARNED.compareAndSet(false, true)) {
            dev.memplan.model.Notices.warn("warning: the budget is " + budget + " units of the sizes' gcd, above 2^24: the"
                    + " joint program's big-M rows may mislead " + options.backend().id() + ", which computes in"
                    + " doubles with relative tolerances (a wrong OPTIMAL or INFEASIBLE); --solver cpsat is exact");
        }
        long began = System.nanoTime();
        if (budget < Budgets.minimumFeasible(g)) {
            // With alignment A > 1 the busiest operator's own tensors need padding between them: below this no
            // placement of one timestep exists, in any schedule (memory-model.md, "Budgets"). Proven, no model.
            return new CosmaResult(SolveStatus.INFEASIBLE, null, null, null, null, null,
                    (System.nanoTime() - began) / 1e9, ALIGNMENT_PROOF, null, null, false);
        }
        Plan start = startingPlan(g, setting, budget, options);
        // Who made the plan in `start` when a step below replaced the given one (null: still the given plan), so that
        // a result is labelled "the starting plan" only when it is.
        String startBy = null;
        // Computed once: its bound is the floor of every step, its round trips the inequalities of every program.
        boolean wantForced = options.objective() == CosmaObjective.TRAFFIC && options.uses(Technique.FORCED);
        if (wantForced && limits.stopped()) {
            notes.add("forced-traffic bound skipped: " + why(limits));
        }
        ForcedTraffic forced = wantForced && !limits.stopped() ? forced(g, options, budget, limits, notes) : null;
        Long forcedBound = forced == null ? null : forced.bound();
        long floor = forcedBound == null ? 0 : forcedBound;
        if (start != null) {
            CheckReport startReport = checked.report(start, "the starting plan");
            long startTraffic = startReport.traffic().nonCompulsory();
            if (options.objective() == CosmaObjective.TRAFFIC && startTraffic <= floor) {
                // Every plan pays the forced traffic (and traffic is never negative): a starting plan that pays no
                // more is optimal as it is, and no program is built.
                double seconds = (System.nanoTime() - began) / 1e9;
                return finish(start, startReport, SolveStatus.OPTIMAL, startTraffic, startTraffic, seconds,
                        options.backend().id(), null, null, true);
            }
        }
        boolean steps = options.objective() == CosmaObjective.TRAFFIC && options.decoupled();
        if (steps && options.uses(Technique.START_ORDER) && options.schedule() == null && start != null) {
            Sub polished = polished(graph, setting, budget, options, start, limits, notes);
            if (polished != null) {
                CosmaResult proven = provenByFloor(g, polished, floor, began);
                if (proven != null) {
                    return proven;
                }
                if (checked.better(start, polished.plan()) != start) {
                    start = polished.plan();
                    startBy = polished.backend();
                }
            }
        }
        if (steps && options.uses(Technique.LIFT) && setting == TensorSetting.ALL && ParameterLift.reserved(g) > 0) {
            Sub lifted = lifted(graph, g, budget, options, limits, notes);
            if (lifted != null) {
                CosmaResult proven = provenByFloor(g, lifted, floor, began);
                if (proven != null) {
                    return proven;
                }
                if (checked.better(start, lifted.plan()) != start) {
                    start = lifted.plan();
                    startBy = lifted.backend();
                }
            }
        }
        Long relaxedBound = forcedBound;
        ModelSize relaxedSize = null;
        if (options.decoupled() && options.objective() == CosmaObjective.TRAFFIC) {
            Decoupled d = decoupled(g, setting, budget, options, start, limits, began, forced, notes, checked);
            if (d.result() != null) {
                return d.result();
            }
            relaxedBound = d.bound();
            relaxedSize = d.size();
            if (d.packed() != null && checked.better(start, d.packed()) != start) {
                start = d.packed();
                startBy = d.packedBy();
            }
        }
        HeldProgram<CosmaFormulation> program = build(g, setting, budget, options, options.schedule(), true, forced,
                limits, options.schedule() == null ? "the joint program" : "the fixed-schedule program", notes);
        if (program == null) {
            return bestSoFar(checked, start, startBy, options, relaxedBound, relaxedSize, began);
        }
        try (program) {
            CosmaFormulation f = program.formulation();
            Model model = f.model();
            ModelSize pruned = ModelSize.of(model);
            ModelSize unpruned = options.uses(Technique.PRUNE) ? unprunedSize(g, setting, budget, options, limits)
                    : pruned;
            if (start != null) {
                f.hint(start);
            }
            MilpSolver solver = Solvers.create(options.backend());
            SolverResult result = solver.solve(model, limits);
            double seconds = (System.nanoTime() - began) / 1e9;
            Long bound = result.bound() == null ? null : (long) Math.ceil(result.bound() - 1e-6);
            if (bound != null && options.objective() == CosmaObjective.TRAFFIC) {
                bound = Math.max(0, bound);
            }
            if (relaxedBound != null) {
                bound = bound == null ? relaxedBound : Math.max(bound, relaxedBound);
            }
            String backend = result.backend();
            if (result.values() != null
                    && (result.status() == SolveStatus.OPTIMAL || result.status() == SolveStatus.FEASIBLE)) {
                Plan plan = f.plan(result);
                CheckReport report = PlanChecker.requireValid(g, plan, "COSMA on " + backend);
                long value = options.objective() == CosmaObjective.TRAFFIC ? report.traffic().nonCompulsory()
                        : report.peakFootprint();
                if (options.objective() == CosmaObjective.TRAFFIC) {
                    requireConsistent("the solver's objective", result.status(), Math.round(result.objective()), value,
                            "the extracted plan");
                }
                SolveStatus status = result.status();
                if (status == SolveStatus.OPTIMAL || (options.objective() == CosmaObjective.TRAFFIC && value == 0)
                        || (bound != null && value <= bound)) {
                    // Traffic is never negative, so a plan without non-compulsory traffic is proven optimal.
                    status = SolveStatus.OPTIMAL;
                    bound = value;
                } else if (start != null) {
                    // A back-end that ignores hints may stop on something worse than the plan it was given.
                    CheckReport startReport = checked.report(start, "the starting plan");
                    long startValue = options.objective() == CosmaObjective.TRAFFIC
                            ? startReport.traffic().nonCompulsory() : startReport.peakFootprint();
                    if (startValue < value) {
                        return finish(start, startReport, SolveStatus.FEASIBLE, startValue, bound, seconds,
                                startBy == null ? backend : startBy, pruned, unpruned, startBy == null);
                    }
                }
                return finish(plan, report, status, value, bound, seconds, backend, pruned, unpruned, false);
            }
            if (start != null && result.status() != SolveStatus.INFEASIBLE) {
                CheckReport report = checked.report(start, "the starting plan");
                long value = options.objective() == CosmaObjective.TRAFFIC ? report.traffic().nonCompulsory()
                        : report.peakFootprint();
                SolveStatus status = bound != null && value <= bound ? SolveStatus.OPTIMAL : SolveStatus.FEASIBLE;
                return finish(start, report, status, value, bound, seconds, startBy == null ? backend : startBy,
                        pruned, unpruned, startBy == null);
            }
            return new CosmaResult(result.status(), null, null, null, bound, null, seconds, backend, pruned, unpruned,
                    false);
        }
    }

    private static CosmaResult finish(Plan plan, CheckReport report, SolveStatus status, long value, Long bound,
                                      double seconds, String backend, ModelSize pruned, ModelSize unpruned,
                                      boolean startOnly) {
        Double gap = null;
        if (bound != null) {
            gap = value == 0 ? 0.0 : Math.max(0, value - bound) / (double) value;
        }
        String name = "cosma/" + backend + (startOnly ? " (starting plan: the solver found nothing better)" : "");
        Plan labelled = plan.withResult(report.traffic(), new SolverInfo(name, status, seconds, bound));
        return new CosmaResult(status, labelled, report, value, bound, gap, seconds, backend, pruned, unpruned,
                startOnly);
    }

    /** The plan given as start, else the just-in-time plan when the budget allows it; null otherwise. */
    private static Plan startingPlan(Graph g, TensorSetting setting, long budget, Options options) {
        if (options.start() != null) {
            return options.start();
        }
        if (options.objective() != CosmaObjective.TRAFFIC || budget < Budgets.minimumFeasible(g)) {
            return null;
        }
        return new JustInTimePlanner(options.schedule()).plan(g, setting, budget, Limits.DEFAULT);
    }

    /** A plan from a sub-problem, with its back-end label and the size of the model that found it. */
    private record Sub(Plan plan, String backend, ModelSize size) {
    }

    /**
     * The forced-traffic bound, polling the budget while it computes (a large graph under load took seconds before
     * any solver's clock started); null, with a note, when the budget ran out first.
     */
    private static ForcedTraffic forced(Graph g, Options options, long budget, Limits limits, List<String> notes) {
        try (BuildGuard guard = BuildGuard.until(limits.budget())) {
            return ForcedTraffic.of(g, OperatorWindows.of(g, options.schedule(), options.uses(Technique.PRUNE)),
                    budget);
        } catch (BuildAbandonedException e) {
            notes.add("forced-traffic bound: " + e.getMessage().replaceFirst("^building model '[^']*' was ", ""));
            return null;
        }
    }

    /**
     * The budget of a sub-step (the start's order, the lift): 1/n of what is left, or {@link Shares#STEP_CAP} without
     * a limit, so that a sub-step, which only looks for a plan that meets the bound, never keeps an unlimited run from
     * the steps that prove optimality.
     */
    private static Limits share(Limits limits, int n) {
        return limits.part(n);
    }

    /** The sub-problem's plan as the OPTIMAL result when it pays no more than the floor (a proven lower bound). */
    private static CosmaResult provenByFloor(Graph g, Sub sub, long floor, long began) {
        CheckReport report = PlanChecker.requireValid(g, sub.plan(), sub.backend());
        long traffic = report.traffic().nonCompulsory();
        if (traffic > floor) {
            return null;
        }
        double seconds = (System.nanoTime() - began) / 1e9;
        return finish(sub.plan(), report, SolveStatus.OPTIMAL, traffic, traffic, seconds, sub.backend(), sub.size(),
                null, false);
    }

    /**
     * The starting plan's order kept, the rest solved (a quarter of the time; 60 s at most without a limit): the
     * fixed-schedule program is small and decided in about a second on the zoo, and its optimum often meets the
     * forced bound of the free schedule (the Transformer at M_R, where the free relaxation needs minutes to find
     * that plan); otherwise it is a better start. Null when nothing was found.
     */
    private static Sub polished(Graph graph, TensorSetting setting, long budget, Options options, Plan start,
                                Limits limits, List<String> notes) {
        if (limits.stopped()) {
            notes.add("the starting plan's order: skipped: " + why(limits));
            return null;
        }
        Limits share = share(limits, Shares.START_ORDER_DIVISOR);
        // The lift comes after this step at the top level; inside it, it would only take time from this program.
        Set<Technique> off = EnumSet.of(Technique.LIFT);
        off.addAll(options.without());
        CosmaResult r = solve(graph, setting, budget,
                options.withSchedule(start.schedule()).withStart(start).without(off), share);
        r.notes().forEach(note -> notes.add("on the starting plan's order: " + note));
        if (r.plan() == null || r.startingPlanOnly()) {
            return null;
        }
        return new Sub(r.plan(), r.backend() + " (on the starting plan's order)", r.pruned());
    }

    /**
     * The activations solved on their own at the budget minus the parameters' reserve (half the time; 60 s at
     * most without a limit), lifted to a plan with parameters ({@link ParameterLift}); null when that budget is
     * below what the activations need or no plan was found.
     */
    private static Sub lifted(Graph graph, Graph g, long budget, Options options, Limits limits,
                              List<String> notes) {
        Graph activations = graph.withSetting(TensorSetting.ACTIVATIONS);
        long actBudget = ParameterLift.activationBudget(g, budget);
        if (actBudget < Budgets.minimumFeasible(activations)) {
            return null;
        }
        if (limits.stopped()) {
            notes.add("the lift: skipped: " + why(limits));
            return null;
        }
        Limits share = share(limits, Shares.LIFT_DIVISOR);
        CosmaResult r = solve(activations, TensorSetting.ACTIVATIONS, actBudget, options.withStart(null), share);
        r.notes().forEach(note -> notes.add("activations for the lift: " + note));
        if (r.plan() == null) {
            return null;
        }
        return new Sub(ParameterLift.lift(g, r.plan(), budget),
                r.backend() + " (activations at " + actBudget + " B, parameters lifted)", r.pruned());
    }

    /**
     * The checked traffic of a solution's plan against the objective the solver claims for it. A solution that is
     * not proven optimal may carry actions the plan drops (a spill of a tensor never loaded again; DecoupledTest
     * keeps an example): the plan then pays less than claimed, which is fine. A plan that pays more than claimed,
     * or anything but the claim of a proven optimum, is a bug.
     */
    static void requireConsistent(String what, SolveStatus status, long claimed, long value, String plan) {
        if (value > claimed || status == SolveStatus.OPTIMAL && value != claimed) {
            throw new IllegalStateException("bug: " + what + " " + claimed + " (" + status + ") differs from the "
                    + "checked traffic " + value + " of " + plan);
        }
    }

    /** The decoupled step's outcome: a final result, or the relaxation's bound and the packed plan if any. */
    private record Decoupled(CosmaResult result, Long bound, Plan packed, String packedBy, ModelSize size) {
    }

    /**
     * Solves the program without addresses; packs its residency with the packer. A packing of the relaxation's
     * optimum is an optimal plan; a packing of a non-optimal relaxation solution is a plan with the
     * relaxation's bound. With CP-SAT as the back-end and a wall limit the relaxation runs on SCIP first
     * (1/{@link Shares#SCIP_PASS_DIVISOR} of the budget), then on CP-SAT with the rest: SCIP's LP bound decides most
     * relaxations quickly, CP-SAT's search finds the plans SCIP misses.
     */
    private static Decoupled decoupled(Graph g, TensorSetting setting, long budget, Options options, Plan start,
                                       Limits limits, long began, ForcedTraffic forced, List<String> notes,
                                       Checked checked) {
        long floor = forced == null ? 0 : forced.bound();
        HeldProgram<CosmaFormulation> program = build(g, setting, budget, options, options.schedule(), false, forced,
                limits, "the program without addresses", notes);
        if (program == null) {
            return new Decoupled(null, forced == null ? null : floor, null, null, null);
        }
        try (program) {
            CosmaFormulation relaxed = program.formulation();
            if (start != null) {
                relaxed.hint(start);
            }
            // SCIP first for its bound, then CP-SAT; under a work limit CP-SAT alone (SCIP counts no deterministic
            // work).
            List<Backend> backends = options.backend() == Backend.CPSAT && limits.budget().wallLeft() != null
                    && !limits.workMode()
                    ? List.of(Backend.SCIP, Backend.CPSAT) : List.of(options.backend());
            Allocator packer = options.packer() != null ? options.packer() : new PlacementCpSat(false);
            long bound = floor;
            Plan bestPacked = null;
            String packedBy = null;
            for (int i = 0; i < backends.size(); i++) {
                if (limits.stopped()) {
                    notes.add("the program without addresses on " + backends.get(i).id() + " skipped: " + why(limits));
                    break;
                }
                // Two back-ends only with a wall limit: SCIP's pass takes its part, CP-SAT the rest.
                Limits share = i < backends.size() - 1 ? limits.part(Shares.SCIP_PASS_DIVISOR) : limits;
                SolverResult r = Solvers.create(backends.get(i)).solve(relaxed.model(), share);
                if (r.bound() != null) {
                    bound = Math.max(bound, (long) Math.ceil(r.bound() - 1e-6));
                }
                if (r.status() == SolveStatus.INFEASIBLE) {
                    double seconds = (System.nanoTime() - began) / 1e9;
                    return new Decoupled(new CosmaResult(SolveStatus.INFEASIBLE, null, null, null, null, null, seconds,
                            r.backend() + " (decoupled)", ModelSize.of(relaxed.model()), null, false), null, null,
                            null, null);
                }
                // No byte counts: inside ByteUnit's call they would be in units of the sizes' gcd.
                String pass = "the program without addresses (" + ModelSize.of(relaxed.model()) + ") on "
                        + r.backend() + ": " + r.status();
                if (r.values() == null) {
                    notes.add(pass + ", no plan (" + (limits.stopped() ? why(limits) : "none found") + ")");
                    continue;
                }
                Plan residency = relaxed.plan(r);
                Allocation packing = packer.allocate(PlanBuffers.toBufferSet(g, residency), budget, limits);
                if (!packing.solved()) {
                    // Without this note the step's work (often most of a run) left no trace in the report.
                    notes.add(pass + ", its plan did not pack into the budget (" + packer.name() + ": "
                            + packing.status() + ")");
                }
                if (packing.solved()) {
                    Plan plan = PlanBuffers.withPlacement(residency, packing.placement());
                    CheckReport report = PlanChecker.requireValid(g, plan, "COSMA decoupled (" + packer.name() + ")");
                    long value = report.traffic().nonCompulsory();
                    requireConsistent("the relaxation's objective", r.status(), Math.round(r.objective()), value,
                            "its packed plan");
                    if (r.status() == SolveStatus.OPTIMAL || value <= bound) {
                        double seconds = (System.nanoTime() - began) / 1e9;
                        return new Decoupled(finish(plan, report, SolveStatus.OPTIMAL, value, value, seconds,
                                r.backend() + " + " + packer.name() + " (decoupled)", ModelSize.of(relaxed.model()),
                                null, false), value, plan, null, null);
                    }
                    if (checked.better(bestPacked, plan) == plan) {
                        bestPacked = plan;
                        packedBy = r.backend() + " + " + packer.name() + " (decoupled)";
                    }
                    relaxed.hint(bestPacked);
                    notes.add(pass + ", its plan packed" + (start != null && value
                            >= checked.report(start, "the starting plan").traffic().nonCompulsory()
                            ? ", not below the starting plan" : ""));
                }
                if (r.status() == SolveStatus.OPTIMAL) {
                    // The relaxation is decided but its optimum does not pack: only the joint program can go on.
                    break;
                }
            }
            return new Decoupled(null, bound, bestPacked, packedBy, ModelSize.of(relaxed.model()));
        }
    }

    /**
     * The checker's reports of one solve's plans, kept by plan: a plan is checked once however often it is compared
     * (a check is costly on large graphs).
     */
    private static final class Checked {
        private final Graph g;
        private final Map<Plan, CheckReport> reports = new IdentityHashMap<>();

        Checked(Graph g) {
            this.g = g;
        }

        /** The report of a plan that must be valid ({@code who} made it). */
        CheckReport report(Plan plan, String who) {
            CheckReport report = reports.get(plan);
            if (report == null) {
                report = PlanChecker.requireValid(g, plan, who);
                reports.put(plan, report);
            }
            return report;
        }

        /** The plan with less non-compulsory traffic (the first when equal or when the other is null). */
        Plan better(Plan a, Plan b) {
            if (a == null) {
                return b;
            }
            long ta = report(a, "a plan").traffic().nonCompulsory();
            long tb = report(b, "a plan").traffic().nonCompulsory();
            return tb < ta ? b : a;
        }
    }

    /** Why a step is skipped once its budget is stopped. */
    private static String why(Limits limits) {
        return limits.budget().whyStopped();
    }

    /**
     * Builds a program unless its {@link ModelEstimate} says it will not fit in the heap or cannot be built in half
     * the time left; abandons the build when the deadline passes meanwhile. Under a work limit it first reserves its
     * estimate of the room ({@link HeapRoom#reserve}), waiting while other cases of the JVM hold too much. Null, with
     * a note saying what was skipped and why, when it is not built.
     */
    private static HeldProgram<CosmaFormulation> build(Graph g, TensorSetting setting, long budget,
                                                       Options options, Schedule schedule, boolean addresses,
                                                       ForcedTraffic forced, Limits limits, String what,
                                                       List<String> notes) {
        if (limits.stopped()) {
            notes.add(what + " skipped: " + why(limits));
            return null;
        }
        OperatorWindows windows = OperatorWindows.of(g, schedule, options.uses(Technique.PRUNE));
        ModelEstimate estimate = ModelEstimate.of(g, windows, schedule == null, addresses);
        return HeldProgram.build(what, estimate, limits, notes, () -> new CosmaFormulation(g, setting, budget,
                options.objective(), schedule, addresses, options.uses(Technique.PRUNE), forced));
    }

    /**
     * The best checked plan so far with the best bound so far, when no program could run: the start, or the plan of
     * the step {@code startBy} that replaced it (null: the start as given).
     */
    private static CosmaResult bestSoFar(Checked checked, Plan start, String startBy, Options options, Long bound,
                                         ModelSize built, long began) {
        double seconds = (System.nanoTime() - began) / 1e9;
        if (start == null) {
            return new CosmaResult(SolveStatus.UNKNOWN, null, null, null, bound, null, seconds,
                    options.backend().id(), null, null, false);
        }
        CheckReport report = checked.report(start, "the starting plan");
        long value = options.objective() == CosmaObjective.TRAFFIC ? report.traffic().nonCompulsory()
                : report.peakFootprint();
        SolveStatus status = bound != null && value <= bound ? SolveStatus.OPTIMAL : SolveStatus.FEASIBLE;
        return finish(start, report, status, value, bound, seconds, startBy == null ? options.backend().id() : startBy,
                built, null, startBy == null);
    }

    private static ModelSize unprunedSize(Graph g, TensorSetting setting, long budget, Options options,
                                          Limits limits) {
        long n = g.operatorCount();
        long a = g.tensorCount();
        long estimate = n * n + 4 * a * n + a * a * n;
        if (estimate > UNPRUNED_COUNT_LIMIT || limits.stopped()) {
            return null;
        }
        try (BuildGuard guard = BuildGuard.until(limits.budget())) {
            return ModelSize.of(new CosmaFormulation(g, setting, budget, options.objective(), options.schedule(), true,
                    false).model());
        } catch (BuildAbandonedException e) {
            return null;
        }
    }
}
