package dev.memplan.cli;

import static dev.memplan.datasets.onnx.OnnxWriter.attrInt;
import static dev.memplan.datasets.onnx.OnnxWriter.attrInts;
import static dev.memplan.datasets.onnx.OnnxWriter.in;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.datasets.onnx.OnnxWriter;
import dev.memplan.datasets.zoo.ZooFiles;
import dev.memplan.model.Graph;
import dev.memplan.model.Operator;
import dev.memplan.model.io.GraphJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Training graphs ({@code NAME:train}) wherever a graph is named, and costs in the graph files memplan writes. */
class TrainingGraphCommandsTest {
    @TempDir
    Path dir;

    @Test
    void zooExportWritesATrainingStepWithEveryOperatorsCost() {
        MainTest.Result r = MainTest.run("zoo", "export", "resnet50:train", dir.toString());
        assertEquals(0, r.code(), r.err());
        Graph written = GraphJson.read(dir.resolve("resnet50.train.json"));
        Graph built = ZooFiles.graph("resnet50:train");
        assertEquals("resnet50:train", written.name());
        assertEquals(built.operatorCount(), written.operatorCount());
        for (int o = 0; o < built.operatorCount(); o++) {
            Operator op = written.operator(o);
            assertNotNull(op.cost(), op.name());
            assertEquals(built.cost(o), op.cost().longValue(), op.name());
        }
        MainTest.Result bad = MainTest.run("zoo", "export", "resnet51:train", dir.toString());
        assertEquals(ExitCode.USER_ERROR.code(), bad.code());
        assertTrue(bad.err().contains("no zoo network named 'resnet51:train'"), bad.err());
    }

    @Test
    void budgetsAndSolveTakeTrainingNames() {
        MainTest.Result b = MainTest.run("budgets", "resnet50:train", "--setting", "activations", "--time-limit", "5");
        assertEquals(0, b.code(), b.err());
        assertTrue(b.out().contains("graph resnet50:train: 214 operators"), b.out());
        MainTest.Result s = MainTest.run("solve", "gen:layered:12:train", "--budget", "M_R", "--work-limit", "5");
        assertEquals(0, s.code(), s.out() + s.err());
        assertTrue(s.out().contains("plan checked: VALID"), s.out());
        MainTest.Result u = MainTest.run("budgets", "fig1:train+update", "--time-limit", "5");
        assertEquals(0, u.code(), u.err());
        assertTrue(u.out().contains("graph fig1:train+update:"), u.out());
        MainTest.Result twice = MainTest.run("budgets", "fig1:train:train");
        assertEquals(ExitCode.USER_ERROR.code(), twice.code());
        assertTrue(twice.err().contains("'fig1:train' is already a training graph"), twice.err());
    }

    @Test
    void anOnnxModelsTrainingStepTakesTheImportOptionsAndConvertWritesCosts() throws IOException {
        OnnxWriter w = new OnnxWriter(17).input("x", "batch", 3, "h", "w")
                .weight("c1.weight", 4, 3, 3, 3).weight("fc.weight", 10, 4).weight("fc.bias", 10)
                .node("Conv", "c1", in("x", "c1.weight"), attrInts("pads", 1, 1, 1, 1))
                .node("Relu", "r1", in("c1")).node("GlobalAveragePool", "gap", in("r1"))
                .node("Flatten", "flat", in("gap"), attrInt("axis", 1))
                .node("Gemm", "logits", in("flat", "fc.weight", "fc.bias"), attrInt("transB", 1)).output("logits");
        Path model = dir.resolve("tiny.onnx");
        Files.write(model, w.bytes());
        Path out = dir.resolve("tiny-train.json");
        MainTest.Result r = MainTest.run("convert", model + ":train", out.toString(), "--input", "x=1,3,8,8");
        assertEquals(0, r.code(), r.out() + r.err());
        Graph g = GraphJson.read(out);
        assertEquals("tiny:train", g.name());
        // conv 3x3, 3 -> 4 channels, on 8x8: 4*64 outputs x 27 MACs, forward and both gradients
        for (String op : new String[] {"Conv_0", "Conv_0/grad_weight"}) {
            assertTrue(g.operatorIndex(op) >= 0, op + " in " + g.operators());
            assertEquals(4L * 64 * 27, g.operator(g.operatorIndex(op)).cost(), op);
        }
        assertEquals(-1, g.operatorIndex("Conv_0/grad_input"), "x is the model's input: no gradient");
        Path forward = dir.resolve("fig1.json");
        assertEquals(0, MainTest.run("convert", "fig1", forward.toString()).code());
        Graph fig1 = GraphJson.read(forward);
        assertTrue(fig1.operators().stream().allMatch(o -> o.cost() != null), "convert writes every cost");
    }
}
