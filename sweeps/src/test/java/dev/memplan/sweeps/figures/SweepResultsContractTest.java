package dev.memplan.sweeps.figures;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.memplan.sweeps.ResultRow;
import dev.memplan.sweeps.ResultsDb;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The figures read what the sweep engine writes: its database and its CSV export (RESULTS-SCHEMA.md). */
class SweepResultsContractTest {
    @TempDir
    Path dir;

    private static ResultRow row(String key, String planner, String solver, String status, Long traffic, Long bound,
            Double gap, String error) {
        return new ResultRow(key, "spec", "resnet50", "activations", "M_H", 2048L, planner, solver, 30.0, 1, 0, status,
                64L, traffic, traffic, 0L, bound, gap, 1.25, null, null, 900L, 1000L, 1000L, 3000L,
                "plans/" + key + ".json", "vm, 2 cores, Java 17", "0.1.0", Instant.parse("2026-11-23T16:32:34.072171Z"),
                error, 60.0, 12.5, true, "0123abcd", "OR-Tools 9.15.6755", 0L, 0L, 0L, null,
                traffic == null ? null : (double) traffic);
    }

    @Test
    void theEnginesDatabaseAndItsCsvExportReadAlike() {
        Path db = dir.resolve("results.duckdb");
        try (ResultsDb results = ResultsDb.open(db)) {
            results.insert(row("k1", "cosma", "cpsat", "FEASIBLE", 300L, 150L, 0.5, null));
            results.insert(row("k2", "default/belady/tflite", "", "HEURISTIC", 900L, null, null, null));
            results.insert(row("k3", "cosma", "scip", "ERROR", null, null, null, "crashed, \"twice\"\nbadly"));
            results.export(dir.resolve("results.csv"), false);
        }
        List<FinishedCase> fromDb = ResultsFile.read(db);
        List<FinishedCase> fromCsv = ResultsFile.read(dir.resolve("results.csv"));
        assertEquals(3, fromDb.size());
        assertEquals(new java.util.HashSet<>(fromDb), new java.util.HashSet<>(fromCsv));
        FinishedCase feasible = fromCsv.stream().filter(c -> c.solver().equals("cpsat")).findFirst().orElseThrow();
        assertEquals(new FinishedCase("resnet50", "activations", "M_H", 2048L, "cosma", "cpsat", 30.0, 0,
                FinishedCase.Status.FEASIBLE, 300L, 150L, 0.5, 1.25, null), feasible);
        FinishedCase error = fromCsv.stream().filter(c -> c.status() == FinishedCase.Status.ERROR).findFirst().orElseThrow();
        assertEquals("crashed, \"twice\"\nbadly", error.error());
        ResultCells cells = new ResultCells(fromCsv, null, null, null);
        assertEquals(List.of("default/belady/tflite", "cosma cpsat", "cosma scip"), cells.series());
    }

    /**
     * A database written before the reproducibility columns existed: read-only (export, figures) it reads with
     * those columns empty; opened to write (a resumed sweep) it gets them, and old and new rows live side by side.
     */
    @Test
    void aDatabaseFromBeforeTheReproducibilityColumnsIsReadAndMigrated() throws Exception {
        Path db = dir.resolve("old.duckdb");
        Results.duckDb(db, List.of(new Results.Row("resnet50", "M_R", "cosma", "FEASIBLE", 500L, 0.2, 3.0)));
        try (ResultsDb old = ResultsDb.openReadOnly(db)) {
            ResultRow r = old.rows().get(0);
            assertEquals(500L, r.trafficNonCompulsory());
            assertEquals(null, r.workLimit());
            assertEquals(null, r.reproducible());
            Path csv = dir.resolve("old.csv");
            old.export(csv, false);
            String header = java.nio.file.Files.readAllLines(csv).get(0);
            assertEquals(String.join(",", ResultsDb.COLUMNS), header);
        }
        try (ResultsDb resumed = ResultsDb.open(db)) {
            resumed.insert(row("k9", "cosma", "cpsat", "OPTIMAL", 400L, 400L, 0.0, null));
            List<ResultRow> rows = resumed.rows();
            assertEquals(2, rows.size());
            ResultRow added = rows.stream().filter(r -> r.caseKey().equals("k9")).findFirst().orElseThrow();
            assertEquals(60.0, added.workLimit());
            assertEquals(12.5, added.workUsed());
            assertEquals(Boolean.TRUE, added.reproducible());
            assertEquals("0123abcd", added.memplanCommit());
            assertEquals(0L, added.seed());
        }
    }
}
