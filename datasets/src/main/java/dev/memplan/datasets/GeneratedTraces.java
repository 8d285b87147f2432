package dev.memplan.datasets;

import dev.memplan.model.BufferSet;
import dev.memplan.model.io.MiniMallocCsv;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.BiFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Generated buffer traces by name, as commands read them: {@code gen:trace:N[:SEED]} ({@link TrainingTrace}, a
 * transformer's training step) and {@code gen:heap:N[:SEED]} ({@link HeapTrace}, thousands of buffers live at once).
 */
public final class GeneratedTraces {
    /** The forms, for messages. */
    public static final String FORMS = "gen:trace:N[:SEED] or gen:heap:N[:SEED]";

    private GeneratedTraces() {
    }

    /** Whether the text names a generated trace of either kind. */
    public static boolean isTraceName(String text) {
        return TrainingTrace.isTraceName(text) || HeapTrace.isTraceName(text);
    }

    /**
     * The trace of that name.
     *
     * @throws IllegalArgumentException naming the expected form when the name is malformed or out of range
     */
    public static BufferSet of(String name) {
        return HeapTrace.isTraceName(name) ? HeapTrace.of(name) : TrainingTrace.of(name);
    }

    /**
     * A buffer set from a MiniMalloc CSV file or a generated trace (a file of that name wins); the file is checked to
     * exist first, so a missing file is named as such.
     *
     * @throws IllegalArgumentException for a missing file or a malformed trace name
     */
    public static BufferSet read(String argument) {
        Path file = Path.of(argument);
        if (isTraceName(argument) && !Files.exists(file)) {
            return of(argument);
        }
        if (!Files.exists(file)) {
            throw new IllegalArgumentException("no such file: " + file + " (give a MiniMalloc CSV, " + FORMS + ")");
        }
        return MiniMallocCsv.read(file);
    }

    /**
     * The trace named {@code gen:KIND:N[:SEED]} (SEED 1 when not given), made by {@code generate(N, SEED)};
     * {@code what} names the kind in the message ("" or "heap ").
     *
     * @throws IllegalArgumentException naming the expected form when the name is malformed or N is out of range
     */
    static BufferSet parse(String name, String kind, String what, int min, int max,
                           BiFunction<Integer, Long, BufferSet> generate) {
        Matcher m = Pattern.compile("gen:" + kind + ":(\\d{1,9})(?::(-?\\d{1,18}))?").matcher(name);
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + name + "' is not a generated " + what + "trace name: use gen:"
                    + kind + ":N[:SEED] with N buffers (" + min + ".." + max + ")");
        }
        long n = Long.parseLong(m.group(1));
        if (n < min || n > max) {
            throw new IllegalArgumentException("'" + name + "': the number of buffers must be " + min + ".." + max);
        }
        return generate.apply((int) n, m.group(2) == null ? 1 : Long.parseLong(m.group(2)));
    }
}
