package dev.memplan.cli;

import dev.memplan.baselines.replacement.Schemes;
import java.util.List;
import picocli.CommandLine.Option;

/** The planners of a comparison, declared once: the schemes and whether COSMA runs (compare, bench compare). */
final class PlannerOptions {
    @Option(names = "--schemes", paramLabel = "S1,S2,...", split = ",",
            description = "schemes SCHEDULER/POLICY/ALLOCATOR (default: the paper's four: "
                    + "default|mpmf x belady|greedy x tflite; also lru, firstfit, and minimalloc: replacement on bytes, "
                    + "then MiniMalloc packs the segments)")
    List<String> schemes;

    @Option(names = "--no-cosma", description = "run the schemes only")
    boolean noCosma;

    /** The schemes' names, the paper's four by default. */
    List<String> schemeNames() {
        return schemes == null ? Schemes.PAPER : schemes;
    }
}
