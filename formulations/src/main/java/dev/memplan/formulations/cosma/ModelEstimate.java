package dev.memplan.formulations.cosma;

import dev.memplan.model.Graph;
import dev.memplan.model.HeapRoom;
import java.time.Duration;
import java.util.Locale;

/**
 * The size of a {@link CosmaFormulation} before it is built: variables, constraints and nonzeros counted from the
 * lifetime windows ({@link OperatorWindows}) family by family, and what building and handing it to a solver costs
 * in heap bytes and seconds. A model that would not fit in the heap, or could not be built and solved in the time
 * left, is skipped instead of ending the run with an OutOfMemoryError or an overrun limit.
 *
 * <p>The counts follow the constraint families of CosmaFormulation: per tensor-timestep of a window, the address
 * L, P, R, S and about a dozen nonzeros of eq. 1-3 and 11 and the byte row; eq. 4 and the last-use rows grow with
 * the square of a window; per operator-timestep, C and its nonzeros in eq. 5-7; per pair of tensors that can be
 * resident at the same timestep, u and d and the 18 nonzeros of eq. 10. Pairs are counted exactly (with
 * {@link OperatorWindows#canCoexist}) while that takes at most {@link #PAIR_CHECKS} checks, else bounded from
 * above by every pair of tensors whose windows meet. The formulation's per-tensor, per-timestep variable tables
 * (five of them, 4 bytes per cell) count too: on 20,000 operators they alone need 8 GB. Time O(n + sum of
 * squared window lengths) plus the pair checks.
 *
 * @param variables variables of the model
 * @param constraints constraints of the model
 * @param nonzeros coefficients in the constraints
 * @param bytes heap bytes of the built model and its translation for the solver
 */
public record ModelEstimate(long variables, long constraints, long nonzeros, long bytes) {
    /** Above this many coexistence checks the pairs are bounded rather than counted. */
    static final long PAIR_CHECKS = 20_000_000L;
    /**
     * Heap bytes per variable, constraint and nonzero of the built model and its solver translation (Java objects,
     * names, the expression maps, the CP-SAT or MPSolver copy), fitted on the zoo (BENCHMARKS.md, "Figures moved
     * out of the Javadoc").
     */
    static final long BYTES_PER_VARIABLE = 200;
    static final long BYTES_PER_CONSTRAINT = 250;
    static final long BYTES_PER_NONZERO = 110;
    /**
     * Nonzeros built per second, the Java model and the solver's copy together (the measured paces: BENCHMARKS.md,
     * "Figures moved out of the Javadoc"). Optimistic on purpose: the
     * estimate only rules out what cannot be built even at an idle machine's pace, and the
     * {@link dev.memplan.formulations.milp.BuildGuard} follows the actual pace and abandons a build that falls behind.
     */
    static final long NONZEROS_PER_SECOND = 400_000;
    /**
     * The heap a recompute program's solve needs at its peak, in multiples of its model's bytes at the rates above:
     * CP-SAT's Java copy (its proto builders and the serialized model handed to the native solver) sits beside the
     * Java model. The least -Xmx that solved a program lay between 1.7 and 2.8 times its model's bytes at these rates
     * (BENCHMARKS.md, "The recompute programs held to the heap"); 3 keeps a margin.
     */
    static final long RECOMPUTE_PEAK = 3;

    /** The estimate of the formulation of these arguments (see CosmaFormulation's constructor). */
    public static ModelEstimate of(Graph g, OperatorWindows windows, boolean free, boolean addresses) {
        int n = g.operatorCount();
        int nt = g.tensorCount();
        long vars = 0;
        long cons = 0;
        long nz = 0;
        long[] residentAt = new long[n + 1];
        for (int o = 0; free && o < n; o++) {
            long w = windows.latest(o) - windows.earliest(o) + 1;
            vars += w;
            // one per timestep, once (eq. 7), precedence per input
            nz += 2 * w;
            cons += 1;
            for (int a : g.inputs(o)) {
                int p = g.producer(a);
                long wp = p < 0 ? 0 : windows.latest(p) - windows.earliest(p) + 1;
                nz += w + wp + 3 * w;
                cons += 1 + w;
            }
        }
        if (free) {
            cons += n;
        }
        for (int a = 0; a < nt; a++) {
            int first = windows.tensorFirst(a);
            int last = windows.tensorLast(a);
            if (first > last) {
                continue;
            }
            long w = last - first + 1;
            residentAt[Math.max(0, first)]++;
            residentAt[Math.min(n, last + 1)]--;
            vars += (addresses ? w : 0) + (g.consumers(a).length > 0 ? 3 * w : 0);
            cons += 6 * w + (addresses ? 2 * w : 0);
            nz += 15 * w + (addresses ? 8 * w : 0);
            // eq. 4 (loads after the spills so far) and the last-use rows (readers that run at t or later)
            long readersWindow = 0;
            for (int c : g.consumers(a)) {
                readersWindow += windows.latest(c) - windows.earliest(c) + 1;
            }
            nz += w * (w + 1) / 2 + w * Math.min(readersWindow, free ? readersWindow : 1);
        }
        if (addresses) {
            long pairs = pairs(g, windows, residentAt);
            vars += 2 * pairs;
            cons += 4 * pairs;
            nz += 18 * pairs;
        }
        long tables = 5L * nt * n * 4 + (free ? (long) n * n * 4 : 0);
        long bytes = tables + saturatingSum(vars * BYTES_PER_VARIABLE, cons * BYTES_PER_CONSTRAINT,
                nz * BYTES_PER_NONZERO);
        return new ModelEstimate(vars, cons, nz, bytes);
    }

    /**
     * The estimate of a {@link RecomputeFormulation} over these windows, family by family as the formulation adds
     * them (its variables exactly, its rows and nonzeros from above: it does not see the terms an expression merges nor
     * the rows that fold to a constant), with its tables
     * (the variable tables, and the state and offset tables of a hint: 32 bytes per tensor-slot and operator-slot)
     * and the eq. 10 pairs ({@link RecomputeWindows#addressPairs()}: two variables, four rows, about 16 nonzeros and
     * a 40-byte record each). The model's heap bytes at COSMA's rates per variable, constraint and nonzero, times
     * {@link #RECOMPUTE_PEAK} for the peak of its solve (the Java model with CP-SAT's copy beside it). Time
     * O((n + m) T + m^2).
     */
    static ModelEstimate ofRecompute(RecomputeWindows w, boolean addresses) {
        Graph g = w.graph;
        int n = w.n;
        int slots = w.slots;
        long vars = 0;
        long cons = 0;
        long nz = 0;
        // Runs: F, X, D and Z; eq. 7, first <= run, the D chain, no run before the first, the Z chain.
        long[] runsAt = new long[slots + 1];
        for (int o = 0; o < n; o++) {
            long firsts = w.firstHi[o] - w.firstLo[o] + 1;
            long runs = w.runHi[o] - w.firstLo[o] + 1;
            runsAt[w.firstLo[o]]++;
            runsAt[w.runHi[o] + 1]--;
            vars += firsts + (firsts - 1) + (w.again[o] ? 2 * runs : 0);
            cons += 1 + (firsts - 1);
            nz += firsts + Math.max(0, 3 * (firsts - 1) - 1);
            if (w.again[o]) {
                long early = Math.max(0, Math.min(w.runHi[o], w.firstHi[o] - 1) - w.firstLo[o] + 1);
                cons += firsts + early + runs;
                nz += 2 * firsts + 2 * early + 3 * runs - 1;
            }
            // Producers run first (every input of every run), and each run reads its inputs from a segment.
            for (int a : g.inputs(o)) {
                int p = g.producer(a);
                if (p >= 0) {
                    long rows = Math.max(0, Math.min(w.runHi[o], w.firstHi[p]) - w.firstLo[o] + 1);
                    cons += rows;
                    nz += 2 * rows;
                }
                cons += runs;
                nz += 3 * runs;
            }
        }
        // One run per slot; the idle slots last.
        long busy = 0;
        long[] count = new long[slots + 1];
        for (int t = 0; t < slots; t++) {
            busy += runsAt[t];
            count[t] = busy;
            nz += busy;
        }
        cons += slots + Math.max(0, slots - n - 1);
        for (int t = n; t + 1 < slots; t++) {
            nz += count[t] + count[t + 1];
        }
        if (w.fixedOrder != null) {
            for (int i = 0; i + 1 < n; i++) {
                int next = w.fixedOrder[i + 1];
                long rows = w.firstHi[next] - w.firstLo[next];
                cons += rows;
                nz += 2 * rows;
            }
        }
        // Residency: L, P, R, S; eq. 1, 2, 4, 8, the last use; the bytes within the budget at each slot.
        long cells = 0;
        for (int a = 0; a < w.m; a++) {
            if (w.resLo[a] > w.resHi[a]) {
                continue;
            }
            long span = w.resHi[a] - w.resLo[a] + 1;
            cells += span;
            boolean read = g.consumers(a).length > 0;
            int p = g.producer(a);
            long loads = !read ? 0 : p < 0 ? span : Math.max(0, w.resHi[a] - Math.max(w.resLo[a], w.firstLo[p] + 1) + 1);
            long kept = read ? span - 1 : 0;
            vars += (addresses ? span : 0) + kept + loads + (read && !g.isHost(a) ? 1 : 0);
            // eq. 1 where two ways meet, eq. 2 per kept slot, eq. 4 and 8 per load, the last-use row per slot.
            cons += (read ? span : 0) + kept + (g.isHost(a) ? 0 : 2 * loads) + (read ? span : 0);
            nz += (read ? 3 * span : 0) + 4 * kept + (g.isHost(a) ? 0 : 4 * loads)
                    + (read ? span * (2L + g.consumers(a).length) : 0) + 3 * span;
            if (addresses && kept > 0) {
                // eq. 11: two rows of three terms per kept slot.
                cons += 2 * kept;
                nz += 6 * kept;
            }
        }
        cons += slots;
        long pairs = addresses ? w.addressPairs() : 0;
        vars += 2 * pairs;
        cons += 4 * pairs;
        nz += 16 * pairs;
        long tables = 32L * ((long) n + w.m) * slots + 40 * pairs;
        long model = saturatingSum(vars * BYTES_PER_VARIABLE, cons * BYTES_PER_CONSTRAINT, nz * BYTES_PER_NONZERO);
        long bytes = saturatingSum(tables, model > Long.MAX_VALUE / RECOMPUTE_PEAK ? Long.MAX_VALUE
                : model * RECOMPUTE_PEAK);
        return new ModelEstimate(vars, cons, nz, bytes);
    }

    /** Pairs of tensors that can be resident at the same timestep, summed over timesteps. */
    private static long pairs(Graph g, OperatorWindows windows, long[] delta) {
        int n = g.operatorCount();
        long bound = 0;
        long live = 0;
        for (int t = 0; t < n; t++) {
            live += delta[t];
            bound += live * (live - 1) / 2;
        }
        if (bound > PAIR_CHECKS) {
            return bound;
        }
        // A sweep over timesteps with the tensors resident at each, not every tensor at every timestep (BENCHMARKS.md,
        // "a faster minimum-peak scheduler"): the work is the bound above, plus n.
        int nt = g.tensorCount();
        Integer[] byFirst = java.util.stream.IntStream.range(0, nt)
                .filter(a -> windows.tensorFirst(a) <= windows.tensorLast(a)).boxed().toArray(Integer[]::new);
        java.util.Arrays.sort(byFirst, java.util.Comparator.comparingInt(a -> Math.max(0, windows.tensorFirst(a))));
        int[] active = new int[nt];
        int count = 0;
        int next = 0;
        long pairs = 0;
        for (int t = 0; t < n; t++) {
            while (next < byFirst.length && Math.max(0, windows.tensorFirst(byFirst[next])) <= t) {
                active[count++] = byFirst[next++];
            }
            int kept = 0;
            for (int i = 0; i < count; i++) {
                if (windows.tensorLast(active[i]) >= t) {
                    active[kept++] = active[i];
                }
            }
            count = kept;
            for (int i = 0; i < count; i++) {
                for (int j = i + 1; j < count; j++) {
                    if (windows.canCoexist(active[i], active[j], t)) {
                        pairs++;
                    }
                }
            }
        }
        return pairs;
    }

    private static long saturatingSum(long... terms) {
        long sum = 0;
        for (long term : terms) {
            sum = term < 0 || sum > Long.MAX_VALUE - term ? Long.MAX_VALUE : sum + term;
        }
        return sum;
    }

    /** The time building this model takes (its Java objects and the solver's copy). */
    public Duration buildTime() {
        return Duration.ofMillis(nonzeros / (NONZEROS_PER_SECOND / 1000));
    }

    /**
     * Why this model is not built given the heap still free and the time left (null for none), or null when it
     * may be: it must fit in the free heap, and building it may take at most half of the time left (the solver
     * needs the rest).
     */
    public String whyNot(long freeHeap, Duration left) {
        if (bytes > freeHeap) {
            return String.format("needs about %d MB, the heap has %d MB free", bytes >> 20, freeHeap >> 20);
        }
        if (left != null && buildTime().multipliedBy(dev.memplan.model.Shares.BUILD_DIVISOR).compareTo(left) > 0) {
            return String.format("building it takes about %.1f s, %.1f s left", buildTime().toMillis() / 1e3,
                    left.toMillis() / 1e3);
        }
        return null;
    }

    /**
     * Under a work limit ({@code workLeft} units left): whether the model is skipped, judged against half the heap the JVM may grow to (-Xmx)
     * rather than what is free now, so that the decision, and every plan after it, does not depend on when the
     * garbage collector last ran (nor on other cases in the JVM: a model that fits waits for their room,
     * {@link HeapRoom#reserve}). A model that passes and still does not fit is abandoned while building (the build
     * catches the OutOfMemoryError) with a note.
     */
    public String whyNotUnderWork(long maxHeap, double workLeft) {
        if (HeapRoom.capped() && bytes > HeapRoom.workRoom()) {
            return String.format("needs about %d MB, more than %s", bytes >> 20, HeapRoom.workRoomWords());
        }
        if (bytes > maxHeap / 2) {
            return String.format("needs about %d MB, more than half of the %d MB heap (the room a model gets under a"
                    + " work limit; give more with MEMPLAN_JAVA_OPTS=-Xmx...)", bytes >> 20, maxHeap >> 20);
        }
        // The build's estimated seconds against the work left, a unit read as a second (one unit takes about a
        // second on the reference machine): a decision from the budget's numbers, never from the clock, and said
        // in units, not seconds.
        Duration left = Duration.ofNanos(Math.round(Math.min(workLeft, 1e9) * 1e9));
        if (buildTime().multipliedBy(dev.memplan.model.Shares.BUILD_DIVISOR).compareTo(left) > 0) {
            return String.format(Locale.ROOT, "building it takes about %.1f units of work (at %,d nonzeros a unit),"
                    + " more than 1/%d of the %.1f units left", buildTime().toMillis() / 1e3, NONZEROS_PER_SECOND,
                    dev.memplan.model.Shares.BUILD_DIVISOR, workLeft);
        }
        return null;
    }

    @Override
    public String toString() {
        return String.format("about %d vars / %d cons / %d nonzeros, %d MB", variables, constraints, nonzeros,
                bytes >> 20);
    }
}
