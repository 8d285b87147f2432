package dev.memplan.model.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.model.Graph;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One parse, then the format is told apart by its top-level fields. */
class GraphFilesTest {
    @TempDir
    Path dir;

    @Test
    void readsBothFormats() throws IOException {
        Path cosma = dir.resolve("dag.json");
        Files.writeString(cosma, """
                {"name": "tiny", "dummy_input_tensors": ["d"], "graph_output_tensors": ["y"],
                 "tensor_list": ["d", "x", "y"], "tensor_sizes": {"d": 0, "x": 4, "y": 2},
                 "dag": [{"name": "f", "input_nodes": [], "input_tensors": ["d", "x"], "output_tensors": ["y"]}]}
                """);
        Graph fromDag = GraphFiles.read(cosma);
        assertEquals("tiny", fromDag.name());
        assertEquals(2, fromDag.tensorCount());
        Path native_ = dir.resolve("graph.json");
        GraphJson.write(fromDag, native_);
        assertEquals(GraphJson.toJson(fromDag), GraphJson.toJson(GraphFiles.read(native_)));
    }

    @Test
    void neitherFormatIsReportedByTheGraphReader() throws IOException {
        Path other = dir.resolve("other.json");
        Files.writeString(other, "{\"tensors\": []}");
        FormatException e = assertThrows(FormatException.class, () -> GraphFiles.read(other));
        assertTrue(e.getMessage().startsWith(other.toString()), e.getMessage());
        assertTrue(e.getMessage().contains("format"), e.getMessage());
        Path broken = dir.resolve("broken.json");
        Files.writeString(broken, "{\n  \"dag\": [,]\n}");
        FormatException syntax = assertThrows(FormatException.class, () -> GraphFiles.read(broken));
        assertTrue(syntax.where().startsWith("line 2"), syntax.getMessage());
    }
}
