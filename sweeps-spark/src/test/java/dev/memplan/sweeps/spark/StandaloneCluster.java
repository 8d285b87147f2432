package dev.memplan.sweeps.spark;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * A Spark standalone cluster on the loopback address, as a user starts one from Spark's jars: a Master and Workers
 * as child JVMs ({@code org.apache.spark.deploy.master.Master}, {@code ...worker.Worker}), with a Spark home whose
 * {@code jars} folder holds only Spark's jars (target/spark-lib, as the build copies them), so the executors the
 * workers fork get memplan's classes only from what the sweep ships. {@link #close} kills every JVM it started,
 * executors included.
 */
final class StandaloneCluster implements AutoCloseable {
    static final List<String> OPENS = List.of("--add-opens=java.base/java.lang=ALL-UNNAMED",
            "--add-opens=java.base/java.lang.invoke=ALL-UNNAMED", "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
            "--add-opens=java.base/java.io=ALL-UNNAMED", "--add-opens=java.base/java.net=ALL-UNNAMED",
            "--add-opens=java.base/java.nio=ALL-UNNAMED", "--add-opens=java.base/java.util=ALL-UNNAMED",
            "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
            "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED", "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-opens=java.base/sun.nio.cs=ALL-UNNAMED", "--add-opens=java.base/sun.security.action=ALL-UNNAMED",
            "--add-opens=java.base/sun.util.calendar=ALL-UNNAMED", "-Djdk.reflect.useDirectMethodHandle=false");

    final int port;
    final int uiPort;
    final Path dir;
    private final Path home;
    private final Process master;
    final List<Process> workers = new ArrayList<>();
    /** Everything started, with the executors found under the workers before a kill. */
    private final List<ProcessHandle> started = new ArrayList<>();

    /** Starts a master and {@code workers} workers of {@code cores} cores and {@code memory} each; waits until alive. */
    StandaloneCluster(Path dir, int workerCount, int cores, String memory) throws IOException, InterruptedException {
        this.dir = dir;
        this.home = dir.resolve("spark-home");
        Path jars = Files.createDirectories(home.resolve("jars"));
        // Spark's jars: what the build copied as Spark's (target/spark-lib) and Spark's Jackson, which the build
        // resolves as memplan's own dependency (target/executor-lib).
        try (Stream<Path> spark = Files.list(Path.of("target", "spark-lib"));
             Stream<Path> jackson = Files.list(Path.of("target", "executor-lib"))
                     .filter(p -> p.getFileName().toString().startsWith("jackson-"))) {
            for (Path jar : Stream.concat(spark, jackson).toList()) {
                Files.createSymbolicLink(jars.resolve(jar.getFileName()), jar.toAbsolutePath());
            }
        }
        port = freePort();
        uiPort = freePort();
        master = start("master", List.of("org.apache.spark.deploy.master.Master", "--host", "127.0.0.1", "--port",
                String.valueOf(port), "--webui-port", String.valueOf(uiPort)));
        try {
            for (int i = 0; i < workerCount; i++) {
                Path work = Files.createDirectories(dir.resolve("work-" + i));
                workers.add(start("worker-" + i, List.of("org.apache.spark.deploy.worker.Worker", url(), "--host",
                        "127.0.0.1", "--webui-port", "0", "--cores", String.valueOf(cores), "--memory", memory,
                        "--work-dir", work.toString())));
            }
            long deadline = System.nanoTime() + 90_000_000_000L;
            while (alive() < workerCount) {
                if (System.nanoTime() > deadline || !master.isAlive()) {
                    throw new IllegalStateException("the cluster did not start; see " + dir + "/*.log");
                }
                Thread.sleep(300);
            }
        } catch (IOException | InterruptedException | RuntimeException e) {
            // Nobody else holds this cluster yet: its JVMs end here.
            close();
            throw e;
        }
    }

    String url() {
        return "spark://127.0.0.1:" + port;
    }

    /** Workers the master sees alive (0 while its web UI is not up). */
    int alive() {
        JsonNode state = state();
        int n = 0;
        for (JsonNode w : state.path("workers")) {
            n += w.path("state").asText().equals("ALIVE") ? 1 : 0;
        }
        return n;
    }

    /** The master's JSON state, or an empty object while it does not answer. */
    JsonNode state() {
        try {
            HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + uiPort + "/json/")).build(), HttpResponse.BodyHandlers.ofString());
            return new ObjectMapper().readTree(r.body());
        } catch (IOException e) {
            return new ObjectMapper().createObjectNode();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new ObjectMapper().createObjectNode();
        }
    }

    /** kill -9 of a worker and of the executors it forked: a machine lost. */
    void killWorker(int i) throws InterruptedException {
        Process w = workers.get(i);
        List<ProcessHandle> executors = w.descendants().toList();
        started.addAll(executors);
        w.destroyForcibly();
        executors.forEach(ProcessHandle::destroyForcibly);
        w.waitFor();
    }

    /**
     * Whether an executor of worker {@code i} runs a task: its log (the executors log at Spark's default level, INFO)
     * has started more tasks than it finished.
     */
    boolean executorBusy(int i) throws IOException {
        try (Stream<Path> files = Files.walk(dir.resolve("work-" + i))) {
            for (Path log : files.filter(p -> p.getFileName().toString().equals("stderr")).toList()) {
                List<String> lines = Files.readAllLines(log, java.nio.charset.StandardCharsets.ISO_8859_1);
                long running = lines.stream().filter(l -> l.contains("Executor: Running task")).count();
                long finished = lines.stream().filter(l -> l.contains("Executor: Finished task")).count();
                if (running > finished) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Bytes of the jar files in worker {@code i}'s folder (what its executors fetched and kept). */
    long jarBytes(int i) throws IOException {
        try (Stream<Path> files = Files.walk(dir.resolve("work-" + i))) {
            return files.filter(p -> p.getFileName().toString().endsWith(".jar")).mapToLong(p -> p.toFile().length())
                    .sum();
        }
    }

    private Process start(String name, List<String> mainAndArgs) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(javaBin(), "-Xmx192m", "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC"));
        cmd.addAll(OPENS);
        cmd.addAll(List.of("-cp", home.resolve("jars") + File.separator + "*"));
        cmd.addAll(mainAndArgs);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(dir.resolve(name + ".log").toFile());
        pb.environment().put("SPARK_HOME", home.toString());
        pb.environment().put("SPARK_SCALA_VERSION", "2.13");
        pb.environment().put("SPARK_LOCAL_DIRS", Files.createDirectories(dir.resolve("local")).toString());
        Process p = pb.start();
        started.add(p.toHandle());
        return p;
    }

    static String javaBin() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @Override
    public void close() {
        List<ProcessHandle> all = new ArrayList<>();
        for (ProcessHandle p : started) {
            p.descendants().forEach(all::add);
            all.add(p);
        }
        all.forEach(ProcessHandle::destroyForcibly);
        for (ProcessHandle p : all) {
            p.onExit().join();
        }
    }
}
