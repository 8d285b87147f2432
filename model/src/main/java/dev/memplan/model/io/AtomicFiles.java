package dev.memplan.model.io;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/** Writes and reads whole text files; a write goes to a temporary file first so no half-written file is left. */
public final class AtomicFiles {

    private AtomicFiles() {
    }

    /** Writes UTF-8 text to a temporary file in the target's directory, then moves it over the target. */
    public static void write(Path target, String text) {
        write(target, text.getBytes(StandardCharsets.UTF_8));
    }

    /** Writes bytes (an image, say) to a temporary file in the target's directory, then moves it over the target. */
    public static void write(Path target, byte[] bytes) {
        Path absolute = target.toAbsolutePath();
        Path dir = absolute.getParent();
        Path tmp = null;
        try {
            tmp = Files.createTempFile(dir, "." + absolute.getFileName() + ".", ".tmp");
            Files.write(tmp, bytes);
            readableByAll(tmp);
            try {
                Files.move(tmp, absolute, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, absolute, StandardCopyOption.REPLACE_EXISTING);
            }
            tmp = null;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + target + ": " + e.getMessage(), e);
        } finally {
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException ignored) {
                    // The write already failed; that error is the one to report.
                }
            }
        }
    }

    /** Temporary files are private to their owner; the finished file gets the usual rw-r--r--. */
    private static void readableByAll(Path file) throws IOException {
        if (file.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            Files.setPosixFilePermissions(file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
        }
    }

    static byte[] readBytes(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }
}
