package dev.memplan.model.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Whole-file writes: replaced whole or not at all, through links, into pipes, and errors that say why. */
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

    @Test
    void writingThroughASymbolicLinkWritesItsTargetAndKeepsTheLink() throws IOException {
        Path target = dir.resolve("target.json");
        Files.writeString(target, "old");
        Path link = Files.createSymbolicLink(dir.resolve("link.json"), target.getFileName());
        AtomicFiles.write(link, "new");
        assertTrue(Files.isSymbolicLink(link));
        assertEquals("new", Files.readString(target));
    }

    @Test
    void aDanglingLinkCreatesItsTarget() throws IOException {
        Path link = Files.createSymbolicLink(dir.resolve("link.json"), Path.of("made.json"));
        AtomicFiles.write(link, "x");
        assertTrue(Files.isSymbolicLink(link));
        assertEquals("x", Files.readString(dir.resolve("made.json")));
    }

    @Test
    void aNamedPipeIsWrittenAsAStream() throws Exception {
        Path fifo = dir.resolve("fifo");
        Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
        org.junit.jupiter.api.Assumptions.assumeTrue(mkfifo.waitFor(10, TimeUnit.SECONDS) && mkfifo.exitValue() == 0,
                "mkfifo is needed for this test");
        CompletableFuture<String> reader = CompletableFuture.supplyAsync(() -> {
            try {
                return Files.readString(fifo);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        AtomicFiles.write(fifo, "through the pipe\n");
        assertEquals("through the pipe\n", reader.get(10, TimeUnit.SECONDS));
        assertTrue(!Files.isRegularFile(fifo) && Files.exists(fifo), "the pipe is not replaced by a file");
    }

    @Test
    void foldersAndMissingFoldersAreNamed() throws IOException {
        UncheckedIOException folder = assertThrows(UncheckedIOException.class, () -> AtomicFiles.write(dir, "x"));
        assertEquals("cannot write " + dir + ": it is a folder", folder.getMessage());
        Path missing = dir.resolve("no/such/out.json");
        UncheckedIOException absent = assertThrows(UncheckedIOException.class, () -> AtomicFiles.write(missing, "x"));
        assertEquals("cannot write " + missing + ": folder " + dir.resolve("no/such") + " does not exist",
                absent.getMessage());
        assertEquals("folder " + dir.resolve("no/such") + " does not exist", AtomicFiles.whyNotWritable(missing));
        assertEquals("it is a folder", AtomicFiles.whyNotWritable(dir));
        assertNull(AtomicFiles.whyNotWritable(dir.resolve("fine.json")));
        UncheckedIOException read = assertThrows(UncheckedIOException.class, () -> AtomicFiles.readBytes(dir));
        assertEquals("cannot read " + dir + ": it is a folder, not a file", read.getMessage());
    }

    @Test
    void reasonsAreWordsNotJustTheFileName() {
        // Java's exceptions carry only the path as message: "cannot read x: x" said nothing.
        assertEquals("permission denied", AtomicFiles.reason(new AccessDeniedException("/x")));
        assertEquals("no such file or folder", AtomicFiles.reason(new NoSuchFileException("/x")));
        assertEquals("read-only file system", AtomicFiles.reason(
                new java.nio.file.FileSystemException("/x", null, "Read-only file system")));
    }

    @Test
    void aMissingInputSaysSo() {
        UncheckedIOException e = assertThrows(UncheckedIOException.class,
                () -> AtomicFiles.readBytes(dir.resolve("absent.json")));
        assertEquals("cannot read " + dir.resolve("absent.json") + ": no such file or folder", e.getMessage());
    }
}
