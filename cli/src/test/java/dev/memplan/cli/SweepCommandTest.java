package dev.memplan.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.sweeps.ResultRow;
import dev.memplan.sweeps.ResultsDb;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code memplan sweep} end to end, including a real kill -9 of a running sweep. */
class SweepCommandTest {
    @TempDir
    Path dir;

    /** 4 graphs x 2 settings x 3 budgets x (4 schemes + COSMA) = 120 small, deterministic cases. */
    private static final String SPEC = """
            graphs: ["gen:layered:9:1", "gen:layered:9:2", "gen:layered:9:3", "gen:layered:9:4"]
            settings: [activations, all]
            budgets: [M_R, 0.5, M_P]
            planners: [paper, cosma]
            time_limits: [30]
            """;

    private static List<ResultRow> rows(Path db) {
        try (ResultsDb results = ResultsDb.open(db)) {
            return results.rows();
        }
    }

    /** What a deterministic planner must reproduce: status and traffic per case key. */
    private static Map<String, String> outcomes(List<ResultRow> rows) {
        return rows.stream().collect(Collectors.toMap(ResultRow::caseKey,
                r -> r.status() + " " + r.trafficNonCompulsory() + " " + r.loads() + " " + r.spills()));
    }

    /**
     * Under a work limit a sweep's rows do not depend on how many cases run at once (issue 21): --jobs 2 gives the
     * same status, traffic, bound, work used and plans as --jobs 1, and every row says it is reproducible.
     */
    @Test
    void twoJobsGiveTheSameRowsAsOne() throws IOException {
        Path spec = dir.resolve("jobs.yaml");
        Files.writeString(spec, """
                graphs: ["gen:layered:200:1", "gen:cells:150:2"]
                budgets: [M_R, M_H]
                planners: [paper, cosma]
                work_limits: [0.5]
                """);
        Map<String, String> byJobs = new java.util.TreeMap<>();
        for (String jobs : List.of("1", "2")) {
            Path db = dir.resolve("jobs" + jobs + ".duckdb");
            MainTest.Result r = MainTest.run("sweep", spec.toString(), "--db", db.toString(), "--jobs", jobs);
            assertEquals(0, r.code(), r.err());
            List<ResultRow> rows = rows(db);
            assertEquals(20, rows.size());
            // gen:cells:150:2 uses its whole work limit (FEASIBLE): the limit, not the solver, ends those cases.
            assertTrue(rows.stream().anyMatch(row -> row.status().equals("FEASIBLE")), rows.toString());
            StringBuilder text = new StringBuilder();
            for (ResultRow row : rows) {
                assertEquals(Boolean.TRUE, row.reproducible(), row.toString());
                text.append(row.caseKey()).append(' ').append(row.status()).append(' ')
                        .append(row.trafficNonCompulsory()).append(' ').append(row.bound()).append(' ')
                        .append(row.workLimit()).append(' ').append(row.workUsed()).append(' ')
                        .append(Files.readString(Path.of(row.planPath())).replaceAll("\"seconds\"\\s*:\\s*[0-9.eE+-]+", ""))
                        .append('\n');
            }
            byJobs.put(jobs, text.toString());
        }
        assertEquals(byJobs.get("1"), byJobs.get("2"));
    }

    @Test
    void killedMidRunLosesOnlyCasesInFlightAndResumes() throws IOException, InterruptedException {
        Path spec = dir.resolve("kill.yaml");
        Files.writeString(spec, SPEC);
        Path db = dir.resolve("killed.duckdb");
        List<String> command = ChildJvm.memplan(List.of(), "sweep", spec.toString(), "--db", db.toString(), "--jobs",
                "2");
        // Twice: kill -9 a running sweep after a few more cases, with others in flight (no shutdown hook runs,
        // the database is never closed), then start it again.
        int seen = 0;
        for (int round = 1; round <= 2; round++) {
            seen = killAfter(command, seen + 5);
            List<ResultRow> afterKill = rows(db);
            assertTrue(afterKill.size() >= seen && afterKill.size() < 120, afterKill.size() + " rows after kill " + round
                    + ", " + seen + " reported");
            assertEquals(afterKill.size(), afterKill.stream().map(ResultRow::caseKey).distinct().count());
            seen = afterKill.size();
        }
        List<ResultRow> afterKill = rows(db);
        MainTest.Result resumed = MainTest.run("sweep", spec.toString(), "--db", db.toString(), "--jobs", "2");
        assertEquals(0, resumed.code(), resumed.err());
        assertTrue(resumed.err().contains(afterKill.size() + " already in the database, " + (120 - afterKill.size())
                + " to run"), resumed.err());
        List<ResultRow> all = rows(db);
        assertEquals(120, all.size());
        assertEquals(120, all.stream().map(ResultRow::caseKey).distinct().count());

        Path clean = dir.resolve("clean.duckdb");
        MainTest.Result uninterrupted = MainTest.run("sweep", spec.toString(), "--db", clean.toString(), "--jobs", "2");
        assertEquals(0, uninterrupted.code(), uninterrupted.err());
        assertEquals(outcomes(rows(clean)), outcomes(all));
        assertTrue(all.stream().allMatch(r -> r.error() == null), all.toString());
    }

    /** Starts the command, waits until its progress reports {@code count} cases done, kills it with -9. */
    private static int killAfter(List<String> command, int count) throws IOException, InterruptedException {
        Process child = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        Pattern done = Pattern.compile("^\\[(\\d+)/120\\]");
        int seen = 0;
        List<String> lines = new ArrayList<>();
        try (BufferedReader err = new BufferedReader(new InputStreamReader(child.getErrorStream(), StandardCharsets.UTF_8))) {
            for (String line; seen < count && (line = err.readLine()) != null; ) {
                lines.add(line);
                Matcher m = done.matcher(line);
                if (m.find()) {
                    seen = Integer.parseInt(m.group(1));
                }
            }
            child.toHandle().destroyForcibly();
            assertTrue(child.waitFor(30, TimeUnit.SECONDS));
        }
        assertTrue(seen >= count, "the child stopped early: " + lines);
        return seen;
    }

    @Test
    void dryRunListsCasesExportWritesCsvAndBadSpecsExitTwo() throws IOException {
        Path spec = dir.resolve("s.yaml");
        Files.writeString(spec, "graphs: [fig1, chain]\nbudgets: [M_R, M_P]\nplanners: [cosma]\n");
        MainTest.Result dry = MainTest.run("sweep", spec.toString(), "--dry-run", "--db", dir.resolve("d.duckdb").toString());
        assertEquals(0, dry.code(), dry.err());
        assertTrue(dry.out().contains("to run  fig1 activations M_P cosma cpsat work=60 limit=none threads=1"), dry.out());
        assertTrue(dry.out().contains("4 cases, 0 in"), dry.out());
        assertTrue(!Files.exists(dir.resolve("d.duckdb")), "a dry run creates no database");

        Path db = dir.resolve("d.duckdb");
        assertEquals(0, MainTest.run("sweep", spec.toString(), "--db", db.toString()).code());
        MainTest.Result again = MainTest.run("sweep", spec.toString(), "--dry-run", "--db", db.toString());
        assertTrue(again.out().contains("4 cases, 4 in"), again.out());
        Path csv = dir.resolve("d.csv");
        MainTest.Result export = MainTest.run("sweep", "export", db.toString(), "--csv", csv.toString());
        assertEquals(0, export.code(), export.err());
        assertEquals(5, Files.readAllLines(csv).size());
        assertTrue(Files.readAllLines(csv).get(0).startsWith("case_key,spec_hash,graph,setting,budget,budget_bytes"));
        assertTrue(Files.isDirectory(dir.resolve("d-plans")));

        Files.writeString(spec, "graphs: [fig1]\nplanners: [cosma, default/fifo/tflite]\n");
        MainTest.Result bad = MainTest.run("sweep", spec.toString());
        assertEquals(ExitCode.USER_ERROR.code(), bad.code());
        assertTrue(bad.err().startsWith("memplan: error: " + spec + ":2:19: unknown scheme"), bad.err());
        MainTest.Result noDb = MainTest.run("sweep", "export", dir.resolve("none.duckdb").toString(), "--csv", "x.csv");
        assertEquals(ExitCode.USER_ERROR.code(), noDb.code());
        MainTest.Result noSpark = MainTest.run("sweep", "--builtin", "three-networks", "--engine", "spark",
                "--db", dir.resolve("s.duckdb").toString());
        assertEquals(ExitCode.USER_ERROR.code(), noSpark.code());
        assertTrue(noSpark.err().contains("no sweep engine 'spark' on the classpath"), noSpark.err());
        MainTest.Result builtin = MainTest.run("sweep", "--builtin", "bench-compare", "--print-spec");
        assertTrue(builtin.out().contains("planners: [paper, cosma]"), builtin.out());
    }
}
