package dev.memplan.datasets.onnx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.datasets.onnx.OnnxImport.Fusion;
import dev.memplan.datasets.zoo.Zoo;
import dev.memplan.model.Budgets;
import dev.memplan.model.Graph;
import dev.memplan.model.Operator;
import dev.memplan.model.Tensor;
import dev.memplan.model.TensorKind;
import dev.memplan.model.TensorSetting;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** An exported torchvision ResNet-50 imports to the zoo's resnet50: the same granularity and shape rules. */
class OnnxResNetTest {

    private static Graph imported(long opset, Fusion fusion) {
        return OnnxImport.read("resnet50.onnx", TorchvisionResNet50.model(opset),
                OnnxImport.Options.defaults().withInput("input", 1, 3, 224, 224).withFusion(fusion));
    }

    /** (kind, size) of every tensor, counted: the multiset the two graphs must share. */
    private static Map<String, Long> tensorSizes(Graph g) {
        return new TreeMap<>(g.tensors().stream().collect(Collectors.groupingBy(t -> t.kind() + ":" + t.size(),
                Collectors.counting())));
    }

    private static long bytes(Graph g, TensorKind kind) {
        return g.tensors().stream().filter(t -> t.kind() == kind).mapToLong(Tensor::size).sum();
    }

    private static Map<String, Long> types(Graph g) {
        return new TreeMap<>(g.operators().stream().collect(Collectors.groupingBy(Operator::type, Collectors.counting())));
    }

    @ParameterizedTest
    @ValueSource(longs = {11, 13, 17, 21})
    void importEqualsTheZoosResnet50(long opset) {
        Graph onnx = imported(opset, Fusion.BN_ACTIVATIONS);
        Graph zoo = Zoo.graph("resnet50");
        assertEquals(zoo.operatorCount(), onnx.operatorCount());
        assertEquals(zoo.tensorCount(), onnx.tensorCount());
        assertEquals(tensorSizes(zoo), tensorSizes(onnx));
        assertEquals(types(zoo), types(onnx));
        assertEquals(bytes(zoo, TensorKind.PARAMETER), bytes(onnx, TensorKind.PARAMETER));
        assertEquals(bytes(zoo, TensorKind.ACTIVATION), bytes(onnx, TensorKind.ACTIVATION));
        for (TensorSetting s : TensorSetting.values()) {
            assertEquals(Budgets.minimumRequired(zoo.withSetting(s)), Budgets.minimumRequired(onnx.withSetting(s)), s.name());
        }
        assertEquals(1, onnx.outputs().size());
        assertEquals(List.of(1L, 1000L), onnx.tensor(onnx.tensorIndex(onnx.outputs().get(0))).shape());
        // the flatten's Shape -> Gather -> Unsqueeze -> Concat chain is folded: no operator reads a shape
        assertTrue(onnx.operators().stream().noneMatch(o -> o.inputs().stream().anyMatch(i -> i.startsWith("/v"))));
    }

    @ParameterizedTest
    @ValueSource(strings = {"none", "bn"})
    void lessFusionKeepsBatchNormsAndActivationsAsOperators(String fuse) {
        Fusion f = Fusion.parse(fuse);
        Graph g = imported(17, f);
        Map<String, Long> t = types(g);
        // 53 convolutions each with a BatchNorm; 49 ReLUs (one per conv1/conv2 pair of 16 blocks, the stem, and 16 adds)
        assertEquals(53L, t.get("conv2d"));
        assertEquals(f == Fusion.NONE ? 53L : null, t.get("batchnorm"));
        assertEquals(49L, t.get("relu"));
        long zooOps = Zoo.graph("resnet50").operatorCount();
        assertEquals(zooOps + 49 + (f == Fusion.NONE ? 53 : 0), g.operatorCount());
        // without folding, a BatchNorm reads its four vectors: 4C parameters instead of the folded bias C
        long convChannels = g.operators().stream().filter(o -> o.type().equals("batchnorm"))
                .mapToLong(o -> g.tensor(g.tensorIndex(o.outputs().get(0))).shape().get(1)).sum();
        long zooParams = bytes(Zoo.graph("resnet50"), TensorKind.PARAMETER);
        assertEquals(zooParams + 3 * convChannels, bytes(g, TensorKind.PARAMETER));
    }
}
