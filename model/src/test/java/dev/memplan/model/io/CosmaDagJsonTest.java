package dev.memplan.model.io;

import static dev.memplan.model.io.FormatErrors.assertFormatError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.model.Graph;
import dev.memplan.model.Operator;
import dev.memplan.model.Tensor;
import dev.memplan.model.TensorKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CosmaDagJsonTest {
    private static final String S = "<string>";

    private static final String SAMPLE = """
            {"name": "tiny",
             "dummy_input_tensors": ["dummy"],
             "graph_output_tensors": ["out"],
             "tensor_list": ["image", "dummy", "c1", "c2", "out"],
             "tensor_sizes": {"image": 3072, "dummy": 0, "c1": 8192, "c2": 8192, "out": 40, "unused.extra": 4},
             "dag": [
               {"name": "conv1", "input_nodes": [], "input_tensors": ["image", "dummy"], "output_tensors": ["c1"]},
               {"name": "conv2", "input_nodes": ["conv1"], "input_tensors": ["dummy", "c1"], "output_tensors": ["c2"]},
               {"name": "fc", "input_nodes": ["conv1", "conv2"], "input_tensors": ["c2", "c1"], "output_tensors": ["out"]}
             ]}
            """;

    @Test
    void importsTensorsOperatorsAndOutputs() {
        Graph g = CosmaDagJson.read(SAMPLE, S);
        assertEquals("tiny", g.name());
        assertEquals(List.of(Tensor.activation("image", 3072), Tensor.activation("c1", 8192),
                Tensor.activation("c2", 8192), Tensor.activation("out", 40)), g.tensors());
        assertEquals(List.of(new Operator("conv1", List.of("image"), List.of("c1")),
                new Operator("conv2", List.of("c1"), List.of("c2")),
                new Operator("fc", List.of("c2", "c1"), List.of("out"))), g.operators());
        assertEquals(List.of("out"), g.outputs());
        assertTrue(g.isHost(g.tensorIndex("image")));
        assertFalse(g.isHost(g.tensorIndex("c1")));
        assertTrue(g.tensors().stream().allMatch(t -> t.kind() == TensorKind.ACTIVATION));
        assertEquals(-1, g.tensorIndex("dummy"));
    }

    @Test
    void nameDefaultsToTheFileNameAndTheGraphSurvivesGraphJson(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("tiny-net.json");
        Files.writeString(file, SAMPLE.replace("\"name\": \"tiny\",", ""));
        Graph g = CosmaDagJson.read(file);
        assertEquals("tiny-net", g.name());
        Graph back = GraphJson.read(GraphJson.toJson(g), S);
        assertEquals(g.tensors(), back.tensors());
        assertEquals(g.operators(), back.operators());
    }

    @Test
    void inputNodesMustNameNodesOfTheDag() {
        assertFormatError(() -> CosmaDagJson.read(SAMPLE.replace("\"input_nodes\": [\"conv1\", \"conv2\"]",
                "\"input_nodes\": [\"conv1\", \"conv7\"]"), "d.json"), "d.json", "$.dag[2].input_nodes[1]",
                "node 'fc' names input node 'conv7', which is not a node of dag");
        assertFormatError(() -> CosmaDagJson.read(SAMPLE.replace("\"input_nodes\": []", "\"input_nodes\": [3]"),
                "d.json"), "d.json", "$.dag[0].input_nodes[0]", "expected a node name (a string), found number 3");
    }

    @Test
    void anEmptyNameIsRefused() {
        assertFormatError(() -> CosmaDagJson.read(SAMPLE.replace("\"name\": \"tiny\"", "\"name\": \"\""), "d.json"),
                "d.json", "$.name", "name must be the graph's name, found an empty string");
    }

    @Test
    void syntaxErrorsHaveLineAndColumn() {
        assertFormatError(() -> CosmaDagJson.read("{\"dag\": [\n  {\"name\": 'conv1'}]}", "d.json"), "d.json",
                "line 2, column 12", "invalid JSON");
    }

    @Test
    void unknownTensorsNameTheNodeAndPath() {
        assertFormatError(() -> CosmaDagJson.read(SAMPLE.replace("[\"dummy\", \"c1\"]", "[\"dummy\", \"c9\"]"), "d.json"),
                "d.json", "$.dag[1].input_tensors[1]", "node 'conv2' reads tensor 'c9', which is not in tensor_list");
        assertFormatError(() -> CosmaDagJson.read(SAMPLE.replace("\"output_tensors\": [\"c2\"]",
                "\"output_tensors\": [\"c3\"]"), "d.json"), "d.json", "$.dag[1].output_tensors[0]",
                "node 'conv2' writes tensor 'c3'");
        assertFormatError(() -> CosmaDagJson.read(SAMPLE.replace("\"graph_output_tensors\": [\"out\"]",
                "\"graph_output_tensors\": [\"logits\"]"), "d.json"), "d.json", "$.graph_output_tensors[0]",
                "graph output tensor 'logits'");
        assertFormatError(() -> CosmaDagJson.read(SAMPLE.replace("\"output_tensors\": [\"c2\"]",
                "\"output_tensors\": [\"dummy\"]"), "d.json"), "d.json", "$.dag[1].output_tensors[0]",
                "writes dummy input tensor 'dummy'");
    }

    @Test
    void sizesAreChecked() {
        assertFormatError(() -> CosmaDagJson.read(SAMPLE.replace("\"c2\": 8192", "\"c2\": 0"), "d.json"), "d.json",
                "$.tensor_sizes.c2", "tensor 'c2' has size 0; only dummy input tensors may be empty");
        assertFormatError(() -> CosmaDagJson.read(SAMPLE.replace("\"c2\": 8192, ", ""), "d.json"), "d.json",
                "$.tensor_sizes.c2", "no size for tensor 'c2' of tensor_list[3]");
        assertFormatError(() -> CosmaDagJson.read(SAMPLE.replace("\"c1\": 8192", "\"c1\": -8"), "d.json"), "d.json",
                "$.tensor_sizes.c1", "sizes must be positive");
        assertFormatError(() -> CosmaDagJson.read(SAMPLE.replace("\"out\": 40", "\"out\": \"40\""), "d.json"),
                "d.json", "$.tensor_sizes.out", "must be an integer number of bytes");
        assertFormatError(() -> CosmaDagJson.read(SAMPLE.replace("[\"image\", \"dummy\", \"c1\"",
                "[\"image\", \"dummy\", \"image\""), "d.json"), "d.json", "$.tensor_list[2]",
                "tensor 'image' is listed twice (also tensor_list[0])");
    }

    @Test
    void graphRulesAreReportedAtTheCosmaPath() {
        String cycle = SAMPLE.replace("\"input_tensors\": [\"image\", \"dummy\"]", "\"input_tensors\": [\"image\", \"c2\"]");
        assertFormatError(() -> CosmaDagJson.read(cycle, "d.json"), "d.json", "$.dag", "cycle");
        String twoProducers = SAMPLE.replace("\"output_tensors\": [\"c2\"]", "\"output_tensors\": [\"c1\"]");
        assertFormatError(() -> CosmaDagJson.read(twoProducers, "d.json"), "d.json", "$.dag[1].output_tensors[0]",
                "two producers");
        String late = """
                {"tensor_list": ["a", "b", "c"], "tensor_sizes": {"a": 1, "b": 1, "c": 1},
                 "dag": [{"name": "q", "input_tensors": ["b"], "output_tensors": ["c"]},
                         {"name": "p", "input_tensors": ["a"], "output_tensors": ["b"]}]}
                """;
        assertFormatError(() -> CosmaDagJson.read(late, "d.json"), "d.json", "$.dag[0]", "not topological");
        String duplicate = SAMPLE.replace("{\"name\": \"fc\"", "{\"name\": \"conv1\"");
        assertFormatError(() -> CosmaDagJson.read(duplicate, "d.json"), "d.json", "$.dag[2].name",
                "duplicate operator name 'conv1'");
        String hostOutput = SAMPLE.replace("\"graph_output_tensors\": [\"out\"]", "\"graph_output_tensors\": [\"image\"]");
        assertFormatError(() -> CosmaDagJson.read(hostOutput, "d.json"), "d.json", "$.graph_output_tensors[0]",
                "produced by no operator");
    }

    @Test
    void structuralErrorsNameThePath() {
        assertFormatError(() -> CosmaDagJson.read(SAMPLE.replace("\"dag\"", "\"nodes\""), "d.json"), "d.json", "$.dag",
                "missing field 'dag'");
        assertFormatError(() -> CosmaDagJson.read(SAMPLE.replace("{\"name\": \"conv2\", ", "{"), "d.json"), "d.json",
                "$.dag[1].name", "missing field 'name'");
        assertFormatError(() -> CosmaDagJson.read(SAMPLE.replace("\"output_tensors\": [\"out\"]",
                "\"output_tensors\": \"out\""), "d.json"), "d.json", "$.dag[2].output_tensors", "(an array)");
        assertFormatError(() -> CosmaDagJson.read("[]", "d.json"), "d.json", "$", "expected a COSMA DAG document");
    }
}
