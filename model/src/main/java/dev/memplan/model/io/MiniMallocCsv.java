package dev.memplan.model.io;

import dev.memplan.model.Buffer;
import dev.memplan.model.BufferSet;
import dev.memplan.model.ByteRange;
import dev.memplan.model.OverlapSweep;
import dev.memplan.model.Placement;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * MiniMalloc's buffer CSV (memory-model.md, "Files"; ../datasets/minimalloc/README.md), read and written so
 * that the same files run through the MiniMalloc reference program and through ours.
 *
 * <p>The header names the columns, in any order, with the aliases of MiniMalloc's own reader
 * ({@code FromCsv} in google/minimalloc {@code src/converter.cc}): {@code id} (or {@code buffer},
 * {@code buffer_id}), {@code lower} (or {@code start}, {@code begin}), {@code upper} (or {@code end}, which is
 * inclusive: upper = end + 1), {@code size}, and optionally {@code alignment} (default 1) and {@code offset}.
 * A buffer is live over {@code [lower, upper)}. In an input file an offset fixes the buffer's address
 * ({@link Buffer#fixedOffset()}); in a solved file it is the solution ({@link #readPlacement(Path)}). An empty
 * offset field leaves that buffer free. MiniMalloc's {@code gaps} and {@code hint} extensions are not
 * supported. Fields are not quoted; blank lines may only end the file.
 *
 * <p>Written files have the header {@code id,lower,upper,size[,alignment][,offset]} ({@code alignment} only
 * when some buffer needs one, as MiniMalloc writes it) and rows in buffer order.
 */
public final class MiniMallocCsv {
    private static final Pattern CAPACITY_IN_NAME = Pattern.compile(".*\\.(\\d{1,18})\\.csv");
    private static final Pattern INTEGER = Pattern.compile("[+-]?\\d+");

    /** A column of the format, with the header names MiniMalloc's reader accepts for it. */
    private enum Column {
        ID(true, "id", "buffer", "buffer_id"),
        LOWER(true, "lower", "start", "begin"),
        UPPER(true, "upper", "end"),
        SIZE(true, "size"),
        ALIGNMENT(false, "alignment"),
        OFFSET(false, "offset");

        final boolean required;
        final List<String> names;

        Column(boolean required, String... names) {
            this.required = required;
            this.names = List.of(names);
        }

        static Column named(String header) {
            for (Column c : values()) {
                if (c.names.contains(header)) {
                    return c;
                }
            }
            return null;
        }
    }

    private static final String KNOWN_COLUMNS = "id (or buffer, buffer_id), lower (or start, begin), "
            + "upper (or end, inclusive), size, alignment, offset";

    private MiniMallocCsv() {
    }

    /** Reads a buffer set; the capacity comes from a file name such as {@code A.1048576.csv}, else null. */
    public static BufferSet read(Path file) {
        return parse(file).withFixedOffsets();
    }

    /** Reads a buffer set from CSV text; {@code fileName} names it in errors and may carry the capacity. */
    public static BufferSet read(String csv, String fileName) {
        return parse(new Lines(csv), fileName).withFixedOffsets();
    }

    /**
     * Reads a solved file: the buffers (without fixed offsets, so they equal the problem's) and the placement
     * that the {@code offset} column gives.
     *
     * @throws FormatException when there is no offset column or some row has no offset
     */
    public static Placement readPlacement(Path file) {
        return parse(file).placement();
    }

    /** As {@link #readPlacement(Path)}, from CSV text. */
    public static Placement readPlacement(String csv, String fileName) {
        return parse(new Lines(csv), fileName).placement();
    }

    /** Writes a solved file: the buffers and an {@code offset} column with the placement. */
    public static void write(Placement placement, Path file) {
        AtomicFiles.write(file, toCsv(placement));
    }

    /** Writes an unplaced buffer set; an {@code offset} column appears when some buffer has a fixed offset. */
    public static void write(BufferSet buffers, Path file) {
        AtomicFiles.write(file, toCsv(buffers));
    }

    public static String toCsv(Placement placement) {
        BufferSet set = placement.buffers();
        Long[] offsets = new Long[set.size()];
        for (int i = 0; i < offsets.length; i++) {
            offsets[i] = placement.offset(i);
        }
        return csv(set, offsets);
    }

    public static String toCsv(BufferSet buffers) {
        Long[] offsets = new Long[buffers.size()];
        boolean any = false;
        for (int i = 0; i < offsets.length; i++) {
            offsets[i] = buffers.get(i).fixedOffset();
            any |= offsets[i] != null;
        }
        return csv(buffers, any ? offsets : null);
    }

    /** The capacity stated by a benchmark file name {@code <name>.<capacity>.csv}, or null. */
    public static Long capacityFromFileName(String fileName) {
        String last = fileName.replace('\\', '/');
        last = last.substring(last.lastIndexOf('/') + 1);
        Matcher m = CAPACITY_IN_NAME.matcher(last);
        return m.matches() ? Long.valueOf(m.group(1)) : null;
    }

    private static String csv(BufferSet set, Long[] offsets) {
        boolean alignment = set.buffers().stream().anyMatch(b -> b.alignment() != 1);
        StringBuilder sb = new StringBuilder("id,lower,upper,size");
        sb.append(alignment ? ",alignment" : "").append(offsets != null ? ",offset" : "").append('\n');
        for (int i = 0; i < set.size(); i++) {
            Buffer b = set.get(i);
            if (b.id().isEmpty() || b.id().indexOf(',') >= 0 || b.id().indexOf('\n') >= 0
                    || b.id().indexOf('\r') >= 0) {
                throw new IllegalArgumentException("buffer id '" + b.id()
                        + "' cannot be written to CSV: ids must be non-empty, without commas or line breaks");
            }
            sb.append(b.id()).append(',').append(b.lower()).append(',').append(b.upper()).append(',')
                    .append(b.size());
            if (alignment) {
                sb.append(',').append(b.alignment());
            }
            if (offsets != null) {
                sb.append(',').append(offsets[i] == null ? "" : offsets[i].toString());
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    /** What a file says: the buffers (fixed offsets not yet set), the offset of each row and its line. */
    private record Parsed(String file, List<Buffer> buffers, Long capacity, String offsetColumn, List<Long> offsets,
                          List<Integer> lines) {

        /**
         * The problem: each buffer with its fixed offset, if any. Fixed offsets that no packing can keep (two
         * buffers fixed at shared addresses while both live, an offset off its alignment) are the file's mistake,
         * named here, not an "infeasible" for an allocator to prove.
         */
        BufferSet withFixedOffsets() {
            List<Buffer> fixed = new ArrayList<>(buffers.size());
            List<Integer> pinned = new ArrayList<>();
            for (int i = 0; i < buffers.size(); i++) {
                Buffer b = buffers.get(i);
                Long o = offsets.get(i);
                if (o != null) {
                    if (o % b.alignment() != 0) {
                        throw new FormatException(file, "line " + lines.get(i) + ", column '" + offsetColumn + "'",
                                "buffer '" + b.id() + "' is fixed at offset " + o + ", not a multiple of its alignment "
                                        + b.alignment());
                    }
                    pinned.add(i);
                }
                fixed.add(new Buffer(b.id(), b.lower(), b.upper(), b.size(), b.alignment(), o));
            }
            int k = pinned.size();
            long[] lower = new long[k];
            long[] upper = new long[k];
            long[] offset = new long[k];
            long[] size = new long[k];
            for (int j = 0; j < k; j++) {
                Buffer b = buffers.get(pinned.get(j));
                lower[j] = b.lower();
                upper[j] = b.upper();
                offset[j] = offsets.get(pinned.get(j));
                size[j] = b.size();
            }
            OverlapSweep.findOverlaps(lower, upper, offset, size, (a, b) -> {
                int x = Math.min(pinned.get(a), pinned.get(b));
                int y = Math.max(pinned.get(a), pinned.get(b));
                throw new FormatException(file, "line " + lines.get(y) + ", column '" + offsetColumn + "'",
                        "buffers '" + buffers.get(x).id() + "' (line " + lines.get(x) + ") and '" + buffers.get(y).id()
                                + "' are fixed at overlapping addresses while both are live: no packing keeps both");
            });
            return new BufferSet(fixed, capacity);
        }

        Placement placement() {
            if (offsetColumn == null) {
                throw new FormatException(file, "line 1", "no offset column: this is not a solved file");
            }
            long[] values = new long[buffers.size()];
            for (int i = 0; i < values.length; i++) {
                if (offsets.get(i) == null) {
                    throw new FormatException(file, "line " + lines.get(i) + ", column '" + offsetColumn + "'",
                            "buffer '" + buffers.get(i).id() + "' has no offset");
                }
                values[i] = offsets.get(i);
            }
            return new Placement(new BufferSet(buffers, capacity), values);
        }
    }

    /**
     * Parses a file as it streams in (a line at a time, strict UTF-8), so that a trace of a million buffers is
     * never held as one string.
     */
    private static Parsed parse(Path file) {
        if (java.nio.file.Files.isDirectory(file)) {
            throw new java.io.UncheckedIOException("cannot read " + file + ": it is a folder, not a file",
                    new java.io.IOException("folder"));
        }
        Lines lines;
        try {
            lines = new Lines(java.nio.file.Files.newInputStream(file));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("cannot read " + file + ": " + AtomicFiles.reason(e), e);
        }
        try (lines) {
            return parse(lines, file.toString());
        } catch (Lines.Failure f) {
            if (f.getCause() instanceof CharacterCodingException) {
                throw new FormatException(file.toString(), "line " + f.line, "not UTF-8 text", f.getCause());
            }
            throw new java.io.UncheckedIOException("cannot read " + file + ": " + AtomicFiles.reason(f.getCause()),
                    f.getCause());
        }
    }

    /**
     * The lines of a byte stream, read a block at a time so that a trace of a million buffers is never held
     * whole: split at the byte '\n' (never part of a UTF-8 sequence), each line decoded as strict UTF-8 with one
     * trailing '\r' dropped, and an empty last line after a final '\n' (as {@code split("\n", -1)} gives).
     * Read and decoding failures become {@link Failure} with the line number.
     */
    private static final class Lines implements AutoCloseable {
        private final java.io.InputStream in;
        private final java.nio.charset.CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        private final byte[] buf = new byte[1 << 16];
        private byte[] line = new byte[256];
        private int pos;
        private int end;
        private boolean done;
        private int number;

        static final class Failure extends RuntimeException {
            final int line;

            Failure(int line, java.io.IOException cause) {
                super(cause);
                this.line = line;
            }

            @Override
            public synchronized java.io.IOException getCause() {
                return (java.io.IOException) super.getCause();
            }
        }

        Lines(java.io.InputStream in) {
            this.in = in;
        }

        Lines(String text) {
            this(new java.io.ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
        }

        /** The next line, or null after the last. */
        String next() {
            if (done) {
                return null;
            }
            number++;
            int length = 0;
            while (true) {
                if (pos == end) {
                    try {
                        end = in.read(buf, 0, buf.length);
                    } catch (java.io.IOException e) {
                        throw new Failure(number, e);
                    }
                    pos = 0;
                    if (end <= 0) {
                        end = 0;
                        done = true;
                        return decode(length);
                    }
                }
                int from = pos;
                while (pos < end && buf[pos] != '\n') {
                    pos++;
                }
                int count = pos - from;
                if (length + count > line.length) {
                    line = java.util.Arrays.copyOf(line, Math.max(length + count, 2 * line.length));
                }
                System.arraycopy(buf, from, line, length, count);
                length += count;
                if (pos < end) {
                    pos++;
                    return decode(length);
                }
            }
        }

        private String decode(int length) {
            if (length > 0 && line[length - 1] == '\r') {
                length--;
            }
            try {
                return decoder.decode(ByteBuffer.wrap(line, 0, length)).toString();
            } catch (CharacterCodingException e) {
                throw new Failure(number, e);
            }
        }

        @Override
        public void close() {
            try {
                in.close();
            } catch (java.io.IOException ignored) {
                // Reading is over; nothing was written.
            }
        }
    }

    private static Parsed parse(Lines lines, String file) {
        String first = lines.next();
        if (first.startsWith("\uFEFF")) {
            first = first.substring(1);
        }
        if (first.isBlank()) {
            throw new FormatException(file, "line 1", "no header; expected one such as id,lower,upper,size");
        }
        String[] header = first.split(",", -1);
        Map<Column, Integer> index = new HashMap<>();
        String[] names = new String[header.length];
        for (int k = 0; k < header.length; k++) {
            String name = header[k].trim();
            names[k] = name;
            if (name.isEmpty()) {
                throw new FormatException(file, "line 1, column " + (k + 1), "empty column name");
            }
            String where = "line 1, column '" + name + "'";
            Column column = Column.named(name);
            if (column == null) {
                if (name.equals("gaps") || name.equals("hint")) {
                    throw new FormatException(file, where, "column '" + name
                            + "' is a MiniMalloc extension that memplan does not support");
                }
                throw new FormatException(file, where, "unknown column '" + name + "'; expected " + KNOWN_COLUMNS);
            }
            Integer previous = index.putIfAbsent(column, k);
            if (previous != null) {
                throw new FormatException(file, where, "column '" + name + "' repeats column '" + names[previous]
                        + "' (both give " + column.names.get(0) + ")");
            }
        }
        for (Column c : Column.values()) {
            if (c.required && !index.containsKey(c)) {
                throw new FormatException(file, "line 1", "missing required column '" + c.names.get(0)
                        + "'; the header needs id, lower, upper and size, found " + String.join(",", names));
            }
        }
        Row row = new Row(file, names, index);

        List<Buffer> buffers = new ArrayList<>();
        List<Long> offsets = new ArrayList<>();
        List<Integer> lineOf = new ArrayList<>();
        Map<String, Integer> idLine = new HashMap<>();
        long total = 0;
        int blank = -1;
        int line = 1;
        for (String text = lines.next(); text != null; text = lines.next()) {
            line++;
            dev.memplan.model.ClockGuard.poll(line, "reading the buffers");
            if (text.isBlank()) {
                if (blank < 0) {
                    blank = line;
                }
                continue;
            }
            if (blank >= 0) {
                throw new FormatException(file, "line " + blank,
                        "blank line before the last buffer (MiniMalloc stops reading at the first blank line)");
            }
            row.start(line, text);
            String id = row.text(Column.ID);
            if (id.isEmpty()) {
                throw row.error(Column.ID, "empty buffer id");
            }
            Integer previous = idLine.putIfAbsent(id, line);
            if (previous != null) {
                throw row.error(Column.ID, "duplicate id '" + id + "' (also line " + previous + ")");
            }
            long lower = row.integer(Column.LOWER);
            if (lower < 0) {
                throw row.error(Column.LOWER, row.name(Column.LOWER) + " must be >= 0 (a time), found " + lower);
            }
            long upper = row.integer(Column.UPPER);
            boolean inclusive = row.name(Column.UPPER).equals("end");
            if (inclusive) {
                if (upper == Long.MAX_VALUE) {
                    throw row.error(Column.UPPER, "end " + upper + " is too large (upper = end + 1 overflows)");
                }
                upper++;
            }
            if (lower >= upper) {
                throw row.error(Column.UPPER, inclusive
                        ? "end " + (upper - 1) + " is before " + row.name(Column.LOWER) + " " + lower
                                + " (end is inclusive: a buffer needs end >= " + row.name(Column.LOWER) + ")"
                        : "upper " + upper + " must be greater than " + row.name(Column.LOWER) + " " + lower
                                + " (the live range [lower, upper) is half-open)");
            }
            long size = row.bytes(Column.SIZE, "size");
            if (size <= 0) {
                throw row.error(Column.SIZE, "size must be positive, found " + size);
            }
            long alignment = index.containsKey(Column.ALIGNMENT) ? row.bytes(Column.ALIGNMENT, "alignment") : 1;
            if (alignment < 1) {
                throw row.error(Column.ALIGNMENT, "alignment must be >= 1, found " + alignment);
            }
            // ByteRange: sizes and alignments sum to at most 2^53, so no packing height can overflow.
            total += size + alignment;
            if (total > ByteRange.MAX) {
                throw row.error(Column.SIZE, "the sizes and alignments up to this buffer sum to " + total
                        + ", above 2^53 = " + ByteRange.MAX + ", the largest total memplan supports");
            }
            Long offset = null;
            if (index.containsKey(Column.OFFSET) && !row.text(Column.OFFSET).isBlank()) {
                offset = row.bytes(Column.OFFSET, "offset");
                if (offset < 0) {
                    throw row.error(Column.OFFSET, "offset must be >= 0, found " + offset);
                }
            }
            buffers.add(new Buffer(id, lower, upper, size, alignment, null));
            offsets.add(offset);
            lineOf.add(line);
        }
        Long capacity = capacityFromFileName(file);
        if (capacity != null && capacity > ByteRange.MAX) {
            throw new FormatException(file, "file name", ByteRange.problem(capacity, "the capacity"));
        }
        return new Parsed(file, buffers, capacity,
                index.containsKey(Column.OFFSET) ? names[index.get(Column.OFFSET)] : null, offsets, lineOf);
    }

    /** The fields of the current data line, by column. */
    private static final class Row {
        private final String file;
        private final String[] names;
        private final Map<Column, Integer> index;
        private int line;
        private String[] fields;

        Row(String file, String[] names, Map<Column, Integer> index) {
            this.file = file;
            this.names = names;
            this.index = index;
        }

        void start(int lineNumber, String text) {
            line = lineNumber;
            int quote = text.indexOf('"');
            if (quote >= 0) {
                throw new FormatException(file, "line " + line + ", column " + (quote + 1),
                        "a quote: MiniMalloc's CSV has no quoted fields (ids are plain text without commas or quotes)");
            }
            fields = text.split(",", -1);
            if (fields.length != names.length) {
                throw new FormatException(file, "line " + line, "expected " + names.length + " fields ("
                        + String.join(",", names) + "), found " + fields.length + ": " + abbreviate(text));
            }
        }

        String name(Column column) {
            return names[index.get(column)];
        }

        String text(Column column) {
            return fields[index.get(column)];
        }

        long integer(Column column) {
            String value = text(column).trim();
            try {
                return Long.parseLong(value);
            } catch (NumberFormatException e) {
                throw error(column, INTEGER.matcher(value).matches()
                        ? "'" + value + "' does not fit a 64-bit integer"
                        : "'" + abbreviate(value) + "' is not an integer");
            }
        }

        /** An integer byte count (size, alignment, offset) at most {@link ByteRange#MAX}. */
        long bytes(Column column, String what) {
            long value = integer(column);
            String problem = ByteRange.problem(value, what);
            if (problem != null) {
                throw error(column, problem);
            }
            return value;
        }

        FormatException error(Column column, String problem) {
            return new FormatException(file, "line " + line + ", column '" + name(column) + "'", problem);
        }

        private static String abbreviate(String text) {
            return text.length() > 60 ? text.substring(0, 57) + "..." : text;
        }
    }
}
