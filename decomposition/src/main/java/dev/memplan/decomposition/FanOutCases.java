package dev.memplan.decomposition;

import dev.memplan.model.Graph;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Two cases of a fan-out's rerun in {@link PeakBound}'s priced live bytes (forward direction): the bytes a rerun frees
 * at one moment are charged again at a later one.
 *
 * <p>Where two or more outputs of an operator f that may pay are live at the first run of an operator o (a gradient's
 * fan-out {@code add/backward}: its input y, dead there, and two copies of it), the priced cover may take them at one
 * byte per byte: y kept (S bytes) instead of the copies (2 S) and f run again later, for lambda c(f) = S. Let R be the
 * first run after o of an operator that reads an output of f (it exists: a live tensor is read after o). Every plan
 * is in one of two cases.
 * <ol>
 *   <li><b>No rerun of f between o and R.</b> Then an output x of f that R reads is live at o and, when off chip at o
 *       or at any first run between o and R, comes back before R by a load, after a spill: it pays its load and spill
 *       and needs no rerun. So at those moments the cover may price x at its load and spill alone, claiming none of
 *       f's rerun cost and sharing none of its inputs (the other live outputs then claim f's whole rerun). Which
 *       output R reads first is not known at o: the cover is the least over each live output of f taken as x (an R
 *       that reads more than one only raises the prices, so the least is still a bound).</li>
 *   <li><b>A rerun of f between o and R.</b> It costs lambda c(f) (at least the sum of its outputs' shares, each
 *       rounded down) at a timestep before R. The cover at any first run m at or after R charges only loads and reruns
 *       after m and spills (each once): never that rerun. So at every such m the plan pays at least that cover plus
 *       lambda c(f). Two such reruns of the same f are in disjoint intervals (a case is opened again only after its R),
 *       reruns of different operators are different timesteps: the additions sum.</li>
 * </ol>
 * The second case's rerun comes after every moment of the path up to o as well ({@link #ahead}): at such a moment m
 * the plan pays, after m, at least m's cover with f's reruns taken as paid (their shares 0, so that cover charges
 * none of them; the bonus charges reruns before m), plus one rerun of f. Each state keeps, per fan-out that has run,
 * the most of these over its path (at f's own run, the state's value: no cover before it charges f), the least of
 * them where two paths meet; where f's second case opens, the state's value rises to it. (resnet50:train M_H: the
 * path's peak came at the first run of {@code layer4.0.conv1/grad_weight} under f's first case, and the second case
 * opened later, at {@code layer3.5.conv3/grad_weight}, charged its rerun only to the low moments after its reader.)
 * The dynamic program follows both: at a moment where the first case's cover is higher than the cover without cases
 * and than the state's value, the state splits into one per case, the case kept in the state's key until
 * R runs; then the second case's lambda c(f) is added to the state's bonus, charged at every later moment (and at R's
 * own), and the first case's assumption ends. A state keeps at most {@link #MOST_OPEN} open cases; one that cannot open
 * another assumes nothing about it (the plain cover), which is always a bound. Each state's value is then a lower bound
 * on what every plan following its order and its cases pays, and every plan follows one of the states: the bound holds
 * over every plan, reruns allowed.
 *
 * <p>A state's extra words: the fan-outs whose second case is open, those whose first is open (one bit per fan-out,
 * at most 64 fan-outs, else no cases), and the bonus.
 */
final class FanOutCases {
    /** Most cases open at once in one state (each first case multiplies the covers by its live outputs). */
    static final int MOST_OPEN = 2;
    /**
     * A fan-out's cases are followed only where its rerun costs at least 1/LEAST_PART of its outputs' loads and spills.
     * Its cases raise the bound by at most its rerun's cost (the second case adds that to the cover the state had), so
     * where recomputing is cheap (lambda 2^-8) they cost the program work (fewer layers within its share: r2plus1d18
     * M_H and resnext50 at 2^-8 came out lower) for a few bytes at most.
     */
    static final int LEAST_PART = 16;

    private final Graph g;
    private final PeakBound.Cheap cheap;
    /** The fan-outs: operators that may pay with two or more outputs of positive size. */
    private final int[] fanOuts;
    /** Per fan-out, lambda c(f) as its outputs' shares rounded down. */
    private final long[] cost;
    /** Per operator, the fan-outs one of whose outputs it reads, as a bit mask. */
    private final long[] reads;
    private final int words;
    /** Covers computed since the last {@link #takeExtra}, for the meter. */
    private long extra;

    /** Whether a second case also charges the path's moments before it ({@link #ahead}). */
    private final boolean charged;

    private FanOutCases(Graph g, PeakBound.Cheap cheap, int[] fanOuts, boolean charged) {
        this.g = g;
        this.charged = charged;
        this.cheap = cheap;
        this.fanOuts = fanOuts;
        words = (g.operatorCount() + 63) / 64;
        cost = new long[fanOuts.length];
        reads = new long[g.operatorCount()];
        for (int i = 0; i < fanOuts.length; i++) {
            for (int x : g.outputs(fanOuts[i])) {
                cost[i] += Math.max(0, cheap.rerun()[x]);
                for (int c : g.consumers(x)) {
                    reads[c] |= 1L << i;
                }
            }
        }
    }

    /**
     * The cases of g's fan-outs under {@code cheap}'s prices, or null when g has none whose rerun costs enough
     * ({@link #LEAST_PART}) or more than 64.
     */
    static FanOutCases of(Graph g, PeakBound.Cheap cheap) {
        return of(g, cheap, true);
    }

    /** As above; without {@code ahead} a second case charges only the moments from its reader on (for tests). */
    static FanOutCases of(Graph g, PeakBound.Cheap cheap, boolean ahead) {
        List<Integer> list = new ArrayList<>();
        for (int f = 0; f < g.operatorCount(); f++) {
            int sized = 0;
            boolean pays = true;
            long rerun = 0;
            long full = 0;
            for (int x : g.outputs(f)) {
                sized += g.size(x) > 0 ? 1 : 0;
                pays &= cheap.rerun()[x] >= 0;
                rerun += Math.max(0, cheap.rerun()[x]);
                full += 2 * g.size(x);
            }
            if (sized >= 2 && pays && rerun * LEAST_PART >= full) {
                list.add(f);
            }
        }
        return list.isEmpty() || list.size() > 64 ? null
                : new FanOutCases(g, cheap, list.stream().mapToInt(Integer::intValue).toArray(), ahead);
    }

    /** A state's bits: the done set's words and the three extra ones, all zero. */
    long[] start() {
        return new long[words + 3];
    }

    long bonus(long[] state) {
        return state[words + 2];
    }

    /** Covers computed since the last call (each a step of every priced tensor for the meter). */
    long takeExtra() {
        long e = extra;
        extra = 0;
        return e;
    }

    /** Operator o runs into {@code after}: the open cases of the fan-outs it reads end, a rerun's cost is added. */
    void close(long[] after, int o) {
        long closing = reads[o] & (after[words] | after[words + 1]);
        for (int i = 0; i < fanOuts.length; i++) {
            if ((after[words] & closing & (1L << i)) != 0) {
                after[words + 2] += cost[i];
            }
        }
        after[words] &= ~closing;
        after[words + 1] &= ~closing;
    }

    /** The cover at o's first run from {@code done} under {@code state}'s first cases (least over their choices). */
    long cover(long[] done, long[] state, int o, long excess, long floor, long target) {
        return cover(done, o, excess, floor, target, state[words + 1]);
    }

    /**
     * The fan-out whose first case raises the cover at o above {@code plain} the most, and that cover: {index, cover},
     * or null when none does or the state has {@link #MOST_OPEN} cases open.
     */
    long[] split(long[] done, long[] state, int o, long excess, long floor, long target, long plain) {
        long open = state[words] | state[words + 1];
        if (Long.bitCount(open) >= MOST_OPEN) {
            return null;
        }
        long[] best = null;
        for (int i = 0; i < fanOuts.length; i++) {
            if ((open & (1L << i)) == 0 && PeakBound.has(done, fanOuts[i]) && liveOutputs(done, o, i).length >= 2) {
                long c = cover(done, o, excess, floor, target, state[words + 1] | 1L << i);
                if (c > plain && (best == null || c > best[1])) {
                    best = new long[] {i, c};
                }
            }
        }
        return best;
    }

    /**
     * Per fan-out, a lower bound on what a plan following the path to o's first run (in {@code state}'s cases) pays
     * if it runs that fan-out again after o: {@code before} (the path's values before o, null at the start) raised
     * for o's moment. A fan-out f that has not run is left out (0); at f's own run its value is the moment's
     * {@code value} plus f's cost: no cover up to there charges a rerun of f (its outputs are not live, none is a
     * needed input). At a later moment where an output of f is live, the moment's cover with f's reruns taken as
     * paid (their shares 0) plus the state's bonus plus f's cost: the plan pays the traffic and reruns other than
     * f's after the moment, the reruns before it that the bonus charges, and at least one rerun of f after it.
     * So when f's second case opens at a later moment (a rerun of f after it), the state's value may rise to f's.
     */
    long[] ahead(long[] before, long[] done, long[] state, int o, long excess, long value, long floor, long target) {
        long[] a = before == null ? new long[fanOuts.length] : before.clone();
        for (int i = 0; charged && i < fanOuts.length; i++) {
            if (fanOuts[i] == o) {
                a[i] = value + cost[i];
            } else if (excess > 0 && PeakBound.has(done, fanOuts[i]) && liveOutputs(done, o, i).length > 0) {
                cheap.paid(fanOuts[i]);
                try {
                    a[i] = Math.max(a[i], cover(done, o, excess, floor, target, state[words + 1]) + bonus(state)
                            + cost[i]);
                } finally {
                    cheap.paid(-1);
                }
            }
        }
        return a;
    }

    /** {@code state} with fan-out i's case open: the second (a rerun before R) or the first (none). */
    long[] open(long[] state, int i, boolean rerun) {
        long[] s = state.clone();
        s[words + (rerun ? 0 : 1)] |= 1L << i;
        return s;
    }

    /** The least cover over one live output of each fan-out in {@code firstCases} priced at its load alone. */
    private long cover(long[] done, int o, long excess, long floor, long target, long firstCases) {
        List<int[]> choices = new ArrayList<>();
        for (int i = 0; i < fanOuts.length; i++) {
            if ((firstCases & (1L << i)) != 0) {
                int[] live = liveOutputs(done, o, i);
                if (live.length > 0) {
                    choices.add(live);
                }
            }
        }
        long least = Long.MAX_VALUE;
        int[] pick = new int[choices.size()];
        int combos = 1;
        for (int[] c : choices) {
            combos *= c.length;
        }
        for (int k = 0; k < combos; k++) {
            int rest = k;
            for (int j = 0; j < pick.length; j++) {
                pick[j] = choices.get(j)[rest % choices.get(j).length];
                rest /= choices.get(j).length;
            }
            least = Math.min(least, cheap.cover(done, o, false, excess, floor, target, pick.clone()));
            extra++;
        }
        return least;
    }

    /** Fan-out i's outputs of positive size live at o's first run from {@code done}, not o's own. */
    private int[] liveOutputs(long[] done, int o, int i) {
        int[] own = PeakBound.own(g, o);
        return Arrays.stream(g.outputs(fanOuts[i])).filter(x -> g.size(x) > 0
                && Arrays.stream(own).noneMatch(y -> y == x) && PeakBound.isLive(g, x, done, false)).toArray();
    }
}
