package dev.memplan.sweeps.figures;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.model.io.FormatException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultsFileTest {
    @TempDir
    Path dir;

    @Test
    void duckDbAndItsCsvExportGiveTheSameRows() throws Exception {
        List<Results.Row> rows = TrafficFigureTest.rows();
        Path db = dir.resolve("results.duckdb");
        Results.duckDb(db, rows);
        Path csv = dir.resolve("results.csv");
        Files.writeString(csv, Results.csv(rows));
        List<FinishedCase> fromDb = ResultsFile.read(db);
        List<FinishedCase> fromCsv = ResultsFile.read(csv);
        assertEquals(rows.size(), fromDb.size());
        assertEquals(new java.util.HashSet<>(fromCsv), new java.util.HashSet<>(fromDb));
        FinishedCase feasible = fromCsv.stream().filter(r -> r.status() == FinishedCase.Status.FEASIBLE).findFirst().orElseThrow();
        assertEquals(100L, feasible.trafficNonCompulsory());
        assertEquals(75L, feasible.bound());
        assertEquals(0.25, feasible.gap());
        assertEquals("cpsat", feasible.solver());
        FinishedCase unknown = fromCsv.stream().filter(r -> r.status() == FinishedCase.Status.UNKNOWN).findFirst().orElseThrow();
        assertNull(unknown.trafficNonCompulsory());
        assertNull(unknown.gap());
    }

    @Test
    void quotedFieldsWithCommasQuotesAndLineBreaksAreOneField() throws Exception {
        List<Results.Row> rows = List.of(new Results.Row("a", "M_R", "cosma", "ERROR", null, null, 1.5));
        Path csv = dir.resolve("r.csv");
        Files.writeString(csv, Results.csv(rows).replace("solver crashed", "solver\ncrashed"));
        FinishedCase r = ResultsFile.read(csv).get(0);
        assertEquals("solver\ncrashed, \"badly\"", r.error());
        assertEquals(FinishedCase.Status.ERROR, r.status());
        assertEquals(1.5, r.seconds());
    }

    @Test
    void aCsvWithoutTheColumnsNamesTheMissingOnes() throws Exception {
        Path csv = dir.resolve("r.csv");
        Files.writeString(csv, Results.csv(TrafficFigureTest.rows()).replace(",gap,", ",gap_x,").replace("status,", "state,"));
        FormatException e = assertThrows(FormatException.class, () -> ResultsFile.read(csv));
        assertEquals(csv.toString(), e.file());
        assertEquals("line 1", e.where());
        assertTrue(e.problem().startsWith("missing columns status, gap"), e.getMessage());
    }

    @Test
    void badFieldsAreLocatedByLineAndColumn() throws Exception {
        Path csv = dir.resolve("r.csv");
        String text = Results.csv(TrafficFigureTest.rows());
        String[] lines = text.split("\n");
        lines[2] = lines[2].replace(",0.01,", ",fast,");
        Files.writeString(csv, String.join("\n", lines) + "\n");
        FormatException e = assertThrows(FormatException.class, () -> ResultsFile.read(csv));
        assertEquals("line 3, column seconds", e.where());
        assertEquals("not a number: 'fast'", e.problem());

        lines = text.split("\n");
        lines[4] = lines[4].replace("HEURISTIC", "GREAT");
        Files.writeString(csv, String.join("\n", lines) + "\n");
        e = assertThrows(FormatException.class, () -> ResultsFile.read(csv));
        assertEquals("line 5, column status", e.where());

        lines = text.split("\n");
        lines[2] = lines[2] + ",extra";
        Files.writeString(csv, String.join("\n", lines) + "\n");
        e = assertThrows(FormatException.class, () -> ResultsFile.read(csv));
        assertEquals("line 3", e.where());
    }

    @Test
    void emptyResultsAreAnError() throws Exception {
        Path db = dir.resolve("empty.duckdb");
        Results.duckDb(db, List.of());
        FormatException e = assertThrows(FormatException.class, () -> ResultsFile.read(db));
        assertEquals("table results", e.where());
        assertTrue(e.problem().startsWith("no results"), e.getMessage());

        Path csv = dir.resolve("empty.csv");
        Files.writeString(csv, Results.HEADER + "\n");
        assertTrue(assertThrows(FormatException.class, () -> ResultsFile.read(csv)).problem().startsWith("no results"));
        Files.writeString(csv, "");
        assertEquals("line 1", assertThrows(FormatException.class, () -> ResultsFile.read(csv)).where());
    }

    @Test
    void aDatabaseWithoutTheTableOrColumnsOrNotADatabaseIsAnError() throws Exception {
        Path db = dir.resolve("other.duckdb");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + db.toAbsolutePath())) {
            c.createStatement().execute("CREATE TABLE cases (graph VARCHAR)");
        }
        FormatException e = assertThrows(FormatException.class, () -> ResultsFile.read(db));
        assertTrue(e.problem().startsWith("no such table"), e.getMessage());

        Path partial = dir.resolve("partial.duckdb");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + partial.toAbsolutePath())) {
            c.createStatement().execute("CREATE TABLE results (graph VARCHAR, setting VARCHAR)");
        }
        e = assertThrows(FormatException.class, () -> ResultsFile.read(partial));
        assertTrue(e.problem().startsWith("missing columns budget, budget_bytes"), e.getMessage());

        Path text = dir.resolve("notes.txt");
        Files.writeString(text, "hello");
        e = assertThrows(FormatException.class, () -> ResultsFile.read(text));
        assertTrue(e.problem().startsWith("cannot read it as a DuckDB database"), e.getMessage());
    }
}
