package dev.memplan.model.io;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Folders a command writes into ({@link AtomicFiles#whyNoFolder}) and outputs that are an input ({@link AtomicFiles#sameFile}). */
class AtomicFilesFolderTest {
    @TempDir
    Path dir;

    @Test
    void aMissingFolderIsCreatedAndOneUnderAFileIsRefusedWithTheReason() throws Exception {
        Path nested = dir.resolve("a/b");
        assertNull(AtomicFiles.whyNoFolder(nested));
        assertTrue(Files.isDirectory(nested));
        Path file = Files.writeString(dir.resolve("f"), "x");
        String why = AtomicFiles.whyNoFolder(file.resolve("sub"));
        assertTrue(why != null && why.startsWith("cannot create the folder: "), why);
    }

    @Test
    void theSameFileIsFoundThroughALinkAndAMissingOneIsNotTheSame() throws Exception {
        Path file = Files.writeString(dir.resolve("g.json"), "{}");
        Path link = Files.createSymbolicLink(dir.resolve("link.json"), file);
        assertTrue(AtomicFiles.sameFile(link, file.toString()));
        assertFalse(AtomicFiles.sameFile(dir.resolve("missing.json"), file.toString()));
        assertFalse(AtomicFiles.sameFile(file, "fig1"));
        assertFalse(AtomicFiles.sameFile(file, "bad\0name"));
    }
}
