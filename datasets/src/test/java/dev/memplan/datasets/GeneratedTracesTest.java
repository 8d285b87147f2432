package dev.memplan.datasets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.memplan.model.BufferSet;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A buffer argument: a MiniMalloc CSV file (a file of that name wins) or a generated trace by name. */
class GeneratedTracesTest {
    @Test
    void aFileOrAGeneratedTrace(@TempDir Path dir) throws Exception {
        assertEquals(GeneratedTraces.of("gen:heap:100:3").size(), GeneratedTraces.read("gen:heap:100:3").size());
        Path csv = dir.resolve("b.csv");
        Files.writeString(csv, "id,lower,upper,size\n0,0,2,8\n1,1,3,4\n");
        BufferSet read = GeneratedTraces.read(csv.toString());
        assertEquals(2, read.size());
        Path missing = dir.resolve("none.csv");
        assertEquals("no such file: " + missing + " (give a MiniMalloc CSV, " + GeneratedTraces.FORMS + ")",
                assertThrows(IllegalArgumentException.class, () -> GeneratedTraces.read(missing.toString()))
                        .getMessage());
    }
}
