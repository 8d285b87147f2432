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
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A small sweep through Spark in local mode gets the same rows as the local pool, and resumes the same way. */
class SparkEngineTest {
    @TempDir
    Path dir;

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
    void sparkLocalModeGivesTheLocalPoolsRows() {
        SweepSpec spec = SweepSpec.parse("""
                graphs: [fig1, diamond, "gen:layered:8:2"]
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
            assertTrue(PlanChecker.check(GraphSources.graph(r.graph()).withSetting(TensorSetting.fromFileName(r.setting())),
                    PlanJson.read(Path.of(r.planPath()))).valid(), r.planPath());
        }
        // Resumable the same way: nothing left to run.
        assertEquals(new SweepRun.Summary(60, 60, 0, 0), run(spec, "spark", spark, new SweepEngine.Options(2, "local[2]")));
    }
}
