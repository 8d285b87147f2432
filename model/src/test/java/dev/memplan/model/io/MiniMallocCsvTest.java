package dev.memplan.model.io;

import static dev.memplan.model.io.FormatErrors.assertFormatError;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.memplan.model.Buffer;
import dev.memplan.model.BufferSet;
import dev.memplan.model.Placement;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * MiniMalloc's CSV: the paper's example and challenging instance A, copied from google/minimalloc into this
 * module's test resources (see the README there), read from files as the commands do; every instance of the
 * suite is read in the datasets module's {@code MiniMallocSuiteTest}.
 */
class MiniMallocCsvTest {
    private static final String S = "<string>";

    @TempDir
    Path dir;

    /** A bundled file copied into the test's folder under its own name (the capacity is in the name). */
    private Path bundled(String name) throws IOException {
        Path file = dir.resolve(name);
        try (InputStream in = MiniMallocCsvTest.class.getResourceAsStream("minimalloc/" + name)) {
            assertNotNull(in, "test resource minimalloc/" + name);
            Files.copy(in, file);
        }
        return file;
    }

    @Test
    void readsThePaperExample() throws IOException {
        BufferSet set = MiniMallocCsv.read(bundled("input.12.csv"));
        assertEquals(5, set.size());
        assertEquals(new Buffer("b1", 0, 3, 4), set.get(0));
        assertEquals(new Buffer("b4", 9, 21, 4), set.get(3));
        assertEquals(new Buffer("b5", 0, 21, 4), set.get(4));
        assertEquals(12L, set.capacity());
    }

    @Test
    void readsAChallengingBenchmark() throws IOException {
        BufferSet a = MiniMallocCsv.read(bundled("A.1048576.csv"));
        assertEquals(154, a.size());
        assertEquals(new Buffer("0", 995328, 1000448, 656384), a.get(0));
        assertEquals(new Buffer("2", 0, 1048576, 5120), a.get(2));
        assertEquals(1048576L, a.capacity());
    }

    @Test
    void writesTheInputBackUnchanged() throws IOException {
        Path input = bundled("A.1048576.csv");
        assertEquals(Files.readString(input), MiniMallocCsv.toCsv(MiniMallocCsv.read(input)));
    }

    @Test
    void roundTripOfASolvedFileWithAlignment() {
        BufferSet set = new BufferSet(List.of(new Buffer("x", 0, 4, 96, 32, null), new Buffer("y", 2, 6, 16),
                new Buffer("z", 5, 9, 128, 64, null)));
        Placement placement = new Placement(set, new long[] {0, 96, 128});
        Path file = dir.resolve("solved.csv");
        MiniMallocCsv.write(placement, file);
        String csv = MiniMallocCsv.toCsv(placement);
        assertEquals("id,lower,upper,size,alignment,offset\nx,0,4,96,32,0\ny,2,6,16,1,96\nz,5,9,128,64,128\n", csv);
        assertEquals(placement, MiniMallocCsv.readPlacement(file));
        assertEquals(placement, MiniMallocCsv.readPlacement(csv, S));
        BufferSet fixed = MiniMallocCsv.read(csv, S);
        assertEquals(96L, fixed.get(1).fixedOffset());
        assertEquals(csv, MiniMallocCsv.toCsv(fixed));
    }

    @Test
    void roundTripWithoutAlignmentOrOffset() {
        BufferSet set = new BufferSet(List.of(new Buffer("a", 0, 1, 8), new Buffer("b", 1, 2, 8)), 16L);
        String csv = MiniMallocCsv.toCsv(set);
        assertEquals("id,lower,upper,size\na,0,1,8\nb,1,2,8\n", csv);
        assertEquals(set, MiniMallocCsv.read(csv, "two.16.csv"));
        assertNull(MiniMallocCsv.read(csv, S).capacity());
    }

    @Test
    void partialFixedOffsetsUseEmptyFields() {
        BufferSet set = new BufferSet(List.of(new Buffer("a", 0, 1, 8, 1, 8L), new Buffer("b", 1, 2, 8)));
        String csv = MiniMallocCsv.toCsv(set);
        assertEquals("id,lower,upper,size,offset\na,0,1,8,8\nb,1,2,8,\n", csv);
        assertEquals(set, MiniMallocCsv.read(csv, S));
        assertFormatError(() -> MiniMallocCsv.readPlacement(csv, "p.csv"), "p.csv", "line 3, column 'offset'",
                "buffer 'b' has no offset");
        assertFormatError(() -> MiniMallocCsv.readPlacement("id,lower,upper,size\na,0,1,8\n", "p.csv"), "p.csv", "line 1",
                "no offset column");
    }

    @Test
    void legacyEndColumnIsInclusiveAndAliasesAreAccepted() {
        BufferSet set = MiniMallocCsv.read("buffer,start,end,size\nx,0,2,8\ny,3,3,4\n", S);
        assertEquals(List.of(new Buffer("x", 0, 3, 8), new Buffer("y", 3, 4, 4)), set.buffers());
        assertEquals("id,lower,upper,size\nx,0,3,8\ny,3,4,4\n", MiniMallocCsv.toCsv(set));
        assertEquals(List.of(new Buffer("x", 0, 2, 8)), MiniMallocCsv.read("buffer_id,begin,upper,size\nx,0,2,8", S).buffers());
    }

    @Test
    void columnsInAnyOrderWindowsLineEndsAndTrailingBlankLines() {
        BufferSet set = MiniMallocCsv.read("\uFEFFsize,offset,upper,alignment,id,lower\r\n16,32,5,16,q,1\r\n\r\n\n", S);
        assertEquals(List.of(new Buffer("q", 1, 5, 16, 16, 32L)), set.buffers());
        assertEquals(0, MiniMallocCsv.read("id,lower,upper,size\n", S).size());
    }

    @Test
    void capacityComesFromBenchmarkFileNames() {
        assertEquals(1048576L, MiniMallocCsv.capacityFromFileName("/x/challenging/A.1048576.csv"));
        assertEquals(12L, MiniMallocCsv.capacityFromFileName("input.12.csv"));
        assertNull(MiniMallocCsv.capacityFromFileName("input.csv"));
        assertNull(MiniMallocCsv.capacityFromFileName("<string>"));
    }

    @Test
    void idsThatCannotBeWrittenAreRefused() {
        BufferSet set = new BufferSet(List.of(new Buffer("a,b", 0, 1, 8)));
        assertThrows(IllegalArgumentException.class, () -> MiniMallocCsv.toCsv(set));
    }

    @Test
    void headerErrors() {
        assertFormatError(() -> MiniMallocCsv.read("id,lower,upper\na,0,1\n", "b.csv"), "b.csv", "line 1",
                "missing required column 'size'");
        assertFormatError(() -> MiniMallocCsv.read("id,lower,upper,size,colour\na,0,1,8,red\n", "b.csv"), "b.csv",
                "line 1, column 'colour'", "unknown column 'colour'");
        assertFormatError(() -> MiniMallocCsv.read("id,lower,start,upper,size\n", "b.csv"), "b.csv",
                "line 1, column 'start'", "repeats column 'lower'");
        assertFormatError(() -> MiniMallocCsv.read("id,lower,upper,size,gaps\n", "b.csv"), "b.csv",
                "line 1, column 'gaps'", "not support");
        assertFormatError(() -> MiniMallocCsv.read("id,lower,,size\n", "b.csv"), "b.csv", "line 1, column 3",
                "empty column name");
        assertFormatError(() -> MiniMallocCsv.read("", "b.csv"), "b.csv", "line 1", "no header");
    }

    @Test
    void rowErrorsNameLineAndColumn() {
        String header = "id,lower,upper,size\n";
        assertFormatError(() -> MiniMallocCsv.read(header + "a,0,1,8\nb,0,1,8,9\n", "b.csv"), "b.csv", "line 3",
                "expected 4 fields (id,lower,upper,size), found 5");
        assertFormatError(() -> MiniMallocCsv.read(header + "a,0,1,8\nb,0,1,8\nc,0,2,eight\n", "b.csv"), "b.csv",
                "line 4, column 'size'", "'eight' is not an integer");
        assertFormatError(() -> MiniMallocCsv.read(header + "a,0,99999999999999999999,8\n", "b.csv"), "b.csv",
                "line 2, column 'upper'", "does not fit a 64-bit integer");
        assertFormatError(() -> MiniMallocCsv.read(header + "a,0,1,0\n", "b.csv"), "b.csv", "line 2, column 'size'",
                "size must be positive, found 0");
        assertFormatError(() -> MiniMallocCsv.read(header + "a,3,3,8\n", "b.csv"), "b.csv", "line 2, column 'upper'",
                "upper 3 must be greater than lower 3");
        assertFormatError(() -> MiniMallocCsv.read("id,start,end,size\na,3,2,8\n", "b.csv"), "b.csv",
                "line 2, column 'end'", "end 2 is before start 3");
        assertFormatError(() -> MiniMallocCsv.read(header + "a,0,1,8\nb,0,1,8\na,2,3,8\n", "b.csv"), "b.csv",
                "line 4, column 'id'", "duplicate id 'a' (also line 2)");
        assertFormatError(() -> MiniMallocCsv.read("id,lower,upper,size,alignment\na,0,1,8,0\n", "b.csv"), "b.csv",
                "line 2, column 'alignment'", "alignment must be >= 1");
        assertFormatError(() -> MiniMallocCsv.read(header + ",0,1,8\n", "b.csv"), "b.csv", "line 2, column 'id'",
                "empty buffer id");
        assertFormatError(() -> MiniMallocCsv.read(header + "a,0,1,8\n\nb,0,1,8\n", "b.csv"), "b.csv", "line 3",
                "blank line");
    }

    @Test
    void fileErrorsNameTheFile() throws IOException {
        Path file = dir.resolve("bad.csv");
        Files.writeString(file, "id,lower,upper,size\na,0,x,8\n");
        assertFormatError(() -> MiniMallocCsv.read(file), file.toString(), "line 2, column 'upper'", "'x' is not an integer");
        byte[] latin1 = "id,lower,upper,size\nb\u00e9,0,1,8\n".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
        Files.write(file, latin1);
        assertFormatError(() -> MiniMallocCsv.read(file), file.toString(), "line 2", "not UTF-8 text");
    }

    @Test
    void solvedPaperExampleRoundTrips() throws IOException {
        BufferSet set = MiniMallocCsv.read(bundled("input.12.csv"));
        long[] offsets = {8, 8, 4, 4, 0};
        Path file = dir.resolve("output.12.csv");
        MiniMallocCsv.write(new Placement(set, offsets), file);
        Placement back = MiniMallocCsv.readPlacement(file);
        assertArrayEquals(offsets, back.offsets());
        assertEquals(set, back.buffers());
        assertEquals(Arrays.asList(8L, 8L, 4L, 4L, 0L),
                MiniMallocCsv.read(file).buffers().stream().map(Buffer::fixedOffset).toList());
    }
}
