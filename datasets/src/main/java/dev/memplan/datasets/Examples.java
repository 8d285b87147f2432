package dev.memplan.datasets;

import dev.memplan.model.Graph;
import dev.memplan.model.io.GraphJson;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The small example graphs bundled as memplan-graph/1 files (resources {@code dev/memplan/datasets/examples}),
 * each with a line on what it shows; the list is {@code index.txt} beside them.
 */
public final class Examples {
    private static final String FOLDER = "/dev/memplan/datasets/examples/";
    private static final Map<String, String> DESCRIPTIONS = readIndex();

    private Examples() {
    }

    /** Example names, in the index's order. */
    public static List<String> names() {
        return List.copyOf(DESCRIPTIONS.keySet());
    }

    public static boolean exists(String name) {
        return DESCRIPTIONS.containsKey(name);
    }

    /** What the example shows. */
    public static String description(String name) {
        String d = DESCRIPTIONS.get(name);
        if (d == null) {
            throw new IllegalArgumentException("no example named '" + name + "'; examples: " + String.join(", ", names()));
        }
        return d;
    }

    /** The example's graph, read from its bundled file. */
    public static Graph graph(String name) {
        description(name);
        return GraphJson.read(text(FOLDER + name + ".json"), "example " + name + ".json");
    }

    private static Map<String, String> readIndex() {
        Map<String, String> index = new LinkedHashMap<>();
        for (String line : text(FOLDER + "index.txt").split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int tab = line.indexOf('\t');
            index.put(line.substring(0, tab), line.substring(tab + 1).trim());
        }
        return Collections.unmodifiableMap(index);
    }

    private static String text(String resource) {
        try (InputStream in = Examples.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing bundled resource " + resource);
            }
            try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                StringBuilder sb = new StringBuilder();
                r.lines().forEach(l -> sb.append(l).append('\n'));
                return sb.toString();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
