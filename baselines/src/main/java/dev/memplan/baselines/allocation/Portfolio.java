package dev.memplan.baselines.allocation;

import dev.memplan.baselines.allocation.heuristics.BestFitAllocator;
import dev.memplan.baselines.allocation.heuristics.GreedyBySizeAllocator;
import dev.memplan.baselines.allocation.heuristics.TfliteArenaAllocator;
import dev.memplan.baselines.allocation.minimalloc.MiniMallocAllocator;
import dev.memplan.baselines.allocation.telamalloc.SkylineAllocator;
import dev.memplan.formulations.placement.PlacementCpSat;
import dev.memplan.model.Allocation;
import dev.memplan.model.BufferChecker;
import dev.memplan.model.BufferSet;
import dev.memplan.model.Limits;
import dev.memplan.model.LoadBound;
import dev.memplan.model.Placement;
import dev.memplan.model.Shares;
import dev.memplan.model.SolveStatus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The default allocator ({@code --allocator auto}): the fast heuristics first (greedy by size, best fit,
 * TFLite's arena and the skyline, each O(n log n); times: BENCHMARKS.md, "Allocation at production scale"), the
 * lowest packing kept; the max-load lower bound L ({@link LoadBound}); OPTIMAL as soon as a height meets L;
 * under a time limit the skyline first, then restarted in other orders ({@link SkylineRestarts}) for up to half
 * of the time left; otherwise the best height handed to MiniMalloc as its starting upper bound, the restarts
 * again with what MiniMalloc leaves, and on small sets (up to {@value #CP_SAT_MAX} buffers) CP-SAT with the best
 * as its hint, within the limits. The answer is never above the best heuristic's height, and every placement is checked.
 *
 * <p>Which members run depends only on the input (its size, the bound); the time limit stops the exact searches
 * and the heuristics too (every heuristic after the first at half of the time left, so that MiniMalloc keeps
 * some), and decides how many restarts run, so the best height found may depend on the clock. Without a time
 * limit the exact searches get {@link #DEFAULT_EXACT_SECONDS} seconds, said in the log. Under a work limit
 * ({@link Limits#workMode()}) no restart runs, MiniMalloc counts search nodes and CP-SAT deterministic time, each
 * on one thread, so the answer is the same on every run; the clock (the command's deadline) only guards.
 */
public final class Portfolio {
    public static final String NAME = "auto";
    /** CP-SAT after MiniMalloc on sets up to this size. */
    public static final int CP_SAT_MAX = 400;

    /**
     * Whether CP-SAT can run; when OR-Tools' natives cannot load, a log line says that its stage is skipped and why
     * (MiniMalloc then gets its whole share), rather than ending a run whose packing is already in hand.
     */
    private static boolean nativesOrSkip(List<String> log) {
        if (dev.memplan.formulations.milp.Solvers.nativeAvailable()) {
            return true;
        }
        log.add("cpsat: skipped: OR-Tools' native libraries cannot be loaded on this Java runtime ("
                + dev.memplan.formulations.milp.Solvers.nativeFailure() + ")");
        return false;
    }
    /** The exact searches' time when the caller gives no time limit. */
    public static final int DEFAULT_EXACT_SECONDS = 60;

    /** The answer, its lower bound, the member that found the packing kept, and what each member did. */
    public record Outcome(Allocation allocation, long lowerBound, String winner, List<String> log) {
    }

    private Portfolio() {
    }

    /** The least height the portfolio finds for {@code buffers}. */
    public static Outcome minimize(BufferSet buffers, Limits limits) {
        long start = System.nanoTime();
        long deadline = deadline(start, limits);
        long bound = LoadBound.of(buffers);
        List<String> log = new ArrayList<>();
        Placement best = null;
        String winner = null;
        SkylineRestarts restarts = null;
        // Under a time limit the skyline goes first, and its restarts in other orders ({@link SkylineRestarts}) take
        // up to half of the time left before the other heuristics: it is the fastest (0.4 s where greedy by size
        // takes 3 s, 16 s under load, on gen:heap:28526) and rarely the worst. The answer is the listed order's
        // whenever the clock cuts no heuristic and no restart is lower: ties go to the earlier listed member, and
        // the members listed before the winner still run when it meets L. Under a work limit no restart runs (how
        // many fit depends on the clock) and the order is the listed one.
        List<Member> order = limits.workMode() ? HEURISTICS : SKYLINE_FIRST;
        for (Member m : order) {
            if (best != null && best.height() == bound && rank(winner) < rank(m.name)) {
                break;
            }
            long t0 = System.nanoTime();
            Placement p = m.run(buffers, best == null ? deadline : halfway(deadline, limits), limits, log);
            if (p == null) {
                continue;
            }
            long took = System.nanoTime() - t0;
            if (best == null || p.height() < best.height()
                    || p.height() == best.height() && rank(m.name) < rank(winner)) {
                best = p;
                winner = m.name;
            }
            if (m.name.equals(SKYLINE) && !limits.workMode() && best.height() > bound) {
                restarts = new SkylineRestarts(buffers, bound, took);
                Placement r = restarts.improve(best, halfway(deadline, limits));
                if (r != null) {
                    best = r;
                    winner = RESTART;
                }
            }
        }
        boolean proven = best != null && best.height() == bound;
        boolean cpSat = buffers.size() <= CP_SAT_MAX && !proven && best != null && nativesOrSkip(log);
        if (!proven && best != null) {
            if (timeLeft(deadline, limits)) {
                long t0 = System.nanoTime();
                // Under a work limit MiniMalloc gets its share of the work (half when CP-SAT follows), else the time.
                Allocation a = new MiniMallocAllocator().minimize(buffers, exact(limits, deadline, cpSat ? Shares.MINIMALLOC_BEFORE_CPSAT : 1.0), best);
                if (a.solved() && a.placement().height() < best.height()) {
                    best = a.placement();
                    winner = "minimalloc";
                }
                proven = a.status() == SolveStatus.OPTIMAL || best.height() == bound;
                log.add("minimalloc: " + a.status() + (a.solved() ? " height " + a.placement().height() : "")
                        + seconds(t0) + (a.note() != null ? " (" + a.note() + ")" : ""));
            }
        }
        if (restarts != null) {
            // MiniMalloc returns early where its search would not fit in the heap: the restarts take the rest.
            if (!proven && timeLeft(deadline, limits)) {
                Placement p = restarts.improve(best, deadline);
                if (p != null) {
                    best = p;
                    winner = RESTART;
                    proven = best.height() == bound;
                }
            }
            log.add(restarts.summary());
        }
        if (!proven && best != null && cpSat && timeLeft(deadline, limits)) {
            long t0 = System.nanoTime();
            Allocation a = PlacementCpSat.minimumHeightCalibrated(buffers, best, exact(limits, deadline, 1.0));
            if (a.solved() && a.placement().height() < best.height()) {
                best = a.placement();
                winner = "cpsat";
            }
            proven = a.status() == SolveStatus.OPTIMAL;
            log.add("cpsat: " + a.status() + (a.solved() ? " height " + a.placement().height() : "") + seconds(t0)
                    + (a.note() != null ? " (" + a.note() + ")" : ""));
        }
        if (!limits.budget().limited() && !proven) {
            log.add("no --time-limit: the exact searches had " + DEFAULT_EXACT_SECONDS + " s");
        }
        double s = (System.nanoTime() - start) / 1e9;
        if (best == null) {
            return new Outcome(new Allocation(SolveStatus.UNKNOWN, null, s, "no member finished within the time limit"),
                    bound, null, log);
        }
        BufferChecker.requireValid(best, best.height(), NAME + "/" + winner);
        return new Outcome(new Allocation(proven ? SolveStatus.OPTIMAL : SolveStatus.FEASIBLE, best, s), bound, winner,
                log);
    }

    /**
     * A packing below {@code capacity}: the heuristics first, then MiniMalloc's complete search (which may prove
     * that none exists); INFEASIBLE at once when L exceeds the capacity.
     */
    public static Outcome allocate(BufferSet buffers, long capacity, Limits limits) {
        long start = System.nanoTime();
        long deadline = deadline(start, limits);
        long bound = LoadBound.of(buffers);
        List<String> log = new ArrayList<>();
        if (bound > capacity) {
            log.add("max load " + bound + " > capacity " + capacity);
            return new Outcome(new Allocation(SolveStatus.INFEASIBLE, null, (System.nanoTime() - start) / 1e9,
                    "at some moment " + bound + " bytes are live, more than the capacity " + capacity), bound, null, log);
        }
        for (Member m : HEURISTICS) {
            Placement p = m.run(buffers, deadline, limits, log);
            if (p != null && p.height() <= capacity) {
                BufferChecker.requireValid(p, capacity, NAME + "/" + m.name);
                return new Outcome(new Allocation(SolveStatus.FEASIBLE, p, (System.nanoTime() - start) / 1e9), bound,
                        m.name, log);
            }
        }
        if (!timeLeft(deadline, limits)) {
            return new Outcome(new Allocation(SolveStatus.UNKNOWN, null, (System.nanoTime() - start) / 1e9,
                    "no heuristic fits and no time is left"), bound, null, log);
        }
        long t0 = System.nanoTime();
        Allocation a = MiniMallocAllocator.counted().allocate(buffers, capacity, exact(limits, deadline, 1.0));
        log.add("minimalloc: " + a.status() + seconds(t0));
        Allocation whole = new Allocation(a.status(), a.placement(), (System.nanoTime() - start) / 1e9, a.note());
        return new Outcome(whole, bound, a.solved() ? "minimalloc" : null, log);
    }

    /** How a heuristic packs: the buffers, and the {@link System#nanoTime()} deadline; null when stopped by it. */
    private interface Pack {
        Placement pack(BufferSet buffers, long deadlineNanos);
    }

    /** A heuristic of the portfolio. */
    private record Member(String name, Pack pack) {
        /**
         * Its packing (null when stopped by the deadline, which under a work limit makes the result the machine's),
         * with a line in the log either way.
         */
        Placement run(BufferSet buffers, long deadline, Limits limits, List<String> log) {
            long t0 = System.nanoTime();
            Placement p = deadline != Long.MAX_VALUE && t0 - deadline > 0 ? null : pack.pack(buffers, deadline);
            if (p == null && limits.workMode()) {
                limits.budget().markWallStop();
            }
            log.add(name + (p == null ? ": stopped at the time limit" : ": height " + p.height() + seconds(t0)));
            return p;
        }
    }

    private static final String SKYLINE = "skyline";
    private static final String RESTART = "skyline restart";

    private static final List<Member> HEURISTICS = List.of(
            new Member(GreedyBySizeAllocator.NAME, (b, d) -> new GreedyBySizeAllocator().pack(b, d)),
            new Member(BestFitAllocator.NAME, (b, d) -> new BestFitAllocator().pack(b, d)),
            new Member(TfliteArenaAllocator.NAME, (b, d) -> new TfliteArenaAllocator().pack(b, d)),
            new Member(SKYLINE, (b, d) -> new SkylineAllocator().pack(b, d)));

    private static final List<Member> SKYLINE_FIRST = List.of(HEURISTICS.get(3), HEURISTICS.get(0), HEURISTICS.get(1),
            HEURISTICS.get(2));

    /** A heuristic's place in {@link #HEURISTICS}, which decides ties; a restart ranks after them all. */
    private static int rank(String member) {
        if (member.equals(RESTART)) {
            return HEURISTICS.size();
        }
        for (int i = 0; i < HEURISTICS.size(); i++) {
            if (HEURISTICS.get(i).name.equals(member)) {
                return i;
            }
        }
        throw new IllegalArgumentException(member);
    }

    /**
     * The deadline of a heuristic that runs once a packing exists: 1/{@link Shares#LATER_HEURISTIC_DIVISOR} of the
     * time left, so that the later heuristics, each of which can take tens of seconds where thousands of buffers are
     * live at once (gen:heap, BENCHMARKS.md "Wall-clock limits over the whole command"), leave MiniMalloc time. The first heuristic may take
     * all of it (a packing is needed). Under a work limit the deadline is the clock's guard, unchanged, so which
     * heuristics finish does not depend on the machine.
     */
    private static long halfway(long deadline, Limits limits) {
        if (limits.workMode() || deadline == Long.MAX_VALUE) {
            return deadline;
        }
        long now = System.nanoTime();
        return now + Math.max(0, deadline - now) / Shares.LATER_HEURISTIC_DIVISOR;
    }

    /** Whether the exact searches may still run: work left under a work limit, else time before the deadline. */
    private static boolean timeLeft(long deadline, Limits limits) {
        return limits.workMode() ? !limits.stopped() : deadline - System.nanoTime() > 0;
    }

    /**
     * The limits of an exact search: under a work limit, {@code share} of the work left (the wall end stays the
     * outer guard); else the time to the deadline.
     */
    private static Limits exact(Limits limits, long deadline, double share) {
        if (limits.workMode()) {
            return limits.child(share);
        }
        return limits.upTo(Math.max(1, deadline - System.nanoTime()));
    }

    /**
     * When the heuristics and searches must stop by the clock: under a work limit the command's wall deadline
     * (none: never), else the time limit, or {@link #DEFAULT_EXACT_SECONDS} without one.
     */
    private static long deadline(long start, Limits limits) {
        Duration wall = limits.budget().wallLeft();
        if (wall == null) {
            return limits.workMode() ? Long.MAX_VALUE : start + DEFAULT_EXACT_SECONDS * 1_000_000_000L;
        }
        return start + Math.min(wall.toNanos(), Long.MAX_VALUE / 4);
    }

    private static String seconds(long t0) {
        return String.format(java.util.Locale.ROOT, ", %.2f s", (System.nanoTime() - t0) / 1e9);
    }
}
