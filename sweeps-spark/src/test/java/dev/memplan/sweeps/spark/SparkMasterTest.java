package dev.memplan.sweeps.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memplan.sweeps.SweepException;
import java.io.IOException;
import java.net.ServerSocket;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Master URLs as memplan checks them before Spark starts: Spark's forms pass, mistakes are one line. */
class SparkMasterTest {

    @Test
    void sparksFormsAreAccepted() {
        for (String local : List.of("local", "local[2]", "local[*]", "local[4,2]", "local-cluster[2,1,1024]")) {
            assertEquals(SparkMaster.Kind.LOCAL, SparkMaster.parse(local).kind(), local);
        }
        SparkMaster standby = SparkMaster.parse("spark://a.example:7077,b.example:7078");
        assertEquals(SparkMaster.Kind.STANDALONE, standby.kind());
        assertEquals(List.of("a.example:7077", "b.example:7078"),
                standby.addresses().stream().map(a -> a.getHostString() + ":" + a.getPort()).toList());
        assertEquals(SparkMaster.Kind.YARN, SparkMaster.parse("yarn").kind());
        assertEquals(SparkMaster.Kind.KUBERNETES, SparkMaster.parse("k8s://https://api.example:6443").kind());
    }

    @Test
    void mistakesAreOneLineNamingTheURL() {
        for (String bad : List.of("spark//host:7077", "local[0]", "sprak://host:7077", "yarn-client", "k8s://")) {
            SweepException e = assertThrows(SweepException.class, () -> SparkMaster.parse(bad), bad);
            assertEquals("--master " + bad + ": not a Spark master URL (local[N], spark://HOST:PORT, yarn or "
                    + "k8s://HOST:PORT)", e.getMessage());
        }
        for (String bad : List.of("spark://host", "spark://host:0", "spark://host:70000", "spark://a:1,")) {
            SweepException e = assertThrows(SweepException.class, () -> SparkMaster.parse(bad), bad);
            assertTrue(e.getMessage().startsWith("--master " + bad + ": '") && !e.getMessage().contains("\n"),
                    e.getMessage());
        }
    }

    @Test
    void yarnAndKubernetesNeedTheirSparkModule() {
        // The build's Spark is spark-core alone, as in ./memplan-spark.
        SweepException e = assertThrows(SweepException.class, () -> SparkMaster.parse("yarn").requireManager());
        assertEquals("--master yarn: this Spark has no YARN support (Spark's spark-yarn module); submit the sweep with "
                + "a Spark distribution's spark-submit (docs/sweeps.md)", e.getMessage());
        assertThrows(SweepException.class, () -> SparkMaster.parse("k8s://https://api.example:6443").requireManager());
        SparkMaster.parse("spark://127.0.0.1:7077").requireManager();
    }

    @Test
    void aClosedPortIsNamedWithItsReasonAndAnOpenOneIsReached() throws IOException {
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        SweepException e = assertThrows(SweepException.class,
                () -> SparkMaster.parse("spark://127.0.0.1:" + closed).requireReachable());
        assertTrue(e.getMessage().startsWith("cannot reach the Spark master spark://127.0.0.1:" + closed + ": 127.0.0.1:"
                + closed + " connection refused"), e.getMessage());
        try (ServerSocket open = new ServerSocket(0)) {
            SparkMaster.parse("spark://127.0.0.1:" + closed + ",127.0.0.1:" + open.getLocalPort()).requireReachable();
        }
    }

    @Test
    void anOfferNamesEachWorkerAndKnowsWhetherAnExecutorEverFits() {
        SparkMaster.Offer offer = new SparkMaster.Offer(List.of(
                new SparkMaster.Worker("w1", 1, "ALIVE", 1, 0, 512, 0),
                new SparkMaster.Worker("w2", 2, "DEAD", 8, 8, 8192, 8192)), null);
        assertTrue(offer.canEverPlace(1, 512));
        assertFalse(offer.canEverPlace(1, 1024));
        assertEquals("w1:1 ALIVE 0 of 1 cores, 0 of 512 MiB free; w2:2 DEAD 8 of 8 cores, 8192 of 8192 MiB free",
                offer.toString());
    }
}
