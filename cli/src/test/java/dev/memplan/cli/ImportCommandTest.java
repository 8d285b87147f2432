package dev.memplan.cli;

import static dev.memplan.datasets.onnx.OnnxWriter.attrFloat;
import static dev.memplan.datasets.onnx.OnnxWriter.attrInt;
import static dev.memplan.datasets.onnx.OnnxWriter.attrInts;
import static dev.memplan.datasets.onnx.OnnxWriter.in;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.datasets.onnx.OnnxWriter;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** memplan import, and .onnx files as the GRAPH of solve, check, compare and budgets, as a user runs them. */
class ImportCommandTest {
    @TempDir
    Path dir;

    /** A small residual CNN with a dynamic batch and image size, as torch exports one. */
    private Path tinyModel() throws IOException {
        OnnxWriter w = new OnnxWriter(17).input("x", "batch", 3, "h", "w")
                .weight("c1.weight", 4, 3, 3, 3).weight("bn.weight", 4).weight("bn.bias", 4).weight("bn.mean", 4)
                .weight("bn.var", 4).weight("c2.weight", 4, 4, 3, 3).weight("c2.bias", 4)
                .weight("fc.weight", 10, 4).weight("fc.bias", 10)
                .node("Conv", "c1", in("x", "c1.weight"), attrInts("pads", 1, 1, 1, 1))
                .node("BatchNormalization", "bn", in("c1", "bn.weight", "bn.bias", "bn.mean", "bn.var"),
                        attrFloat("epsilon", 1e-5f))
                .node("Relu", "r1", in("bn"))
                .node("Conv", "c2", in("r1", "c2.weight", "c2.bias"), attrInts("pads", 1, 1, 1, 1))
                .node("Add", "add", in("c2", "r1")).node("Relu", "r2", in("add"))
                .node("GlobalAveragePool", "gap", in("r2")).node("Flatten", "flat", in("gap"), attrInt("axis", 1))
                .node("Gemm", "logits", in("flat", "fc.weight", "fc.bias"), attrInt("transB", 1)).output("logits");
        Path file = dir.resolve("tiny.onnx");
        Files.write(file, w.bytes());
        return file;
    }

    private Path realModel(String name) throws IOException {
        Path file = dir.resolve(name);
        try (InputStream in = getClass().getResourceAsStream("/models/" + name)) {
            Files.copy(in, file);
        }
        return file;
    }

    @Test
    void importsARealDetectionModelAndWritesItsGraph() throws IOException {
        Path model = realModel("ch_PP-OCRv3_det_infer.onnx");
        Path out = dir.resolve("det.json");
        MainTest.Result r = MainTest.run("import", model.toString(), "--input", "x=1,3,320,320", "--out", out.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("ch_PP-OCRv3_det_infer (118 operators"), r.out());
        assertTrue(r.out().contains("x[1, 3, 320, 320]"), r.out());
        assertTrue(Files.size(out) > 0);
        MainTest.Result fromJson = MainTest.run("budgets", out.toString(), "--setting", "activations");
        MainTest.Result fromOnnx = MainTest.run("budgets", model.toString(), "--setting", "activations", "--input",
                "x=1,3,320,320");
        assertEquals(0, fromOnnx.code(), fromOnnx.err());
        // the graph line and M_R: M_P's method and value depend on the time its search gets on a loaded machine
        assertEquals(graphLineAndMr(fromJson.out()), graphLineAndMr(fromOnnx.out()),
                "the written graph and the .onnx GRAPH are the same graph");
    }

    @Test
    void solvesAndChecksAnOnnxGraphWithItsInputFixed() throws IOException {
        Path model = tinyModel();
        Path plan = dir.resolve("plan.json");
        MainTest.Result solve = MainTest.run("solve", model.toString(), "--budget", "M_H", "--input", "x=1,3,8,8",
                "--out", plan.toString());
        assertEquals(0, solve.code(), solve.out() + solve.err());
        assertTrue(solve.out().contains("tiny (5 operators"), solve.out());
        assertTrue(solve.out().contains("OPTIMAL"), solve.out());
        MainTest.Result check = MainTest.run("check", model.toString(), plan.toString(), "--input", "x=1,3,8,8");
        assertEquals(0, check.code(), check.out() + check.err());
        MainTest.Result compare = MainTest.run("compare", model.toString(), "--budget", "M_H", "--input", "x=1,3,8,8");
        assertEquals(0, compare.code(), compare.out() + compare.err());
        // with BN and activations kept, the same model has more operators
        MainTest.Result none = MainTest.run("import", model.toString(), "--input", "x=1,3,8,8", "--fuse", "none");
        assertTrue(none.out().contains("tiny (8 operators"), none.out());
    }

    @Test
    void badInputIsOneLineAndExitTwo() throws IOException {
        Path model = tinyModel();
        MainTest.Result dynamic = MainTest.run("import", model.toString());
        assertOneLineError(dynamic, model + ": input 'x': dimension 0 ('batch')");
        byte[] whole = Files.readAllBytes(model);
        Path cut = dir.resolve("cut.onnx");
        Files.write(cut, Arrays.copyOf(whole, whole.length - 7));
        assertOneLineError(MainTest.run("solve", cut.toString(), "--budget", "M_R", "--input", "x=1,3,8,8"),
                cut + ": file: not an ONNX model");
        assertOneLineError(MainTest.run("import", dir.resolve("none.onnx").toString()), "no such file");
        assertOneLineError(MainTest.run("budgets", "fig1", "--input", "x=1,3,8,8"), "apply to an .onnx GRAPH");
        assertOneLineError(MainTest.run("import", model.toString(), "--fuse", "everything"), "unknown fusion");
        assertOneLineError(MainTest.run("import", model.toString(), "--input", "x=1,3,eight,8"), "positive integers");
        Path out = dir.resolve("never.json");
        MainTest.run("import", model.toString(), "--out", out.toString());
        assertFalse(Files.exists(out), "nothing written on an error");
    }

    private static List<String> graphLineAndMr(String budgets) {
        List<String> lines = budgets.lines().toList();
        return List.of(lines.get(0), lines.get(2).split("\\s+")[0], lines.get(2).split("\\s+")[1]);
    }

    private static void assertOneLineError(MainTest.Result r, String text) {
        assertEquals(2, r.code(), r.out() + r.err());
        assertTrue(r.err().contains(text), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
    }
}
