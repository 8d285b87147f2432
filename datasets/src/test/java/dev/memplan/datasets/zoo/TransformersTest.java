package dev.memplan.datasets.zoo;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.memplan.model.Graph;
import java.util.List;
import org.junit.jupiter.api.Test;

class TransformersTest {

    // nn.Transformer() (torch/nn/modules/transformer.py) has no published count; from its layer definitions,
    // with d = 512, f = 2048:
    //   MultiheadAttention: in_proj_weight 3d*d + in_proj_bias 3d + out_proj d*d + d = 1,050,624
    //   feed-forward: linear1 d*f + f + linear2 f*d + d = 2,099,712; LayerNorm: 2d = 1,024
    //   encoder layer: attention + feed-forward + 2 norms = 3,152,384, x6 = 18,914,304
    //   decoder layer: 2 attentions + feed-forward + 3 norms = 4,204,032, x6 = 25,224,192
    //   final encoder and decoder norms: 2,048; total 44,140,544
    // (sum(p.numel() for p in nn.Transformer().parameters()) gives the same figure).
    // Operators: 7 per attention (q, k, v, scores, softmax, context, out); encoder layer 7 + 2 linears + 2 adds
    // + 2 norms = 13; decoder layer 2*7 + 2 + 3 + 3 = 22; 6*13 + 6*22 + 2 final norms = 212.
    @Test
    void transformerMatchesPyTorch() {
        ZooNetwork n = Transformers.transformer(1);
        assertEquals(44_140_544L, n.referenceParameters());
        assertEquals(List.of(List.of(20L, 32L, 512L)), n.outputShapes());
        Graph g = n.graph();
        assertEquals(212, g.operatorCount());
        // scores per (batch, head): decoder self-attention 20 x 20, cross-attention 20 x 10 (target over source).
        assertEquals(List.of(32L, 8L, 10L, 10L), shape(g, "encoder.layers.0.self_attn.scores"));
        assertEquals(List.of(32L, 8L, 20L, 20L), shape(g, "decoder.layers.0.self_attn.scores"));
        assertEquals(List.of(32L, 8L, 20L, 10L), shape(g, "decoder.layers.5.multihead_attn.scores"));
        assertEquals(List.of(32L, 8L, 20L, 64L), shape(g, "decoder.layers.5.multihead_attn.context"));
        assertEquals(List.of(20L, 32L, 512L), shape(g, "decoder.layers.5.multihead_attn.out_proj"));
        // the cross-attention reads the encoder's final norm for keys and values
        assertEquals(List.of("encoder.norm", "decoder.layers.3.multihead_attn.k_proj.weight",
                "decoder.layers.3.multihead_attn.k_proj.bias"),
                g.operator(g.operatorIndex("decoder.layers.3.multihead_attn.k_proj")).inputs());
    }

    // torchvision documents ViT_B_16_Weights.IMAGENET1K_V1 num_params 86,567,656
    // (torchvision/models/vision_transformer.py, https://pytorch.org/vision/stable/models.html).
    // Operators: conv_proj, class-token concat, position add; 12 blocks of 2 norms + 7 attention + 2 MLP
    // linears + 2 adds = 13; final norm, class-token select, head: 3 + 156 + 3 = 162.
    @Test
    void vitB16MatchesTorchvision() {
        ZooNetwork n = Transformers.vitB16(1);
        assertEquals(86_567_656L, n.referenceParameters());
        assertEquals(List.of(List.of(1L, 1000L)), n.outputShapes());
        Graph g = n.graph();
        assertEquals(162, g.operatorCount());
        assertEquals(List.of(1L, 197L, 768L), shape(g, "concat_class_token"));
        assertEquals(List.of(1L, 12L, 197L, 197L), shape(g, "encoder.layers.encoder_layer_11.self_attention.scores"));
        assertEquals(List.of(1L, 197L, 3072L), shape(g, "encoder.layers.encoder_layer_0.mlp.linear1"));
        assertEquals(List.of(1L, 768L), shape(g, "class_token_out"));
    }

    @Test
    void registeredInTheZoo() {
        assertEquals(44_140_544L, Zoo.build("transformer").referenceParameters());
        assertEquals(86_567_656L, Zoo.build("vitb16").referenceParameters());
    }

    private static List<Long> shape(Graph g, String tensor) {
        return g.tensor(g.tensorIndex(tensor)).shape();
    }
}
