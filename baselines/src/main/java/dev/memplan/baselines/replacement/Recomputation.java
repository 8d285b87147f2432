package dev.memplan.baselines.replacement;

import dev.memplan.model.Graph;
import dev.memplan.model.TrainingStep;
import java.util.ArrayList;
import java.util.Arrays;
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

    /** DTR's evict-by-cost under weight {@code lambda}. */
    public static Recomputation dtr(double lambda) {
        return new Recomputation(Kind.DTR, 0, lambda);
    }

    /** The name part: {@code checkpoint-sqrt}, {@code checkpoint-4}, {@code dtr} (empty for {@link #NONE}). */
    public String id() {
        return switch (kind) {
            case NONE -> "";
            case CHECKPOINT -> kind.id() + "-" + (every == 0 ? "sqrt" : Integer.toString(every));
            case DTR -> kind.id();
        };
    }

    /** Whether the scheme applies to {@code graph}: checkpointing needs a training graph, DTR runs anywhere. */
    public boolean appliesTo(Graph graph) {
        return kind != Kind.CHECKPOINT || TrainingStep.forwardCount(graph) >= 0;
    }

    /**
     * For each tensor, the position in {@code ops} after which checkpointing drops it, or -1: the forward
     * activations (outputs of forward operators, not graph outputs) that a backward operator reads, in the order
     * their producers run, are numbered 0 .. n-1; those with number i % k != k - 1 are dropped after their last
     * read by a forward operator or the loss (after their producer when none reads them there). Only for
     * {@link Kind#CHECKPOINT}; all -1 otherwise.
     *
     * @throws IllegalArgumentException for checkpointing on a graph that is not a training graph
     */
    int[] dropTimes(Graph g, int[] ops) {
        int[] drop = new int[g.tensorCount()];
        Arrays.fill(drop, -1);
        if (kind != Kind.CHECKPOINT) {
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
        for (int i = 0; i < saved.size(); i++) {
            if (i % k == k - 1) {
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
}
