package dev.memplan.sweeps.spark;

import dev.memplan.sweeps.SweepCase;
import dev.memplan.sweeps.SweepException;
import java.io.IOException;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * The graph and buffer files of a sweep, read once on the driver and shipped to the workers with the job (a Spark
 * broadcast), so a cluster needs no shared folder: on a worker where a file's path does not exist, the case reads
 * a copy written under the worker's temporary folder (named by the content's hash, with the file's own name, so
 * readers that look at the name, such as MiniMalloc's {@code X.<capacity>.csv}, see the same one).
 */
final class ShippedFiles implements Serializable {
    private static final long serialVersionUID = 1L;

    private final Map<String, byte[]> contents;

    private ShippedFiles(Map<String, byte[]> contents) {
        this.contents = contents;
    }

    /** Reads, on the driver, every file a case names (zoo, example and generated graphs are built on the worker). */
    static ShippedFiles of(List<SweepCase> cases) {
        Map<String, byte[]> contents = new HashMap<>();
        for (SweepCase c : cases) {
            Path p = Path.of(c.source());
            if (!contents.containsKey(c.source()) && Files.isRegularFile(p)) {
                try {
                    contents.put(c.source(), Files.readAllBytes(p));
                } catch (IOException e) {
                    throw new SweepException("cannot read " + p + " to ship it to the workers: " + e.getMessage(), e);
                }
            }
        }
        return new ShippedFiles(contents);
    }

    /** The case as this machine runs it: its file's own path when it exists here, else the shipped copy's. */
    SweepCase local(SweepCase c) {
        byte[] bytes = contents.get(c.source());
        if (bytes == null || Files.isRegularFile(Path.of(c.source()))) {
            return c;
        }
        Path copy = materialize(c.source(), bytes);
        return new SweepCase(c.graph(), copy.toString(), c.setting(), c.budget(), c.planner(), c.solver(),
                c.timeLimit(), c.workLimit(), c.threads(), c.repeat(), c.recomputeWeight());
    }

    /** Writes the bytes once per content under the temporary folder, keeping the file name; returns the copy. */
    static Path materialize(String source, byte[] bytes) {
        try {
            String hash = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes), 0, 12);
            Path dir = Path.of(System.getProperty("java.io.tmpdir"), "memplan-sweep-files", hash);
            Path copy = dir.resolve(Path.of(source).getFileName().toString());
            if (!Files.isRegularFile(copy)) {
                Files.createDirectories(dir);
                Path tmp = Files.createTempFile(dir, ".copy", ".tmp");
                Files.write(tmp, bytes);
                Files.move(tmp, copy, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                        java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            }
            return copy;
        } catch (IOException e) {
            throw new SweepException("cannot write the shipped copy of " + source + ": " + e.getMessage(), e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java platform", e);
        }
    }
}
