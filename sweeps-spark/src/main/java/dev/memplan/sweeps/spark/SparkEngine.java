package dev.memplan.sweeps.spark;

import dev.memplan.sweeps.CaseOutcome;
import dev.memplan.sweeps.CaseRunner;
import dev.memplan.sweeps.SweepCase;
import dev.memplan.sweeps.SweepEngine;
import dev.memplan.sweeps.SweepException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
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

/**
 * Sweeps on Apache Spark: each case is one task (one partition), run by {@link CaseRunner} on an executor; each
 * task's outcome comes back to the driver as the task finishes ({@code SparkContext.submitJob} with a result
 * handler) and goes to the same sink as the local pool's, so the driver writes the plan files and the DuckDB rows,
 * and a re-run skips finished cases in the same way. Workers need the memplan jars (spark-submit {@code --jars});
 * graph and buffer files travel with the job ({@link ShippedFiles}).
 */
public final class SparkEngine implements SweepEngine {

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
        if (options.master() != null) {
            conf.setMaster(options.master());
        } else if (!conf.contains("spark.master")) {
            conf.setMaster("local[" + options.jobs() + "]");
        }
        conf.setIfMissing("spark.ui.enabled", "false");
        // A case may run for its whole time limit; the default task retries would run a failed one again.
        conf.setIfMissing("spark.task.maxFailures", "1");
        try (JavaSparkContext sc = new JavaSparkContext(conf)) {
            sc.setLogLevel("WARN");
            Broadcast<ShippedFiles> files = sc.broadcast(ShippedFiles.of(cases));
            JavaRDD<CaseOutcome> outcomes = sc.parallelize(cases, cases.size())
                    .map(c -> CaseRunner.shared().run(files.value().local(c), specHash));
            BlockingQueue<CaseOutcome> arrived = new LinkedBlockingQueue<>();
            List<Object> partitions = new ArrayList<>();
            for (int i = 0; i < cases.size(); i++) {
                partitions.add(i);
            }
            SimpleFutureAction<BoxedUnit> job = sc.sc().submitJob(outcomes.rdd(), new Collect(),
                    CollectionConverters.asScala(partitions).toSeq(), new Arrived(arrived), new Done());
            for (int received = 0; received < cases.size(); ) {
                CaseOutcome o = arrived.poll(1, TimeUnit.SECONDS);
                if (o != null) {
                    sink.accept(o);
                    received++;
                } else if ((job.isCompleted() || sc.sc().isStopped()) && arrived.isEmpty()) {
                    // A cluster that drops the application stops the context; the job may never complete then.
                    String why = !job.isCompleted() ? "Spark stopped (see its log above: e.g. no executor could start)"
                            : job.value().get().isFailure() ? job.value().get().failed().get().getMessage()
                            : "it returned " + received + " outcomes";
                    throw new SweepException("the Spark job ended after " + received + " of " + cases.size()
                            + " cases (their rows are stored; run the sweep again to resume): " + why);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SweepException("the sweep was interrupted", e);
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

    /** On the driver, as each task finishes: its outcomes into the queue the sweep's thread drains. */
    private static final class Arrived extends AbstractFunction2<Object, ArrayList<CaseOutcome>, BoxedUnit>
            implements Serializable {
        private static final long serialVersionUID = 1L;
        private final transient BlockingQueue<CaseOutcome> queue;

        Arrived(BlockingQueue<CaseOutcome> queue) {
            this.queue = queue;
        }

        @Override
        public BoxedUnit apply(Object partition, ArrayList<CaseOutcome> outcomes) {
            queue.addAll(outcomes);
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
