package dev.memplan.cli;

import dev.memplan.sweeps.figures.TextTable;
import dev.memplan.baselines.scheduling.MinimumPeakScheduler;
import dev.memplan.formulations.cosma.CosmaObjective;
import dev.memplan.formulations.cosma.CosmaSolver;
import dev.memplan.formulations.cosma.Technique;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.sweeps.PlannerChoice;
import dev.memplan.model.LimitValues;
import dev.memplan.model.Limits;
import dev.memplan.model.Plan;
import dev.memplan.model.Schedule;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * The solver options every solving command shares. The default back-end is CP-SAT: every COSMA variable is
 * integer, and it proves the optimum fastest (BENCHMARKS.md, formulations).
 */
final class SolverOptions {
    @Option(names = "--solver", paramLabel = "scip|cpsat|cbc|highs|ojalgo", defaultValue = "cpsat",
            converter = BackendConverter.class, description = "back-end (default: ${DEFAULT-VALUE})")
    Backend solver;

    /**
     * A picocli converter made of a parse function: the function's {@link IllegalArgumentException} is picocli's
     * conversion error (one line, exit 2), its message the reason.
     */
    abstract static class Parsing<T> implements CommandLine.ITypeConverter<T> {
        private final java.util.function.Function<String, T> parse;

        Parsing(java.util.function.Function<String, T> parse) {
            this.parse = parse;
        }

        @Override
        public final T convert(String value) {
            try {
                return parse.apply(value);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }

    /** --solver's values: the back-ends' ids, any case. */
    static final class BackendConverter extends Parsing<Backend> {
        BackendConverter() {
            super(Backend::parse);
        }
    }

    /** --without's values in its help: every technique's id, from the enum. */
    static final class TechniqueIds implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return java.util.Arrays.stream(Technique.values()).map(Technique::id).iterator();
        }
    }

    /** --without's values: the techniques' ids, any case. */
    static final class TechniqueConverter extends Parsing<Technique> {
        TechniqueConverter() {
            super(value -> Technique.parse(value.trim()));
        }
    }

    /** --time-limit, --work-limit and --threads, declared once for every command that takes them. */
    @picocli.CommandLine.Mixin
    LimitOptions limit = new LimitOptions();

    @Option(names = "--encoding", paramLabel = "decoupled|joint", defaultValue = "decoupled",
            converter = EncodingConverter.class,
            description = {"COSMA (traffic): 'decoupled' stops at the first step that proves optimality: the forced-",
                "traffic bound, the starting plan's order, the activations lifted (with parameters), the program",
                "without addresses packed by MiniMalloc, then the joint program; 'joint' runs the big-M program of",
                "eq. 1-12 only (default: ${DEFAULT-VALUE})"})
    PlannerChoice.Encoding encoding;

    /** --encoding's values, any case. */
    static final class EncodingConverter extends Parsing<PlannerChoice.Encoding> {
        EncodingConverter() {
            super(PlannerChoice.Encoding::parse);
        }
    }

    @Option(names = "--without", paramLabel = "T1,...", split = ",", converter = TechniqueConverter.class,
            completionCandidates = TechniqueIds.class,
            description = "COSMA (traffic): switch techniques off to measure what they buy, any of"
                    + " ${COMPLETION-CANDIDATES} (docs/solving.md says what each one does); all on by default. Every"
                    + " ablation switch is here, once.")
    List<Technique> without;

    @Option(names = "--mp-beam", paramLabel = "WIDTH",
            description = {"M_P's beam width, pinned: the minimum-peak order is the beam search at exactly this width",
                "(no program), the same on every machine. Default: the exact DP / beam " + MinimumPeakScheduler.DEFAULT_BEAM
                    + " without a time limit;",
                "with one, the widest rung of 1, 4, 16, 64, 256, 1024, 4096 that finishes, named in the output",
                "(e.g. 'beam 256'): pass that width here to reproduce it"})
    Integer mpBeam;

    /**
     * COSMA as a sweep case names it: this command line's encoding and --without, with more options (e.g.
     * schedule=mpmf), so that a bench's cases are the ones solve and compare run.
     */
    PlannerChoice cosmaPlanner(java.util.Map<String, String> more) {
        java.util.Map<String, String> options = new java.util.HashMap<>(more);
        options.put("encoding", encoding.toString());
        return PlannerChoice.cosma(options, techniquesOff());
    }

    /** The axes this command line fixes on a spec: solver, time limit (and work limit), threads; checked first. */
    dev.memplan.sweeps.SpecBuilder solverAxes(dev.memplan.sweeps.SpecBuilder spec) {
        limits();
        return spec.solver(backend().id(), limit.timeLimit, limit.workLimit, limit.threads);
    }

    /** The minimum-peak scheduler of this command line's case ({@link MinimumPeakScheduler#forCase}). */
    MinimumPeakScheduler minimumPeak(dev.memplan.model.Graph g) {
        if (mpBeam != null && mpBeam < 1) {
            throw new UserException("--mp-beam must be >= 1, got " + mpBeam);
        }
        return MinimumPeakScheduler.forCase(mpBeam, limit.workLimit != null, g.operatorCount(), backend());
    }

    Backend backend() {
        return solver;
    }

    /**
     * Fails at once, in one line, when the chosen back-end needs OR-Tools' natives and they cannot load (issue
     * 37.4), rather than after the starting plans.
     */
    void requireSolver() {
        if (backend().needsNative()) {
            dev.memplan.formulations.milp.Solvers.requireNative("--solver " + backend().id());
        }
    }

    Limits limits() {
        Duration wallLimit = limit.wallLimit();
        int threads = limit.threads();
        if (limit.workLimit != null) {
            limit.workUnits();
            if (backend() != Backend.CPSAT) {
                throw new UserException("--work-limit needs --solver cpsat: CP-SAT counts deterministic time; SCIP, CBC,"
                        + " HiGHS and ojAlgo report no deterministic work memplan can count (use --time-limit with them)");
            }
            // The work decides; the wall limit guards it as the command's (commandLimits).
            return new Limits(threads, 0.0, 0L, LimitValues.budget(limit.workLimit, null), null);
        }
        return new Limits(wallLimit, threads, 0.0, 0L);
    }

    /**
     * The limits of a command whose --time-limit bounds its whole wall time (solve, compare, budgets): one
     * {@link Budget} from the command's start ({@link LimitOptions#commandBudget}); every step reads what is left of it.
     */
    Limits commandLimits() {
        Limits limits = limits();
        return limit.timeLimit == null ? limits : limits.withBudget(limit.commandBudget());
    }

    String describe() {
        return (limit.workLimit == null ? "" : "work limit " + limit.workLimit + " units, ")
                + "time limit " + (limit.timeLimit == null ? "none" : limit.timeLimit + " s") + ", threads "
                + (limit.workLimit == null ? limit.threads
                : 1 + " (a work limit runs CP-SAT on one worker)") + ", encoding "
                + encoding + (without == null || without.isEmpty() ? "" : ", without " + ids(without));
    }

    /** The COSMA options of this command line: objective, fixed schedule (or null), encoding, start plan. */
    CosmaSolver.Options cosma(CosmaObjective objective, Schedule schedule, Plan start) {
        return cosmaPlanner(java.util.Map.of()).cosmaOptions(objective, schedule, backend(), start);
    }

    /** Whether --without prune builds the model without its lifetime windows. */
    boolean pruned() {
        return !techniquesOff().contains(Technique.PRUNE);
    }

    /** The encoding, with the techniques switched off if any (e.g. "decoupled without forced"). */
    String encodingLabel() {
        return encoding + (without == null || without.isEmpty() ? "" : " without " + ids(without));
    }

    /** The techniques' ids, comma-separated. */
    static String ids(List<Technique> techniques) {
        return String.join(",", techniques.stream().map(Technique::id).toList());
    }

    /** The techniques --without switches off. */
    Set<Technique> techniquesOff() {
        Set<Technique> off = EnumSet.noneOf(Technique.class);
        if (without != null) {
            off.addAll(without);
        }
        return off;
    }

    /** The "work" row under a work limit ({@link LimitValues#workUsed}). */
    void workRow(TextTable t, Limits limits) {
        if (limits.workMode()) {
            t.row("work", LimitValues.workUsed(limits.budget(), limit.workLimit));
        }
    }
}
