package dev.memplan.sweeps.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.model.PlanChecker;
import dev.memplan.model.TensorSetting;
import dev.memplan.model.io.PlanJson;
import dev.memplan.sweeps.GraphSources;
import dev.memplan.sweeps.LocalEngine;
import dev.memplan.sweeps.ResultRow;
import dev.memplan.sweeps.ResultsDb;
import dev.memplan.sweeps.SweepEngine;
import dev.memplan.sweeps.SweepRun;
import dev.memplan.sweeps.SweepSpec;
import dev.memplan.sweeps.CaseRunner;
import dev.memplan.sweeps.SweepCase;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A small sweep through Spark in local mode gets the same rows as the local pool, and resumes the same way. */
class SparkEngineTest {
    @TempDir
    Path dir;

    /** A memplan-graph/1 file: three operators in a line, with a parameter. */
    private static final String CHAIN = """
            {"format": "memplan-graph/1", "name": "chain3",
             "tensors": [{"name": "x", "size": 8, "kind": "activation"}, {"name": "w", "size": 4, "kind": "parameter"},
                         {"name": "a", "size": 16, "kind": "activation"}, {"name": "b", "size": 8, "kind": "activation"},
                         {"name": "y", "size": 4, "kind": "activation"}],
             "operators": [{"name": "o1", "inputs": ["x", "w"], "outputs": ["a"]},
                           {"name": "o2", "inputs": ["a"], "outputs": ["b"]},
                           {"name": "o3", "inputs": ["b", "a"], "outputs": ["y"]}],
             "outputs": ["y"]}
            """;

    @Test
    void filesTravelWithTheJobToWorkersWithoutThePath() throws IOException {
        Path file = dir.resolve("sub/chain.json");
        Files.createDirectories(file.getParent());
        Files.writeString(file, CHAIN);
        SweepSpec spec = SweepSpec.parse("graphs: [sub/chain.json]\nsettings: [all]\nbudgets: [M_R]\n"
                + "planners: [cosma]\n", "f.yaml", dir);
        SweepCase c = spec.cases().get(0);
        ResultRow here = CaseRunner.shared().run(c, "h").row();
        ShippedFiles shipped = ShippedFiles.of(spec.cases());
        assertEquals(c, shipped.local(c));
        Files.delete(file);
        // A worker without the folder: the case reads the shipped copy, which has the file's name, and gives the
        // same row.
        SweepCase there = shipped.local(c);
        assertTrue(there.source().endsWith("chain.json") && !there.source().equals(c.source()), there.source());
        assertEquals(CHAIN, Files.readString(Path.of(there.source())));
        assertEquals(c.key(), there.key());
        ResultRow row = CaseRunner.shared().run(there, "h").row();
        assertEquals("OPTIMAL", row.status(), row.toString());
        assertEquals(comparable(here), comparable(row));
    }

    private SweepRun.Summary run(SweepSpec spec, String name, SweepEngine engine, SweepEngine.Options options) {
        try (ResultsDb db = ResultsDb.open(dir.resolve(name + ".duckdb"))) {
            return SweepRun.run(spec, db, dir.resolve(name + "-plans"), engine, options,
                    new PrintWriter(new StringWriter()), null);
        }
    }

    private List<ResultRow> rows(String name) {
        try (ResultsDb db = ResultsDb.open(dir.resolve(name + ".duckdb"))) {
            return db.rows();
        }
    }

    /** A row without the columns that depend on the machine, the clock or the folder. */
    private static String comparable(ResultRow r) {
        return r.withPlanPath(r.planPath() == null ? null : Path.of(r.planPath()).getFileName().toString()).toString()
                .replaceAll("seconds=[^,]*,", "").replaceAll("machine=[^,]*,[^,]*,[^,]*,", "")
                .replaceAll("finishedAt=[^,]*,", "");
    }

    @Test
    void aTaskSparkGivesUpOnIsAnErrorRowWithItsReasonAndTheSweepGoesOn() {
        // Every task's result is over the driver's limit: Spark fails each case's job, as when an executor dies.
        SweepSpec spec = SweepSpec.parse("graphs: [fig1]\nbudgets: [M_R, M_P]\nplanners: [paper]\n", "t.yaml", dir);
        System.setProperty("spark.driver.maxResultSize", "1b");
        try {
            assertEquals(new SweepRun.Summary(8, 0, 8, 8),
                    run(spec, "failed", new SparkEngine(), new SweepEngine.Options(2, "local[2]")));
        } finally {
            System.clearProperty("spark.driver.maxResultSize");
        }
        for (ResultRow r : rows("failed")) {
            assertEquals("ERROR", r.status(), r.toString());
            assertTrue(r.error().startsWith("the Spark task failed: Job aborted due to stage failure: Total size of "
                    + "serialized results"), r.error());
        }
    }

    @Test
    void sparkLocalModeGivesTheLocalPoolsRows() throws IOException {
        Files.writeString(dir.resolve("chain.json"), CHAIN);
        SweepSpec spec = SweepSpec.parse("""
                graphs: [fig1, chain.json, "gen:layered:8:2"]
                settings: [activations, all]
                budgets: [M_R, M_P]
                planners: [paper, cosma]
                time_limits: [30]
                """, "spark.yaml", dir);
        SweepEngine spark = SweepEngine.byName("spark");
        assertTrue(spark instanceof SparkEngine);
        assertEquals(new SweepRun.Summary(60, 0, 60, 0), run(spec, "spark", spark, new SweepEngine.Options(2, "local[2]")));
        assertEquals(new SweepRun.Summary(60, 0, 60, 0), run(spec, "local", new LocalEngine(), new SweepEngine.Options(2, null)));
        List<ResultRow> fromSpark = rows("spark");
        assertEquals(rows("local").stream().map(SparkEngineTest::comparable).toList(),
                fromSpark.stream().map(SparkEngineTest::comparable).toList());
        for (ResultRow r : fromSpark) {
            String graph = r.graph().endsWith(".json") ? dir.resolve(r.graph()).toString() : r.graph();
            assertTrue(PlanChecker.check(GraphSources.graph(graph).withSetting(TensorSetting.fromFileName(r.setting())),
                    PlanJson.read(Path.of(r.planPath()))).valid(), r.planPath());
        }
        // Resumable the same way: nothing left to run.
        assertEquals(new SweepRun.Summary(60, 60, 0, 0), run(spec, "spark", spark, new SweepEngine.Options(2, "local[2]")));
    }
}
