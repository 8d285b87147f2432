package dev.memplan.model.io;

import com.fasterxml.jackson.databind.JsonNode;
import dev.memplan.model.Graph;
import java.nio.file.Path;

/**
 * Reads a graph file in any format memplan understands, told apart by its top-level fields after one parse:
 * memplan-graph/1 (a {@code format} field) or the COSMA authors' DAG JSON (a {@code dag} field, no
 * {@code format}). An object with neither field is reported as such; anything else by the memplan-graph/1
 * reader, which names what it expected.
 */
public final class GraphFiles {

    private GraphFiles() {
    }

    public static Graph read(Path file) {
        String name = file.toString();
        JsonNode tree = JsonTree.parse(AtomicFiles.readBytes(file), name);
        if (tree.isObject() && !tree.has("format")) {
            if (tree.has("dag")) {
                return CosmaDagJson.fromTree(tree, name);
            }
            throw new FormatException(name, "$", "missing field 'format': a graph file is memplan-graph/1 (with a "
                    + "'format' field) or a COSMA DAG JSON (with a 'dag' field)");
        }
        return GraphJson.fromTree(tree, name);
    }
}
