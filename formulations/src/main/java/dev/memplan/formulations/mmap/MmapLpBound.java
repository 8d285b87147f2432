package dev.memplan.formulations.mmap;

import com.google.ortools.linearsolver.MPConstraint;
import com.google.ortools.linearsolver.MPObjective;
import com.google.ortools.linearsolver.MPSolver;
import com.google.ortools.linearsolver.MPVariable;
import dev.memplan.formulations.milp.Watchdog;
import dev.memplan.model.mmap.MmapBuffer;
import dev.memplan.model.mmap.MmapInstance;
import java.util.OptionalLong;

/**
 * An upper bound on the reward of every mapping: the LP relaxation of a time-indexed program (one variable per
 * buffer, action and step), far tighter than CP-SAT's bound on the interval program, whose LP lets an interval's
 * length shrink (BENCHMARKS.md, "the time-indexed LP bound for the mapping problem").
 *
 * <p>Per buffer that fits the capacity: an input chooses a Copy start s in {@code [liveFirst, latestCopyStart]} or
 * a NoCopy start s in {@code [liveFirst, time]}, and occupies {@code [s, time]}; an output chooses a Copy end e in
 * {@code [earliestCopyEnd, liveLast]}, occupying {@code [time, e]}, or NoCopy over its whole live range. Its
 * occupancy at each step is the running sum of the starts (ends). Rows: at every step the sizes occupying it fit
 * the capacity, and at most one copy runs (Eq. 6: an input's copy runs over {@code [s, time)}, an output's over
 * {@code (time, e]}); a NoCopy input starting at s needs an earlier buffer of its tensor occupying {@code s - 1},
 * a NoCopy output an earlier placed buffer of its tensor; an alias group is placed whole. Every mapping is an
 * integral point of it with its reward, so the LP optimum bounds every reward from above (tested against the brute
 * force). GLOP's dual simplex solves it (times: the same section); the value is
 * rounded down after a margin of one part in a million for the solver's tolerances.
 */
public final class MmapLpBound {
    /** Relative margin added to the LP value before rounding down (GLOP's tolerances are far below it). */
    static final double MARGIN = 1e-6;

    private MmapLpBound() {
    }

    /**
     * The bound, or empty when GLOP did not prove the LP optimum by {@code deadlineNanos} ({@link System#nanoTime()}
     * terms; Long.MAX_VALUE: no deadline).
     */
    public static OptionalLong of(MmapInstance in, long deadlineNanos) {
        MPSolver s = MPSolver.createSolver("GLOP");
        if (s == null) {
            return OptionalLong.empty();
        }
        try {
            s.setSolverSpecificParametersAsString("use_dual_simplex: true");
            MPObjective objective = build(s, in);
            long delay = Long.MAX_VALUE;
            if (deadlineNanos != Long.MAX_VALUE) {
                delay = deadlineNanos - System.nanoTime();
                if (delay <= 0) {
                    return OptionalLong.empty();
                }
                s.setTimeLimit(Math.max(1, delay / 1_000_000));
            }
            MPSolver.ResultStatus status;
            // Ctrl-C stops it too (the command then writes what it has, without waiting for the bound).
            try (dev.memplan.formulations.milp.RunningSolvers.Registration r =
                         dev.memplan.formulations.milp.RunningSolvers.register(s::interruptSolve)) {
                status = Watchdog.around(deadlineNanos, dev.memplan.model.Budget.unlimited(), s::interruptSolve, s::solve);
            }
            if (status != MPSolver.ResultStatus.OPTIMAL) {
                return OptionalLong.empty();
            }
            double value = objective.value();
            return OptionalLong.of((long) Math.floor(value + MARGIN * Math.max(1.0, Math.abs(value))));
        } finally {
            s.delete();
        }
    }

    private static MPObjective build(MPSolver s, MmapInstance in) {
        int n = in.size();
        int steps = in.instructions();
        long capacity = in.capacity();
        double inf = MPSolver.infinity();
        MPConstraint[] room = new MPConstraint[steps];
        MPConstraint[] copying = new MPConstraint[steps];
        for (int t = 0; t < steps; t++) {
            room[t] = s.makeConstraint(-inf, capacity);
            copying[t] = s.makeConstraint(-inf, 1);
        }
        MPObjective objective = s.objective();
        MPVariable[] placed = new MPVariable[n];
        // occupancy[i][t]: buffer i occupies step t (null outside the steps it can occupy)
        MPVariable[][] occupancy = new MPVariable[n][];
        for (int i = 0; i < n; i++) {
            MmapBuffer b = in.buffer(i);
            boolean fits = b.size() <= capacity;
            placed[i] = s.makeNumVar(0, fits ? 1 : 0, "");
            objective.setCoefficient(placed[i], b.benefit());
            occupancy[i] = new MPVariable[steps];
            int first = b.output() ? b.time() : b.liveFirst();
            int last = b.output() ? b.liveLast() : b.time();
            for (int t = first; t <= last; t++) {
                occupancy[i][t] = s.makeNumVar(0, fits ? 1 : 0, "");
                room[t].setCoefficient(occupancy[i][t], b.size());
            }
        }
        for (int i = 0; i < n; i++) {
            if (in.buffer(i).size() > capacity) {
                continue;
            }
            MPConstraint actions = s.makeConstraint(0, 0);
            actions.setCoefficient(placed[i], -1);
            if (in.buffer(i).output()) {
                output(s, in, i, actions, placed, occupancy, copying);
            } else {
                input(s, in, i, actions, occupancy, copying);
            }
        }
        for (int i = 0; i < n; i++) {
            for (int j : in.aliasGroup(i)) {
                if (j > i) {
                    MPConstraint same = s.makeConstraint(0, 0);
                    same.setCoefficient(placed[i], 1);
                    same.setCoefficient(placed[j], -1);
                }
            }
        }
        objective.setMaximization();
        return objective;
    }

    /** An input: occupancy[t] = occupancy[t - 1] + copy start at t + NoCopy start at t; its copy runs until time. */
    private static void input(MPSolver s, MmapInstance in, int i, MPConstraint actions, MPVariable[][] occupancy,
            MPConstraint[] copying) {
        MmapBuffer b = in.buffer(i);
        double inf = MPSolver.infinity();
        int latestCopy = in.latestCopyStart(i);
        int[] earlier = in.earlierOfTensor(i);
        MPVariable before = null;
        MPVariable copyBefore = null;
        for (int t = b.liveFirst(); t <= b.time(); t++) {
            MPConstraint running = s.makeConstraint(0, 0);
            running.setCoefficient(occupancy[i][t], 1);
            if (before != null) {
                running.setCoefficient(before, -1);
            }
            MPVariable copyStart = latestCopy >= 0 && t <= latestCopy ? s.makeNumVar(0, 1, "") : null;
            if (copyStart != null) {
                running.setCoefficient(copyStart, -1);
                actions.setCoefficient(copyStart, 1);
            }
            if (earlier.length > 0 && t > 0) {
                MPConstraint source = s.makeConstraint(-inf, 0);
                boolean any = false;
                for (int j : earlier) {
                    if (occupancy[j][t - 1] != null) {
                        source.setCoefficient(occupancy[j][t - 1], -1);
                        any = true;
                    }
                }
                if (any) {
                    MPVariable noCopyStart = s.makeNumVar(0, 1, "");
                    source.setCoefficient(noCopyStart, 1);
                    running.setCoefficient(noCopyStart, -1);
                    actions.setCoefficient(noCopyStart, 1);
                }
            }
            before = occupancy[i][t];
            if (t < b.time()) {
                // The copy runs over [s, time): at step t when it started by t.
                MPVariable copy = s.makeNumVar(0, 1, "");
                MPConstraint started = s.makeConstraint(0, 0);
                started.setCoefficient(copy, 1);
                if (copyBefore != null) {
                    started.setCoefficient(copyBefore, -1);
                }
                if (copyStart != null) {
                    started.setCoefficient(copyStart, -1);
                }
                copying[t].setCoefficient(copy, 1);
                copyBefore = copy;
            }
        }
    }

    /** An output: from liveLast down, copy[t] = copy[t + 1] + copy end at t; occupancy = copy + NoCopy. */
    private static void output(MPSolver s, MmapInstance in, int i, MPConstraint actions, MPVariable[] placed,
            MPVariable[][] occupancy, MPConstraint[] copying) {
        MmapBuffer b = in.buffer(i);
        int earliestEnd = in.earliestCopyEnd(i);
        int[] earlier = in.earlierOfTensor(i);
        MPVariable noCopy = null;
        if (earlier.length > 0) {
            noCopy = s.makeNumVar(0, 1, "");
            actions.setCoefficient(noCopy, 1);
            MPConstraint source = s.makeConstraint(-MPSolver.infinity(), 0);
            source.setCoefficient(noCopy, 1);
            for (int j : earlier) {
                source.setCoefficient(placed[j], -1);
            }
        }
        MPVariable after = null;
        for (int t = b.liveLast(); t >= b.time(); t--) {
            MPVariable copy = s.makeNumVar(0, 1, "");
            MPConstraint running = s.makeConstraint(0, 0);
            running.setCoefficient(copy, 1);
            if (after != null) {
                running.setCoefficient(after, -1);
            }
            if (earliestEnd >= 0 && t >= earliestEnd) {
                MPVariable copyEnd = s.makeNumVar(0, 1, "");
                running.setCoefficient(copyEnd, -1);
                actions.setCoefficient(copyEnd, 1);
            }
            MPConstraint occupied = s.makeConstraint(0, 0);
            occupied.setCoefficient(occupancy[i][t], 1);
            occupied.setCoefficient(copy, -1);
            if (noCopy != null) {
                occupied.setCoefficient(noCopy, -1);
            }
            if (t > b.time()) {
                copying[t].setCoefficient(copy, 1);
            }
            after = copy;
        }
    }
}
