package dev.memplan.sweeps.figures;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
                FinishedCase.Status.FEASIBLE, 300L, 150L, 0.5, 1.25, null, 0L, null), feasible);
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

    /**
     * A database written by the sweep before recomputation (the table of commit 38c42fe, with its reproducibility
     * columns, as ResultsDb created it then): opened to write, it gets the four recompute columns, keeps every row
     * and every value, and new rows carry the new columns beside the old; read-only it reads them as NULL and its
     * export has the whole header.
     */
    @Test
    void aDatabaseFromBeforeTheRecomputeColumnsKeepsItsRowsAndGetsThem() throws Exception {
        Path db = dir.resolve("before-recompute.duckdb");
        try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:duckdb:" + db.toAbsolutePath());
             java.sql.Statement s = c.createStatement()) {
            s.execute("""
                    CREATE TABLE IF NOT EXISTS results (
                      case_key VARCHAR PRIMARY KEY, spec_hash VARCHAR, graph VARCHAR, setting VARCHAR, budget VARCHAR,
                      budget_bytes BIGINT, planner VARCHAR, solver VARCHAR, time_limit DOUBLE, threads INTEGER,
                      "repeat" INTEGER, status VARCHAR, traffic_compulsory BIGINT, traffic_non_compulsory BIGINT,
                      loads BIGINT, spills BIGINT, bound BIGINT, gap DOUBLE, seconds DOUBLE, vars BIGINT, cons BIGINT,
                      peak_footprint BIGINT, peak_address BIGINT, m_r BIGINT, m_p BIGINT, plan_path VARCHAR,
                      machine VARCHAR, memplan_version VARCHAR, finished_at TIMESTAMP, error VARCHAR, work_limit DOUBLE,
                      work_used DOUBLE, reproducible BOOLEAN, memplan_commit VARCHAR, solver_versions VARCHAR, seed BIGINT)""");
            s.execute("INSERT INTO results VALUES ('old1', 'spec', 'resnet50', 'activations', 'M_H', 2048, 'cosma', "
                    + "'cpsat', NULL, 1, 0, 'OPTIMAL', 64, 300, 200, 100, 300, 0.0, 1.5, 10, 20, 900, 1000, 1000, 3000, "
                    + "'plans/old1.json', 'vm', '0.1.0', '2026-11-20 10:00:00', NULL, 60.0, 12.5, true, 'abc', 'OR-Tools', 0)");
            s.execute("INSERT INTO results VALUES ('old2', 'spec', 'resnet50', 'activations', 'M_H', 2048, "
                    + "'default/belady/tflite', '', 60.0, 1, 0, 'HEURISTIC', 64, 700, 400, 300, NULL, NULL, 0.1, NULL, "
                    + "NULL, 900, 1000, 1000, 3000, 'plans/old2.json', 'vm', '0.1.0', '2026-11-20 10:00:01', NULL, NULL, "
                    + "NULL, true, 'abc', NULL, 0)");
        }
        List<ResultRow> before;
        try (ResultsDb old = ResultsDb.openReadOnly(db)) {
            before = old.rows();
            assertEquals(2, before.size());
            for (ResultRow r : before) {
                assertEquals(null, r.recomputes());
                assertEquals(null, r.recomputeCost());
                assertEquals(null, r.recomputeWeight());
                assertEquals(null, r.objective());
            }
            Path csv = dir.resolve("before.csv");
            old.export(csv, false);
            assertEquals(String.join(",", ResultsDb.COLUMNS), java.nio.file.Files.readAllLines(csv).get(0));
        }
        try (ResultsDb resumed = ResultsDb.open(db)) {
            assertEquals(before, resumed.rows());
            ResultRow fresh = new ResultRow("new1", "spec", "resnet50", "activations", "M_H", 2048L, "cosma", "cpsat",
                    null, 1, 0, "OPTIMAL", 64L, 100L, 100L, 0L, 100L, 0.0, 2.0, null, null, 900L, 1000L, 1000L, 3000L,
                    "plans/new1.json", "vm", "0.1.0", Instant.parse("2026-11-27T00:00:00Z"), null, 60.0, 30.0, true,
                    "def", "OR-Tools", 0L, 3L, 4096L, 0.25, 100 + 0.25 * 4096);
            resumed.insert(fresh);
            List<ResultRow> after = resumed.rows();
            assertEquals(3, after.size());
            assertTrue(after.containsAll(before));
            assertTrue(after.contains(fresh), after.toString());
        }
        // The figures read both generations: the old rows at no recompute cost, the new with theirs.
        List<FinishedCase> read = ResultsFile.read(db);
        FinishedCase added = read.stream().filter(c -> c.recomputeWeight() != null).findFirst().orElseThrow();
        assertEquals(4096L, added.recomputeCost());
        assertEquals(0.25, added.recomputeWeight());
        assertEquals(2, read.stream().filter(c -> c.recomputeCost() == null).count());
    }
}
