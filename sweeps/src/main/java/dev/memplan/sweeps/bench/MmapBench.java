package dev.memplan.sweeps.bench;

import dev.memplan.baselines.mmap.MmapPlanners;
import dev.memplan.baselines.mmap.MmapRun;
import dev.memplan.datasets.mmap.MmapInstances;
import dev.memplan.datasets.zoo.Zoo;
import dev.memplan.model.Budget;
import dev.memplan.model.mmap.MmapInstance;
import dev.memplan.sweeps.GraphSources;
import dev.memplan.sweeps.SweepException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Every planner of the two-level memory mapping problem on zoo-derived instances and on generated programs of
 * growing size, each instance with the whole time limit; each reward as a fraction of the best bound (the exact
 * program's proven optimum, or its bound when the time limit stopped it). A row per planner ({@link
 * MmapPlanners#HEADER}).
 */
public final class MmapBench {
    /** The planners, in the order they run. */
    public static final List<String> PLANNERS = List.of("greedy", "random", "mcts", "exact");

    /**
     * The zoo networks (null: all; "none": none), the sizes of the generated programs ("none": none), the wall time
     * per instance (all planners together), the seed of the programs and the players, and MCTS's simulations per
     * move; the instances' names, in order, checked when made.
     */
    public record Spec(List<String> instances, double timeLimit, long seed, int simulations) {
        public Spec {
            if (!(timeLimit > 0) || Double.isInfinite(timeLimit)) {
                throw new SweepException("--time-limit must be a positive number of seconds, got " + timeLimit);
            }
            if (simulations < 1 || simulations > MmapRun.MAX_SIMULATIONS) {
                throw new SweepException("--simulations must be >= 1 and <= " + MmapRun.MAX_SIMULATIONS
                        + " (MCTS simulations per move), got " + simulations);
            }
            instances = List.copyOf(instances);
        }

        public static Spec of(List<String> networks, List<String> random, double timeLimit, long seed,
                              int simulations) {
            List<String> inputs = new ArrayList<>();
            List<String> nets = networks == null ? Zoo.names() : networks;
            if (!(nets.size() == 1 && nets.get(0).equals("none"))) {
                for (String n : nets) {
                    if (!Zoo.exists(n)) {
                        throw new SweepException("no zoo network named '" + n + "'; networks: "
                                + String.join(", ", Zoo.names()));
                    }
                }
                inputs.addAll(nets);
            }
            if (!(random.size() == 1 && random.get(0).equals("none"))) {
                for (String n : random) {
                    // Each count checked now, not after the instances before it ran.
                    if (!n.trim().matches("\\d{1,7}") || Integer.parseInt(n.trim()) < 1
                            || Integer.parseInt(n.trim()) > MmapInstances.MAX_BUFFERS) {
                        throw new SweepException("--random must be buffer counts from 1 to " + MmapInstances.MAX_BUFFERS
                                + " (or 'none'), got '" + n + "'");
                    }
                    inputs.add(MmapInstances.GENERATED_PREFIX + n.trim() + ":" + seed);
                }
            }
            return new Spec(inputs, timeLimit, seed, simulations);
        }
    }

    private MmapBench() {
    }

    /**
     * Runs every planner on each instance, handing each instance's rows to {@code rows} when it is done;
     * {@code progress} hears each instance and planner as it starts.
     */
    public static void run(Spec spec, Consumer<List<String[]>> rows, Consumer<String> progress) {
        MmapRun run = new MmapRun(spec.timeLimit(), Budget.unlimited(), 1, spec.seed(), spec.simulations(), 0);
        for (String input : spec.instances()) {
            MmapRun now = run.restarted();
            MmapInstance in = MmapInstances.read(input, GraphSources::graph);
            progress.accept("mmap bench: " + MmapPlanners.describe(in));
            rows.accept(now.compare(in, PLANNERS, progress));
        }
    }
}
