package dev.memplan.baselines.replacement;

import dev.memplan.model.Graph;
import dev.memplan.model.TrainingStep;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Comparator;
import java.util.List;

/**
 * Whether and how the {@link ReplacementSimulator} drops tensors to run their producers again instead of spilling
 * them (memory-model.md, "Recomputation"). A dropped tensor has no host copy; when an operator reads it, the
 * simulator first reruns its producer (and, recursively, the producers of that run's inputs that are dropped too),
 * each rerun an event like a load. Which tensors are dropped is the {@link Kind}.
 *
 * @param kind when tensors are dropped
 * @param every for {@link Kind#CHECKPOINT}, keep every {@code every}-th activation (0: the square root of their
 *     number)
 * @param lambda bytes per cost unit: for {@link Kind#DTR}, a drop is chosen over a spill only when lambda x its
 *     recompute cost is below the bytes the spill moves
 */
public record Recomputation(Kind kind, int every, double lambda) {

    /** When the simulator drops tensors. */
    public enum Kind {
        /** Never: today's schemes, spill only. */
        NONE("spill"),
        /**
         * Chen et al., "Training Deep Nets with Sublinear Memory Cost" (2016): on a training graph, of the forward
         * activations the backward pass reads, keep every k-th (the checkpoints) and drop each other one after its
         * last forward read; the backward pass's first read of a dropped one reruns its segment from the last
         * checkpoint (or host copy) before it.
         */
        CHECKPOINT("checkpoint"),
        /**
         * Checkpointing by price: of the forward activations the backward pass reads (as for {@link #CHECKPOINT}),
         * drop each one whose making again costs less than 1/k of a load of it (lambda x the cost of its producer's
         * rerun and of the reruns that bring back that run's inputs the backward does not keep, recursively, below
         * its bytes / k), the cheapest per byte first, as long as every tensor dropped stays that cheap with the
         * others dropped too. Where recomputing is cheap (lambda 2^-8) this frees the large activations that a
         * network's cheap operators make (a depthwise convolution's, an element-wise product's) at a fraction of a
         * spill; at lambda 1 an element-wise operator costs as much as its output's load, so nothing is dropped.
         */
        CHEAP("checkpoint-cheap"),
        /**
         * Kirisame et al., "Dynamic Tensor Rematerialization" (ICLR 2021): when a tensor does not fit, the
         * candidate is the resident with the least h = c / (size x staleness), c its producer's cost (DTR's
         * h_DTR-eq), among those whose producer reads only tensors with a host copy; it is dropped when lambda x c
         * is below the bytes its spill and reload would move, else the spilling policy chooses what to spill.
         */
        DTR("dtr");

        private final String id;

        Kind(String id) {
            this.id = id;
        }

        public String id() {
            return id;
        }
    }

    /** Spill only. */
    public static final Recomputation NONE = new Recomputation(Kind.NONE, 0, 0);

    public Recomputation {
        if (every < 0) {
            throw new IllegalArgumentException("checkpoint every k-th activation needs k >= 1 (or 0 for sqrt(n)), got "
                    + every);
        }
        if (!(lambda >= 0) || Double.isInfinite(lambda)) {
            throw new IllegalArgumentException("the recompute weight lambda must be a finite number >= 0 (bytes per"
                    + " cost unit), got " + lambda);
        }
    }

    /** Checkpointing that keeps every {@code every}-th activation the backward reads (0: every sqrt(n)-th). */
    public static Recomputation checkpoint(int every, double lambda) {
        return new Recomputation(Kind.CHECKPOINT, every, lambda);
    }

    /**
     * Checkpointing by price under weight {@code lambda} ({@link Kind#CHEAP}): drops what costs less than 1/{@code k}
     * of its load to make again.
     */
    public static Recomputation cheap(int k, double lambda) {
        if (k < 1) {
            throw new IllegalArgumentException("checkpointing by price needs k >= 1, got " + k);
        }
        return new Recomputation(Kind.CHEAP, k, lambda);
    }

    /** DTR's evict-by-cost under weight {@code lambda}. */
    public static Recomputation dtr(double lambda) {
        return new Recomputation(Kind.DTR, 0, lambda);
    }

    /** The name part: {@code checkpoint-sqrt}, {@code checkpoint-4}, {@code dtr} (empty for {@link #NONE}). */
    public String id() {
        return switch (kind) {
            case NONE -> "";
            case CHECKPOINT -> kind.id() + "-" + (every == 0 ? "sqrt" : Integer.toString(every));
            case CHEAP -> kind.id() + "-" + every;
            case DTR -> kind.id();
        };
    }

    /** Whether the scheme applies to {@code graph}: checkpointing needs a training graph, DTR runs anywhere. */
    public boolean appliesTo(Graph graph) {
        return kind != Kind.CHECKPOINT && kind != Kind.CHEAP || TrainingStep.forwardCount(graph) >= 0;
    }

    /**
     * For each tensor, the position in {@code ops} after which checkpointing drops it, or -1: the forward
     * activations (outputs of forward operators, not graph outputs) that a backward operator reads, in the order
     * their producers run, are numbered 0 .. n-1; those with number i % k != k - 1 are dropped after their last
     * read by a forward operator or the loss (after their producer when none reads them there). For
     * {@link Kind#CHEAP} those that {@link #cheapDrops} chooses are dropped at the same time. Only for
     * {@link Kind#CHECKPOINT} and {@link Kind#CHEAP}; all -1 otherwise.
     *
     * @throws IllegalArgumentException for checkpointing on a graph that is not a training graph
     */
    int[] dropTimes(Graph g, int[] ops) {
        int[] drop = new int[g.tensorCount()];
        Arrays.fill(drop, -1);
        if (kind != Kind.CHECKPOINT && kind != Kind.CHEAP) {
            return drop;
        }
        int forward = TrainingStep.forwardCount(g);
        if (forward < 0) {
            throw new IllegalArgumentException("'" + g.name() + "' is not a training graph: checkpointing needs one");
        }
        int[] position = new int[g.operatorCount()];
        for (int t = 0; t < ops.length; t++) {
            position[ops[t]] = t;
        }
        List<Integer> saved = new ArrayList<>();
        for (int t = 0; t < ops.length; t++) {
            if (ops[t] >= forward) {
                continue;
            }
            for (int a : g.outputs(ops[t])) {
                boolean backward = false;
                for (int c : g.consumers(a)) {
                    backward |= c > forward;
                }
                if (backward && !g.isGraphOutput(a)) {
                    saved.add(a);
                }
            }
        }
        int k = every > 0 ? every : Math.max(1, (int) Math.round(Math.sqrt(saved.size())));
        BitSet dropped = kind == Kind.CHEAP ? cheapDrops(g) : null;
        for (int i = 0; i < saved.size(); i++) {
            if (dropped == null ? i % k == k - 1 : !dropped.get(saved.get(i))) {
                continue;
            }
            int a = saved.get(i);
            int last = position[g.producer(a)];
            for (int c : g.consumers(a)) {
                if (c <= forward) {
                    last = Math.max(last, position[c]);
                }
            }
            drop[a] = last;
        }
        return drop;
    }

    /**
     * The saved activations {@link Kind#CHEAP} drops (the forward activations, not graph outputs, that a backward
     * operator reads): taken in the order of their producer's cost per byte, then by index, each dropped when, with
     * it and those dropped before, every dropped tensor's {@link #remake} cost times k lambda stays below its bytes
     * (checked where the new drop raises it). Empty for the other kinds and on a graph that is not a training graph.
     * O(saved x n) at worst; stops at the first tensor whose producer's rerun alone is too dear.
     */
    public BitSet cheapDrops(Graph g) {
        BitSet dropped = new BitSet();
        int forward = TrainingStep.forwardCount(g);
        if (kind != Kind.CHEAP || forward < 0) {
            return dropped;
        }
        boolean[] kept = new boolean[g.tensorCount()];
        List<Integer> byPrice = new ArrayList<>();
        for (int a = 0; a < g.tensorCount(); a++) {
            int p = g.producer(a);
            boolean backward = false;
            for (int c : g.consumers(a)) {
                backward |= c > forward;
            }
            if (p >= 0 && p < forward && backward && !g.isGraphOutput(a)) {
                kept[a] = true;
                byPrice.add(a);
            }
        }
        // Stable: ties keep the index order.
        byPrice.sort(Comparator.comparingDouble(
                (Integer a) -> (double) g.cost(g.producer(a)) / Math.max(1, g.size(a))));
        int[] queue = new int[g.tensorCount()];
        int[] reached = new int[g.tensorCount()];
        double[] memo = new double[g.tensorCount()];
        int[] seen = new int[g.tensorCount()];
        int stamp = 0;
        for (int a : byPrice) {
            if (every * lambda * g.cost(g.producer(a)) >= g.size(a)) {
                break; // its rerun alone is too dear, and so is every later one's (by price per byte)
            }
            kept[a] = false;
            stamp++;
            // Dropping a raises only the chains through it: those of the tensors made from a through tensors the
            // backward does not keep. Of those, the dropped ones (and a) must stay cheap.
            int size = 0;
            queue[size++] = a;
            reached[a] = stamp;
            boolean cheap = true;
            for (int head = 0; head < size && cheap; head++) {
                int t = queue[head];
                if (t == a || dropped.get(t)) {
                    cheap = every * lambda * remake(g, t, kept, forward, memo, seen, stamp) < g.size(t);
                }
                for (int q : g.consumers(t)) {
                    for (int y : q < forward ? g.outputs(q) : new int[0]) {
                        if (!kept[y] && !g.isHost(y) && reached[y] != stamp) {
                            reached[y] = stamp;
                            queue[size++] = y;
                        }
                    }
                }
            }
            if (cheap) {
                dropped.set(a);
            } else {
                kept[a] = true;
            }
        }
        return dropped;
    }

    /**
     * The cost of making x again in the backward pass: its producer's (a forward operator's; infinite otherwise),
     * plus, for each distinct input of it that is neither a host tensor nor {@code kept} (a saved activation not
     * dropped), that input's own, recursively: a chain of reruns back to what is kept, a rerun shared by two chains
     * counted in each. {@code memo} holds the costs found where {@code seen} is {@code stamp}.
     */
    private static double remake(Graph g, int x, boolean[] kept, int forward, double[] memo, int[] seen, int stamp) {
        if (seen[x] == stamp) {
            return memo[x];
        }
        int p = g.producer(x);
        seen[x] = stamp;
        memo[x] = Double.POSITIVE_INFINITY; // no cycle in a DAG; guards the recursion all the same
        if (p < 0 || p >= forward) {
            return memo[x];
        }
        double c = g.cost(p);
        for (int b : Arrays.stream(g.inputs(p)).distinct().toArray()) {
            if (!g.isHost(b) && !kept[b]) {
                c += remake(g, b, kept, forward, memo, seen, stamp);
            }
        }
        memo[x] = c;
        return c;
    }
}
