package dev.memplan.sweeps.spark;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.memplan.sweeps.SweepException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Spark master URL as memplan checks it before Spark starts, so that a mistake ends in one line instead of
 * Spark's retries: its kind, and for a standalone master (with its standby masters) the addresses it listens on.
 * A standalone master also tells what its workers offer: its web UI's JSON ({@code http://HOST:8080/json}, the
 * port of {@code spark.master.ui.port}) lists each worker's cores and memory, used and free.
 *
 * @param url       as given
 * @param kind      what runs the executors
 * @param addresses a standalone master's host:port pairs; empty for the other kinds
 */
record SparkMaster(String url, Kind kind, List<InetSocketAddress> addresses) {

    /** What the URL names: one JVM, a standalone cluster, YARN or Kubernetes. */
    enum Kind { LOCAL, STANDALONE, YARN, KUBERNETES }

    /** The forms of the Spark documentation's "Master URLs" table (Spark 4: no Mesos). */
    private static final Pattern LOCAL =
            Pattern.compile("local(\\[(\\*|[1-9]\\d*)(,[1-9]\\d*)?])?|local-cluster\\[[1-9]\\d*, *[1-9]\\d*, *[1-9]\\d*]");
    private static final Pattern HOST_PORT = Pattern.compile("([A-Za-z0-9._-]+|\\[[0-9A-Fa-f:.]+]):(\\d{1,5})");
    private static final String FORMS = "local[N], spark://HOST:PORT, yarn or k8s://HOST:PORT";

    /** How long one address may take to accept a connection. */
    private static final Duration CONNECT = Duration.ofSeconds(3);

    static SparkMaster parse(String url) {
        if (LOCAL.matcher(url).matches()) {
            return new SparkMaster(url, Kind.LOCAL, List.of());
        }
        if (url.equals("yarn")) {
            return new SparkMaster(url, Kind.YARN, List.of());
        }
        if (url.startsWith("k8s://") && url.length() > "k8s://".length()) {
            return new SparkMaster(url, Kind.KUBERNETES, List.of());
        }
        if (url.startsWith("spark://")) {
            List<InetSocketAddress> addresses = new ArrayList<>();
            for (String part : url.substring("spark://".length()).split(",", -1)) {
                Matcher m = HOST_PORT.matcher(part);
                int port = m.matches() ? Integer.parseInt(m.group(2)) : 0;
                if (port < 1 || port > 65535) {
                    throw new SweepException("--master " + url + ": '" + part + "' is not HOST:PORT (a standalone "
                            + "master is spark://HOST:PORT, with standby masters spark://HOST1:PORT1,HOST2:PORT2)");
                }
                String host = m.group(1).startsWith("[") ? m.group(1).substring(1, m.group(1).length() - 1) : m.group(1);
                addresses.add(InetSocketAddress.createUnresolved(host, port));
            }
            return new SparkMaster(url, Kind.STANDALONE, List.copyOf(addresses));
        }
        throw new SweepException("--master " + url + ": not a Spark master URL (" + FORMS + ")");
    }

    boolean local() {
        return kind == Kind.LOCAL;
    }

    /**
     * For YARN and Kubernetes: returns when Spark's module for them is on the classpath (a Spark distribution's
     * spark-submit has it; {@code ./memplan-spark} carries spark-core only).
     */
    void requireManager() {
        String manager = switch (kind) {
            case YARN -> "org.apache.spark.scheduler.cluster.YarnClusterManager";
            case KUBERNETES -> "org.apache.spark.scheduler.cluster.k8s.KubernetesClusterManager";
            case LOCAL, STANDALONE -> null;
        };
        if (manager == null) {
            return;
        }
        try {
            Class.forName(manager, false, SparkMaster.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new SweepException("--master " + url + ": this Spark has no " + (kind == Kind.YARN ? "YARN"
                    : "Kubernetes") + " support (Spark's " + (kind == Kind.YARN ? "spark-yarn" : "spark-kubernetes")
                    + " module); submit the sweep with a Spark distribution's spark-submit (docs/sweeps.md)");
        }
    }

    /**
     * For a standalone master: returns when one of its addresses accepts a connection, and otherwise says why none
     * did (Spark itself would retry for more than a minute).
     */
    void requireReachable() {
        if (kind != Kind.STANDALONE) {
            return;
        }
        List<String> reasons = new ArrayList<>();
        for (InetSocketAddress a : addresses) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(a.getHostString(), a.getPort()), (int) CONNECT.toMillis());
                return;
            } catch (IOException e) {
                reasons.add(a.getHostString() + ":" + a.getPort() + " " + reason(e));
            }
        }
        throw new SweepException("cannot reach the Spark master " + url + ": " + String.join("; ", reasons)
                + " (is it started, and is that its port, 7077 by default?)");
    }

    /**
     * The first address of a standalone master that answers HTTP (a web UI's port given as the master's), or null:
     * a Spark master's RPC port closes the connection on a request it cannot parse.
     */
    String answeringHttp() {
        HttpClient client = HttpClient.newBuilder().connectTimeout(CONNECT).build();
        for (InetSocketAddress a : addresses) {
            String at = "http://" + a.getHostString() + ":" + a.getPort() + "/";
            try {
                client.send(HttpRequest.newBuilder(URI.create(at)).timeout(CONNECT).build(),
                        HttpResponse.BodyHandlers.discarding());
                return a.getHostString() + ":" + a.getPort();
            } catch (IOException | RuntimeException e) {
                // Not HTTP: possibly the master, slow to answer.
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
        }
        return null;
    }

    private static String reason(IOException e) {
        if (e instanceof java.net.UnknownHostException) {
            return "unknown host";
        }
        if (e instanceof java.net.SocketTimeoutException) {
            return "did not answer in " + CONNECT.toSeconds() + " s";
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage().toLowerCase(java.util.Locale.ROOT);
    }

    /** A standalone worker as its master's web UI shows it. */
    record Worker(String host, int port, String state, int cores, int coresFree, long memoryMb, long memoryFreeMb) {
        boolean alive() {
            return state.equals("ALIVE");
        }

        @Override
        public String toString() {
            return host + ":" + port + " " + state + " " + coresFree + " of " + cores + " cores, " + memoryFreeMb
                    + " of " + memoryMb + " MiB free";
        }
    }

    /** What the workers offer, or null with {@code why} set when the master's web UI does not answer. */
    record Offer(List<Worker> workers, String why) {
        /** Whether some worker alive could hold one executor of this size when it is free. */
        boolean canEverPlace(int cores, long memoryMb) {
            return workers.stream().anyMatch(w -> w.alive() && w.cores() >= cores && w.memoryMb() >= memoryMb);
        }

        @Override
        public String toString() {
            return workers == null ? "unknown (" + why + ")" : workers.isEmpty() ? "no worker registered"
                    : String.join("; ", workers.stream().map(Worker::toString).toList());
        }
    }

    /** The workers of a standalone master, from its web UI's JSON on {@code uiPort}. */
    Offer offer(int uiPort) {
        String at = "http://" + addresses.get(0).getHostString() + ":" + uiPort + "/json/";
        try {
            HttpClient client = HttpClient.newBuilder().connectTimeout(CONNECT).build();
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create(at)).timeout(CONNECT).build(),
                    HttpResponse.BodyHandlers.ofString());
            JsonNode root = new ObjectMapper().readTree(response.body());
            List<Worker> workers = new ArrayList<>();
            for (JsonNode w : root.path("workers")) {
                workers.add(new Worker(w.path("host").asText(), w.path("port").asInt(), w.path("state").asText(),
                        w.path("cores").asInt(), w.path("coresfree").asInt(), w.path("memory").asLong(),
                        w.path("memoryfree").asLong()));
            }
            return new Offer(workers, null);
        } catch (IOException | RuntimeException e) {
            return new Offer(null, "the master's web UI " + at + " did not answer: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Offer(null, "interrupted");
        }
    }
}
