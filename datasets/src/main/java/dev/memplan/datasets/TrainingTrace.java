package dev.memplan.datasets;

import dev.memplan.model.Buffer;
import dev.memplan.model.BufferSet;
import dev.memplan.model.ClockGuard;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Seeded buffer traces of a transformer's training step, at the sizes production memory planners see
 * (10^4 to 10^5 buffers): {@code gen:trace:N[:SEED]} has exactly N buffers.
 *
 * <p>The step runs micro-batches one after another with gradient accumulation (forward then backward of each
 * micro-batch, then one optimizer update). Over the whole step live the parameters and the two Adam moments of
 * every layer and a few huge buffers (the embedding table and its moments). Each layer's forward pass of a
 * micro-batch saves activations for its backward pass (the layer input, the attention probabilities, the MLP
 * hidden state) and frees a few temporaries at once; its backward pass makes short-lived gradient temporaries
 * and adds into the layer's weight gradients, which live from the first backward pass of that layer to the
 * optimizer update. The logits and their gradient are the largest per micro-batch buffers. Sizes are odd
 * (a random fraction of each shape, multiples of 2 bytes, 64-byte alignment for the big ones), as real traces
 * are; the model shape (hidden size, sequence length) is drawn from the seed. Time is the operator index.
 *
 * <p>Buffers beyond the last micro-batch's count are made up with small workspace buffers at random operators,
 * so that N is exact. Same name, same trace, on every machine.
 */
public final class TrainingTrace {
    /** The fewest and most buffers a trace may have. */
    public static final int MIN_BUFFERS = 100;
    public static final int MAX_BUFFERS = 1_000_000;

    private TrainingTrace() {
    }

    /** Whether the text names a generated trace (starts with {@code gen:trace:}). */
    public static boolean isTraceName(String text) {
        return text.startsWith("gen:trace:");
    }

    /**
     * The trace of that name.
     *
     * @throws IllegalArgumentException naming the expected form when the name is malformed or out of range
     */
    public static BufferSet of(String name) {
        return GeneratedTraces.parse(name, "trace", "", MIN_BUFFERS, MAX_BUFFERS, TrainingTrace::generate);
    }

    /** Exactly {@code count} buffers of a training step, the shape drawn from {@code seed}. */
    public static BufferSet generate(int count, long seed) {
        if (count < MIN_BUFFERS) {
            throw new IllegalArgumentException("a trace has at least " + MIN_BUFFERS + " buffers");
        }
        Random r = new Random(seed);
        long hidden = 256L * (2 + r.nextInt(7));          // 512 .. 2048
        long tokens = 128L * (1 + r.nextInt(8));          // sequence x micro-batch rows
        long vocab = 8000 + r.nextInt(24000);
        // Per layer: 4 parameters, 8 moments, 4 weight gradients; per layer and micro-batch: 3 saved activations,
        // 3 forward temporaries, 5 backward temporaries.
        int perLayerStep = 16;
        int perLayerBatch = 11;
        int layers = (int) Math.max(2, Math.min(96, Math.round(Math.sqrt(count / 40.0))));
        int fixedPart = 3 + layers * perLayerStep;
        int microBatches = Math.max(1, (count - fixedPart) / (layers * perLayerBatch + 2));
        while (fixedPart + microBatches * (layers * perLayerBatch + 2) > count && microBatches > 1) {
            microBatches--;
        }
        List<Buffer> out = new ArrayList<>(count);
        long[] t = {0};
        // Layer weights: qkv+out projection and the two MLP matrices, odd shapes.
        long[] weight = new long[4];
        weight[0] = 4 * hidden * hidden;
        weight[1] = hidden * hidden;
        weight[2] = 4 * hidden * hidden;
        weight[3] = 4 * hidden * hidden;
        int operatorsPerBatch = layers * 12 + 4;
        long end = (long) microBatches * operatorsPerBatch + layers * 2L + 4;
        // Whole-step buffers: embedding table and its two Adam moments (the huge ones).
        long embedding = odd(r, vocab * hidden * 2);
        out.add(new Buffer("embedding", 0, end, embedding, 64, null));
        out.add(new Buffer("embedding.m", 0, end, embedding, 64, null));
        out.add(new Buffer("embedding.v", 0, end, embedding, 64, null));
        long[][] gradStart = new long[layers][4];
        for (int l = 0; l < layers; l++) {
            for (int w = 0; w < 4; w++) {
                long size = odd(r, weight[w] * 2);
                out.add(new Buffer("L" + l + ".w" + w, 0, end, size, 64, null));
                out.add(new Buffer("L" + l + ".w" + w + ".m", 0, end, size, 64, null));
                out.add(new Buffer("L" + l + ".w" + w + ".v", 0, end, size, 64, null));
            }
        }
        long nextPoll = ClockGuard.EVERY;
        for (int b = 0; b < microBatches; b++) {
            if (out.size() >= nextPoll) {
                ClockGuard.poll("generating the trace");
                nextPoll = out.size() + ClockGuard.EVERY;
            }
            long[][] saved = new long[layers][3];
            String mb = "mb" + b + ".";
            for (int l = 0; l < layers; l++) {
                String p = mb + "L" + l + ".";
                // Saved activations live until this layer's backward pass (recorded below).
                saved[l][0] = t[0];
                long attnTmp = t[0] + 1;
                out.add(new Buffer(p + "qkv", attnTmp, attnTmp + 2, odd(r, 3 * tokens * hidden * 2), 64, null));
                saved[l][1] = t[0] + 2;
                out.add(new Buffer(p + "scores", attnTmp + 1, attnTmp + 3, odd(r, tokens * tokens * 8), 64, null));
                out.add(new Buffer(p + "attn.out", attnTmp + 3, attnTmp + 5, odd(r, tokens * hidden * 2), 2, null));
                saved[l][2] = t[0] + 5;
                t[0] += 6;
            }
            long logitsAt = t[0];
            out.add(new Buffer(mb + "logits", logitsAt, logitsAt + 3, odd(r, tokens * vocab * 4), 64, null));
            out.add(new Buffer(mb + "logits.grad", logitsAt + 2, logitsAt + 4, odd(r, tokens * vocab * 4), 64, null));
            t[0] += 4;
            for (int l = layers - 1; l >= 0; l--) {
                String p = mb + "L" + l + ".";
                long at = t[0];
                out.add(new Buffer(p + "x", saved[l][0], at + 1, odd(r, tokens * hidden * 2), 2, null));
                out.add(new Buffer(p + "probs", saved[l][1], at + 3, odd(r, tokens * tokens * 4), 64, null));
                out.add(new Buffer(p + "mlp.h", saved[l][2], at + 2, odd(r, 4 * tokens * hidden * 2), 64, null));
                out.add(new Buffer(p + "mlp.grad", at, at + 2, odd(r, 4 * tokens * hidden * 2), 64, null));
                out.add(new Buffer(p + "h.grad", at + 1, at + 3, odd(r, tokens * hidden * 2), 2, null));
                out.add(new Buffer(p + "scores.grad", at + 2, at + 4, odd(r, tokens * tokens * 8), 64, null));
                out.add(new Buffer(p + "qkv.grad", at + 3, at + 5, odd(r, 3 * tokens * hidden * 2), 64, null));
                out.add(new Buffer(p + "x.grad", at + 4, at + 6, odd(r, tokens * hidden * 2), 2, null));
                if (b == 0) {
                    for (int w = 0; w < 4; w++) {
                        gradStart[l][w] = at + 1 + w;
                    }
                }
                t[0] += 6;
            }
        }
        // Weight gradients: from the first backward pass to the optimizer update of their layer.
        long update = t[0];
        for (int l = 0; l < layers; l++) {
            for (int w = 0; w < 4; w++) {
                long from = microBatches > 0 ? gradStart[l][w] : update;
                out.add(new Buffer("L" + l + ".w" + w + ".grad", from, update + 2L * l + 1, odd(r, weight[w] * 4),
                        64, null));
            }
        }
        long last = update + 2L * layers + 1;
        // Workspace buffers make up the count: short, small, at random operators.
        int k = 0;
        while (out.size() < count) {
            ClockGuard.poll(out.size(), "generating the trace");
            long at = (long) (r.nextDouble() * last);
            out.add(new Buffer("ws" + k++, at, at + 1 + r.nextInt(2), odd(r, 4096 + r.nextInt(1 << 16)), 2, null));
        }
        while (out.size() > count) {
            out.remove(out.size() - 1);
        }
        return new BufferSet(out);
    }

    /** A random 55-100% of {@code bytes}, a multiple of 2, at least 2: real shapes are rarely round. */
    private static long odd(Random r, long bytes) {
        long v = (long) (bytes * (0.55 + 0.45 * r.nextDouble()));
        return Math.max(2, v & ~1L);
    }
}
