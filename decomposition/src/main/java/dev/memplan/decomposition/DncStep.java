package dev.memplan.decomposition;

import dev.memplan.baselines.replacement.Schemes;
import dev.memplan.formulations.cosma.CosmaResult;
import dev.memplan.formulations.cosma.CosmaSolver;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Plan;
import dev.memplan.model.PlanResult;
import dev.memplan.model.Shares;
import dev.memplan.model.TensorSetting;
import dev.memplan.model.TrainingStep;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * The pipeline's divide-and-conquer step ({@link CosmaPipeline}, step 3): the default and minimum-peak schemes'
 * plans (taken from the starting plans when they already ran), on graphs up to
 * {@link DivideAndConquer#WHOLE_GRAPH_LIMIT} operators the fixed-schedule optima of their orders, FS(default) and
 * FS(MPMF) ({@link Shares#FIXED_START_DIVISOR} each), then {@link DivideAndConquer} from all of them with the rest
 * of the run's budget. Its cost is that of the programs it runs.
 */
final class DncStep {

    private final CosmaPipeline.Settings settings;
    private final Consumer<String> progress;

    DncStep(CosmaPipeline.Settings settings, Consumer<String> progress) {
        this.settings = settings;
        this.progress = progress;
    }

    /**
     * One run of the step.
     *
     * @param extraStarts the plans divide and conquer starts from besides the schemes' (the whole graph's plan,
     *     the best scheme)
     * @param made the starting plans already made (the schemes' plans): a scheme divide and conquer starts from
     *     is taken from them rather than run again
     * @param clock the pipeline run's clock (the result's time and work)
     */
    CosmaPipeline.Outcome run(Graph full, TensorSetting s, long budget, DivideAndConquer.Options options,
                              Limits limits, List<Plan> extraStarts, Starts made, RunShares clock) {
        boolean schemes = made.schemeStart();
        List<Plan> restarts = made.restarts();
        CosmaResult whole = made.whole();
        Graph g = full.withSetting(s);
        // The run's own budget: its counters, charged to the command's.
        Limits run = limits.child();
        List<Plan> starts = new ArrayList<>(extraStarts);
        CosmaResult fsDefault = null;
        CosmaResult fsMpmf = null;
        boolean small = g.operatorCount() <= DivideAndConquer.WHOLE_GRAPH_LIMIT;
        // The schemes' plans: cheap, and far better starts for the fixed-schedule programs than just in time. On a
        // large graph a scheme among the starting plans is enough (a scheme there takes seconds); without one (a
        // tight limit left none) the default scheme still beats the just-in-time plan by far.
        boolean given = extraStarts.stream().anyMatch(made.schemes()::contains);
        Plan defaultScheme = schemes && (small || !given)
                ? scheme("default/belady/tflite", made.schemes(), full, s, budget, run) : null;
        Plan mpmfScheme = schemes && small && settings.mpmf() != null
                ? scheme("mpmf/belady/tflite", made.schemes(), full, s, budget, run) : null;
        if (defaultScheme != null) {
            starts.add(defaultScheme);
        }
        if (mpmfScheme != null) {
            starts.add(mpmfScheme);
        }
        // On a training step the fixed-schedule programs run only on an order whose scheme is the best start: there
        // they found nothing within their share on the zoo's training graphs, whose levelled order (LevelledStarts)
        // starts far lower; their share goes to the windows.
        Plan bestMade = TrainingStep.forwardCount(g) >= 0 ? CosmaPipeline.best(made.schemes()) : null;
        boolean defaultFs = fixedStart(defaultScheme, bestMade);
        boolean mpmfFs = fixedStart(mpmfScheme, bestMade);
        if (bestMade != null && (!defaultFs || !mpmfFs)) {
            progress.accept("dnc: a training step: no fixed-schedule start on an order whose scheme is not the"
                    + " best start (" + bestMade.solver().name() + ", traffic " + bestMade.traffic().nonCompulsory()
                    + ")");
        }
        if (small && defaultScheme != null && defaultFs) {
            fsDefault = fixed(full, s, budget, options, defaultScheme, run, "FS(default)");
            if (fsDefault != null) {
                starts.add(fsDefault.plan());
            }
        }
        if (small && mpmfScheme != null && mpmfFs) {
            fsMpmf = fixed(full, s, budget, options, mpmfScheme, run, "FS(MPMF)");
            if (fsMpmf != null) {
                starts.add(fsMpmf.plan());
            }
        }
        Plan bestStart = CosmaPipeline.best(CosmaPipeline.concat(withoutPrograms(starts, fsDefault, fsMpmf, whole),
                restarts));
        DncResult r = DivideAndConquer.solve(full, s, budget, options, run, starts, restarts, progress);
        PlanResult result = new PlanResult("cosma-dnc/" + settings.cosma().backend().id(), r.status(), r.plan(),
                r.check(), r.traffic(), r.bound(), r.gap(), clock.wallSeconds(), clock.workUsed(),
                limits.budget().wallStopped(), List.of());
        return new CosmaPipeline.Outcome(result, whole, r, fsDefault, fsMpmf, bestStart, options);
    }

    /**
     * Whether a fixed-schedule program starts from {@code scheme}'s order: always, unless on a training step
     * ({@code bestMade}, the best scheme made, not null) that scheme is missing or not the best start.
     */
    private static boolean fixedStart(Plan scheme, Plan bestMade) {
        return bestMade == null || scheme != null && scheme.traffic().nonCompulsory()
                <= bestMade.traffic().nonCompulsory();
    }

    /** The starts without the programs' plans (the fixed-schedule programs' and the whole graph's). */
    private static List<Plan> withoutPrograms(List<Plan> starts, CosmaResult fsDefault, CosmaResult fsMpmf,
                                              CosmaResult whole) {
        List<Plan> noProgram = new ArrayList<>(starts);
        for (CosmaResult program : new CosmaResult[] {fsDefault, fsMpmf, whole}) {
            if (program != null) {
                noProgram.remove(program.plan());
            }
        }
        return noProgram;
    }

    /**
     * The starting plans made before divide and conquer: the schemes' (or the caller's), the restarts, the whole
     * graph's result (null: not tried), and whether the schemes start the run.
     */
    record Starts(List<Plan> schemes, List<Plan> restarts, CosmaResult whole, boolean schemeStart) {
    }

    /** The scheme's plan: one of {@code made} when the scheme already ran, else run now. */
    private Plan scheme(String name, List<Plan> made, Graph full, TensorSetting s, long budget, Limits limits) {
        Plan p = made.stream().filter(m -> m.solver() != null && m.solver().name().equals(name)).findFirst()
                .orElse(null);
        if (p == null) {
            PlanResult r = Schemes.byNames(List.of(name), settings.mpmf()).get(0).solve(full, s, budget, limits);
            if (!r.planned()) {
                progress.accept("dnc: scheme " + name + ": no plan (" + String.join("; ", r.notes()) + ")");
                return null;
            }
            p = r.plan();
        }
        progress.accept("dnc: scheme " + name + ", traffic " + p.traffic().nonCompulsory());
        return p;
    }

    private CosmaResult fixed(Graph full, TensorSetting s, long budget, DivideAndConquer.Options options,
                              Plan scheme, Limits limits, String label) {
        progress.accept("dnc: starting plan " + label + " ...");
        Limits share = limits.budget().limited() ? limits.part(Shares.FIXED_START_DIVISOR) : limits;
        CosmaResult r = CosmaSolver.solve(full, s, budget,
                options.cosma().withSchedule(scheme.schedule()).withStart(scheme), share);
        if (r.plan() == null) {
            progress.accept("dnc: " + label + " found no plan within its share; left out");
            return null;
        }
        progress.accept(String.format(Locale.ROOT, "dnc: %s %s, traffic %d, %.1f s", label, r.status(),
                r.objective(), r.seconds()));
        return r;
    }
}
