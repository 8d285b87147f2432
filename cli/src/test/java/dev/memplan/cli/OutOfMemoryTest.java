package dev.memplan.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An OutOfMemoryError that still happens (here forced by a 48 MB heap, far below what 20,000 operators need) is a
 * one-line message and exit code 3, not a raw error, and an existing --out file is left as it was.
 */
class OutOfMemoryTest {
    @TempDir
    Path dir;

    @Test
    void outOfMemoryIsReportedInOneLineAndNothingIsHalfWritten() throws Exception {
        Path out = dir.resolve("plan.json");
        Files.writeString(out, "an earlier result\n");
        Process p = new ProcessBuilder(ChildJvm.memplan(List.of("-Xmx48m"), "solve", "gen:layered:20000", "--budget",
                "M_R", "--decompose", "none", "--out", out.toString())).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        assertEquals(3, p.exitValue(), err);
        assertTrue(err.contains("memplan: error: out of memory (the heap is "), err);
        assertTrue(!err.contains("java.lang.OutOfMemoryError") && !err.contains("\tat "), err);
        assertEquals("an earlier result\n", Files.readString(out));
        try (var files = Files.list(dir)) {
            assertEquals(1, files.count(), "a temporary file was left");
        }
    }
}
