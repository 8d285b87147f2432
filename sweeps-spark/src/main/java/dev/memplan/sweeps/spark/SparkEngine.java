package dev.memplan.sweeps.spark;

import dev.memplan.model.Notices;
import dev.memplan.sweeps.CaseOutcome;
import dev.memplan.sweeps.CaseRunner;
import dev.memplan.sweeps.SweepCase;
import dev.memplan.sweeps.SweepEngine;
import dev.memplan.sweeps.SweepException;
import java.io.Serializable;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.apache.spark.SimpleFutureAction;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import scala.collection.Iterator;
import scala.jdk.javaapi.CollectionConverters;
import scala.runtime.AbstractFunction0;
import scala.runtime.AbstractFunction1;
import scala.runtime.AbstractFunction2;
import scala.runtime.BoxedUnit;
import scala.util.Try;

/**
 * Sweeps on Apache Spark: each case is one job of one task, run by {@link CaseRunner} on an executor; each task's
 * outcome comes back to the driver as the task finishes ({@code SparkContext.submitJob} with a result handler) and
 * goes to the same sink as the local pool's, so the driver writes the plan files and the DuckDB rows, and a re-run
 * skips finished cases in the same way. A job per case so that a task Spark gives up on (its executor's JVM died
 * under it) ends that case as an ERROR row and the others run on. Graph and buffer files travel with the job
 * ({@link ShippedFiles}); on a cluster, memplan's jars too ({@link ExecutorJars}), unless {@code spark.jars} names
 * this engine's jar (spark-submit {@code --jars}).
 *
 * <p>Mistakes end before any case runs, in one line: a malformed master URL, a standalone master that does not
 * answer, a cluster on which no executor starts (with what an executor asks and what the workers offer).
 */
public final class SparkEngine implements SweepEngine {

    /**
     * How long a standalone master may take to register the application: after {@link #SUSPECT}, a port that
     * answers HTTP is no master's; after {@link #REGISTRATION}, the sweep stops (Spark itself retries for a minute).
     */
    private static final Duration SUSPECT = Duration.ofSeconds(8);
    private static final Duration REGISTRATION = Duration.ofSeconds(45);

    /**
     * How long a sweep waits for its first executor (and, later, for one after all were lost) before it stops;
     * sooner when no worker could ever hold one.
     */
    private static final Duration NO_EXECUTOR = Duration.ofSeconds(40);

    /** When the workers' offer is first compared with an executor's size: once workers had time to register. */
    private static final Duration FIRST_LOOK = Duration.ofSeconds(3);

    @Override
    public String name() {
        return "spark";
    }

    @Override
    public void run(List<SweepCase> cases, String specHash, Options options, Consumer<CaseOutcome> sink) {
        if (cases.isEmpty()) {
            return;
        }
        SparkConf conf = new SparkConf().setAppName("memplan sweep");
        SparkMaster master = master(conf, options);
        conf.setMaster(master.url());
        conf.setIfMissing("spark.ui.enabled", "false");
        // A case's own failure is an ERROR row, never a failed task; a task fails when its executor's JVM dies under
        // it (a lost worker, a crash), and then runs once more elsewhere, not four times (Spark's default).
        conf.setIfMissing("spark.task.maxFailures", "2");
        List<String> shipped = List.of();
        if (!master.local()) {
            // A case a core (raise it with the spec's threads); Spark's standalone default is all of a worker's.
            conf.setIfMissing("spark.executor.cores", "1");
            // spark-submit names its application jar (memplan-cli.jar) in spark.jars; memplan's own list is added
            // unless spark.jars already carries this engine (--jars naming memplan's jars).
            String given = conf.get("spark.jars", "");
            if (!given.contains(ExecutorJars.ENGINE_JAR)) {
                List<Path> jars = ExecutorJars.find();
                conf.set("spark.jars", (given.isBlank() ? "" : given + ",") + ExecutorJars.sparkJars(jars));
                shipped = jars.stream().map(p -> p.getFileName().toString()).toList();
                Notices.warn(String.format(Locale.ROOT, "shipping %d jars (%.1f MB) to each executor", jars.size(),
                        ExecutorJars.bytes(jars) / 1e6));
            }
        }
        try (JavaSparkContext sc = start(conf, master)) {
            if (org.apache.logging.log4j.LogManager.getRootLogger().isInfoEnabled()) {
                // spark-submit's default configuration: its INFO lines would bury the progress lines.
                sc.setLogLevel("WARN");
            }
            run(sc, master, cases, specHash, shipped, sink);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SweepException("the sweep was interrupted", e);
        }
    }

    @Override
    public void check(Options options) {
        SparkMaster master = master(new SparkConf(), options);
        master.requireManager();
        master.requireReachable();
    }

    /** {@code --master}, else spark-submit's ({@code spark.master}), else as many local threads as jobs. */
    private static SparkMaster master(SparkConf conf, Options options) {
        return SparkMaster.parse(options.master() != null ? options.master()
                : conf.get("spark.master", "local[" + options.jobs() + "]"));
    }

    /** A case's outcome as the driver receives it: which case, and its outcome. */
    private record Arrival(int index, CaseOutcome outcome) implements Serializable {
    }

    private static void run(JavaSparkContext sc, SparkMaster master, List<SweepCase> cases, String specHash,
                            List<String> shipped, Consumer<CaseOutcome> sink) throws InterruptedException {
        Broadcast<ShippedFiles> files = sc.broadcast(ShippedFiles.of(cases));
        JavaRDD<CaseOutcome> outcomes = sc.parallelize(cases, cases.size())
                .map(c -> onExecutor(files, c, specHash, shipped));
        BlockingQueue<Arrival> arrived = new LinkedBlockingQueue<>();
        List<SimpleFutureAction<BoxedUnit>> jobs = new ArrayList<>();
        for (int i = 0; i < cases.size(); i++) {
            jobs.add(sc.sc().submitJob(outcomes.rdd(), new Collect(),
                    CollectionConverters.asScala(List.<Object>of(i)).toSeq(), new Arrived(i, arrived), new Done()));
        }
        boolean[] received = new boolean[cases.size()];
        int count = 0;
        long began = System.nanoTime();
        long lastExecutor = began;
        boolean looked = false;
        while (count < cases.size()) {
            Arrival a = arrived.poll(1, TimeUnit.SECONDS);
            if (a != null) {
                if (!received[a.index()]) {
                    received[a.index()] = true;
                    count++;
                    sink.accept(a.outcome());
                }
                continue;
            }
            if (sc.sc().isStopped()) {
                // A cluster that drops the application stops the context; its jobs fail, not their cases.
                throw new SweepException("Spark stopped after " + count + " of " + cases.size() + " cases on master "
                        + master.url() + " (see its log above); the rows are stored: the same command resumes");
            }
            for (int i = 0; i < cases.size(); i++) {
                String failure = received[i] ? null : failure(jobs.get(i));
                if (failure != null && arrived.isEmpty()) {
                    if (failure.contains("ClassNotFoundException")) {
                        throw new SweepException("the executors of " + master.url() + " cannot load memplan's classes"
                                + " (" + failure + "): ship memplan's jars with spark.jars, or let memplan ship them");
                    }
                    received[i] = true;
                    count++;
                    sink.accept(CaseRunner.failed(cases.get(i), specHash, "the Spark task failed: " + failure, 0));
                }
            }
            if (master.local()) {
                continue;
            }
            long now = System.nanoTime();
            if (sc.sc().statusTracker().getExecutorInfos().length > 1) {
                lastExecutor = now;
                continue;
            }
            Duration without = Duration.ofNanos(now - lastExecutor);
            boolean late = without.compareTo(NO_EXECUTOR) >= 0;
            if (late || (!looked && master.kind() == SparkMaster.Kind.STANDALONE && without.compareTo(FIRST_LOOK) >= 0)) {
                looked = true;
                noExecutor(sc, master, without, late);
            }
        }
    }

    /** Runs on an executor: the case's outcome, whatever it throws (an {@code Error} too) an ERROR row. */
    private static CaseOutcome onExecutor(Broadcast<ShippedFiles> files, SweepCase c, String specHash,
                                          List<String> shipped) {
        long began = System.nanoTime();
        try {
            ExecutorJars.deleteAtExit(shipped);
            return CaseRunner.shared().run(files.value().local(c), specHash);
        } catch (RuntimeException | Error e) {
            return CaseRunner.failed(c, specHash, "internal error (a bug in memplan): " + e,
                    (System.nanoTime() - began) / 1e9);
        }
    }

    /** The reason a case's job failed (its first line), or null while it runs or when it succeeded. */
    private static String failure(SimpleFutureAction<BoxedUnit> job) {
        if (!job.isCompleted()) {
            return null;
        }
        Try<BoxedUnit> t = job.value().get();
        if (t.isSuccess()) {
            return null;
        }
        String m = String.valueOf(t.failed().get().getMessage()).strip();
        int line = m.indexOf('\n');
        return line < 0 ? m : m.substring(0, line);
    }

    /**
     * No executor for {@code without}: stops the sweep when no worker could ever hold one, or when the wait is over;
     * the message says what an executor asks and what the workers offer.
     */
    private static void noExecutor(JavaSparkContext sc, SparkMaster master, Duration without, boolean late) {
        int cores = sc.getConf().getInt("spark.executor.cores", 1);
        int memoryMb = sc.sc().executorMemory();
        SparkMaster.Offer offer = master.kind() == SparkMaster.Kind.STANDALONE
                ? master.offer(sc.getConf().getInt("spark.master.ui.port", 8080)) : null;
        boolean never = offer != null && offer.workers() != null && !offer.workers().isEmpty()
                && !offer.canEverPlace(cores, memoryMb);
        if (never || late) {
            throw new SweepException("no executor " + (never ? "can start" : "started in " + without.toSeconds() + " s")
                    + " on master " + master.url() + ": an executor asks " + cores + (cores == 1 ? " core" : " cores")
                    + " and " + memoryMb + " MiB (spark.executor.cores, spark.executor.memory); the workers offer: "
                    + (offer == null ? "unknown (ask the cluster's manager)" : offer.toString()));
        }
    }

    /**
     * Starts Spark; a standalone master gets {@link #REGISTRATION} to register the application, a port that answers
     * HTTP {@link #SUSPECT} (a port where no Spark master answers would have Spark retry for a minute).
     */
    private static JavaSparkContext start(SparkConf conf, SparkMaster master) throws InterruptedException {
        CompletableFuture<JavaSparkContext> started = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                JavaSparkContext sc = new JavaSparkContext(conf);
                if (!started.complete(sc)) {
                    sc.close();
                }
            } catch (Exception | Error e) {
                // Scala's checked exceptions too (SparkException), which javac does not see declared.
                started.completeExceptionally(e);
            }
        }, "memplan-spark-start");
        t.setDaemon(true);
        t.start();
        try {
            if (master.kind() != SparkMaster.Kind.STANDALONE) {
                return started.get();
            }
            try {
                return started.get(SUSPECT.toSeconds(), TimeUnit.SECONDS);
            } catch (TimeoutException e) {
                String http = master.answeringHttp();
                if (http != null) {
                    started.cancel(false);
                    throw new SweepException("the Spark master " + master.url() + " did not register the sweep: "
                            + http + " answers HTTP, which a Spark master's port does not (a web UI's port, 8080 by "
                            + "default, is not the master's, 7077 by default)");
                }
            }
            return started.get(REGISTRATION.minus(SUSPECT).toSeconds(), TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            started.cancel(false);
            throw new SweepException("the Spark master " + master.url() + " did not register the sweep in "
                    + REGISTRATION.toSeconds() + " s (is a Spark master listening on that port?)");
        } catch (ExecutionException e) {
            String m = String.valueOf(e.getCause().getMessage()).strip();
            throw new SweepException("cannot start Spark with master " + master.url() + ": "
                    + (m.indexOf('\n') < 0 ? m : m.substring(0, m.indexOf('\n'))), e.getCause());
        }
    }

    /** On an executor: the partition's outcomes (one case a partition). */
    private static final class Collect extends AbstractFunction1<Iterator<CaseOutcome>, ArrayList<CaseOutcome>>
            implements Serializable {
        private static final long serialVersionUID = 1L;

        @Override
        public ArrayList<CaseOutcome> apply(Iterator<CaseOutcome> it) {
            ArrayList<CaseOutcome> out = new ArrayList<>();
            while (it.hasNext()) {
                out.add(it.next());
            }
            return out;
        }
    }

    /** On the driver, as a case's task finishes: its outcome into the queue the sweep's thread drains. */
    private static final class Arrived extends AbstractFunction2<Object, ArrayList<CaseOutcome>, BoxedUnit>
            implements Serializable {
        private static final long serialVersionUID = 1L;
        private final int index;
        private final transient BlockingQueue<Arrival> queue;

        Arrived(int index, BlockingQueue<Arrival> queue) {
            this.index = index;
            this.queue = queue;
        }

        @Override
        public BoxedUnit apply(Object partition, ArrayList<CaseOutcome> outcomes) {
            outcomes.forEach(o -> queue.add(new Arrival(index, o)));
            return BoxedUnit.UNIT;
        }
    }

    private static final class Done extends AbstractFunction0<BoxedUnit> implements Serializable {
        private static final long serialVersionUID = 1L;

        @Override
        public BoxedUnit apply() {
            return BoxedUnit.UNIT;
        }
    }
}
