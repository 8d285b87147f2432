package dev.memplan.datasets.zoo;

import dev.memplan.datasets.zoo.NetBuilder.Value;

/**
 * Multi-head attention as PyTorch's {@code nn.MultiheadAttention} computes it (Vaswani et al., "Attention Is
 * All You Need", NeurIPS 2017, Section 3.2), built from matmuls so that every intermediate is a tensor of the
 * graph. Shared by {@link Transformers#transformer} and {@link Transformers#vitB16}.
 *
 * <p>Operators, for queries of length L, keys/values of length S, batch N, model width d, h heads of width
 * d/h:
 * <ol>
 *   <li>{@code q_proj}, {@code k_proj}, {@code v_proj}: three linear layers d -> d with bias, holding the same
 *       3d^2 + 3d parameters as PyTorch's packed {@code in_proj_weight} (3d x d) and {@code in_proj_bias} (3d).
 *       (PyTorch's kernel runs self-attention's three projections as one product into a (.., 3d) tensor and
 *       then splits it; three operators writing three d-wide tensors move the same bytes and let each
 *       projection's lifetime end on its own.)</li>
 *   <li>Head split: each projection is viewed as (N, h, L or S, d/h) (a reshape and a transpose, both free
 *       views).</li>
 *   <li>{@code scores}: matmul(Q, K^T) per (batch, head), (N, h, L, S). The 1/sqrt(d/h) scaling is fused (PyTorch
 *       scales Q, or the scaled-dot-product kernel does it in the product); no operator.</li>
 *   <li>{@code softmax} over S. An attention mask, when a caller uses one, is an additive constant fused into
 *       this softmax; it adds no operator and no parameter.</li>
 *   <li>{@code context}: matmul(P, V), (N, h, L, d/h), viewed back as (L, N, d) or (N, L, d).</li>
 *   <li>{@code out_proj}: linear d -> d with bias.</li>
 * </ol>
 * Dropout is the identity at inference. Seven operators per attention block, 4d^2 + 4d parameters.
 */
final class Attention {

    private Attention() {
    }

    /**
     * Attention of {@code query} over {@code keyValue} (the same value for self-attention). Both are
     * (sequence, batch, d) when {@code batchFirst} is false (nn.Transformer's default layout) and
     * (batch, sequence, d) when it is true (ViT's {@code batch_first=True}); the result has the query's layout
     * and shape.
     */
    static Value multiHead(NetBuilder b, String name, Value query, Value keyValue, int heads, boolean batchFirst) {
        long d = query.dim(-1);
        if (query.rank() != 3 || keyValue.rank() != 3 || keyValue.dim(-1) != d || d % heads != 0) {
            throw new IllegalArgumentException(name + ": attention over " + query + " and " + keyValue
                    + " with " + heads + " heads");
        }
        Value q = splitHeads(b, b.linear(name + ".q_proj", query, d, true), heads, batchFirst);
        Value k = splitHeads(b, b.linear(name + ".k_proj", keyValue, d, true), heads, batchFirst);
        Value v = splitHeads(b, b.linear(name + ".v_proj", keyValue, d, true), heads, batchFirst);
        Value scores = b.matmul(name + ".scores", q, b.transpose(k, 0, 1, 3, 2));
        Value probabilities = b.softmax(name + ".softmax", scores);
        Value context = b.matmul(name + ".context", probabilities, v);
        // (N, h, L, d/h) back to the query's layout, heads merged into d.
        Value merged = batchFirst
                ? b.reshape(b.transpose(context, 0, 2, 1, 3), query.shape())
                : b.reshape(b.transpose(context, 2, 0, 1, 3), query.shape());
        return b.linear(name + ".out_proj", merged, d, true);
    }

    /** (L, N, d) or (N, L, d) viewed as (N, h, L, d/h). */
    private static Value splitHeads(NetBuilder b, Value x, int heads, boolean batchFirst) {
        long d = x.dim(-1);
        Value split = b.reshape(x, x.dim(0), x.dim(1), heads, d / heads);
        return batchFirst ? b.transpose(split, 0, 2, 1, 3) : b.transpose(split, 1, 2, 0, 3);
    }
}
