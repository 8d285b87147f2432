package dev.memplan.decomposition;

import dev.memplan.decomposition.PeakBound.Key;
import dev.memplan.model.Graph;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A lower bound on the non-compulsory traffic of every plan with a free schedule that sums over time: the excess of
 * several timesteps of an order, each byte of a reload charged at one of them only (issue 35, item 2).
 *
 * <p>The argument. Fix a plan and its order; at a timestep t call a tensor live as {@link PeakBound} does (written,
 * or a host tensor first read, before t and read after t, or the operator's own). With F_t live bytes, at least
 * E_t = F_t - B of them are off chip, each tensor among them not the operator's own and loaded again after t and no
 * later than its next read. Take timesteps t_1 &lt; ... &lt; t_m of the order and let U_k be the bytes of the tensors
 * live, not the operator's own, at t_{k-1}, and not read in (t_{k-1}, t_k] (U_1 = 0). At least E_k - U_k off-chip
 * bytes at t_k lie in tensors outside U_k. Such a tensor x is loaded after t_k; a load charged for x at an earlier
 * t_j comes no later than x's first read after t_j, which is before t_k: x was written (a host tensor: first read)
 * after t_{k-1} (then it was not live at t_j), or it was the operator's own at t_{k-1} (created or read there), or it was read in
 * (t_{k-1}, t_k) (a read at t_k makes it the operator's own, resident). So the loads are at least the sum over k of
 * max(0, E_k - U_k), and the spills,
 * at least max_t max(0, E_t - H_t) as in PeakBound, come on top: the plan pays at least their sum.
 *
 * <p>The program: layer by layer over the down-sets as PeakBound, each state keeping, instead of one number, a few
 * pairs (R, v): v the loads charged by a choice of timesteps so far and R the live tensors of its last timestep not
 * read since (a smaller R and a larger v are better), plus the largest spill charge. Every order passes through one
 * state per layer; two orders reaching one down-set are merged into the pairs (R ∪ R', min(v, v')) of every two
 * of their pairs, below both, and
 * dropping pairs only lowers the state, so the least value (largest v plus the spill charge) in a complete layer
 * bounds every plan. The program stops at a state cap and keeps the last complete layer: a bound on the stem that
 * holds for the whole graph, since the charges of a prefix are part of every order's.
 */
final class ReloadChainBound {
    /** Pairs (R, v) kept per state. */
    static final int PAIRS = 4;

    /**
     * @param traffic the lower bound on the non-compulsory traffic
     * @param layers complete layers (operators of the stem it covers)
     * @param widest the most states in one complete layer
     */
    record Result(long traffic, int layers, int widest) {
    }

    private ReloadChainBound() {
    }

    /** A choice of timesteps: the loads it charged and its last timestep's live tensors not read since. */
    private record Pair(long[] unread, long charged) {
    }

    /** A down-set's live bytes, of which host tensors and graph outputs, the largest spill charge and its pairs. */
    private static final class State {
        final long live;
        final long cheap;
        long spill;
        List<Pair> pairs;

        State(long live, long cheap, long spill, List<Pair> pairs) {
            this.live = live;
            this.cheap = cheap;
            this.spill = spill;
            this.pairs = pairs;
        }

        long value() {
            long best = 0;
            for (Pair p : pairs) {
                best = Math.max(best, p.charged());
            }
            return best + spill;
        }
    }

    /**
     * @param g the graph in its tensor setting
     * @param budget the budget B
     * @param stateCap most states in one layer: the program stops before a layer that would hold more
     */
    static Result of(Graph g, long budget, int stateCap) {
        int n = g.operatorCount();
        int words = (g.tensorCount() + 63) / 64;
        Map<Key, State> layer = new LinkedHashMap<>();
        layer.put(new Key(new long[(n + 63) / 64]), new State(0, 0, 0, List.of(new Pair(new long[words], 0))));
        long bound = 0;
        int complete = 0;
        int widest = 1;
        for (int k = 0; k < n; k++) {
            Map<Key, State> next = new LinkedHashMap<>();
            boolean full = false;
            for (Map.Entry<Key, State> e : layer.entrySet()) {
                long[] done = e.getKey().bits;
                for (int o = 0; o < n && !full; o++) {
                    if (!PeakBound.has(done, o) && PeakBound.ready(g, done, o, false)) {
                        full = !add(g, budget, next, done, e.getValue(), o, stateCap, words);
                    }
                }
                if (full) {
                    break;
                }
            }
            if (full) {
                break;
            }
            long least = Long.MAX_VALUE;
            for (State s : next.values()) {
                least = Math.min(least, s.value());
            }
            bound = Math.max(bound, least);
            complete = k + 1;
            widest = Math.max(widest, next.size());
            layer = next;
        }
        return new Result(bound, complete, widest);
    }

    /** Adds (or merges) the state after operator o runs from done; false when the layer is full. */
    private static boolean add(Graph g, long budget, Map<Key, State> next, long[] done, State s, int o, int stateCap,
            int words) {
        long[] after = done.clone();
        after[o >> 6] |= 1L << (o & 63);
        long step = s.live;
        long cheap = s.cheap;
        long liveAfter = s.live;
        long cheapAfter = s.cheap;
        int[] own = PeakBound.own(g, o);
        for (int x : own) {
            boolean wasLive = PeakBound.isLive(g, x, done, false);
            boolean stillLive = PeakBound.isLive(g, x, after, false);
            long size = g.size(x);
            boolean loadOnly = g.isHost(x) || g.isGraphOutput(x);
            if (!wasLive) {
                step += size;
            } else if (loadOnly) {
                cheap -= size;
            }
            long change = (stillLive ? size : 0) - (wasLive ? size : 0);
            liveAfter += change;
            if (loadOnly) {
                cheapAfter += change;
            }
        }
        long excess = Math.max(0, step - budget);
        long spill = Math.max(s.spill, Math.max(0, excess - cheap));
        List<Pair> pairs = pairsAfter(g, s, done, own, o, excess, words);
        Key key = new Key(after);
        State old = next.get(key);
        if (old == null) {
            if (next.size() >= stateCap) {
                return false;
            }
            next.put(key, new State(liveAfter, cheapAfter, spill, pairs));
        } else {
            old.spill = Math.min(old.spill, spill);
            old.pairs = merge(old.pairs, pairs, words);
        }
        return true;
    }

    /**
     * The pairs of state s after operator o runs from done: each pair with o's inputs read, and, when o's step
     * exceeds the budget by {@code excess}, each charged with what its unread tensors cannot cover (pruned).
     */
    private static List<Pair> pairsAfter(Graph g, State s, long[] done, int[] own, int o, long excess, int words) {
        List<Pair> pairs = new ArrayList<>();
        long[] chosen = null;
        for (Pair p : s.pairs) {
            long[] unread = p.unread().clone();
            for (int x : g.inputs(o)) {
                unread[x >> 6] &= ~(1L << (x & 63));
            }
            pairs.add(new Pair(unread, p.charged()));
            if (excess > 0) {
                long charge = excess - bytes(g, unread);
                if (charge > 0) {
                    if (chosen == null) {
                        chosen = liveNotOwn(g, done, own, words);
                    }
                    pairs.add(new Pair(chosen, p.charged() + charge));
                }
            }
        }
        return prune(pairs);
    }

    /** Two states' pairs merged into one down-set's: each union of unread tensors at the lesser charge (pruned). */
    private static List<Pair> merge(List<Pair> olds, List<Pair> pairs, int words) {
        List<Pair> merged = new ArrayList<>();
        for (Pair a : olds) {
            for (Pair b : pairs) {
                long[] union = a.unread().clone();
                for (int w = 0; w < words; w++) {
                    union[w] |= b.unread()[w];
                }
                merged.add(new Pair(union, Math.min(a.charged(), b.charged())));
            }
        }
        return prune(merged);
    }

    /** Drops dominated pairs (a superset of unread tensors and no more charged), then keeps the PAIRS most charged. */
    private static List<Pair> prune(List<Pair> pairs) {
        List<Pair> sorted = new ArrayList<>(pairs);
        sorted.sort((a, b) -> a.charged() != b.charged() ? Long.compare(b.charged(), a.charged())
                : Integer.compare(count(a.unread()), count(b.unread())));
        List<Pair> kept = new ArrayList<>();
        for (Pair p : sorted) {
            boolean dominated = false;
            for (Pair q : kept) {
                if (subset(q.unread(), p.unread())) {
                    dominated = true; // q charged at least as much with no more unread tensors
                    break;
                }
            }
            if (!dominated) {
                kept.add(p);
                if (kept.size() == PAIRS) {
                    break;
                }
            }
        }
        return kept;
    }

    private static int count(long[] bits) {
        int c = 0;
        for (long w : bits) {
            c += Long.bitCount(w);
        }
        return c;
    }

    private static boolean subset(long[] a, long[] b) {
        for (int w = 0; w < a.length; w++) {
            if ((a[w] & ~b[w]) != 0) {
                return false;
            }
        }
        return true;
    }

    private static long bytes(Graph g, long[] tensors) {
        long sum = 0;
        for (int w = 0; w < tensors.length; w++) {
            for (long bits = tensors[w]; bits != 0; bits &= bits - 1) {
                sum += g.size(w * 64 + Long.numberOfTrailingZeros(bits));
            }
        }
        return sum;
    }

    /** The tensors live after {@code done} that are not the operator's own: those it may find off chip. */
    private static long[] liveNotOwn(Graph g, long[] done, int[] own, int words) {
        long[] live = new long[words];
        for (int x = 0; x < g.tensorCount(); x++) {
            if (PeakBound.isLive(g, x, done, false)) {
                live[x >> 6] |= 1L << (x & 63);
            }
        }
        for (int x : own) {
            live[x >> 6] &= ~(1L << (x & 63));
        }
        return live;
    }
}

