package dev.memplan.datasets.zoo;

import dev.memplan.datasets.zoo.NetBuilder.Conv;
import dev.memplan.datasets.zoo.NetBuilder.Value;
import java.util.List;

/**
 * Attention networks: the sequence-to-sequence Transformer (Vaswani et al., "Attention Is All You Need",
 * NeurIPS 2017) as PyTorch's {@code nn.Transformer} builds it with its defaults, and the Vision Transformer
 * ViT-B/16 (Dosovitskiy et al., "An Image is Worth 16x16 Words", ICLR 2021) as torchvision's
 * {@code torchvision/models/vision_transformer.py} builds {@code vit_b_16}. Multi-head attention is
 * {@link Attention#multiHead}. Dropout is the identity at inference and has no operator; GELU and ReLU are fused
 * into the linear layer before them.
 */
public final class Transformers {
    private static final int D_MODEL = 512;
    private static final int HEADS = 8;
    private static final int LAYERS = 6;
    private static final int FEEDFORWARD = 2048;

    private static final int VIT_PATCH = 16;
    private static final int VIT_WIDTH = 768;
    private static final int VIT_HEADS = 12;
    private static final int VIT_LAYERS = 12;
    private static final int VIT_MLP = 3072;

    private Transformers() {
    }

    /**
     * {@code torch.nn.Transformer()} with its defaults (torch/nn/modules/transformer.py): d_model 512, 8 heads,
     * 6 encoder and 6 decoder layers, feed-forward 2048 with ReLU, post-norm ({@code norm_first=False}: each
     * sublayer is followed by add and LayerNorm), a final LayerNorm after the encoder stack and after the
     * decoder stack, sequence-first layout. Inputs src (10, 32, 512) and tgt (20, 32, 512) (sequence, batch,
     * feature), the shapes of the example in PyTorch's documentation of {@code nn.Transformer} (that example
     * builds {@code nn.Transformer(nhead=16, num_encoder_layers=12)}; this is the default configuration);
     * output (20, 32, 512); 44,140,544 parameters.
     *
     * <p>No masks ({@code forward(src, tgt)} with every mask None, as the documented call): a causal target mask
     * would be a constant (20 x 20) added inside the decoder's self-attention softmax, changing neither the
     * operators nor the parameters (see {@link Attention}).
     * Embeddings and the output projection to a vocabulary are not part of {@code nn.Transformer}.
     */
    public static ZooNetwork transformer(int bytesPerElement) {
        NetBuilder b = new NetBuilder("transformer", bytesPerElement);
        Value src = b.input("src", 10, 32, D_MODEL);
        Value tgt = b.input("tgt", 20, 32, D_MODEL);
        Value memory = src;
        for (int i = 0; i < LAYERS; i++) {
            String n = "encoder.layers." + i;
            memory = b.layerNorm(n + ".norm1", b.add(n + ".add1", memory,
                    Attention.multiHead(b, n + ".self_attn", memory, memory, HEADS, false)));
            memory = b.layerNorm(n + ".norm2", b.add(n + ".add2", memory, feedForward(b, n, memory, FEEDFORWARD)));
        }
        memory = b.layerNorm("encoder.norm", memory);
        Value y = tgt;
        for (int i = 0; i < LAYERS; i++) {
            String n = "decoder.layers." + i;
            y = b.layerNorm(n + ".norm1", b.add(n + ".add1", y,
                    Attention.multiHead(b, n + ".self_attn", y, y, HEADS, false)));
            y = b.layerNorm(n + ".norm2", b.add(n + ".add2", y,
                    Attention.multiHead(b, n + ".multihead_attn", y, memory, HEADS, false)));
            y = b.layerNorm(n + ".norm3", b.add(n + ".add3", y, feedForward(b, n, y, FEEDFORWARD)));
        }
        return ZooNetwork.of(b, b.layerNorm("decoder.norm", y));
    }

    /**
     * ViT-B/16, torchvision's {@code vit_b_16}: a 16x16 stride-16 patch convolution 3 -> 768 (with bias), viewed
     * as 196 tokens; the class token (a parameter) concatenated in front; the positional embedding (a
     * parameter, 197 x 768) added; 12 pre-norm encoder blocks (LayerNorm, 12-head self-attention, add,
     * LayerNorm, MLP 768 -> 3072 GELU -> 768, add); a final LayerNorm; the class token selected; the linear head
     * to 1000 classes. Input (1, 3, 224, 224), output (1, 1000), 86,567,656 parameters.
     */
    public static ZooNetwork vitB16(int bytesPerElement) {
        NetBuilder b = new NetBuilder("vit_b_16", bytesPerElement);
        Value x = b.input("input", 1, 3, 224, 224);
        Value patches = b.conv("conv_proj", x, Conv.conv(VIT_WIDTH, VIT_PATCH).stride(VIT_PATCH).padding(0)
                .withBias());
        // (1, 768, 14, 14) -> (1, 768, 196) -> (1, 196, 768): views.
        Value tokens = b.transpose(b.flatten(patches, 2), 0, 2, 1);
        Value classToken = b.parameter("class_token", 1, 1, VIT_WIDTH);
        Value y = b.concat("concat_class_token", 1, List.of(classToken, tokens));
        y = b.add("encoder.add_pos_embedding", y, b.parameter("encoder.pos_embedding", 1, y.dim(1), VIT_WIDTH));
        for (int i = 0; i < VIT_LAYERS; i++) {
            String n = "encoder.layers.encoder_layer_" + i;
            Value normed = b.layerNorm(n + ".ln_1", y);
            y = b.add(n + ".add1", Attention.multiHead(b, n + ".self_attention", normed, normed, VIT_HEADS, true), y);
            y = b.add(n + ".add2", y, feedForward(b, n + ".mlp", b.layerNorm(n + ".ln_2", y), VIT_MLP));
        }
        y = b.layerNorm("encoder.ln", y);
        Value cls = b.select("class_token_out", y, 1, 0);
        return ZooNetwork.of(b, b.linear("heads.head", cls, 1000, true));
    }

    /** Two linear layers, width -> hidden (activation fused) -> width, each with bias. */
    private static Value feedForward(NetBuilder b, String name, Value x, int hidden) {
        Value h = b.linear(name + ".linear1", x, hidden, true);
        return b.linear(name + ".linear2", h, x.dim(-1), true);
    }
}
