package dev.memplan.model.io;

import static dev.memplan.model.io.FormatErrors.assertFormatError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.model.Graph;
import dev.memplan.model.Operator;
import dev.memplan.model.Tensor;
import dev.memplan.model.TensorKind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GraphJsonTest {
    private static final String S = "<string>";

    @TempDir
    Path dir;

    private static Graph sample() {
        return Graph.builder("tiny-net").alignment(64)
                .tensor(new Tensor("x", 150528, TensorKind.ACTIVATION, List.of(1L, 3L, 224L, 224L), "int8"))
                .tensor(new Tensor("conv1.weight", 864, TensorKind.PARAMETER, List.of(32L, 3L, 3L, 3L), "int8"))
                .tensor(new Tensor("conv1.out", 401408, TensorKind.ACTIVATION, List.of(1L, 32L, 112L, 112L), null))
                .activation("pool.out", 100352)
                .activation("pool.idx", 100352)
                .operator(new Operator("conv1", "Conv", List.of("x", "conv1.weight"), List.of("conv1.out")))
                .operator("pool", List.of("conv1.out"), List.of("pool.out", "pool.idx"))
                .output("pool.out")
                .build();
    }

    private static void assertSameGraph(Graph expected, Graph actual) {
        assertEquals(expected.name(), actual.name());
        assertEquals(expected.alignment(), actual.alignment());
        assertEquals(expected.tensors(), actual.tensors());
        assertEquals(expected.operators(), actual.operators());
        assertEquals(expected.outputs(), actual.outputs());
    }

    @Test
    void roundTripThroughText() {
        Graph g = sample();
        assertSameGraph(g, GraphJson.read(GraphJson.toJson(g), S));
    }

    @Test
    void roundTripThroughFileLeavesNoTemporaryFile() throws IOException {
        Graph g = sample();
        Path file = dir.resolve("g.json");
        GraphJson.write(g, file);
        GraphJson.write(g, file);
        assertSameGraph(g, GraphJson.read(file));
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(List.of(file), files.toList());
        }
    }

    @Test
    void writesOneTensorOrOperatorPerLineAndOmitsAbsentFields() {
        Graph g = Graph.builder("g").activation("a", 4).activation("b", 8)
                .operator("op", List.of("a"), List.of("b")).output("b").build();
        assertEquals("""
                {
                  "format": "memplan-graph/1",
                  "name": "g",
                  "alignment": 1,
                  "tensors": [
                    {"name": "a", "size": 4, "kind": "activation"},
                    {"name": "b", "size": 8, "kind": "activation"}
                  ],
                  "operators": [
                    {"name": "op", "inputs": ["a"], "outputs": ["b"]}
                  ],
                  "outputs": ["b"]
                }
                """, GraphJson.toJson(g));
        String full = GraphJson.toJson(sample());
        assertTrue(full.contains(
                "{\"name\": \"x\", \"size\": 150528, \"kind\": \"activation\", \"shape\": [1, 3, 224, 224], \"dtype\": \"int8\"}"),
                full);
        assertTrue(full.contains("{\"name\": \"conv1\", \"type\": \"Conv\", \"inputs\": [\"x\", \"conv1.weight\"]"), full);
    }

    @Test
    void costsRoundTripAndWithCostsWritesEveryOperatorsCost() {
        Graph g = Graph.builder("g").activation("a", 4).activation("b", 8).activation("c", 8)
                .operator(new Operator("op", "relu", List.of("a"), List.of("b"), 7L))
                .operator("op2", List.of("b"), List.of("c")).output("c").build();
        String text = GraphJson.toJson(g);
        assertTrue(text.contains(
                "{\"name\": \"op\", \"type\": \"relu\", \"inputs\": [\"a\"], \"outputs\": [\"b\"], \"cost\": 7}"), text);
        assertTrue(text.contains("{\"name\": \"op2\", \"inputs\": [\"b\"], \"outputs\": [\"c\"]}"), text);
        assertSameGraph(g, GraphJson.read(text, S));
        Graph back = GraphJson.read(GraphJson.toJson(g.withCosts()), S);
        assertEquals(7L, back.operator(0).cost());
        assertEquals(16L, back.operator(1).cost(), "derived: the bytes of b and c");
    }

    @Test
    void aNegativeOrFractionalCostIsRefusedWhereItIs() {
        String ops = "[{\"name\": \"op\", \"inputs\": [\"a\"], \"outputs\": [\"b\"], \"cost\": COST}]";
        assertFormatError(() -> GraphJson.read(doc(TENSORS, ops.replace("COST", "-3"), "[\"b\"]"), S),
                S, "$.operators[0].cost", "cost must be an integer >= 0 (the operator's compute cost), found -3");
        assertFormatError(() -> GraphJson.read(doc(TENSORS, ops.replace("COST", "2.5"), "[\"b\"]"), S),
                S, "$.operators[0].cost", "cost must be an integer >= 0 (the operator's compute cost), found number 2.5");
        assertFormatError(() -> GraphJson.read(doc(TENSORS, ops.replace("COST", "\"big\""), "[\"b\"]"), S),
                S, "$.operators[0].cost", "cost must be an integer >= 0");
    }

    @Test
    void writeToMissingDirectoryFailsWithoutLeavingAFile() {
        Path file = dir.resolve("missing").resolve("g.json");
        assertThrows(UncheckedIOException.class, () -> GraphJson.write(sample(), file));
        assertFalse(Files.exists(file));
    }

    @Test
    void readsTheExampleOfTheContractWithDefaultAlignment() {
        Graph g = GraphJson.read("""
                {"format": "memplan-graph/1", "name": "resnet50",
                 "tensors":   [{"name": "x", "size": 150528, "kind": "activation", "shape": [1,3,224,224], "dtype": "int8"},
                               {"name": "conv1.weight", "size": 864, "kind": "parameter"},
                               {"name": "fc.out", "size": 1000, "kind": "activation"}],
                 "operators": [{"name": "conv1", "type": "Conv", "inputs": ["x", "conv1.weight"], "outputs": ["fc.out"]}],
                 "outputs":   ["fc.out"]}
                """, S);
        assertEquals("resnet50", g.name());
        assertEquals(1, g.alignment());
        assertEquals(List.of(1L, 3L, 224L, 224L), g.tensor(0).shape());
        assertEquals(TensorKind.PARAMETER, g.tensor(1).kind());
        assertNull(g.tensor(1).dtype());
        assertEquals("Conv", g.operator(0).type());
        assertTrue(g.isHost(0));
    }

    /** A valid document with one part replaced. */
    private static String doc(String tensors, String operators, String outputs) {
        return "{\"format\": \"memplan-graph/1\", \"name\": \"g\", \"tensors\": " + tensors
                + ", \"operators\": " + operators + ", \"outputs\": " + outputs + "}";
    }

    private static final String TENSORS = "[{\"name\": \"a\", \"size\": 4, \"kind\": \"activation\"},"
            + " {\"name\": \"b\", \"size\": 4, \"kind\": \"activation\"}]";

    @Test
    void anEmptyGraphNameIsRefused() {
        assertFormatError(() -> GraphJson.read(doc(TENSORS, "[]", "[]").replace("\"name\": \"g\"", "\"name\": \"\""), S),
                S, "$.name", "name must be the graph's name, found an empty string");
    }

    @Test
    void invalidJsonIsReportedByLineAndColumn() {
        String text = "{\n  \"format\": \"memplan-graph/1\",\n  \"name\": \"g\" \"tensors\": []\n}";
        assertFormatError(() -> GraphJson.read(text, "g.json"), "g.json", "line 3, column 15", "invalid JSON");
    }

    @Test
    void duplicateKeysTrailingTokensAndEmptyFilesAreSyntaxErrors() {
        assertFormatError(() -> GraphJson.read("{\"name\": \"a\", \"name\": \"b\"}", S), S, "line 1, column 21",
                "field 'name' appears twice in one object");
        assertFormatError(() -> GraphJson.read(doc(TENSORS, "[]", "[]") + " {}", S), S,
                "line 1, column " + (doc(TENSORS, "[]", "[]").length() + 2), "invalid JSON");
        assertFormatError(() -> GraphJson.read("  ", S), S, "line 1, column 1", "empty file");
    }

    @Test
    void readingAFileNamesIt() throws IOException {
        Path file = dir.resolve("broken.json");
        Files.writeString(file, "{\"format\": \"memplan-graph/1\",");
        FormatException e = assertThrows(FormatException.class, () -> GraphJson.read(file));
        assertEquals(file.toString(), e.file());
        assertTrue(e.getMessage().startsWith(file + ": line 1, column "), e.getMessage());
    }

    @Test
    void wrongOrMissingFormatSaysWhichFormatIsUnderstood() {
        assertFormatError(() -> GraphJson.read(doc(TENSORS, "[]", "[]").replace("graph/1", "graph/2"), S), S,
                "$.format", "unknown format 'memplan-graph/2'; this reader understands \"memplan-graph/1\"");
        assertFormatError(() -> GraphJson.read("{\"format\": \"memplan-plan/1\"}", S), S, "$.format",
                "understands \"memplan-graph/1\"");
        assertFormatError(() -> GraphJson.read("{\"name\": \"g\"}", S), S, "$.format",
                "missing field 'format'");
        assertFormatError(() -> GraphJson.read("[1, 2]", S), S, "$", "expected a memplan-graph/1 document");
    }

    @Test
    void missingFieldsAreNamedByPath() {
        assertFormatError(() -> GraphJson.read(doc("[{\"name\": \"a\", \"kind\": \"activation\"}]", "[]", "[]"), S),
                S, "$.tensors[0].size", "missing field 'size'");
        assertFormatError(() -> GraphJson.read(doc(TENSORS, "[{\"name\": \"op\", \"inputs\": [\"a\"]}]", "[]"), S),
                S, "$.operators[0].outputs", "missing field 'outputs'");
        assertFormatError(() -> GraphJson.read("{\"format\": \"memplan-graph/1\", \"name\": \"g\", \"tensors\": []}", S),
                S, "$.operators", "missing field 'operators'");
    }

    @Test
    void wronglyTypedFieldsSayWhatWasExpected() {
        assertFormatError(() -> GraphJson.read(doc("[{\"name\": \"a\", \"size\": \"12\", \"kind\": \"activation\"}]",
                "[]", "[]"), S), S, "$.tensors[0].size", "size must be an integer number of bytes, found string \"12\"");
        assertFormatError(() -> GraphJson.read(doc("[{\"name\": \"a\", \"size\": 1.5, \"kind\": \"activation\"}]",
                "[]", "[]"), S), S, "$.tensors[0].size", "size must be an integer number of bytes, found number 1.5");
        assertFormatError(() -> GraphJson.read(doc("[{\"name\": \"a\", \"size\": 99999999999999999999, "
                + "\"kind\": \"activation\"}]", "[]", "[]"), S), S, "$.tensors[0].size", "does not fit a 64-bit integer");
        assertFormatError(() -> GraphJson.read(doc(TENSORS, "[{\"name\": \"op\", \"inputs\": [\"a\", 7], "
                + "\"outputs\": [\"b\"]}]", "[]"), S), S, "$.operators[0].inputs[1]", "expected a tensor name (a string)");
        assertFormatError(() -> GraphJson.read(doc(TENSORS, "{}", "[]"), S), S, "$.operators",
                "must be the list of operators in default order (an array)");
        assertFormatError(() -> GraphJson.read(doc("[{\"name\": \"a\", \"size\": 4, \"kind\": \"activation\", "
                + "\"shape\": [1, \"n\"]}]", "[]", "[]"), S), S, "$.tensors[0].shape[1]", "a dimension must be an integer");
        assertFormatError(() -> GraphJson.read(doc(TENSORS, "[]", "[]").replace("\"name\": \"g\"",
                "\"name\": \"g\", \"alignment\": \"64\""), S), S, "$.alignment", "alignment must be an integer");
    }

    @Test
    void unknownKindsAndFieldsAreRejected() {
        assertFormatError(() -> GraphJson.read(doc("[{\"name\": \"a\", \"size\": 4, \"kind\": \"weight\"}]", "[]", "[]"),
                S), S, "$.tensors[0].kind", "unknown kind 'weight'; expected activation or parameter");
        assertFormatError(() -> GraphJson.read(doc("[{\"name\": \"a\", \"sise\": 4, \"kind\": \"activation\"}]", "[]",
                "[]"), S), S, "$.tensors[0].sise", "unknown field 'sise'");
    }

    @Test
    void memoryModelViolationsAreMappedToTheirJsonPath() {
        assertFormatError(() -> GraphJson.read(doc(TENSORS, "[{\"name\": \"op\", \"inputs\": [\"a\"], \"outputs\": [\"b\"]},"
                + " {\"name\": \"op2\", \"inputs\": [\"nope\"], \"outputs\": [\"a\"]}]", "[]"), S), S,
                "$.operators[1].inputs[0]", "unknown tensor 'nope'");
        assertFormatError(() -> GraphJson.read(doc("[{\"name\": \"a\", \"size\": -4, \"kind\": \"activation\"}]",
                "[]", "[]"), S), S, "$.tensors[0].size", "sizes must be positive");
        assertFormatError(() -> GraphJson.read(doc(TENSORS, "[{\"name\": \"p\", \"inputs\": [\"b\"], \"outputs\": [\"a\"]},"
                + " {\"name\": \"q\", \"inputs\": [\"a\"], \"outputs\": [\"b\"]}]", "[]"), S), S, "$.operators", "cycle");
        assertFormatError(() -> GraphJson.read(doc(TENSORS, "[{\"name\": \"p\", \"inputs\": [\"a\"], \"outputs\": [\"a\"]}]",
                "[]"), S), S, "$.operators[0]", "cycle");
        String notTopological = "[{\"name\": \"a\", \"size\": 4, \"kind\": \"activation\"},"
                + " {\"name\": \"b\", \"size\": 4, \"kind\": \"activation\"}, {\"name\": \"c\", \"size\": 4, \"kind\": \"activation\"}]";
        assertFormatError(() -> GraphJson.read(doc(notTopological, "[{\"name\": \"q\", \"inputs\": [\"b\"], \"outputs\": [\"c\"]},"
                + " {\"name\": \"p\", \"inputs\": [\"a\"], \"outputs\": [\"b\"]}]", "[]"), S), S, "$.operators[0]",
                "not topological");
        assertFormatError(() -> GraphJson.read(doc(TENSORS, "[]", "[\"b\"]"), S), S, "$.outputs[0]",
                "produced by no operator");
        assertFormatError(() -> GraphJson.read(doc(TENSORS.replace("\"b\"", "\"a\""), "[]", "[]"), S), S,
                "$.tensors[1].name", "duplicate tensor name 'a'");
        assertFormatError(() -> GraphJson.read(doc(TENSORS, "[]", "[]").replace("\"name\": \"g\"",
                "\"name\": \"g\", \"alignment\": 0"), S), S, "$.alignment", "alignment must be >= 1");
    }
}
