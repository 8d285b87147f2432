package dev.memplan.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.datasets.Examples;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** memplan plot end to end: files written, exit codes, one-line errors. The figures' content is tested in sweeps. */
class PlotCommandTest {
    private static final String HEADER = "case_key,spec_hash,graph,setting,budget,budget_bytes,planner,solver,time_limit,"
            + "threads,repeat,status,traffic_compulsory,traffic_non_compulsory,loads,spills,bound,gap,seconds,vars,cons,"
            + "peak_footprint,peak_address,m_r,m_p,plan_path,machine,memplan_version,finished_at,error";
    private static final List<String> ROWS = List.of(
            "k1,s,fig1,activations,M_R,32,cosma,cpsat,10.0,1,0,OPTIMAL,16,24,16,8,24,0.0,0.12,90,80,32,32,32,64,,\"h, 2 cores\",0.1.0,2026-11-23 16:00:00,",
            "k2,s,fig1,activations,M_R,32,default/belady/tflite,,10.0,1,0,HEURISTIC,16,40,24,16,,,0.01,,,32,32,32,64,,\"h, 2 cores\",0.1.0,2026-11-23 16:00:01,",
            "k3,s,fig1,activations,M_P,64,cosma,cpsat,10.0,1,0,OPTIMAL,16,0,0,0,0,0.0,0.05,90,80,64,64,32,64,,\"h, 2 cores\",0.1.0,2026-11-23 16:00:02,",
            "k4,s,fig1,activations,M_P,64,default/belady/tflite,,10.0,1,0,HEURISTIC,16,8,8,0,,,0.01,,,64,64,32,64,,\"h, 2 cores\",0.1.0,2026-11-23 16:00:03,");

    @TempDir
    Path dir;

    private Path csv() throws IOException {
        Path csv = dir.resolve("results.csv");
        Files.writeString(csv, HEADER + "\n" + String.join("\n", ROWS) + "\n");
        return csv;
    }

    private Path plan() throws IOException {
        Path plan = dir.resolve("fig1-48.plan.json");
        try (InputStream in = Examples.class.getResourceAsStream("/dev/memplan/datasets/examples/fig1-48.plan.json")) {
            Files.write(plan, in.readAllBytes());
        }
        return plan;
    }

    private static long count(String text, String needle) {
        return text.split(java.util.regex.Pattern.quote(needle), -1).length - 1;
    }

    @Test
    void trafficFromCsvAndFromDuckDbAsSvgAndPng() throws Exception {
        MainTest.Result r = MainTest.run("plot", "traffic", csv().toString());
        assertEquals(0, r.code(), r.err());
        Path svg = dir.resolve("results-traffic.svg");
        assertTrue(r.out().contains("wrote " + svg + " (1 panels x 2 budgets x 2 planners)"), r.out());
        // Three bars: cosma at M_P has zero traffic (a "0" mark, no bar).
        assertEquals(3, count(Files.readString(svg), "<rect id='bar-"));

        Path db = dir.resolve("results.duckdb");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + db.toAbsolutePath());
             Statement s = c.createStatement()) {
            s.execute("CREATE TABLE results AS SELECT * FROM read_csv('" + csv() + "', header = true)");
        }
        Path png = dir.resolve("fig.png");
        MainTest.Result p = MainTest.run("plot", "traffic", db.toString(), "--log", "--out", png.toString(),
                "--planners", "cosma");
        assertEquals(0, p.code(), p.err());
        assertTrue(p.out().contains("(1 panels x 2 budgets x 1 planners)"), p.out());
        assertTrue(ImageIO.read(png.toFile()).getWidth() > 0);
    }

    /** plot front: from a CSV export with the recompute columns, and from one of before them; its errors. */
    @Test
    void frontFromResultsWithRecomputeWeights() throws Exception {
        Path csv = dir.resolve("front.csv");
        String rc = ",memplan_commit,solver_versions,seed,recomputes,recompute_cost,recompute_weight,objective";
        String tail = ",\"h, 2 cores\",0.1.0,2026-11-27 00:00:00,";
        Files.writeString(csv, HEADER + ",work_limit,work_used,reproducible" + rc + "\n" + String.join("\n",
                "r1,s,fig1:train,activations,M_R,32,default/belady/tflite,,60.0,1,0,HEURISTIC,16,40,24,16,,,0.01,,,32,32,32,64,"
                        + tail + ",,,true,abc,,0,0,0,,40.0",
                "r2,s,fig1:train,activations,M_R,32,default/dtr/belady/tflite,,60.0,1,0,HEURISTIC,16,8,8,0,,,0.01,,,32,32,32,64,"
                        + tail + ",,,true,abc,,0,2,30,0.5,23.0",
                "r3,s,fig1:train,activations,M_R,32,default/dtr/belady/tflite,,60.0,1,0,HEURISTIC,16,40,24,16,,,0.01,,,32,32,32,"
                        + "64," + tail + ",,,true,abc,,0,0,0,8.0,40.0",
                "r4,s,fig1:train,activations,M_R,32,cosma,cpsat,,1,0,OPTIMAL,16,24,16,8,24,0.0,0.2,90,80,32,32,32,64,"
                        + tail + ",60.0,1.5,true,abc,OR-Tools,0,0,0,0.5,24.0") + "\n");
        MainTest.Result r = MainTest.run("plot", "front", csv.toString());
        assertEquals(0, r.code(), r.err());
        Path svg = dir.resolve("front-front.svg");
        assertTrue(r.out().contains("wrote " + svg + " (1 panel, 3 planners, 4 plans)"), r.out());
        String text = Files.readString(svg);
        assertEquals(4, count(text, "id='point-0-"));
        assertEquals(1, count(text, "id='front-0'"));
        assertTrue(text.contains(">λ 0.5<"), "the front's points are labelled with their weights");

        Path png = dir.resolve("f.png");
        MainTest.Result p = MainTest.run("plot", "front", csv.toString(), "--budgets", "M_R", "--planners",
                "cosma,default/dtr/belady/tflite", "--out", png.toString());
        assertEquals(0, p.code(), p.err());
        assertTrue(p.out().contains("(1 panel, 2 planners, 3 plans)"), p.out());
        assertTrue(ImageIO.read(png.toFile()).getWidth() >= 720);

        // Results from before recomputation: every plan at cost 0.
        MainTest.Result old = MainTest.run("plot", "front", csv().toString(), "--out", dir.resolve("old.svg").toString());
        assertEquals(0, old.code(), old.err());
        assertTrue(old.out().contains("(2 panels, 2 planners, 4 plans)"), old.out());

        MainTest.Result budget = MainTest.run("plot", "front", csv.toString(), "--budgets", "M_H");
        assertEquals(Main.USER_ERROR, budget.code());
        assertEquals("memplan: error: " + csv + ": no results for budget 'M_H'; the results hold: M_R\n", budget.err());
    }

    @Test
    void tableAsMarkdownAndLatex() throws IOException {
        MainTest.Result md = MainTest.run("plot", "table", csv().toString());
        assertEquals(0, md.code(), md.err());
        assertTrue(md.out().startsWith("| network | setting | default/belady/tflite M_R | default/belady/tflite M_P | cosma M_R |"), md.out());
        assertTrue(md.out().contains("| fig1 | activations | 0.01 H | 0.01 H | 0.12 | 0.05 |"), md.out());
        Path tex = dir.resolve("t.tex");
        MainTest.Result latex = MainTest.run("plot", "table", csv().toString(), "--format", "latex", "--out", tex.toString());
        assertEquals(0, latex.code(), latex.err());
        assertTrue(Files.readString(tex).contains("\\multicolumn{2}{c}{cosma}"));
    }

    @Test
    void resultsMistakesAreOneLineErrorsWithExitCode2() throws IOException {
        Path bad = dir.resolve("bad.csv");
        Files.writeString(bad, HEADER.replace("status,", "state,") + "\n" + ROWS.get(0) + "\n");
        MainTest.Result missing = MainTest.run("plot", "traffic", bad.toString(), "--out", dir.resolve("x.svg").toString());
        assertEquals(Main.USER_ERROR, missing.code());
        assertEquals("memplan: error: " + bad + ": line 1: missing column status (a results CSV has the columns of "
                + "RESULTS-SCHEMA.md)\n", missing.err());
        assertFalse(Files.exists(dir.resolve("x.svg")), "nothing written");

        Path empty = dir.resolve("empty.duckdb");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + empty.toAbsolutePath());
             Statement s = c.createStatement()) {
            s.execute("CREATE TABLE results AS SELECT * FROM read_csv('" + csv() + "', header = true) LIMIT 0");
        } catch (java.sql.SQLException e) {
            throw new AssertionError(e);
        }
        MainTest.Result none = MainTest.run("plot", "table", empty.toString());
        assertEquals(Main.USER_ERROR, none.code());
        assertTrue(none.err().contains(empty + ": table results: no results"), none.err());

        MainTest.Result graph = MainTest.run("plot", "traffic", csv().toString(), "--graphs", "resnet50");
        assertEquals(Main.USER_ERROR, graph.code());
        assertTrue(graph.err().contains("no results for graph 'resnet50'; the results hold: fig1"), graph.err());

        MainTest.Result format = MainTest.run("plot", "traffic", csv().toString(), "--out", "fig.pdf");
        assertEquals(Main.USER_ERROR, format.code());
        assertTrue(format.err().contains("fig.pdf: unknown image format"), format.err());

        MainTest.Result noFile = MainTest.run("plot", "table", dir.resolve("nope.duckdb").toString());
        assertEquals(Main.USER_ERROR, noFile.code());
        assertEquals(1, noFile.err().lines().count(), noFile.err());
    }

    @Test
    void layoutOfAPlanOfAnAllocationAndAnInvalidPlan() throws IOException {
        Path out = dir.resolve("layout.svg");
        MainTest.Result r = MainTest.run("plot", "layout", "fig1", plan().toString(), "--out", out.toString());
        assertEquals(0, r.code(), r.err());
        assertEquals(11, count(Files.readString(out), "<rect id='seg-"));

        Path buffers = dir.resolve("input.12.csv");
        Files.writeString(buffers, "id,lower,upper,size\nb1,0,3,4\nb2,3,9,4\nb3,0,9,4\nb4,9,21,4\nb5,0,21,4\n");
        Path placed = dir.resolve("placed.csv");
        assertEquals(0, MainTest.run("allocate", buffers.toString(), "--out", placed.toString()).code());
        MainTest.Result a = MainTest.run("plot", "layout", placed.toString(), "--capacity", "12");
        assertEquals(0, a.code(), a.err());
        String svg = Files.readString(dir.resolve("placed-layout.svg"));
        assertEquals(5, count(svg, "<rect id='buf-"));
        assertTrue(svg.contains("id='budget'"));

        String broken = Files.readString(plan()).replace("{\"start\": 1, \"end\": 3, \"offset\": 32", "{\"start\": 1, \"end\": 3, \"offset\": 8");
        Path bad = dir.resolve("bad.plan.json");
        Files.writeString(bad, broken);
        MainTest.Result invalid = MainTest.run("plot", "layout", "fig1", bad.toString());
        assertEquals(Main.INVALID, invalid.code(), invalid.err());
        assertTrue(invalid.out().startsWith("INVALID: the plan is invalid"), invalid.out());
        assertTrue(invalid.out().contains("address-overlap"), invalid.out());
        assertFalse(Files.exists(dir.resolve("bad.plan-layout.svg")), "an invalid plan is not drawn");

        MainTest.Result unknown = MainTest.run("plot", "layout", "nosuchnet", plan().toString());
        assertEquals(Main.USER_ERROR, unknown.code());
        assertTrue(unknown.err().startsWith("memplan: error: 'nosuchnet' is neither a graph file"), unknown.err());
        assertEquals(1, unknown.err().lines().count());
    }
}
