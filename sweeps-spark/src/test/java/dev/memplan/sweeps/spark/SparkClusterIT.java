package dev.memplan.sweeps.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.sweeps.LocalEngine;
import dev.memplan.sweeps.ResultRow;
import dev.memplan.sweeps.ResultsDb;
import dev.memplan.sweeps.SweepEngine;
import dev.memplan.sweeps.SweepRun;
import dev.memplan.sweeps.SweepSpec;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code memplan sweep --engine spark --master spark://...} on a real standalone cluster: a Master and two Workers
 * of one core and 512 MiB each (child JVMs started from the build's Spark jars, {@link StandaloneCluster}), the
 * memplan command as a driver JVM of its own, as a user runs it. The cluster's rows are the local pool's with a
 * worker killed mid-sweep; each mistake ends in exit 2 with one line, in bounded time.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SparkClusterIT {
    @TempDir
    static Path dir;

    private static StandaloneCluster cluster;

    /**
     * Deterministic cases (schemes, and COSMA under work limits) on two graphs whose COSMA cases take one to two
     * seconds each, so that the worker killed mid-sweep is still running one when the first row comes. (Two
     * layered graphs of 40 operators were proven in a few milliseconds a case: on a quiet machine the killed
     * worker had finished all of its cases before the test could catch it busy.)
     */
    private static final String SPEC = """
            graphs: ["gen:cells:40:1", "gen:cells:80:2"]
            budgets: [M_R, 0.5]
            planners: [paper, cosma]
            work_limits: [1]
            """;

    @BeforeAll
    static void startCluster() throws IOException, InterruptedException {
        cluster = new StandaloneCluster(dir, 2, 1, "512m");
        Files.writeString(dir.resolve("sweep.yaml"), SPEC);
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    /** What a run of the memplan command gave: exit code, its lines, its wall time, when the first row came. */
    private record Run(int exit, List<String> out, List<String> err, double seconds, double firstRow) {
        String errText() {
            return String.join("\n", err);
        }

        List<String> errors() {
            return err.stream().filter(l -> l.startsWith("memplan: error:")).toList();
        }
    }

    /** Runs {@code memplan ARGS} in a JVM of its own with {@code props} (-D options); {@code onLine} sees stderr. */
    private static Run memplan(List<String> props, Consumer<String> onLine, String... args)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(StandaloneCluster.javaBin(), "-Xmx512m", "-XX:TieredStopAtLevel=1"));
        cmd.addAll(StandaloneCluster.OPENS);
        cmd.add("-Dlog4j2.configurationFile=dev/memplan/sweeps/spark/log4j2.properties");
        cmd.addAll(props);
        cmd.addAll(List.of("-cp", System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
                "dev.memplan.cli.Main"));
        cmd.addAll(List.of(args));
        long began = System.nanoTime();
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectOutput(dir.resolve("out.txt").toFile())
                .start();
        List<String> err = Collections.synchronizedList(new ArrayList<>());
        double[] firstRow = {Double.NaN};
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                if (line.startsWith("[") && Double.isNaN(firstRow[0])) {
                    firstRow[0] = (System.nanoTime() - began) / 1e9;
                }
                err.add(line);
                onLine.accept(line);
            }
        } finally {
            if (!p.waitFor(180, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
            }
        }
        double seconds = (System.nanoTime() - began) / 1e9;
        return new Run(p.exitValue(), Files.readAllLines(dir.resolve("out.txt")), List.copyOf(err), seconds,
                firstRow[0]);
    }

    private static Run sweep(List<String> props, Consumer<String> onLine, String master, String db)
            throws IOException, InterruptedException {
        return memplan(props, onLine, "sweep", "sweep.yaml", "--engine", "spark", "--master", master, "--db", db);
    }

    @Test
    @Order(1)
    void aMalformedMasterURLIsOneLineAndExit2() throws IOException, InterruptedException {
        Run r = sweep(List.of(), l -> { }, "spark//127.0.0.1:" + cluster.port, "malformed.duckdb");
        assertEquals(2, r.exit(), r.errText());
        assertEquals(List.of("memplan: error: --master spark//127.0.0.1:" + cluster.port + ": not a Spark master URL "
                + "(local[N], spark://HOST:PORT, yarn or k8s://HOST:PORT)"), r.err());
    }

    @Test
    @Order(2)
    void aMasterThatIsDownIsOneLineAndExit2Within20s() throws IOException, InterruptedException {
        int nobody = StandaloneCluster.freePort();
        Run r = sweep(List.of(), l -> { }, "spark://127.0.0.1:" + nobody, "down.duckdb");
        assertEquals(2, r.exit(), r.errText());
        assertEquals(1, r.err().size(), r.errText());
        assertTrue(r.err().get(0).startsWith("memplan: error: cannot reach the Spark master spark://127.0.0.1:" + nobody
                + ": 127.0.0.1:" + nobody + " connection refused"), r.errText());
        assertTrue(r.seconds() < 20, r.seconds() + " s");
    }

    @Test
    @Order(3)
    void aPortWhereNoMasterAnswersIsOneLineAndExit2Within20s() throws IOException, InterruptedException {
        // The master's web UI: something listens, but it is no Spark master.
        Run r = sweep(List.of(), l -> { }, "spark://127.0.0.1:" + cluster.uiPort, "wrongport.duckdb");
        assertEquals(2, r.exit(), r.errText());
        assertEquals(1, r.errors().size(), r.errText());
        assertTrue(r.errors().get(0).contains("the Spark master spark://127.0.0.1:" + cluster.uiPort
                + " did not register the sweep: 127.0.0.1:" + cluster.uiPort + " answers HTTP"), r.errText());
        assertTrue(r.seconds() < 20, r.seconds() + " s");
    }

    @Test
    @Order(4)
    void aClusterTooSmallForOneExecutorSaysWhatIsAskedAndOfferedWithin60s() throws IOException, InterruptedException {
        // Spark's default executor (1 GiB) does not fit in a worker of 512 MiB.
        Run r = sweep(List.of("-Dspark.master.ui.port=" + cluster.uiPort), l -> { }, cluster.url(), "small.duckdb");
        assertEquals(2, r.exit(), r.errText());
        assertEquals(1, r.errors().size(), r.errText());
        String e = r.errors().get(0);
        assertTrue(e.contains("no executor can start on master " + cluster.url() + ": an executor asks 1 core and 1024 "
                + "MiB"), e);
        assertTrue(e.contains("ALIVE 1 of 1 cores, 512 of 512 MiB free"), e);
        assertTrue(r.seconds() < 60, r.seconds() + " s");
        try (ResultsDb db = ResultsDb.open(dir.resolve("small.duckdb"))) {
            assertEquals(0, db.rows().size());
        }
    }

    @Test
    @Order(5)
    void aCaseThatThrowsAnErrorOnAnExecutorIsAnErrorRowAndTheSweepGoesOn() throws IOException, InterruptedException {
        // The executors get memplan's jars without ojAlgo: COSMA on ojalgo meets NoClassDefFoundError (an Error).
        Path lib = Path.of("target", "executor-lib").toAbsolutePath();
        List<String> jars = new ArrayList<>(List.of(Path.of("target", "memplan-sweeps-spark.jar").toAbsolutePath()
                .toString()));
        try (Stream<Path> files = Files.list(lib)) {
            files.map(p -> p.getFileName().toString()).filter(n -> !n.startsWith("ojalgo"))
                    .filter(n -> !n.matches("ortools-(darwin|win32|linux-aarch64).*")).sorted()
                    .forEach(n -> jars.add(lib.resolve(n).toString()));
        }
        Files.writeString(dir.resolve("errors.yaml"), """
                graphs: [fig1]
                budgets: [M_R]
                planners: [cosma, "default/belady/tflite"]
                solvers: [ojalgo, cpsat]
                time_limits: [20]
                """);
        Run r = memplan(List.of("-Dspark.jars=" + String.join(",", jars), "-Dspark.executor.memory=512m"), l -> { },
                "sweep", "errors.yaml", "--engine", "spark", "--master", cluster.url(), "--db", "errors.duckdb");
        assertEquals(0, r.exit(), r.errText());
        try (ResultsDb db = ResultsDb.open(dir.resolve("errors.duckdb"))) {
            List<ResultRow> rows = db.rows();
            assertEquals(3, rows.size(), rows.toString());
            for (ResultRow row : rows) {
                if (row.solver().equals("ojalgo")) {
                    assertEquals("ERROR", row.status(), row.toString());
                    assertTrue(row.error().contains("NoClassDefFoundError"), row.error());
                } else {
                    assertFalse(row.status().equals("ERROR"), row.toString());
                }
            }
        }
    }

    @Test
    @Order(6)
    void theClusterGivesTheLocalPoolsRowsWithAWorkerKilledMidSweep() throws IOException, InterruptedException {
        SweepSpec spec = SweepSpec.read(dir.resolve("sweep.yaml"));
        try (ResultsDb db = ResultsDb.open(dir.resolve("local.duckdb"))) {
            SweepRun.run(spec, db, dir.resolve("local-plans"), new LocalEngine(), new SweepEngine.Options(2, null),
                    new PrintWriter(new StringWriter()), null);
        }
        boolean[] killed = {false};
        // Jars kept by earlier sweeps' executors (the one above ships its own spark.jars, which memplan leaves).
        long[] before = {cluster.jarBytes(0), cluster.jarBytes(1)};
        long[] received = {0};
        // The worker killed (1 unless only worker 0's executor got a long case) and the one that survives.
        int[] victim = {1};
        Run r = sweep(List.of("-Dspark.executor.memory=512m"), line -> {
            if (line.startsWith("[") && !killed[0]) {
                killed[0] = true;
                try {
                    // While a worker's executor runs a case, so that the case must run again elsewhere: busy at
                    // three polls in a row (200 ms), a COSMA case of a work unit rather than a scheme's case of a few
                    // milliseconds, which could end between the last poll and the kill. Either worker: the long
                    // cases may all have gone to one of them (the CI once saw worker 1 never busy).
                    long deadline = System.nanoTime() + 20_000_000_000L;
                    int[] busy = {0, 0};
                    while (busy[0] < 3 && busy[1] < 3 && System.nanoTime() < deadline) {
                        for (int w = 0; w < 2; w++) {
                            busy[w] = cluster.executorBusy(w) ? busy[w] + 1 : 0;
                        }
                        if (busy[0] < 3 && busy[1] < 3) {
                            Thread.sleep(100);
                        }
                    }
                    victim[0] = busy[1] >= 3 || busy[0] < 3 ? 1 : 0;
                    cluster.killWorker(victim[0]);
                    received[0] = cluster.jarBytes(1 - victim[0]) - before[1 - victim[0]];
                } catch (InterruptedException | IOException e) {
                    throw new IllegalStateException(e);
                }
            }
        }, cluster.url(), "spark.duckdb");
        assertEquals(0, r.exit(), r.errText());
        assertTrue(killed[0]);
        assertTrue(cluster.executorBusy(victim[0]), "the killed worker's executor ran no case when it was killed");
        assertTrue(r.errText().contains("Lost executor"), r.errText());
        // What the surviving worker's executor received, and that it leaves none of it behind when it exits.
        assertTrue(received[0] > 1_000_000 && received[0] < 60_000_000, received[0] + " B");
        long deadline = System.nanoTime() + 30_000_000_000L;
        int survivor = 1 - victim[0];
        while (cluster.jarBytes(survivor) > before[survivor] && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }
        assertEquals(before[survivor], cluster.jarBytes(survivor), "jars left in worker " + survivor + "'s folder");
        Matcher shipped = Pattern.compile("memplan: shipping (\\d+) jars \\(([0-9.]+) MB\\) to each executor")
                .matcher(r.errText());
        assertTrue(shipped.find(), r.errText());
        assertTrue(Double.parseDouble(shipped.group(2)) < 60, shipped.group());
        assertFalse(r.errText().contains("INFO"), r.errText());
        List<String> progress = r.err().stream().filter(l -> l.startsWith("[")).toList();
        assertEquals(spec.cases().size(), progress.size(), r.errText());
        System.out.printf("cluster sweep: %d cases, %.1f s, first row after %.1f s; %s; worker %d's executor "
                + "received %d B of jars%n", spec.cases().size(), r.seconds(), r.firstRow(), shipped.group(), survivor,
                received[0]);
        System.out.println(String.join("\n", r.err().stream().filter(l -> !l.startsWith("[")).toList()));

        List<ResultRow> local = rows("local.duckdb");
        List<ResultRow> spark = rows("spark.duckdb");
        assertEquals(spec.cases().size(), spark.size());
        assertEquals(spark.size(), spark.stream().map(ResultRow::caseKey).distinct().count(), "duplicates");
        assertEquals(local.stream().map(SparkClusterIT::comparable).toList(),
                spark.stream().map(SparkClusterIT::comparable).toList());
    }

    private static List<ResultRow> rows(String db) {
        try (ResultsDb results = ResultsDb.open(dir.resolve(db))) {
            return results.rows().stream().sorted(Comparator.comparing(ResultRow::caseKey)).toList();
        }
    }

    /** A row without the columns that depend on the machine, the clock or the folder. */
    private static String comparable(ResultRow r) {
        return r.withPlanPath(r.planPath() == null ? null : Path.of(r.planPath()).getFileName().toString()).toString()
                .replaceAll("seconds=[^,]*,", "").replaceAll("machine=[^,]*,[^,]*,[^,]*,", "")
                .replaceAll("finishedAt=[^,]*,", "");
    }
}
