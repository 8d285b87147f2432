package dev.memplan.datasets.zoo;

import dev.memplan.datasets.zoo.NasCells.CellGenotype;
import dev.memplan.datasets.zoo.NasCells.Edge;
import dev.memplan.datasets.zoo.NasCells.Genotype;
import dev.memplan.datasets.zoo.NasCells.Op;
import dev.memplan.datasets.zoo.NetBuilder.Conv;
import dev.memplan.datasets.zoo.NetBuilder.Value;
import java.util.ArrayList;
import java.util.List;

/**
 * The four networks found by architecture search in the COSMA paper's evaluation, for ImageNet at 224 x 224
 * (input (1, 3, 224, 224), output (1, 1000)), built cell by cell from their published genotypes so that the
 * irregular wiring (cells reading the two previous cells, nodes reading earlier nodes, concatenated outputs)
 * is in the graph. The cell machinery is in {@link NasCells}.
 *
 * <ul>
 * <li>NASNet-A mobile: Zoph, Vasudevan, Shlens and Le, "Learning Transferable Architectures for Scalable Image
 *     Recognition", CVPR 2018; TF-slim {@code research/slim/nets/nasnet/nasnet.py} ({@code build_nasnet_mobile},
 *     {@code mobile_imagenet_config}: 12 cells (N = 4), 44 filters, stem multiplier 1, reductions before cells 4
 *     and 8) with the cells of {@code nasnet_utils.py} ({@code NasNetANormalCell}, {@code NasNetAReductionCell});
 *     Cadene's {@code pretrainedmodels/models/nasnet_mobile.py} is a port of the same graph. 1056 channels
 *     before the classifier.</li>
 * <li>PNASNet-5 mobile: Liu et al., "Progressive Neural Architecture Search", ECCV 2018; TF-slim
 *     {@code nets/nasnet/pnasnet.py} ({@code build_pnasnet_mobile}, {@code mobile_imagenet_config}: 9 cells
 *     (N = 3), 54 filters, stem multiplier 1; the one PNASNet-5 cell also serves, with stride 2, as stem and
 *     reduction cell).</li>
 * <li>AmoebaNet-A mobile: Real, Aggarwal, Huang and Le, "Regularized Evolution for Image Classifier
 *     Architecture Search", AAAI 2019; the authors' implementation in {@code tensorflow/tpu}
 *     {@code models/official/amoeba_net} ({@code model_specs.py} genotype {@code amoeba_net_a},
 *     {@code network_utils.BaseCell}, {@code model_builder.py} ImageNet stem of a 32-filter convolution and two
 *     reduction cells), in the paper's mobile setting N = 4 (12 normal cells), F = 50.</li>
 * <li>DARTS: Liu, Simonyan and Yang, "DARTS: Differentiable Architecture Search", ICLR 2019;
 *     {@code quark0/darts} {@code cnn/genotypes.py} {@code DARTS_V2} in {@code cnn/model.py}
 *     {@code NetworkImageNet(C=48, layers=14)} with stem0/stem1 as there, no auxiliary head.</li>
 * </ul>
 *
 * <p>Classifiers have 1000 classes (the TensorFlow checkpoints have 1001, a background class). Dropout and
 * drop-path are training-only and absent.
 */
public final class NasNets {

    /** NASNet-A cells as {@code nasnet_utils.NasNetANormalCell} / {@code NasNetAReductionCell} define them. */
    static final Genotype NASNET_A = new Genotype("NASNet-A",
            CellGenotype.tensorflow(
                    new Op[] {Op.SEP_5X5, Op.SEP_3X3, Op.SEP_5X5, Op.SEP_3X3, Op.AVG_3X3, Op.IDENTITY, Op.AVG_3X3,
                        Op.AVG_3X3, Op.SEP_3X3, Op.IDENTITY},
                    new int[] {0, 1, 1, 1, 0, 1, 1, 1, 0, 0},
                    new int[] {1, 0, 0, 0, 0, 0, 0}),
            CellGenotype.tensorflow(
                    new Op[] {Op.SEP_5X5, Op.SEP_7X7, Op.MAX_3X3, Op.SEP_7X7, Op.AVG_3X3, Op.SEP_5X5, Op.IDENTITY,
                        Op.AVG_3X3, Op.SEP_3X3, Op.MAX_3X3},
                    new int[] {0, 1, 0, 1, 0, 1, 3, 2, 2, 0},
                    new int[] {1, 1, 1, 0, 0, 0, 0}));

    /** The PNASNet-5 cell ({@code pnasnet.PNasNetNormalCell}); PNASNet has no separate reduction cell. */
    static final CellGenotype PNASNET_5_CELL = CellGenotype.tensorflow(
            new Op[] {Op.SEP_5X5, Op.MAX_3X3, Op.SEP_7X7, Op.MAX_3X3, Op.SEP_5X5, Op.SEP_3X3, Op.SEP_3X3,
                Op.MAX_3X3, Op.SEP_3X3, Op.IDENTITY},
            new int[] {1, 1, 0, 0, 0, 0, 4, 0, 1, 0},
            new int[] {1, 1, 0, 0, 0, 0, 0});

    static final Genotype PNASNET_5 = new Genotype("PNASNet-5", PNASNET_5_CELL, PNASNET_5_CELL);

    /** AmoebaNet-A cells ({@code tensorflow/tpu} {@code amoeba_net/model_specs.py}, {@code amoeba_net_a}). */
    static final Genotype AMOEBANET_A = new Genotype("AmoebaNet-A",
            CellGenotype.tensorflow(
                    new Op[] {Op.AVG_3X3, Op.MAX_3X3, Op.SEP_3X3, Op.IDENTITY, Op.IDENTITY, Op.AVG_3X3, Op.SEP_3X3,
                        Op.SEP_5X5, Op.AVG_3X3, Op.SEP_3X3},
                    new int[] {0, 0, 1, 1, 0, 1, 0, 2, 5, 0},
                    new int[] {1, 0, 1, 0, 0, 1, 0}),
            CellGenotype.tensorflow(
                    new Op[] {Op.SEP_3X3, Op.AVG_3X3, Op.MAX_3X3, Op.SEP_7X7, Op.MAX_3X3, Op.MAX_3X3, Op.SEP_3X3,
                        Op.CONV_1X7_7X1, Op.AVG_3X3, Op.SEP_7X7},
                    new int[] {1, 0, 0, 2, 1, 0, 4, 0, 1, 0},
                    new int[] {1, 1, 0, 0, 0, 0, 0}));

    /** DARTS_V2 ({@code quark0/darts} {@code cnn/genotypes.py}; {@code DARTS = DARTS_V2}). */
    static final Genotype DARTS_V2 = new Genotype("DARTS_V2",
            CellGenotype.darts(List.of(
                    new Edge(Op.SEP_3X3, 0), new Edge(Op.SEP_3X3, 1),
                    new Edge(Op.SEP_3X3, 0), new Edge(Op.SEP_3X3, 1),
                    new Edge(Op.SEP_3X3, 1), new Edge(Op.IDENTITY, 0),
                    new Edge(Op.IDENTITY, 0), new Edge(Op.DIL_3X3, 2)), List.of(2, 3, 4, 5)),
            CellGenotype.darts(List.of(
                    new Edge(Op.MAX_3X3, 0), new Edge(Op.MAX_3X3, 1),
                    new Edge(Op.IDENTITY, 2), new Edge(Op.MAX_3X3, 1),
                    new Edge(Op.MAX_3X3, 0), new Edge(Op.IDENTITY, 2),
                    new Edge(Op.IDENTITY, 2), new Edge(Op.MAX_3X3, 1)), List.of(2, 3, 4, 5)));

    private NasNets() {
    }

    /** NASNet-A mobile (4 @ 1056): 12 normal and 2 + 2 reduction cells, 44 filters, output (1, 1000). */
    public static ZooNetwork nasnetAMobile(int bytesPerElement) {
        return tensorflowNetwork("nasnet_a_mobile", NASNET_A, true, 12, 44, bytesPerElement);
    }

    /** PNASNet-5 mobile: 9 cells (two of them reducing) after 2 stem cells, 54 filters, output (1, 1000). */
    public static ZooNetwork pnasnet5Mobile(int bytesPerElement) {
        return tensorflowNetwork("pnasnet5_mobile", PNASNET_5, false, 9, 54, bytesPerElement);
    }

    /** AmoebaNet-A mobile (N = 4, F = 50): 12 normal and 2 + 2 reduction cells, output (1, 1000). */
    public static ZooNetwork amoebanetAMobile(int bytesPerElement) {
        return tensorflowNetwork("amoebanet_a_mobile", AMOEBANET_A, true, 12, 50, bytesPerElement);
    }

    /**
     * DARTS (V2) for ImageNet: {@code NetworkImageNet(C=48, num_classes=1000, layers=14)}: stem0 (3x3/2 to 24,
     * BN, ReLU, 3x3/2 to 48, BN), stem1 (ReLU, 3x3/2, BN), 14 cells with reductions at cells 4 and 9 (48, 96,
     * 192 channels per node, 4 nodes concatenated), 7x7 average pool, linear classifier. Output (1, 1000).
     */
    public static ZooNetwork darts(int bytesPerElement) {
        int c = 48;
        int layers = 14;
        NetBuilder b = new NetBuilder("darts_v2", bytesPerElement);
        Value x = b.input("input", 1, 3, 224, 224);
        Value s0 = b.conv("stem0/conv0", x, Conv.conv(c / 2, 3).stride(2).padding(1));
        s0 = b.conv("stem0/conv1", s0, Conv.conv(c, 3).stride(2).padding(1));
        Value s1 = b.conv("stem1/conv", s0, Conv.conv(c, 3).stride(2).padding(1));
        int channels = c;
        boolean reductionPrev = true;
        for (int i = 0; i < layers; i++) {
            boolean reduction = i == layers / 3 || i == 2 * layers / 3;
            if (reduction) {
                channels *= 2;
            }
            Value out = NasCells.dartsCell(b, "cell" + i, reduction ? DARTS_V2.reduce() : DARTS_V2.normal(), s0, s1,
                    channels, reduction, reductionPrev);
            reductionPrev = reduction;
            s0 = s1;
            s1 = out;
        }
        Value pooled = b.avgPool("global_pooling", s1, 7, 7, 0, false);
        return ZooNetwork.of(b, b.linear("classifier", b.flatten(pooled, 1), 1000, true));
    }

    /**
     * The TensorFlow NASNet-family skeleton ({@code nasnet._build_nasnet_base}, {@code pnasnet._build_pnasnet_base},
     * AmoebaNet {@code model_builder._build_network_base}): the ImageNet stem ({@code _imagenet_stem}: 3x3/2
     * VALID convolution to 32 filters, BN, then two stride-2 stem cells at 1/4 and 1/2 of the filters, using
     * the reduction cell), then {@code numCells} cells with reductions at {@code calc_reduction_layers} (cells
     * numCells/3 and 2numCells/3), where the filters double. With a separate reduction cell (NASNet, AmoebaNet)
     * a reduction cell is inserted before those cells; without (PNASNet) those cells themselves have stride 2.
     * Every cell's previous layer is the output of the cell before the previous one ({@code cell_outputs[-2]}).
     * Head: ReLU, global average pool, linear.
     */
    private static ZooNetwork tensorflowNetwork(String name, Genotype g, boolean separateReductionCell, int numCells,
                                                int filters, int bytesPerElement) {
        NetBuilder b = new NetBuilder(name, bytesPerElement);
        Value x = b.input("input", 1, 3, 224, 224);
        Value net = b.conv("stem/conv0", x, Conv.conv(32, 3).stride(2).padding(0));
        List<Value> outputs = new ArrayList<>();
        outputs.add(null);
        outputs.add(net);
        double scaling = 1.0 / 4;
        for (int i = 0; i < 2; i++) {
            net = NasCells.tfCell(b, "cell_stem_" + i, g.reduce(), net, outputs.get(outputs.size() - 2),
                    (int) (filters * scaling), 2);
            outputs.add(net);
            scaling *= 2;
        }
        List<Integer> reductions = List.of(numCells / 3, 2 * numCells / 3);
        int filterScaling = 1;
        for (int cell = 0; cell < numCells; cell++) {
            int stride = 1;
            if (reductions.contains(cell)) {
                filterScaling *= 2;
                if (separateReductionCell) {
                    net = NasCells.tfCell(b, "reduction_cell_" + reductions.indexOf(cell), g.reduce(), net,
                            outputs.get(outputs.size() - 2), filters * filterScaling, 2);
                    outputs.add(net);
                } else {
                    stride = 2;
                }
            }
            net = NasCells.tfCell(b, "cell_" + cell, g.normal(), net, outputs.get(outputs.size() - 2),
                    filters * filterScaling, stride);
            outputs.add(net);
        }
        Value pooled = b.globalAvgPool("final_layer/global_pool", net);
        return ZooNetwork.of(b, b.linear("final_layer/logits", b.flatten(pooled, 1), 1000, true));
    }
}
