package dev.memplan.model.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AtomicFilesTest {
    @TempDir
    Path dir;

    private List<String> names() throws IOException {
        try (var files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void bytesReplaceTheFileWholeAndLeaveNoTemporaryFile() throws IOException {
        Path file = dir.resolve("figure.png");
        Files.writeString(file, "old");
        byte[] image = {(byte) 0x89, 'P', 'N', 'G', 0, (byte) 0xff};
        AtomicFiles.write(file, image);
        assertArrayEquals(image, Files.readAllBytes(file));
        AtomicFiles.write(dir.resolve("t.txt"), "é\n");
        assertEquals("é\n", Files.readString(dir.resolve("t.txt")));
        assertEquals(List.of("figure.png", "t.txt"), names());
    }

    @Test
    void aFailedWriteLeavesWhatWasThere() throws IOException {
        Path target = dir.resolve("busy");
        Files.createDirectories(target.resolve("inside"));
        assertThrows(UncheckedIOException.class, () -> AtomicFiles.write(target, new byte[] {1, 2, 3}));
        assertTrue(Files.isDirectory(target.resolve("inside")), "the directory in the way is untouched");
        assertEquals(List.of("busy"), names(), "the temporary file is gone");
    }
}
