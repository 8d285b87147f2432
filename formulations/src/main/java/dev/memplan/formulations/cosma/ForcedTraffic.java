package dev.memplan.formulations.cosma;

import dev.memplan.formulations.milp.BuildAbandonedException;
import dev.memplan.formulations.milp.BuildGuard;
import dev.memplan.model.ByteRange;
import dev.memplan.model.Graph;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Off-chip traffic that every plan at a budget must pay, whatever the schedule (within the windows), derived
 * from precedence alone.
 *
 * <p>An operator o <em>blocks</em> tensor a when o neither reads nor writes a and a's size plus o's footprint
 * (its distinct inputs and outputs, all resident while it runs) exceeds the budget: a cannot be on chip while o
 * runs. If, in every schedule, a blocker runs after a is on chip and before a later reader of a, a must leave
 * the scratchpad (a charged spill when a is produced on chip) and be loaded again. Chains of that pattern,
 * reader or producer, blocker, reader, blocker, reader, ... each ordered by precedence (or by the windows of a
 * fixed schedule), force one load per blocker in the chain: {@link #loads} is the longest such chain, found by
 * dynamic programming over the readers and blockers of each tensor. Tensors can also shut each other out
 * ({@link #groups}): of a group, all but one make a round trip whatever the order.
 *
 * <p>The counts become valid inequalities of the program (at least that many loads, at least one spill) and a
 * lower bound that holds even when the solver proves nothing. On the Transformer at M_R, for example, the
 * decoder's second feed-forward layer fills the budget by itself, so each decoder layer's normalised residual
 * input must make a round trip; the relaxation of the program does not see this when the schedule is
 * fractional.
 *
 * <p>memplan's own bound (the COSMA paper has none). Time: per tensor with k readers and blockers, a sort and
 * O(k^2) precedence queries ({@link OperatorWindows#precedes}) for its longest chain.
 */
public final class ForcedTraffic {
    private final int[] loads;
    private final boolean[] spill;
    private final List<int[]> groups;
    private final long bound;

    private ForcedTraffic(int[] loads, boolean[] spill, List<int[]> groups, long bound) {
        this.loads = loads;
        this.spill = spill;
        this.groups = groups;
        this.bound = bound;
    }

    /** Tensors between two polls of the build's budget (a mask: one less than a power of two). */
    private static final int POLL_EVERY = 63;

    /**
     * The forced traffic of a graph (already in its tensor setting) at a budget, with the given windows. Polls the
     * {@link BuildGuard} open on this thread, if any: {@link BuildAbandonedException} once its budget is over.
     */
    public static ForcedTraffic of(Graph graph, OperatorWindows windows, long budget) {
        Context cx = Context.of(graph, windows, budget);
        int nt = graph.tensorCount();
        int[] loads = new int[nt];
        boolean[] spill = new boolean[nt];
        long[] alone = new long[nt];
        int[][] blockersOf = new int[nt][];
        for (int a = 0; a < nt; a++) {
            if ((a & POLL_EVERY) == 0) {
                BuildGuard.poll("the forced-traffic bound");
            }
            int[] readers = graph.consumers(a);
            if (readers.length == 0) {
                continue;
            }
            int[] blockers = cx.blockersOf(a);
            if (blockers.length == 0) {
                continue;
            }
            blockersOf[a] = blockers;
            int k = longestChain(graph, windows, a, readers, blockers);
            loads[a] = k;
            spill[a] = k > 0 && !graph.isHost(a);
            alone[a] = cost(graph, a, k);
        }
        List<int[]> groups = groups(cx);
        long bound = 0;
        boolean[] grouped = new boolean[nt];
        for (int[] group : groups) {
            // All but one member of a group make a round trip: the cheapest increments over what each member
            // pays alone.
            long[] extra = new long[group.length];
            for (int i = 0; i < group.length; i++) {
                int a = group[i];
                grouped[a] = true;
                bound = ByteRange.add(bound, alone[a]);
                extra[i] = cost(graph, a, Math.max(1, loads[a])) - alone[a];
            }
            Arrays.sort(extra);
            for (int i = 0; i < group.length - 1; i++) {
                bound = ByteRange.add(bound, extra[i]);
            }
        }
        for (int a = 0; a < nt; a++) {
            bound = ByteRange.add(bound, grouped[a] ? 0 : alone[a]);
        }
        // Saturating sums (ByteRange): a saturated figure is below the true one, so it is still a lower bound.
        bound = ByteRange.add(bound, escapes(cx, blockersOf, alone, grouped));
        return new ForcedTraffic(loads, spill, groups, bound);
    }

    /**
     * What the analysis of one graph at one budget shares: each operator's footprint (its distinct inputs and
     * outputs) and the operators by decreasing footprint, so the blockers of a tensor are a prefix of that list
     * (memory and time linear in the graph, not tensors x operators).
     */
    private record Context(Graph graph, OperatorWindows windows, long budget, long[] footprint, int[][] touched,
                           int[] byFootprint) {

        static Context of(Graph graph, OperatorWindows windows, long budget) {
            int nop = graph.operatorCount();
            long[] footprint = new long[nop];
            int[][] touched = new int[nop][];
            for (int o = 0; o < nop; o++) {
                int[] mine = java.util.stream.IntStream.concat(Arrays.stream(graph.inputs(o)),
                        Arrays.stream(graph.outputs(o))).distinct().sorted().toArray();
                long bytes = 0;
                for (int a : mine) {
                    bytes += graph.size(a);
                }
                footprint[o] = bytes;
                touched[o] = mine;
            }
            int[] byFootprint = java.util.stream.IntStream.range(0, nop).boxed()
                    .sorted((x, y) -> Long.compare(footprint[y], footprint[x])).mapToInt(Integer::intValue).toArray();
            return new Context(graph, windows, budget, footprint, touched, byFootprint);
        }

        boolean touches(int operator, int tensor) {
            return Arrays.binarySearch(touched[operator], tensor) >= 0;
        }

        /** The operator leaves no room for the tensor while it runs. */
        boolean blocks(int operator, int tensor) {
            return footprint[operator] + graph.size(tensor) > budget && !touches(operator, tensor);
        }

        /** Every operator that blocks the tensor. */
        int[] blockersOf(int tensor) {
            int[] out = new int[byFootprint.length];
            int n = 0;
            for (int o : byFootprint) {
                if (footprint[o] + graph.size(tensor) <= budget) {
                    break;
                }
                if (!touches(o, tensor)) {
                    out[n++] = o;
                }
            }
            return Arrays.copyOf(out, n);
        }
    }

    private static final long NEVER = Long.MAX_VALUE / 4;

    /**
     * The chains again, now with readers that precedence does not place after the blocker before them. Such a
     * reader r either runs after that blocker, and the tensor needs a load in the gap, or before it, and then r's
     * outputs exist while the blocker runs and are read after it: each of them makes a round trip instead (the
     * "escape"). Each gap costs at least the cheaper of the two, and if no gap takes the load there is no spill.
     * On the Transformer at M_R this is the encoder output: every decoder layer either reloads it or keeps its
     * cross-attention keys and values through the previous layer's feed-forward block.
     *
     * <p>The escape tensors are counted for one tensor only, and only when nothing else counts them (not in a
     * group, no forced traffic of their own), so the extra bytes add up to a valid bound.
     *
     * @return the bytes this adds to the bound
     */
    private static long escapes(Context cx, int[][] blockersOf, long[] alone, boolean[] grouped) {
        Graph graph = cx.graph();
        int nt = graph.tensorCount();
        boolean[] claimed = new boolean[nt];
        // May serve as an escape: produced, read, counted nowhere else yet (not grouped, nothing forced on its own,
        // not extended, not claimed by another tensor).
        boolean[] eligible = new boolean[nt];
        for (int y = 0; y < nt; y++) {
            eligible[y] = !graph.isHost(y) && !grouped[y] && alone[y] == 0 && graph.consumers(y).length > 0;
        }
        long added = 0;
        for (int a = 0; a < nt; a++) {
            if (blockersOf[a] == null || grouped[a] || claimed[a]) {
                continue;
            }
            boolean anyEscape = false;
            for (int r : graph.consumers(a)) {
                boolean all = graph.outputs(r).length > 0;
                for (int y : graph.outputs(r)) {
                    all &= eligible[y];
                }
                anyEscape |= all;
            }
            if (!anyEscape) {
                continue;
            }
            long value = chainWithEscapes(cx, a, blockersOf[a], eligible);
            if (value > alone[a]) {
                added += value - alone[a];
                eligible[a] = false;
                for (int r : graph.consumers(a)) {
                    for (int y : graph.outputs(r)) {
                        if (eligible[y]) {
                            claimed[y] = true;
                            eligible[y] = false;
                        }
                    }
                }
            }
        }
        return added;
    }

    /** The best chain of blockers of a with, per gap, min(load of a, escape of the gap's reader). */
    private static long chainWithEscapes(Context cx, int a, int[] blockers, boolean[] eligible) {
        Graph graph = cx.graph();
        OperatorWindows w = cx.windows();
        int[] readers = graph.consumers(a);
        int nop = graph.operatorCount();
        Integer[] order = new Integer[blockers.length];
        for (int i = 0; i < blockers.length; i++) {
            order[i] = blockers[i];
        }
        Arrays.sort(order, (x, y) -> Long.compare(precedenceKey(w, x, nop), precedenceKey(w, y, nop)));
        int producer = graph.producer(a);
        long size = graph.size(a);
        long[] value = new long[order.length];
        long[] escapes = new long[order.length];
        long best = 0;
        for (int i = 0; i < order.length; i++) {
            int b = order[i];
            boolean first = false;
            if (producer >= 0) {
                first = w.precedes(producer, b);
            } else {
                for (int r : readers) {
                    first |= w.precedes(r, b);
                }
            }
            value[i] = first ? 0 : -1;
            escapes[i] = 0;
            for (int j = 0; j < i; j++) {
                if (value[j] < 0 || !w.precedes(order[j], b)) {
                    continue;
                }
                long[] gap = gap(cx, a, order[j], b, eligible);
                if (value[j] + gap[0] > value[i]) {
                    value[i] = value[j] + gap[0];
                    escapes[i] = Math.min(NEVER, escapes[j] + gap[1]);
                }
            }
            if (value[i] < 0) {
                continue;
            }
            long[] last = gap(cx, a, b, -1, eligible);
            long loads = value[i] + last[0];
            long escaped = Math.min(NEVER, escapes[i] + last[1]);
            long spill = !graph.isHost(a) && !graph.isGraphOutput(a) && loads > 0 ? size : 0;
            best = Math.max(best, Math.min(escaped, spill + loads));
        }
        return best;
    }

    /**
     * The gap after blocker {@code from} and before blocker {@code to} (-1: the end): over the readers that
     * cannot run before {@code from} for sure and run before {@code to} for sure, the best
     * {min(size of a, escape), escape}; escape is NEVER when the reader surely runs after {@code from}.
     */
    private static long[] gap(Context cx, int a, int from, int to, boolean[] eligible) {
        Graph graph = cx.graph();
        OperatorWindows w = cx.windows();
        long size = graph.size(a);
        long[] best = {0, 0};
        for (int r : graph.consumers(a)) {
            if ((to >= 0 && !w.precedes(r, to)) || w.precedes(r, from)) {
                continue;
            }
            long escape = w.precedes(from, r) ? NEVER : escapeCost(cx, r, from, eligible);
            long gain = Math.min(size, escape);
            if (gain > best[0] || (gain == best[0] && escape > best[1])) {
                best[0] = gain;
                best[1] = escape;
            }
        }
        return best;
    }

    /**
     * The round trips of r's outputs if r runs before blocker b: each must be blocked by b and read after b in
     * every schedule; 0 when one of them is not (or not eligible), since then nothing is known.
     */
    private static long escapeCost(Context cx, int r, int b, boolean[] eligible) {
        Graph graph = cx.graph();
        long total = 0;
        for (int y : graph.outputs(r)) {
            if (!eligible[y] || !cx.blocks(b, y)) {
                return 0;
            }
            boolean readAfter = false;
            for (int c : graph.consumers(y)) {
                readAfter |= cx.windows().precedes(b, c);
            }
            if (!readAfter) {
                return 0;
            }
            total = ByteRange.add(total, cost(graph, y, 1));
        }
        return total;
    }

    /** Non-compulsory traffic of a tensor with k non-compulsory loads (and a charged spill when produced). */
    private static long cost(Graph graph, int a, int k) {
        boolean charged = k > 0 && !graph.isHost(a) && !graph.isGraphOutput(a);
        return ByteRange.times(graph.size(a), k + (charged ? 1 : 0));
    }

    /**
     * Disjoint groups of produced tensors that shut each other out: for every two members a and b, b's producer
     * leaves no room for a and runs before some reader of a in every schedule (and the other way round). Whichever
     * member is produced last, every other member exists at that moment, cannot stay on chip and is read later:
     * all but one make a round trip. Example: the three dilated 3x3 convolutions of DeepLabV3's ASPP with their
     * weights fill M_R, and the concatenation reads all their outputs. Groups are built greedily (a clique in the
     * "shut out" relation), so the bound is valid but not always the largest possible.
     */
    private static List<int[]> groups(Context cx) {
        Graph graph = cx.graph();
        int nt = graph.tensorCount();
        long largest = 0;
        for (int a = 0; a < nt; a++) {
            largest = Math.max(largest, graph.size(a));
        }
        // A member's producer must leave no room for some other tensor: only producers within the largest
        // tensor of the budget can.
        List<Integer> candidates = new ArrayList<>();
        for (int a = 0; a < nt; a++) {
            if (!graph.isHost(a) && graph.consumers(a).length > 0
                    && cx.footprint()[graph.producer(a)] + largest > cx.budget()) {
                candidates.add(a);
            }
        }
        List<int[]> groups = new ArrayList<>();
        boolean[] used = new boolean[nt];
        for (int a : candidates) {
            if (used[a]) {
                continue;
            }
            List<Integer> group = new ArrayList<>(List.of(a));
            for (int b : candidates) {
                if (used[b] || b == a) {
                    continue;
                }
                boolean fits = true;
                for (int m : group) {
                    if (!shutsOut(cx, m, b) || !shutsOut(cx, b, m)) {
                        fits = false;
                        break;
                    }
                }
                if (fits) {
                    group.add(b);
                }
            }
            if (group.size() > 1) {
                int[] members = group.stream().mapToInt(Integer::intValue).toArray();
                for (int m : members) {
                    used[m] = true;
                }
                groups.add(members);
            }
        }
        return groups;
    }

    /** b's producer leaves no room for a and runs, in every schedule, before some reader of a. */
    private static boolean shutsOut(Context cx, int b, int a) {
        int pb = cx.graph().producer(b);
        if (!cx.blocks(pb, a)) {
            return false;
        }
        for (int r : cx.graph().consumers(a)) {
            if (cx.windows().precedes(pb, r)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The most blockers in one chain: start, b1, r1, b2, r2, ..., bk, rk with each element before the next in
     * every schedule, where start is the producer (or, for a host tensor, a reader: its compulsory load) and
     * r_i are readers.
     */
    private static int longestChain(Graph graph, OperatorWindows windows, int a, int[] readers, int[] blockers) {
        int producer = graph.producer(a);
        Integer[] order = new Integer[readers.length + blockers.length];
        for (int i = 0; i < readers.length; i++) {
            order[i] = readers[i];
        }
        for (int i = 0; i < blockers.length; i++) {
            order[readers.length + i] = ~blockers[i];
        }
        // A key that grows along both chain relations, so one pass in key order settles every value.
        int nop = graph.operatorCount();
        Arrays.sort(order, (x, y) -> {
            int ox = x >= 0 ? x : ~x;
            int oy = y >= 0 ? y : ~y;
            long kx = precedenceKey(windows, ox, nop);
            long ky = precedenceKey(windows, oy, nop);
            return kx != ky ? Long.compare(kx, ky) : Integer.compare(x, y);
        });
        final int none = Integer.MIN_VALUE;
        int[] value = new int[order.length];
        int best = 0;
        for (int i = 0; i < order.length; i++) {
            boolean isReader = order[i] >= 0;
            int op = isReader ? order[i] : ~order[i];
            if (isReader) {
                // f(r) = max(0, max over earlier blockers b of g(b))
                int f = 0;
                for (int j = 0; j < i; j++) {
                    if (order[j] < 0 && value[j] != none && windows.precedes(~order[j], op)) {
                        f = Math.max(f, value[j]);
                    }
                }
                value[i] = f;
                best = Math.max(best, f);
            } else {
                // g(b) = 1 + max(0 if the producer precedes b, max over earlier readers r of f(r))
                int base = producer >= 0 && windows.precedes(producer, op) ? 0 : none;
                for (int j = 0; j < i; j++) {
                    if (order[j] >= 0 && windows.precedes(order[j], op)) {
                        base = Math.max(base, value[j]);
                    }
                }
                value[i] = base == none ? none : base + 1;
            }
        }
        return best;
    }

    /**
     * A key that grows along "precedes" ({@link OperatorWindows#precedes}): earliest timestep, then number of
     * ancestors. Sorting by it lets one pass settle the chain values.
     */
    private static long precedenceKey(OperatorWindows windows, int operator, int operators) {
        return (long) windows.earliest(operator) * (operators + 1) + windows.ancestorCount(operator);
    }

    /** Loads of the tensor that every plan makes besides the compulsory first load of a host tensor. */
    public int loads(int tensor) {
        return loads[tensor];
    }

    /** Whether every plan spills the tensor (a produced tensor with at least one forced load). */
    public boolean spill(int tensor) {
        return spill[tensor];
    }

    /** Groups of tensors of which all but one make a round trip (each at least one spill and one load). */
    public List<int[]> groups() {
        return groups;
    }

    /** The non-compulsory traffic every plan pays: forced loads plus forced charged spills, in bytes. */
    public long bound() {
        return bound;
    }
}
