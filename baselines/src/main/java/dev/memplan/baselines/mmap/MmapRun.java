package dev.memplan.baselines.mmap;

import dev.memplan.model.Budget;
import dev.memplan.model.LimitValues;
import dev.memplan.model.Limits;
import dev.memplan.model.Shares;
import dev.memplan.model.mmap.MmapInstance;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

/**
 * One run of mapping planners ({@code memplan mmap solve|compare}, one instance of {@code bench mmap}): its wall-time
 * limit from {@code startNanos} (infinite: none), its work budget (unlimited without a work limit), and the players'
 * threads, seed and MCTS simulations per move. Under a work limit the work decides and the wall-time limit, when
 * finite, guards it.
 */
public record MmapRun(double timeLimit, Budget work, int threads, long seed, int simulations, long startNanos) {
    /** The most MCTS simulations per move (the default is 128): a count, not a time, so it is bounded. */
    public static final int MAX_SIMULATIONS = 1_000_000;

    /** The wall-time limit of a run given none, in seconds, when no work limit decides either. */
    public static final double DEFAULT_TIME_LIMIT = 60;

    /**
     * A run from the options a user gives ({@code mmap solve|compare}), each checked before any work: the wall-time
     * limit in seconds (null: {@link #DEFAULT_TIME_LIMIT}, or none under a work limit, which it guards when given),
     * the work limit in units (null: none), the threads, the seed and the MCTS simulations per move.
     *
     * @throws IllegalArgumentException naming the option and the rule
     */
    public static MmapRun of(Double timeLimit, Double workLimit, int threads, long seed, int simulations,
                             long startNanos) {
        LimitValues.wall(timeLimit, "--time-limit");
        double limit = timeLimit != null ? timeLimit : workLimit != null ? Double.POSITIVE_INFINITY : DEFAULT_TIME_LIMIT;
        Budget work = workLimit == null ? Budget.unlimited()
                : Budget.ofWork(LimitValues.work(workLimit, "--work-limit"), null);
        LimitValues.threads(threads, "--threads");
        if (simulations < 1 || simulations > MAX_SIMULATIONS) {
            throw new IllegalArgumentException("--simulations must be >= 1 and <= " + MAX_SIMULATIONS
                    + " (MCTS simulations per move), got " + simulations);
        }
        return new MmapRun(limit, work, threads, seed, simulations, startNanos);
    }

    /** The same run started now (each instance of a bench gets the whole limit). */
    public MmapRun restarted() {
        return new MmapRun(timeLimit, work, threads, seed, simulations, System.nanoTime());
    }

    /**
     * What a planner may take now: under a work limit the work left in units; else the limit less the time spent so
     * far and a margin for checking and writing ({@link Shares#MMAP_WRITE_MARGIN}, at most {@link Shares#WRITE_MARGIN_CAP}), so the whole
     * command keeps it.
     */
    public double left() {
        if (work.workMode()) {
            return work.workLeftMicro() / (double) Budget.MICRO;
        }
        return timeLimit - (System.nanoTime() - startNanos) / 1e9
                - Math.min(Shares.WRITE_MARGIN_CAP.toNanos() / 1e9, Shares.MMAP_WRITE_MARGIN * timeLimit);
    }

    /**
     * The limits of one planner given {@code amount} seconds (work units under a work limit) from now; under a work
     * limit the wall-time limit, when given, is the deadline that guards the work.
     */
    public Limits limits(double amount) {
        if (work.workMode()) {
            Duration guard = Double.isInfinite(timeLimit) ? null
                    : Duration.ofNanos(Math.max(0, Math.round(timeLimit * 1e9) - (System.nanoTime() - startNanos)));
            return new Limits(threads, 0.0, seed, work.wallAtMost(guard).upTo(Math.max(1, Math.round(amount * 1e9))),
                    null);
        }
        return new Limits(Duration.ofMillis(Math.max(1, Math.round(amount * 1000))), threads, 0.0, seed);
    }

    /** The limits of one planner that may take all that is left (at least a millisecond or a thousandth unit). */
    public Limits limitsOfWhatIsLeft() {
        return limits(Math.max(0.001, left()));
    }

    /**
     * The planners {@code names} on one instance within this run ({@link MmapPlanners#compare}), a row each; the
     * exact planner's natives are checked before the players spend their share, not after.
     */
    public List<String[]> compare(MmapInstance in, List<String> names, Consumer<String> progress) {
        if (names.contains("exact")) {
            dev.memplan.formulations.milp.Solvers.requireNative("the exact mapping planner (CP-SAT)");
        }
        return MmapPlanners.compare(in, names, simulations, this::left, this::limits, work.workMode(), progress);
    }
}
