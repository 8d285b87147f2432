package dev.memplan.sweeps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.model.BufferChecker;
import dev.memplan.model.CheckReport;
import dev.memplan.model.Graph;
import dev.memplan.model.Placement;
import dev.memplan.model.PlanChecker;
import dev.memplan.model.TensorSetting;
import dev.memplan.model.io.MiniMallocCsv;
import dev.memplan.model.io.PlanJson;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SweepRunTest {
    @TempDir
    Path dir;

    private static final String SPEC = """
            graphs: [fig1, diamond, "gen:layered:10:4"]
            settings: [activations, all]
            budgets: [M_R, 0.5, M_P]
            planners: [paper, cosma]
            time_limits: [20]
            """;

    private SweepRun.Summary run(SweepSpec spec, Path db, int jobs, StringWriter progress) {
        try (ResultsDb results = ResultsDb.open(db)) {
            return SweepRun.run(spec, results, dir.resolve("plans"), new LocalEngine(), new SweepEngine.Options(jobs, null),
                    new PrintWriter(progress, true), null);
        }
    }

    private static List<ResultRow> rows(Path db) {
        try (ResultsDb results = ResultsDb.open(db)) {
            return results.rows();
        }
    }

    @Test
    void theTimeLeftCountsOnlyTheWorkStillToDoAtThePaceOfThisRun() {
        // A resumed sweep whose engine took 30 s to start: its first case (1 s) finished at 31 s; 200 cases left.
        assertEquals(200.0, SweepRun.timeLeft(31, 31, 1.0, 1, 200, 1), 1e-9);
        // Two jobs: half the first case's time per case.
        assertEquals(100.0, SweepRun.timeLeft(31, 31, 1.0, 1, 200, 2), 1e-9);
        // Then the pace since the first case: 10 more cases in 20 s, 50 left.
        assertEquals(100.0, SweepRun.timeLeft(51, 31, 2.0, 11, 50, 1), 1e-9);
        assertEquals(0.0, SweepRun.timeLeft(51, 31, 2.0, 11, 0, 1), 1e-9);
    }

    /** The dry run lists each case as to run, then as done once a run finished it; plans go beside the database. */
    @Test
    void theDryRunSaysWhichCasesAreDone() throws IOException {
        SweepSpec spec = SweepSpec.parse("graphs: [fig1]\nbudgets: [M_R]\nplanners: [default/greedy/tflite]\n", "d.yaml",
                dir);
        Path db = dir.resolve("d.duckdb");
        String key = spec.cases().get(0).key();
        List<String> before = SweepRun.dryRun(spec, db);
        assertEquals(2, before.size());
        assertTrue(before.get(0).startsWith(key + "  to run  "), before.get(0));
        assertEquals("1 cases, 0 in " + db, before.get(1));
        run(spec, db, 1, new StringWriter());
        List<String> after = SweepRun.dryRun(spec, db);
        assertTrue(after.get(0).startsWith(key + "  done    "), after.get(0));
        assertEquals("1 cases, 1 in " + db, after.get(1));
        assertEquals(dir.resolve("d-plans"), SweepRun.defaultPlans(db));
    }

    @Test
    void everyCaseGetsOneCheckedRowAndARerunSkipsThem() throws IOException {
        SweepSpec spec = SweepSpec.parse(SPEC, "s.yaml", dir);
        Path db = dir.resolve("r.duckdb");
        StringWriter progress = new StringWriter();
        SweepRun.Summary first = run(spec, db, 2, progress);
        assertEquals(new SweepRun.Summary(90, 0, 90, 0), first);
        assertTrue(progress.toString().contains("[90/90]"), progress.toString());
        List<ResultRow> rows = rows(db);
        assertEquals(90, rows.size());
        assertEquals(spec.cases().stream().map(SweepCase::key).collect(Collectors.toSet()),
                rows.stream().map(ResultRow::caseKey).collect(Collectors.toSet()));
        for (ResultRow r : rows) {
            assertEquals(spec.hash(), r.specHash());
            assertNull(r.error(), r.toString());
            Graph g = GraphSources.graph(r.graph()).withSetting(TensorSetting.fromFileName(r.setting()));
            CheckReport report = PlanChecker.check(g, PlanJson.read(Path.of(r.planPath())));
            assertTrue(report.valid(), r.planPath() + ": " + report.violations());
            assertEquals(report.traffic().nonCompulsory(), r.trafficNonCompulsory());
            assertEquals(report.peakAddress(), r.peakAddress());
            assertTrue(r.budgetBytes() >= r.mR() && r.budgetBytes() <= Math.max(r.mR(), r.mP()), r.toString());
            assertEquals(r.planner().equals("cosma") ? "OPTIMAL" : "HEURISTIC", r.status(), r.toString());
        }
        // COSMA's proven optimum is never above a scheme's traffic, and never rises with the budget.
        Map<String, List<ResultRow>> byCase = rows.stream()
                .collect(Collectors.groupingBy(r -> r.graph() + " " + r.setting() + " " + r.budget()));
        for (List<ResultRow> group : byCase.values()) {
            long cosma = group.stream().filter(r -> r.planner().equals("cosma")).findFirst().orElseThrow()
                    .trafficNonCompulsory();
            assertTrue(group.stream().allMatch(r -> r.trafficNonCompulsory() >= cosma), group.toString());
        }
        for (String gs : List.of("fig1 activations", "fig1 all", "gen:layered:10:4 all")) {
            long mr = byCase.get(gs + " M_R").stream().filter(r -> r.planner().equals("cosma")).findFirst().orElseThrow()
                    .trafficNonCompulsory();
            long half = byCase.get(gs + " 0.5").stream().filter(r -> r.planner().equals("cosma")).findFirst()
                    .orElseThrow().trafficNonCompulsory();
            assertTrue(mr >= half, gs);
        }
        // fig1 at M_H with parameters: the proven optimum is 24 bytes (as `memplan compare` shows).
        SweepSpec fig1 = SweepSpec.parse("graphs: [fig1]\nsettings: [all]\nbudgets: [M_H]\nplanners: [cosma]\n", "f.yaml", dir);
        run(fig1, db, 1, new StringWriter());
        assertEquals(24L, rows(db).stream().filter(r -> r.budget().equals("M_H")).findFirst().orElseThrow()
                .trafficNonCompulsory());

        StringWriter again = new StringWriter();
        assertEquals(new SweepRun.Summary(90, 90, 0, 0), run(spec, db, 2, again));
        assertEquals(91, rows(db).size());
    }

    @Test
    void failuresBecomeErrorRowsAndAllocatorsRunOnBuffers() throws IOException {
        Files.writeString(dir.resolve("two.8.csv"), "id,lower,upper,size\na,0,2,4\nb,1,3,4\nc,3,5,8\n");
        SweepSpec spec = SweepSpec.parse("""
                graphs: [fig1]
                budgets: [1, M_R]
                planners: [default/belady/tflite]
                buffers: [two.8.csv]
                capacities: [file, 7]
                allocators: [minimalloc, greedy]
                """, "s.yaml", dir);
        Path db = dir.resolve("e.duckdb");
        SweepRun.Summary s = run(spec, db, 1, new StringWriter());
        assertEquals(6, s.total());
        assertEquals(1, s.errors());
        Map<String, ResultRow> rows = rows(db).stream()
                .collect(Collectors.toMap(r -> r.graph() + " " + r.budget() + " " + r.planner(), r -> r));
        ResultRow low = rows.get("fig1 1 default/belady/tflite");
        assertEquals("ERROR", low.status());
        assertTrue(low.error().contains("below M_R = 32"), low.error());
        assertNull(low.planPath());
        assertEquals("HEURISTIC", rows.get("fig1 M_R default/belady/tflite").status());
        ResultRow packed = rows.get("two.8.csv file minimalloc");
        assertEquals("FEASIBLE", packed.status());
        assertEquals(8L, packed.budgetBytes());
        Placement p = MiniMallocCsv.readPlacement(Path.of(packed.planPath()));
        assertTrue(BufferChecker.check(p, 8).isEmpty());
        assertEquals(p.height(), packed.peakAddress());
        // 7 bytes cannot hold the 8-byte buffer: MiniMalloc proves it, the greedy heuristic just fails.
        assertEquals("INFEASIBLE", rows.get("two.8.csv 7 minimalloc").status());
        assertNull(rows.get("two.8.csv 7 greedy").planPath());
        assertNotNull(rows.get("two.8.csv file greedy").planPath());
    }

    @Test
    void exportsCsvWithTheSchemaColumnsAndParquet() throws IOException, SQLException {
        SweepSpec spec = SweepSpec.parse("graphs: [chain, diamond]\nbudgets: [M_R]\nplanners: [cosma, default/greedy/tflite]\n",
                "s.yaml", dir);
        Path db = dir.resolve("x.duckdb");
        run(spec, db, 2, new StringWriter());
        Path csv = dir.resolve("out/x.csv");
        Path parquet = dir.resolve("out/x.parquet");
        try (ResultsDb results = ResultsDb.open(db)) {
            results.export(csv, false);
            results.export(parquet, true);
        }
        List<String> lines = Files.readAllLines(csv);
        assertEquals(String.join(",", ResultsDb.COLUMNS), lines.get(0));
        assertEquals(5, lines.size());
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
             ResultSet r = c.createStatement().executeQuery("SELECT count(*), count(DISTINCT case_key), "
                     + "sum(traffic_non_compulsory) FROM '" + parquet + "'")) {
            r.next();
            assertEquals(4, r.getInt(1));
            assertEquals(4, r.getInt(2));
        }
        try (Stream<Path> left = Files.list(dir.resolve("out"))) {
            assertEquals(List.of("x.csv", "x.parquet"), left.map(p -> p.getFileName().toString()).sorted().toList());
        }
    }

    /**
     * Recompute weights (issue 34): every row carries the checked plan's recomputes and recompute cost, the case's
     * weight and the objective traffic + weight x cost; the recompute schemes run under their case's weight (DTR
     * recomputes when recomputing is cheap and spills when it is dear); spill-only rows have no weight and their
     * objective is their traffic.
     */
    @Test
    void rowsCarryRecomputesTheirCostTheWeightAndTheObjective() throws IOException {
        SweepSpec spec = SweepSpec.parse("""
                graphs: ["gen:layered:12:3:train"]
                budgets: [M_R]
                planners: [default/belady/tflite, recompute, cosma]
                recompute_weights: [none, 0.0001, 100000]
                work_limits: [1]
                """, "s.yaml", dir);
        Path db = dir.resolve("rc.duckdb");
        StringWriter progress = new StringWriter();
        run(spec, db, 2, progress);
        List<ResultRow> rows = rows(db);
        assertEquals(1 + 4 * 2 + 3, rows.size());
        Graph g = GraphSources.graph("gen:layered:12:3:train").withSetting(TensorSetting.ACTIVATIONS);
        for (ResultRow r : rows) {
            assertNull(r.error(), r.toString());
            CheckReport report = PlanChecker.check(g, PlanJson.read(Path.of(r.planPath())));
            assertTrue(report.valid(), r.planPath() + ": " + report.violations());
            assertEquals(report.traffic().recomputes(), r.recomputes(), r.toString());
            assertEquals(report.traffic().recomputeCost(), r.recomputeCost(), r.toString());
            double w = r.recomputeWeight() == null ? 0 : r.recomputeWeight();
            assertEquals(report.traffic().nonCompulsory() + w * report.traffic().recomputeCost(), r.objective(), 1e-6,
                    r.toString());
            if (r.planner().split("/").length == 4) {
                assertTrue(r.recomputeWeight() != null, r.toString());
            }
            if (r.recomputeWeight() == null) {
                assertEquals(0L, r.recomputes(), r.toString());
                assertEquals((double) r.trafficNonCompulsory(), r.objective());
            }
        }
        Map<Double, ResultRow> dtr = rows.stream().filter(r -> r.planner().equals("default/dtr/belady/tflite"))
                .collect(Collectors.toMap(ResultRow::recomputeWeight, r -> r));
        assertTrue(dtr.get(0.0001).recomputes() > 0, dtr.toString());
        assertTrue(dtr.get(0.0001).trafficNonCompulsory() < dtr.get(100000.0).trafficNonCompulsory(), dtr.toString());
        assertTrue(progress.toString().contains("default/dtr/belady/tflite lambda=0.0001 HEURISTIC"),
                progress.toString());
        assertEquals(List.of(0.0001, 100000.0), rows.stream().filter(r -> r.planner().equals("cosma")
                && r.recomputeWeight() != null).map(ResultRow::recomputeWeight).sorted().toList());
        // A recompute scheme built without a weight (not from a spec, which refuses it) is an ERROR row saying so.
        ResultRow unweighted = CaseRunner.shared().run(new SweepCase("fig1:train", "fig1:train", "activations", "M_R",
                PlannerChoice.scheme("default/dtr/belady/tflite"), "", 60.0, null, 1, 0), "h").row();
        assertEquals("ERROR", unweighted.status());
        assertTrue(unweighted.error().contains("needs a recompute weight"), unweighted.error());
        // The export carries the new columns.
        Path csv = dir.resolve("rc.csv");
        try (ResultsDb results = ResultsDb.open(db)) {
            results.export(csv, false);
        }
        List<String> lines = Files.readAllLines(csv);
        assertTrue(lines.get(0).endsWith(",recomputes,recompute_cost,recompute_weight,objective"), lines.get(0));
        assertEquals(rows.size() + 1, lines.size());
    }
}
