package dev.memplan.datasets;

import dev.memplan.model.BufferSet;
import dev.memplan.model.io.MiniMallocCsv;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The MiniMalloc benchmark buffer sets, bundled unchanged from google/minimalloc's {@code benchmarks/}
 * folder (Apache-2.0, commit 9f5cf81; see the README beside the files): the eleven "challenging" instances
 * A..K of the MiniMalloc paper (Moffitt, ASPLOS 2023, Table 2), each to be packed into 1,048,576 bytes, and
 * the paper's five-buffer example (capacity 12). The capacity is read from the file name, as MiniMalloc does.
 */
public final class MiniMallocSuite {
    private static final String FOLDER = "/dev/memplan/datasets/minimalloc/";
    private static final List<String> CHALLENGING = List.of("A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K");

    /** Capacity of every challenging instance. */
    public static final long CHALLENGING_CAPACITY = 1_048_576L;

    private MiniMallocSuite() {
    }

    /** Names of the challenging instances, A to K. */
    public static List<String> challengingNames() {
        return CHALLENGING;
    }

    /** Challenging instance {@code name} (A..K), with its capacity 1,048,576. */
    public static BufferSet challenging(String name) {
        if (!CHALLENGING.contains(name)) {
            throw new IllegalArgumentException("no challenging instance '" + name + "'; instances: "
                    + String.join(", ", CHALLENGING));
        }
        return read("challenging/" + name + "." + CHALLENGING_CAPACITY + ".csv");
    }

    /** The five-buffer example of the MiniMalloc paper (Fig. 1), capacity 12. */
    public static BufferSet paperExample() {
        return read("examples/input.12.csv");
    }

    private static BufferSet read(String file) {
        String resource = FOLDER + file;
        try (InputStream in = MiniMallocSuite.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing bundled resource " + resource);
            }
            String name = file.substring(file.lastIndexOf('/') + 1);
            return MiniMallocCsv.read(new String(in.readAllBytes(), StandardCharsets.UTF_8), name);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
