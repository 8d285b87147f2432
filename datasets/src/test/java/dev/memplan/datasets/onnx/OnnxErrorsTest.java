package dev.memplan.datasets.onnx;

import static dev.memplan.datasets.onnx.OnnxWriter.attrGraph;
import static dev.memplan.datasets.onnx.OnnxWriter.attrInts;
import static dev.memplan.datasets.onnx.OnnxWriter.in;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.model.Graph;
import dev.memplan.model.io.FormatException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad models give one FormatException naming the file, the place (node, input, opset) and the problem. */
class OnnxErrorsTest {

    private static final OnnxImport.Options DEFAULTS = OnnxImport.Options.defaults();

    private static FormatException fails(byte[] model, OnnxImport.Options options) {
        return assertThrows(FormatException.class, () -> OnnxImport.read("m.onnx", model, options));
    }

    private static void says(FormatException e, String where, String... words) {
        assertEquals("m.onnx", e.file());
        assertEquals(where, e.where());
        for (String w : words) {
            assertTrue(e.problem().contains(w), e.getMessage() + " should contain '" + w + "'");
        }
        assertTrue(!e.getMessage().contains("\n"), "one line");
    }

    private static OnnxWriter relu(long opset) {
        return new OnnxWriter(opset).input("x", 1, 4).node("Relu", "y", in("x")).output("y");
    }

    @Test
    void truncatedFileIsNotAModel() {
        byte[] whole = TorchvisionResNet50.model(17);
        FormatException e = fails(Arrays.copyOf(whole, whole.length / 2), DEFAULTS);
        says(e, "file", "not an ONNX model");
    }

    @Test
    void textFileIsNotAModel() {
        says(fails("{\"format\": \"memplan-graph/1\"}".getBytes(StandardCharsets.UTF_8), DEFAULTS), "file",
                "not an ONNX model");
        says(fails(new byte[0], DEFAULTS), "file", "not an ONNX model");
    }

    @Test
    void opsetsOutsideNineToTwentyOneAreRefused() {
        says(fails(relu(8).bytes(), DEFAULTS), "opset_import", "opset 8", "9 to 21");
        says(fails(relu(22).bytes(), DEFAULTS), "opset_import", "opset 22");
    }

    @Test
    void cycleNamesANodeOnIt() {
        byte[] m = new OnnxWriter(17).input("x", 1, 4).node("Add", "a", in("x", "b")).node("Relu", "b", in("a"))
                .output("b").bytes();
        FormatException e = fails(m, DEFAULTS);
        assertTrue(e.where().startsWith("node 'Add_0'") || e.where().startsWith("node 'Relu_1'"), e.getMessage());
        assertTrue(e.problem().contains("cycle"));
    }

    @Test
    void missingInitializerNamesTheNodeAndTheInput() {
        byte[] m = new OnnxWriter(17).input("x", 1, 3, 8, 8).node("Conv", "y", in("x", "conv.weight")).output("y")
                .bytes();
        says(fails(m, DEFAULTS), "node 'Conv_0' (Conv)", "'conv.weight'", "missing initializer");
    }

    @Test
    void unknownOperatorNamesItsTypeAndNode() {
        byte[] m = new OnnxWriter(17).input("x", 1, 4).node("NonMaxSuppression", "y", in("x")).output("y").bytes();
        says(fails(m, DEFAULTS), "node 'NonMaxSuppression_0' (NonMaxSuppression)", "NonMaxSuppression is not supported",
                "--opaque");
    }

    @Test
    void opaqueOperatorTakesItsShapeFromValueInfo() {
        byte[] m = new OnnxWriter(17).input("x", 1, 4).node("FancyOp", "y", in("x")).node("Relu", "z", in("y"))
                .valueInfo("y", 1, 8).output("z").bytes();
        Graph g = OnnxImport.read("m.onnx", m, DEFAULTS.withOpaque(true));
        // the ReLU is fused into the opaque operator, whose tensor takes the output's name
        assertEquals(1, g.operatorCount());
        assertEquals(List.of(1L, 8L), g.tensor(g.tensorIndex("z")).shape());
        assertEquals(8, g.size(g.tensorIndex("z")));
        assertEquals("FancyOp", g.operator(0).type());
        // without value_info the opaque operator has no shape: still a clear error
        byte[] bare = new OnnxWriter(17).input("x", 1, 4).node("FancyOp", "y", in("x")).output("y").bytes();
        says(fails(bare, DEFAULTS.withOpaque(true)), "node 'FancyOp_0' (FancyOp)", "value_info");
    }

    @Test
    void controlFlowIsRefused() {
        byte[] m = new OnnxWriter(17).input("x", 1, 4).node("Loop", "y", in("x"), attrGraph("body")).output("y").bytes();
        says(fails(m, DEFAULTS), "node 'Loop_0' (Loop)", "control flow");
    }

    @Test
    void dynamicDimensionLeftUnsetIsNamed() {
        byte[] m = new OnnxWriter(17).input("x", "batch", 3, "height", "width").node("Relu", "y", in("x")).output("y")
                .bytes();
        says(fails(m, DEFAULTS), "input 'x'", "dimension 0 ('batch')", "--input x=N,3,D2,D3");
        Graph g = OnnxImport.read("m.onnx", m, DEFAULTS.withInput("x", 2, 3, 5, 7));
        assertEquals(2 * 3 * 5 * 7, g.size(g.tensorIndex("x")));
        says(fails(m, DEFAULTS.withInput("x", 2, 4, 5, 7)), "input 'x'", "dimension 1 is fixed to 3");
        says(fails(m, DEFAULTS.withInput("x", 2, 3, 5)), "input 'x'", "3 dimensions", "the model has 4");
        says(fails(m, DEFAULTS.withInput("image", 1, 3, 5, 7)), "--input image", "no graph input", "x");
    }

    @Test
    void shapeInputComputedFromDataIsAClearError() {
        byte[] m = new OnnxWriter(17).input("x", 1, 4).input("s", 2).node("Reshape", "y", in("x", "s")).output("y")
                .bytes();
        says(fails(m, DEFAULTS.withInput("s", 2)), "node 'Reshape_0' (Reshape)", "must be a constant");
    }

    @Test
    void shapesThatDoNotFitNameTheNode() {
        byte[] m = new OnnxWriter(17).input("a", 2, 3).input("b", 4, 5).node("MatMul", "y", in("a", "b")).output("y")
                .bytes();
        says(fails(m, DEFAULTS), "node 'MatMul_0' (MatMul)", "cannot multiply");
        byte[] bad = new OnnxWriter(17).input("x", 1, 3, 4, 4).weight("w", 8, 3, 7, 7).node("Conv", "y", in("x", "w"),
                attrInts("pads", 0, 0, 0, 0)).output("y").bytes();
        says(fails(bad, DEFAULTS), "node 'Conv_0' (Conv)", "does not fit");
    }

    @Test
    void externalDataWeightsNeedOnlyTheirDimensionsButShapeValuesMustBeInline(@TempDir Path dir) throws Exception {
        // TorchvisionResNet50 stores every weight as external data: dims suffice for planning
        Path file = dir.resolve("resnet50.onnx");
        Files.write(file, TorchvisionResNet50.model(17));
        Graph g = OnnxImport.read(file, DEFAULTS.withInput("input", 1, 3, 224, 224));
        assertEquals("resnet50", g.name(), "named after the file");
        assertTrue(g.operatorCount() > 0);
        // a reshape target stored externally cannot be read: the node that needs it is named
        byte[] m = new OnnxWriter(17).input("x", 1, 4).weight("target", 2).node("Reshape", "y", in("x", "target"))
                .output("y").bytes();
        says(fails(m, DEFAULTS), "node 'Reshape_0' (Reshape)", "external data");
    }

    @Test
    void fileOverTwoGigabytesIsRefusedBeforeReading(@TempDir Path dir) throws Exception {
        Path big = dir.resolve("big.onnx");
        try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(big.toFile(), "rw")) {
            f.setLength((1L << 31) + 16); // sparse: no disk space used
        }
        FormatException e = assertThrows(FormatException.class, () -> OnnxImport.read(big, DEFAULTS));
        assertTrue(e.problem().contains("over 2 GB") && e.problem().contains("external data"), e.getMessage());
    }

    @Test
    void missingFileIsAFormatErrorNotACrash(@TempDir Path dir) {
        FormatException e = assertThrows(FormatException.class,
                () -> OnnxImport.read(dir.resolve("none.onnx"), DEFAULTS));
        assertTrue(e.problem().contains("cannot read"));
    }
}
