package dev.memplan.model.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Outputs checked before any work: never empty, never an input, writable; folders created, never a file. */
class OutputChecksTest {
    @TempDir
    Path dir;

    @Test
    void anOutputIsNeitherEmptyNorAnInputAndCanBeWritten() throws Exception {
        Path input = Files.writeString(dir.resolve("g.json"), "{}");
        assertNull(AtomicFiles.whyNotOutput(null, "--out"));
        assertNull(AtomicFiles.whyNotOutput(dir.resolve("plan.json"), "--out", input.toString(), "fig1", null));
        assertEquals("--out is empty: name a file", AtomicFiles.whyNotOutput(Path.of(""), "--out"));
        assertEquals("--out " + input + " is the input file " + input + "; writing would replace it: name another file",
                AtomicFiles.whyNotOutput(input, "--out", "fig1", input.toString()));
        assertEquals("--out " + dir + ": cannot write: it is a folder", AtomicFiles.whyNotOutput(dir, "--out"));
        assertTrue(AtomicFiles.whyNotOutput(dir.resolve("missing/plan.json"), "--out")
                .startsWith("--out " + dir.resolve("missing/plan.json") + ": cannot write: "));
    }

    @Test
    void anInputIsAFile() throws Exception {
        Path file = Files.writeString(dir.resolve("r.csv"), "x");
        assertNull(AtomicFiles.whyNotInput(file));
        assertEquals(dir + " is a folder: name a file", AtomicFiles.whyNotInput(dir));
        assertEquals("no such file: " + dir.resolve("none"), AtomicFiles.whyNotInput(dir.resolve("none")));
    }

    @Test
    void anOutputFolderIsCreatedAndNeverAFile() throws Exception {
        Path plans = dir.resolve("a/b");
        assertNull(AtomicFiles.whyNotOutputFolder(null, "--plans"));
        assertNull(AtomicFiles.whyNotOutputFolder(plans, "--plans"));
        assertTrue(Files.isDirectory(plans));
        Path file = Files.writeString(dir.resolve("f"), "x");
        assertEquals("--plans " + file + " is a file, not a folder", AtomicFiles.whyNotOutputFolder(file, "--plans"));
        assertEquals("--plans is empty: name a folder ('.' for this one)",
                AtomicFiles.whyNotOutputFolder(Path.of(""), "--plans"));
    }
}
