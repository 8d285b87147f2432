package dev.memplan.cli;

import dev.memplan.baselines.scheduling.MinimumPeakScheduler;
import dev.memplan.decomposition.DivideAndConquer;
import dev.memplan.formulations.cosma.Technique;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.model.Limits;
import dev.memplan.model.TensorSetting;
import dev.memplan.sweeps.PlannerChoice;
import dev.memplan.sweeps.SolveCase;
import dev.memplan.sweeps.figures.TextTable;
import java.util.List;
import java.util.Set;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * The solver options every solving command shares, mapped onto a {@link SolveCase}. The default back-end is CP-SAT:
 * every COSMA variable is integer, and it proves the optimum fastest (BENCHMARKS.md, formulations).
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
                "without addresses packed by the CP-SAT placement model, then the joint program; 'joint' runs the",
                "big-M program of eq. 1-12 only (default: ${DEFAULT-VALUE})"})
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
     * This command line's case ({@link SolveCase}, every value checked): the setting, budget and recompute weight
     * (null when the command has none) and the divide-and-conquer options (null: the defaults).
     */
    SolveCase solveCase(TensorSetting setting, String budget, String weight, DecomposeOptions d) {
        return UserException.of(() -> new SolveCase(setting, budget, SolveCase.recomputeWeight(weight), solver,
                limit.timeLimit, limit.workLimit, limit.threads, encoding, without == null ? Set.of() : Set.copyOf(without),
                mpBeam, d == null ? "auto" : d.decompose, d == null ? DivideAndConquer.DEFAULT_MAX_PART : d.maxPart,
                d == null ? null : d.breakNodes));
    }

    /** The case of a command without a budget or divide-and-conquer options. */
    SolveCase solveCase() {
        return solveCase(null, null, null, null);
    }

    /**
     * Fails at once, in one line, when the chosen back-end needs OR-Tools' natives and they cannot load (issue
     * 37.4), rather than after the starting plans.
     */
    void requireSolver() {
        if (solver.needsNative()) {
            dev.memplan.formulations.milp.Solvers.requireNative("--solver " + solver.id());
        }
    }

    /**
     * The "work" row under a work limit ({@link SolveCase#workUsed}), and under --time-limit the "wall clock" row: the
     * seconds since the command started, which is what the limit bounds. The "time" row above is the planning
     * alone; the JVM's start-up, the graph and the budget come before it and count against the limit too.
     */
    static void limitRows(TextTable t, SolveCase c, Limits limits) {
        if (c.workUsed(limits) != null) {
            t.row("work", c.workUsed(limits));
        }
        if (c.timeLimit() != null) {
            t.row("wall clock", wallClock((System.nanoTime() - Main.started()) / 1e9, c.timeLimit()));
        }
    }

    /**
     * The "wall clock" row's text: the seconds used of the limit and, past it, by how much and why (the steps no
     * answer can skip: on a large graph under heavy load the first plan, the default scheme's, and its check ran after
     * the limit was spent; docs/time-limits.md), so that a passed limit is said, not left to be noticed.
     */
    static String wallClock(double used, double limit) {
        String text = String.format(java.util.Locale.ROOT, "%.2f of %s s since the command started (the JVM's start-up,"
                + " the graph and the budget included)", used, dev.memplan.model.LimitValues.units(limit));
        return used <= limit ? text : text + String.format(java.util.Locale.ROOT, "; %.2f s past the limit: the steps"
                + " no answer can skip (the first plan and its check) ran after it was spent", used - limit);
    }
}
