package dev.memplan.model.io;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Writes and reads whole text files. A regular file (or a new one) is written to a temporary file in its folder
 * first and then moved over the target, so no half-written file is left; a symbolic link is written through to
 * its target (the link stays). A target that exists and is not a regular file (a named pipe, a terminal,
 * {@code /dev/stdout}) is written in place, as a stream: it cannot be replaced. Errors say why, in words
 * ("permission denied", "is a directory").
 */
public final class AtomicFiles {
    private static final int MAX_LINKS = 40;

    private AtomicFiles() {
    }

    /** Writes UTF-8 text to {@code target} (see the class comment for links, pipes and devices). */
    public static void write(Path target, String text) {
        write(target, text.getBytes(StandardCharsets.UTF_8));
    }

    /** Writes bytes (an image, say) to {@code target} (see the class comment for links, pipes and devices). */
    public static void write(Path target, byte[] bytes) {
        if (Files.isDirectory(target)) {
            throw failure("cannot write " + target + ": it is a folder");
        }
        if (Files.exists(target) && !Files.isRegularFile(target)) {
            try {
                Files.write(target, bytes, StandardOpenOption.WRITE);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write " + target + ": " + reason(e), e);
            }
            return;
        }
        Path absolute;
        try {
            absolute = linkTarget(target.toAbsolutePath());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + target + ": " + reason(e), e);
        }
        Path dir = absolute.getParent();
        if (!Files.isDirectory(dir)) {
            throw failure("cannot write " + target + ": " + (Files.exists(dir) ? dir + " is not a folder"
                    : "folder " + dir + " does not exist"));
        }
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
            String where = tmp == null ? " (in folder " + dir + ")" : "";
            throw new UncheckedIOException("cannot write " + target + ": " + reason(e) + where, e);
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

    /**
     * Why {@link #write} would fail for {@code target} before any work is done, or null when it looks writable:
     * a folder, a missing or read-only parent folder. Pipes and devices are taken as writable.
     */
    public static String whyNotWritable(Path target) {
        if (Files.isDirectory(target)) {
            return "it is a folder";
        }
        if (Files.exists(target) && !Files.isRegularFile(target)) {
            return Files.isWritable(target) ? null : "permission denied";
        }
        Path dir;
        try {
            dir = linkTarget(target.toAbsolutePath()).getParent();
        } catch (IOException e) {
            return reason(e);
        }
        if (!Files.exists(dir)) {
            return "folder " + dir + " does not exist";
        }
        if (!Files.isDirectory(dir)) {
            return dir + " is not a folder";
        }
        if (!Files.isWritable(dir)) {
            return "folder " + dir + " is not writable (permission denied)";
        }
        // A whole-or-nothing write needs a temporary file beside the target: try one now, so that a folder that
        // takes no new files (/proc, a read-only mount) fails before the work, with its real reason.
        try {
            Files.delete(Files.createTempFile(dir, ".memplan-probe", ".tmp"));
        } catch (java.nio.file.NoSuchFileException e) {
            // The folder exists (checked above), yet a new file in it is "not found": a special file system (/proc).
            return "folder " + dir + " takes no new files (a special file system)";
        } catch (IOException e) {
            return "cannot create a file in folder " + dir + ": " + reason(e);
        }
        return null;
    }

    private static UncheckedIOException failure(String message) {
        return new UncheckedIOException(message, new IOException(message));
    }

    /**
     * The file a path names after following symbolic links, even a link to a file that does not exist yet
     * (writing creates it); the path itself when it is not a link.
     */
    static Path linkTarget(Path absolute) throws IOException {
        Path p = absolute;
        for (int hops = 0; Files.isSymbolicLink(p); hops++) {
            if (hops == MAX_LINKS) {
                throw new FileSystemException(absolute.toString(), null, "too many levels of symbolic links");
            }
            p = p.getParent().resolve(Files.readSymbolicLink(p)).normalize();
        }
        return p;
    }

    /** Temporary files are private to their owner; the finished file gets the usual rw-r--r--. */
    private static void readableByAll(Path file) throws IOException {
        if (file.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            Files.setPosixFilePermissions(file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
        }
    }

    /**
     * Every byte of a file, a named pipe or a device ({@code /dev/stdin}); a folder or a missing file is an
     * error that says so.
     */
    static byte[] readBytes(Path file) {
        if (Files.isDirectory(file)) {
            throw failure("cannot read " + file + ": it is a folder, not a file");
        }
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + reason(e), e);
        }
    }

    /**
     * Why files cannot be written into the folder {@code dir} (not a file), or null when they can: it is created now
     * if missing, so that a bad path fails before a run. "No such file or folder" from a file system (such as /proc) that
     * refuses new entries would say the opposite of what is true, so the folder that does exist is named instead.
     */
    public static String whyNoFolder(Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            Path existing = dir.toAbsolutePath().normalize().getParent();
            while (e instanceof java.nio.file.NoSuchFileException && existing != null && !Files.exists(existing)) {
                existing = existing.getParent();
            }
            return "cannot create the folder: " + (e instanceof java.nio.file.NoSuchFileException && existing != null
                    && Files.isDirectory(existing) ? existing + " exists, but its file system refuses new folders in it"
                    : reason(e));
        }
        return Files.isWritable(dir) ? null : "the folder is not writable (permission denied)";
    }

    /** Why {@code file} cannot be read as an input file, or null when it can: a folder, or no such file. */
    public static String whyNotInput(Path file) {
        if (Files.isDirectory(file)) {
            return file + " is a folder: name a file";
        }
        return Files.isRegularFile(file) ? null : "no such file: " + file;
    }

    /**
     * Why {@code out}, named by {@code option}, cannot be an output, or null when it can (or is null): empty (which
     * would name the working folder), one of {@code inputs} (writing would replace it; names of no file are
     * skipped), or not writable ({@link #whyNotWritable}). Checked before any work, so a long run does not end in
     * "cannot write".
     */
    public static String whyNotOutput(Path out, String option, String... inputs) {
        if (out == null) {
            return null;
        }
        if (out.toString().isEmpty()) {
            return option + " is empty: name a file";
        }
        for (String input : inputs) {
            if (input != null && sameFile(out, input)) {
                return option + " " + out + " is the input file " + input + "; writing would replace it: name another"
                        + " file";
            }
        }
        String why = whyNotWritable(out);
        return why == null ? null : option + " " + out + ": cannot write: " + why;
    }

    /**
     * Why {@code dir}, named by {@code option}, cannot be a folder files are written into, or null when it can (or is
     * null): empty (an empty argument must not write into the working folder unasked), a file, or
     * {@link #whyNoFolder} (which creates it).
     */
    public static String whyNotOutputFolder(Path dir, String option) {
        if (dir == null) {
            return null;
        }
        if (dir.toString().isEmpty()) {
            return option + " is empty: name a folder ('.' for this one)";
        }
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            return option + " " + dir + " is a file, not a folder";
        }
        String why = whyNoFolder(dir);
        return why == null ? null : option + " " + dir + ": " + why;
    }

    /** Whether {@code a} and the file named {@code b} are one file (after links; false when either is missing). */
    public static boolean sameFile(Path a, String b) {
        try {
            Path other = Path.of(b);
            return Files.exists(other) && Files.exists(a) && Files.isSameFile(a, other);
        } catch (java.nio.file.InvalidPathException | IOException e) {
            return false;
        }
    }

    /**
     * Why a file operation failed, in words: Java's file exceptions often carry only the file name as their
     * message ("cannot read x: x" says nothing).
     */
    public static String reason(IOException e) {
        if (e instanceof NoSuchFileException) {
            return "no such file or folder";
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof NotDirectoryException) {
            return "a part of the path is not a folder";
        }
        if (e instanceof FileAlreadyExistsException) {
            return "it already exists";
        }
        if (e instanceof DirectoryNotEmptyException) {
            return "it is a folder that is not empty";
        }
        if (e instanceof java.nio.charset.CharacterCodingException) {
            // Files.readString's "Input length = 1" says where the decoder stopped, not what is wrong.
            return "not UTF-8 text (a binary file?)";
        }
        if (e instanceof FileSystemException fse && fse.getReason() != null) {
            return fse.getReason().toLowerCase(java.util.Locale.ROOT);
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}
