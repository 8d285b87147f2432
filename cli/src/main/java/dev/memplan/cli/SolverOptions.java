package dev.memplan.cli;

import dev.memplan.baselines.allocation.minimalloc.MiniMallocAllocator;
import dev.memplan.formulations.cosma.CosmaObjective;
import dev.memplan.formulations.cosma.CosmaSolver;
import dev.memplan.formulations.cosma.Technique;
import dev.memplan.formulations.milp.Backend;
import dev.memplan.model.Limits;
import dev.memplan.model.Plan;
import dev.memplan.model.Schedule;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import picocli.CommandLine.Option;

/**
 * The solver options every solving command shares. The default back-end is CP-SAT: every COSMA variable is
 * integer, and on the formulations benchmark (BENCHMARKS.md) CP-SAT proves the optimum 2 to 40 times faster
 * than SCIP, CBC or HiGHS.
 */
final class SolverOptions {
    @Option(names = "--solver", paramLabel = "scip|cpsat|cbc|highs|ojalgo", defaultValue = "cpsat",
            description = "back-end (default: ${DEFAULT-VALUE})")
    String solver;

    @Option(names = "--time-limit", paramLabel = "SECONDS", description = "wall-time limit per solve (default: none)")
    Double timeLimit;

    @Option(names = "--encoding", paramLabel = "decoupled|joint", defaultValue = "decoupled",
            description = {"COSMA (traffic): 'decoupled' stops at the first step that proves optimality: the forced-",
                "traffic bound, the starting plan's order, the activations lifted (with parameters), the program",
                "without addresses packed by MiniMalloc, then the joint program; 'joint' runs the big-M program of",
                "eq. 1-12 only (default: ${DEFAULT-VALUE})"})
    String encoding;

    @Option(names = "--without", paramLabel = "T1,...", split = ",",
            description = {"COSMA (traffic): switch techniques off to measure what they buy: 'forced' (the forced-traffic",
                "bound and its inequalities), 'start-order' (the fixed-schedule program of the starting plan's",
                "order first), 'lift' (with parameters: the activations plan lifted); all on by default"})
    List<String> without;

    @Option(names = "--threads", paramLabel = "N", defaultValue = "1", description = "solver threads (default: ${DEFAULT-VALUE})")
    int threads;

    Backend backend() {
        try {
            return Backend.parse(solver);
        } catch (IllegalArgumentException e) {
            throw new UserException(e.getMessage());
        }
    }

    Limits limits() {
        Duration limit = Inputs.timeLimit(timeLimit, "--time-limit");
        if (threads < 1) {
            throw new UserException("--threads must be >= 1, got " + threads);
        }
        return new Limits(limit, threads, 0.0, 0L);
    }

    String describe() {
        return "time limit " + (timeLimit == null ? "none" : timeLimit + " s") + ", threads " + threads + ", encoding "
                + encoding + (without == null || without.isEmpty() ? "" : ", without " + String.join(",", without));
    }

    /** The COSMA options of this command line: objective, fixed schedule (or null), encoding, start plan. */
    CosmaSolver.Options cosma(CosmaObjective objective, Schedule schedule, boolean prune, Plan start) {
        boolean decoupled = switch (encoding) {
            case "decoupled" -> true;
            case "joint" -> false;
            default -> throw new UserException("unknown encoding '" + encoding + "': use 'decoupled' or 'joint'");
        };
        return new CosmaSolver.Options(objective, schedule, backend(), prune, start, decoupled,
                new MiniMallocAllocator(), techniquesOff());
    }

    /** The encoding, with the techniques switched off if any (e.g. "decoupled without forced"). */
    String encodingLabel() {
        return encoding + (without == null || without.isEmpty() ? "" : " without " + String.join(",", without));
    }

    /** The techniques --without switches off. */
    Set<Technique> techniquesOff() {
        Set<Technique> off = EnumSet.noneOf(Technique.class);
        for (String id : without == null ? List.<String>of() : without) {
            try {
                off.add(Technique.parse(id.trim()));
            } catch (IllegalArgumentException e) {
                throw new UserException("--without: " + e.getMessage());
            }
        }
        return off;
    }
}
