package dev.memplan.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 24's edges: no mistyped path destroys or bypasses a results database or an input, and values that crashed
 * (exit 3) or were accepted are refused before any work with one line naming the option and the rule (exit 2).
 */
class NothingLostTest {
    @TempDir
    Path dir;

    private Path spec;
    private Path db;

    @BeforeEach
    void oneCaseSweep() throws IOException {
        spec = dir.resolve("one.yaml");
        Files.writeString(spec, "graphs: [fig1]\nbudgets: [M_R]\nplanners: [default/belady/tflite]\n");
        db = dir.resolve("r.duckdb");
        MainTest.Result r = MainTest.run("sweep", spec.toString(), "--db", db.toString());
        assertEquals(0, r.code(), r.err());
    }

    private static void assertRefused(MainTest.Result r, String... words) {
        assertEquals(ExitCode.USER_ERROR.code(), r.code(), r.out() + r.err());
        assertTrue(r.err().startsWith("memplan: error: "), r.err());
        assertEquals(1, r.err().strip().lines().count(), "one line: " + r.err());
        for (String w : words) {
            assertTrue(r.err().contains(w), "'" + w + "' in: " + r.err());
        }
    }

    @Test
    void exportOntoTheDatabaseIsRefusedAndTheDatabaseStays() throws IOException {
        byte[] before = Files.readAllBytes(db);
        Path link = dir.resolve("link.duckdb");
        Files.createSymbolicLink(link, db.getFileName());
        Path hard = dir.resolve("hard.duckdb");
        Files.createLink(hard, db);
        assertRefused(MainTest.run("sweep", "export", db.toString(), "--csv", db.toString()), "--csv", "input file");
        assertRefused(MainTest.run("sweep", "export", db.toString(), "--parquet", link.toString()), "--parquet");
        assertRefused(MainTest.run("sweep", "export", db.toString(), "--csv", hard.toString()), "--csv");
        assertArrayEquals(before, Files.readAllBytes(db));
        assertEquals(1, MainTest.run("sweep", "export", db.toString(), "--csv", "-").out().lines()
                .filter(l -> l.contains("fig1")).count());
    }

    @Test
    void aFileThatIsNotADuckDbDatabaseIsNeverUsedAsOne() throws IOException {
        Path csv = dir.resolve("results.csv");
        assertEquals(0, MainTest.run("sweep", "export", db.toString(), "--csv", csv.toString()).code());
        byte[] specBefore = Files.readAllBytes(spec);
        // DuckDB would open these as empty in-memory databases: the sweep would run and store nothing.
        assertRefused(MainTest.run("sweep", spec.toString(), "--db", spec.toString()), "not a DuckDB database");
        assertRefused(MainTest.run("sweep", spec.toString(), "--db", csv.toString()), "not a DuckDB database");
        assertArrayEquals(specBefore, Files.readAllBytes(spec));
        Path empty = Files.createFile(dir.resolve("empty.duckdb"));
        assertRefused(MainTest.run("sweep", spec.toString(), "--db", empty.toString()), "it is empty");
        assertRefused(MainTest.run("sweep", spec.toString(), "--db", "-"), "--db -");
        // Export and plot read only results databases, never create one.
        assertRefused(MainTest.run("sweep", "export", spec.toString(), "--csv", dir.resolve("x.csv").toString()),
                "not a DuckDB database");
        Path missing = dir.resolve("missing.duckdb");
        assertRefused(MainTest.run("sweep", "export", missing.toString(), "--csv", dir.resolve("x.csv").toString()),
                "no results database");
        assertFalse(Files.exists(missing));
        assertRefused(MainTest.run("plot", "traffic", spec.toString(), "--out", dir.resolve("f.svg").toString()),
                "cannot read it as a DuckDB database", "its header is not DuckDB's");
    }

    @Test
    void exportWritesCsvToStandardOutputAndRefusesParquetThere() {
        MainTest.Result csv = MainTest.run("sweep", "export", db.toString(), "--csv", "-");
        assertEquals(0, csv.code(), csv.err());
        assertTrue(csv.out().startsWith("case_key,"), csv.out());
        assertTrue(csv.err().contains("wrote 1 rows to standard output"), csv.err());
        assertFalse(Files.exists(Path.of("-")), "no file named '-'");
        assertRefused(MainTest.run("sweep", "export", db.toString(), "--parquet", "-"), "--parquet -");
    }

    @Test
    void aSpecWithNothingToRunIsAnError() throws IOException {
        Path empty = dir.resolve("empty.yaml");
        Files.writeString(empty, "graphs: [fig1]\nplanners: []\n");
        assertRefused(MainTest.run("sweep", empty.toString(), "--db", dir.resolve("e.duckdb").toString()),
                "empty.yaml:2:", "'planners' is empty");
        Files.writeString(empty, "graphs: []\nbuffers: [x.csv]\n");
        assertRefused(MainTest.run("sweep", empty.toString()), "'graphs' is empty");
        Files.writeString(empty, "graphs: [fig1]\nexclude: [{graph: fig1}]\n");
        assertRefused(MainTest.run("sweep", empty.toString(), "--db", dir.resolve("e.duckdb").toString()),
                "no cases");
        Files.writeString(empty, "graphs: [fig1]\nthreads: [100000]\n");
        assertRefused(MainTest.run("sweep", empty.toString(), "--dry-run"), "'threads' must be within 1..256");
    }

    @Test
    void thePlansFolderIsCheckedBeforeTheSweepStarts() throws IOException {
        Path file = Files.writeString(dir.resolve("plans-file"), "x");
        Path db2 = dir.resolve("second.duckdb");
        assertRefused(MainTest.run("sweep", spec.toString(), "--db", db2.toString(), "--plans", file.toString()),
                "--plans", "is a file, not a folder");
        assertFalse(Files.exists(db2), "no database created for a sweep that did not start");
    }

    @Test
    void mmapOutputsAreCheckedBeforeAnyWorkAndNeverAnInput() throws IOException {
        Path instance = dir.resolve("m.json");
        assertEquals(0, MainTest.run("mmap", "export", "gen:mmap:6", "--out", instance.toString()).code());
        byte[] before = Files.readAllBytes(instance);
        assertRefused(MainTest.run("mmap", "export", instance.toString(), "--out", instance.toString()),
                "input file");
        assertArrayEquals(before, Files.readAllBytes(instance));
        assertRefused(MainTest.run("mmap", "solve", instance.toString(), "--out",
                dir.resolve("no/such/folder/x.json").toString()), "--out", "does not exist");
        assertRefused(MainTest.run("mmap", "compare", instance.toString(), "--csv", instance.toString()), "--csv");
    }

    @Test
    void mmapValuesThatCrashedAreRefusedWhereTheyAreParsed() throws IOException {
        Path instance = dir.resolve("m.json");
        assertEquals(0, MainTest.run("mmap", "export", "gen:mmap:6", "--out", instance.toString()).code());
        assertRefused(MainTest.run("mmap", "solve", instance.toString(), "--planner", "mcts", "--simulations", "0"),
                "--simulations must be >= 1");
        assertRefused(MainTest.run("mmap", "solve", instance.toString(), "--planner", "mcts", "--simulations", "-1"),
                "--simulations must be >= 1");
        assertRefused(MainTest.run("mmap", "solve", instance.toString(), "--capacity", Long.toString(Long.MAX_VALUE)),
                "--capacity", "above 2^53");
        Path big = dir.resolve("big.json");
        Files.writeString(big, Files.readString(instance).replaceFirst("\"capacity\"\\s*:\\s*\\d+",
                "\"capacity\": " + Long.MAX_VALUE));
        assertRefused(MainTest.run("mmap", "solve", big.toString()), "big.json", "$.capacity", "above 2^53");
        Path demand = dir.resolve("demand.json");
        Files.writeString(demand, Files.readString(instance).replaceFirst("\"demand\"\\s*:\\s*\\d+",
                "\"demand\": " + ((1L << 53) + 1)));
        assertRefused(MainTest.run("mmap", "solve", demand.toString()), "demand.json", "demand", "above 2^53");
    }

    @Test
    void threadCountsHaveAnUpperBoundEverywhere() {
        assertRefused(MainTest.run("solve", "fig1", "--budget", "M_R", "--encoding", "joint", "--solver", "cpsat",
                "--threads", "100000"), "--threads must be within 1..256");
        assertRefused(MainTest.run("compare", "fig1", "--budget", "M_R", "--threads", "257"), "--threads");
        assertRefused(MainTest.run("allocate", "x.12.csv", "--threads", "100000"), "--threads");
        assertRefused(MainTest.run("mmap", "solve", "gen:mmap:6", "--threads", "100000"), "--threads");
        assertRefused(MainTest.run("bench", "allocators", "--threads", "0"), "--threads");
    }
}
