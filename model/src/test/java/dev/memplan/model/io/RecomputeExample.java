package dev.memplan.model.io;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The recomputation example of docs/memory-model.md as files (shared with the cli tests through this module's test
 * jar): graph {@code again}, where a (cost 7) writes y, read by b at 1 and by c at 3, and the memplan-plan/2 plan at
 * budget 32 that runs a again at 2 instead of keeping y.
 */
public final class RecomputeExample {
    private RecomputeExample() {
    }

    /** The graph file (memplan-graph/1, with operator costs). */
    public static String graphJson() {
        return read("again.graph.json");
    }

    /** The plan file (memplan-plan/2: schedule a, b, a, c; y recomputed at 2). */
    public static String planJson() {
        return read("again.plan.json");
    }

    private static String read(String name) {
        try (InputStream in = RecomputeExample.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
