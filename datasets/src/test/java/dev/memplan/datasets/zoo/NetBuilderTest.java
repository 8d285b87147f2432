package dev.memplan.datasets.zoo;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.memplan.datasets.zoo.NetBuilder.Conv;
import dev.memplan.datasets.zoo.NetBuilder.Value;
import dev.memplan.model.Graph;
import dev.memplan.model.TensorKind;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Shape inference against PyTorch's documented formulas (torch.nn.Conv2d, MaxPool2d, broadcasting, matmul). */
class NetBuilderTest {

    private static NetBuilder builder() {
        return new NetBuilder("t", 1);
    }

    /** PyTorch's Conv2d output size: floor((in + 2p - d(k - 1) - 1) / s) + 1. */
    private static long torchConv(long in, int k, int s, int p, int d) {
        return Math.floorDiv(in + 2L * p - (long) d * (k - 1) - 1, s) + 1;
    }

    @Test
    void convOutputSizesFollowPytorch() {
        int[][] cases = { // in, kernel, stride, padding, dilation
            {224, 7, 2, 3, 1}, {56, 3, 1, 1, 1}, {56, 3, 2, 1, 1}, {56, 1, 2, 0, 1}, {28, 3, 1, 2, 2},
            {28, 3, 1, 36, 36}, {10, 3, 1, 0, 2}, {7, 3, 2, 0, 1}, {224, 11, 4, 2, 1}, {15, 5, 2, 4, 2},
        };
        for (int[] c : cases) {
            NetBuilder b = builder();
            Value x = b.input("x", 1, 8, c[0], c[0]);
            Value y = b.conv("c", x, Conv.conv(16, c[1]).stride(c[2]).padding(c[3]).dilation(c[4]));
            long expected = torchConv(c[0], c[1], c[2], c[3], c[4]);
            assertArrayEquals(new long[] {1, 16, expected, expected}, y.shape(), java.util.Arrays.toString(c));
        }
    }

    @Test
    void convPerAxisOptionsAnd3d() {
        NetBuilder b = builder();
        Value x = b.input("x", 1, 4, 20, 30);
        Value y = b.conv("c", x, Conv.conv(8, 1).kernel(1, 7).padding(0, 3).stride(2, 1));
        assertArrayEquals(new long[] {1, 8, 10, 30}, y.shape());
        Value v = b.input("v", 2, 3, 16, 112, 112);
        Value w = b.conv("c3", v, Conv.conv(64, 3).kernel(3, 7, 7).stride(1, 2, 2).padding(1, 3, 3));
        assertArrayEquals(new long[] {2, 64, 16, 56, 56}, w.shape());
        Graph g = b.output(w).output(y).build();
        assertEquals("conv3d", g.operator(g.operatorIndex("c3")).type());
        assertEquals(List.of(64L, 3L, 3L, 7L, 7L), g.tensor(g.tensorIndex("c3.weight")).shape());
    }

    @Test
    void groupedConvWeightsAndParameterCounts() {
        NetBuilder b = builder();
        Value x = b.input("x", 1, 32, 8, 8);
        b.conv("grouped", x, Conv.conv(64, 3).groups(4)); // 64 x 8 x 3 x 3 + BN 2 x 64
        assertEquals(64 * 8 * 9 + 128, b.referenceParameterCount());
        b.conv("depthwise", x, Conv.conv(32, 3).groups(32).plain()); // 32 x 1 x 3 x 3
        assertEquals(64 * 8 * 9 + 128 + 32 * 9, b.referenceParameterCount());
        Value y = b.conv("biased", x, Conv.conv(10, 1).withBias()); // 10 x 32 + 10
        assertEquals(64 * 8 * 9 + 128 + 32 * 9 + 330, b.referenceParameterCount());
        Graph g = b.output(y).build();
        assertEquals(List.of(64L, 8L, 3L, 3L), g.tensor(g.tensorIndex("grouped.weight")).shape());
        // Folded BatchNorm leaves a bias; a plain conv has none.
        assertEquals(TensorKind.PARAMETER, g.tensor(g.tensorIndex("grouped.bias")).kind());
        assertEquals(-1, indexOrMissing(g, "depthwise.bias"));
        assertEquals(List.of("x", "biased.weight", "biased.bias"), g.operator(g.operatorIndex("biased")).inputs());
    }

    @Test
    void preNormConvReadsItsInputBatchNorm() {
        NetBuilder b = builder();
        Value x = b.input("x", 1, 96, 14, 14);
        Value y = b.preNormConv("c", x, Conv.conv(128, 1)); // BN(96) before, BN(128) folded after
        assertArrayEquals(new long[] {1, 128, 14, 14}, y.shape());
        assertEquals(2 * 96 + 96 * 128 + 2 * 128, b.referenceParameterCount());
        Graph g = b.output(y).build();
        assertEquals(List.of("x", "c.norm", "c.weight", "c.bias"), g.operator(g.operatorIndex("c")).inputs());
        assertEquals(List.of(2L, 96L), g.tensor(g.tensorIndex("c.norm")).shape());
        assertEquals(TensorKind.PARAMETER, g.tensor(g.tensorIndex("c.norm")).kind());
    }

    @Test
    void convErrors() {
        NetBuilder b = builder();
        Value x = b.input("x", 1, 6, 5, 5);
        assertThrows(IllegalArgumentException.class, () -> b.conv("g", x, Conv.conv(8, 3).groups(4)));
        assertThrows(IllegalArgumentException.class, () -> b.conv("k", x, Conv.conv(8, 7).padding(0)));
        assertThrows(IllegalArgumentException.class, () -> b.conv("r", b.input("flat", 1, 6), Conv.conv(8, 1)));
        assertThrows(IllegalArgumentException.class, () -> b.conv("a", x, Conv.conv(8, 3).stride(1, 1, 1)));
    }

    @Test
    void poolingCeilModeFollowsPytorch() {
        NetBuilder b = builder();
        Value x = b.input("x", 1, 64, 112, 112);
        assertArrayEquals(new long[] {1, 64, 55, 55}, b.maxPool("floor", x, 3, 2, 0, false).shape());
        assertArrayEquals(new long[] {1, 64, 56, 56}, b.maxPool("ceil", x, 3, 2, 0, true).shape());
        assertArrayEquals(new long[] {1, 64, 56, 56}, b.maxPool("padded", x, 3, 2, 1, false).shape());
        assertArrayEquals(new long[] {1, 64, 56, 56}, b.avgPool("avg", x, 2, 2, 0, true).shape());
        // ceil_mode drops a last window that would start in the right padding: in 5, k 2, s 2, p 1 gives 3, not 4.
        Value small = b.input("small", 1, 1, 5, 5);
        assertArrayEquals(new long[] {1, 1, 3, 3}, b.maxPool("edge", small, 2, 2, 1, true).shape());
        assertArrayEquals(new long[] {1, 1, 3, 3}, b.maxPool("edgeFloor", small, 2, 2, 1, false).shape());
        Value g = b.globalAvgPool("gap", x);
        assertArrayEquals(new long[] {1, 64, 1, 1}, g.shape());
        Value v = b.input("v", 1, 64, 8, 56, 56);
        assertArrayEquals(new long[] {1, 64, 8, 28, 28},
                b.pool("p3", "maxpool", v, new int[] {1, 3, 3}, new int[] {1, 2, 2}, new int[] {0, 1, 1}, false)
                        .shape());
    }

    @Test
    void broadcastingAddAndMul() {
        NetBuilder b = builder();
        Value x = b.input("x", 1, 64, 56, 56);
        Value s = b.input("s", 1, 64, 1, 1);
        assertArrayEquals(new long[] {1, 64, 56, 56}, b.mul("m", s, x).shape());
        assertArrayEquals(new long[] {1, 64, 56, 56}, b.add("a", x, s).shape());
        Value p = b.input("p", 2, 1, 4);
        Value q = b.input("q", 3, 1);
        assertArrayEquals(new long[] {2, 3, 4}, b.add("pq", p, q).shape());
        Value wrong = b.input("wrong", 1, 32, 56, 56);
        assertThrows(IllegalArgumentException.class, () -> b.add("bad", x, wrong));
        assertThrows(IllegalArgumentException.class, () -> b.mul("bad2", x, b.input("w2", 55)));
    }

    @Test
    void concatSumsTheAxisAndChecksTheRest() {
        NetBuilder b = builder();
        Value a = b.input("a", 1, 64, 28, 28);
        Value c = b.input("c", 1, 32, 28, 28);
        Value y = b.concat("cat", 1, List.of(a, c, c));
        assertArrayEquals(new long[] {1, 128, 28, 28}, y.shape());
        assertArrayEquals(new long[] {1, 64, 28, 56}, b.concat("cat3", -1, List.of(a, a)).shape());
        assertThrows(IllegalArgumentException.class,
                () -> b.concat("bad", 1, List.of(a, b.input("d", 1, 32, 14, 14))));
        assertThrows(IllegalArgumentException.class, () -> b.concat("rank", 1, List.of(a, b.input("e", 1, 32, 28))));
        assertThrows(IllegalArgumentException.class, () -> b.concat("none", 1, List.of()));
        Graph g = b.output(y).build();
        assertEquals(List.of("a", "c"), g.operator(g.operatorIndex("cat")).inputs()); // a repeated part read once
    }

    @Test
    void matmulAndLinear() {
        NetBuilder b = builder();
        Value q = b.input("q", 2, 8, 16, 32);
        Value k = b.input("k", 2, 8, 16, 32);
        Value scores = b.matmul("qk", q, b.transpose(k, 0, 1, 3, 2));
        assertArrayEquals(new long[] {2, 8, 16, 16}, scores.shape());
        assertArrayEquals(new long[] {8, 16, 4}, b.matmul("bc", b.input("a", 8, 16, 32), b.input("w", 32, 4)).shape());
        assertThrows(IllegalArgumentException.class, () -> b.matmul("bad", q, k));
        assertThrows(IllegalArgumentException.class, () -> b.matmul("lead", q, b.input("k3", 3, 8, 32, 16)));

        Value x = b.input("x", 1, 197, 768);
        long before = b.referenceParameterCount();
        Value y = b.linear("fc", x, 3072, true);
        assertArrayEquals(new long[] {1, 197, 3072}, y.shape());
        assertEquals(768L * 3072 + 3072, b.referenceParameterCount() - before);
        b.linear("nobias", x, 10, false);
        assertEquals(768L * 3072 + 3072 + 7680, b.referenceParameterCount() - before);
        Graph g = b.output(y).build();
        assertEquals(List.of(3072L, 768L), g.tensor(g.tensorIndex("fc.weight")).shape());
        assertEquals(-1, indexOrMissing(g, "nobias.bias"));
    }

    @Test
    void viewsAddNoOperators() {
        NetBuilder b = builder();
        Value x = b.input("x", 1, 64, 7, 7);
        Value f = b.flatten(x, 1);
        assertArrayEquals(new long[] {1, 3136}, f.shape());
        assertEquals("x", f.tensor());
        assertArrayEquals(new long[] {1, 64, 49}, b.reshape(x, 1, 64, -1).shape());
        assertArrayEquals(new long[] {1, 7, 7, 64}, b.transpose(x, 0, 2, 3, 1).shape());
        assertThrows(IllegalArgumentException.class, () -> b.reshape(x, 1, 63, 7, 7));
        assertThrows(IllegalArgumentException.class, () -> b.transpose(x, 0, 1));
        Value r = b.resize("up", x, 14, 14);
        assertArrayEquals(new long[] {1, 64, 14, 14}, r.shape());
        assertThrows(IllegalArgumentException.class, () -> b.resize("up2", x, 14));
        Graph g = b.output(r).build();
        assertEquals(1, g.operatorCount());
    }

    @Test
    void tensorSizesAndBuilderErrors() {
        NetBuilder b = new NetBuilder("t", 2);
        Value x = b.input("x", 1, 3, 8, 8);
        Value y = b.conv("c", x, Conv.conv(4, 3));
        Graph g = b.output(y).build();
        assertEquals(2L * 3 * 8 * 8, g.size(g.tensorIndex("x")));
        assertEquals(2L * 4 * 3 * 3 * 3, g.size(g.tensorIndex("c.weight")));
        assertEquals("int16", g.tensor(g.tensorIndex("c")).dtype());

        NetBuilder d = builder();
        d.input("x", 1, 3, 8, 8);
        assertThrows(IllegalArgumentException.class, () -> d.input("x", 1, 3, 8, 8));
        assertThrows(IllegalArgumentException.class, () -> d.input("zero", 1, 0, 8));
        assertThrows(IllegalStateException.class, d::build);
        assertThrows(IllegalArgumentException.class, () -> new NetBuilder("t", 0));
    }

    private static int indexOrMissing(Graph g, String tensor) {
        return g.tensors().stream().anyMatch(t -> t.name().equals(tensor)) ? g.tensorIndex(tensor) : -1;
    }
}
