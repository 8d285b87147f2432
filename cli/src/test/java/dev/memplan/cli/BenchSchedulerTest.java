package dev.memplan.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code memplan bench scheduler}: the table and its CSV, and its options checked before any work. */
class BenchSchedulerTest {
    @TempDir
    Path dir;

    @Test
    void printsThePinnedOrdersPeakBoundAndHashAndWritesTheCsv() throws Exception {
        Path csv = dir.resolve("s.csv");
        MainTest.Result r = MainTest.run("bench", "scheduler", "--graphs", "gen:cells:400:3", "--widths", "1,16",
                "--repeats", "1", "--csv", csv.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().matches("(?s).*gen:cells:400:3 +386 +1 +163840 +114688 +HEURISTIC +8cd2e4d2 .*"), r.out());
        assertTrue(r.out().matches("(?s).*gen:cells:400:3 +386 +16 +147456 +114688 +HEURISTIC +aa3884b4 .*"), r.out());
        List<String> lines = Files.readAllLines(csv);
        assertEquals(3, lines.size(), lines.toString());
        assertEquals("graph,operators,width,peak,bound,status,order hash,median s", lines.get(0));
        assertTrue(lines.get(1).startsWith("gen:cells:400:3,386,1,163840,114688,HEURISTIC,8cd2e4d2,"), lines.get(1));
    }

    @Test
    void aWidthOrRepeatsBelowOneIsRefusedBeforeAnyWork() {
        Path csv = dir.resolve("none.csv");
        MainTest.Result width = MainTest.run("bench", "scheduler", "--widths", "0", "--csv", csv.toString());
        assertEquals(ExitCode.USER_ERROR.code(), width.code());
        assertTrue(width.err().contains("--widths must be beam widths >= 1, got 0"), width.err());
        MainTest.Result repeats = MainTest.run("bench", "scheduler", "--repeats", "0", "--csv", csv.toString());
        assertEquals(ExitCode.USER_ERROR.code(), repeats.code());
        assertTrue(repeats.err().contains("--repeats must be >= 1"), repeats.err());
        assertFalse(Files.exists(csv));
    }

    /** A bench command's --csv that is one of its graph files (or a link to one) is refused before any work. */
    @Test
    void aCsvThatIsAGraphFileIsRefusedAndTheGraphKept() throws Exception {
        Path graph = dir.resolve("fig1.json");
        String json = dev.memplan.model.io.GraphJson.toJson(dev.memplan.datasets.Examples.graph("fig1"));
        Files.writeString(graph, json);
        MainTest.Result same = MainTest.run("bench", "scheduler", "--graphs", graph.toString(), "--csv", graph.toString());
        assertEquals(ExitCode.USER_ERROR.code(), same.code(), same.out() + same.err());
        assertTrue(same.err().contains("--csv " + graph + " is the input file " + graph), same.err());
        Path link = Files.createSymbolicLink(dir.resolve("link.csv"), graph);
        MainTest.Result linked = MainTest.run("bench", "dnc", "--graphs", graph.toString(), "--csv", link.toString());
        assertEquals(ExitCode.USER_ERROR.code(), linked.code(), linked.out() + linked.err());
        assertTrue(linked.err().contains("is the input file " + graph), linked.err());
        assertEquals(json, Files.readString(graph));
    }
}
