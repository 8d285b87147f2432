package dev.memplan.sweeps.spark;

import dev.memplan.sweeps.SweepException;
import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.spark.SparkEnv;

/**
 * The jars a sweep ships to a cluster's executors ({@code spark.jars}, fetched once per executor): this module's jar
 * and what the build copied beside it into {@code executor-lib} (memplan's modules and their runtime dependencies,
 * without DuckDB, which only the driver uses), keeping of OR-Tools' five native jars the one of the driver's
 * platform (a cluster's machines share it). Spark itself is the cluster's.
 *
 * <p>An executor fetches the jars into its working folder, which a standalone worker keeps after the application
 * ends ({@code work/APP/EXECUTOR}); the first case on each executor has them deleted when the executor's JVM exits.
 */
final class ExecutorJars {
    /** This module's jar as the build names it. */
    static final String ENGINE_JAR = "memplan-sweeps-spark";

    private static final Pattern NATIVES = Pattern.compile("ortools-(linux|darwin|win32)-(x86-64|aarch64)-.*\\.jar");

    /** Whether this JVM already arranged the deletion. */
    private static boolean arranged;

    private ExecutorJars() {
    }

    /** The jars to ship, beside this module's jar as the build leaves it. */
    static List<Path> find() {
        Path own;
        try {
            own = Path.of(ExecutorJars.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException | RuntimeException e) {
            throw new SweepException("cannot tell where the Spark engine's jar is, to ship it to the executors: " + e);
        }
        Path lib = own.resolveSibling("executor-lib");
        if (!Files.isRegularFile(own) || !Files.isDirectory(lib)) {
            throw new SweepException("cannot find the jars to ship to the executors (" + lib + "): build them with "
                    + "mvn -DskipTests package -pl cli,sweeps-spark -am, or name them in spark.jars");
        }
        String natives = "ortools-" + com.sun.jna.Platform.RESOURCE_PREFIX + "-";
        List<Path> jars = new ArrayList<>();
        jars.add(own);
        try (Stream<Path> files = Files.list(lib)) {
            files.filter(p -> p.getFileName().toString().endsWith(".jar"))
                    .filter(p -> !NATIVES.matcher(p.getFileName().toString()).matches()
                            || p.getFileName().toString().startsWith(natives))
                    .sorted().forEach(jars::add);
        } catch (IOException e) {
            throw new SweepException("cannot list " + lib + ": " + e.getMessage(), e);
        }
        return jars;
    }

    static long bytes(List<Path> jars) {
        return jars.stream().mapToLong(p -> p.toFile().length()).sum();
    }

    static String sparkJars(List<Path> jars) {
        return String.join(",", jars.stream().map(p -> p.toAbsolutePath().toString()).toList());
    }

    /**
     * On an executor (not the driver, whose tasks in local mode share its JVM): deletes the shipped jars from the
     * executor's working folder, where Spark fetched them, when the JVM exits (its class loader has them open).
     */
    static synchronized void deleteAtExit(List<String> names) {
        SparkEnv env = SparkEnv.get();
        if (arranged || names.isEmpty() || env == null || env.executorId().equals("driver")) {
            return;
        }
        arranged = true;
        List<File> fetched = names.stream().map(n -> new File(n).getAbsoluteFile()).filter(File::isFile).toList();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> fetched.forEach(File::delete), "memplan-jars-cleanup"));
    }
}
