package dev.memplan.decomposition;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * A heartbeat for long quiet work (a whole-graph solve, the minimum-peak search of {@code budgets}, the
 * portfolio of {@code allocate}): while a stage runs and nothing else was printed for {@link #INTERVAL_NANOS},
 * one line on its stream (standard error, in the command line) says what is running and for how long. Never more
 * than a line per interval, so a log of a long run stays short; nothing at all for work that ends within the
 * interval.
 */
public final class Ticker implements AutoCloseable {
    public static final long INTERVAL_NANOS = 10_000_000_000L;

    private final PrintWriter err;
    private final long interval;
    private final long began = System.nanoTime();
    private final Thread thread;
    private String stage;
    private long quietSince = System.nanoTime();
    private boolean closed;

    public Ticker(PrintWriter err, String stage) {
        this(err, stage, INTERVAL_NANOS);
    }

    Ticker(PrintWriter err, String stage, long intervalNanos) {
        this.err = err;
        this.stage = stage;
        this.interval = intervalNanos;
        this.thread = new Thread(this::run, "memplan-ticker");
        thread.setDaemon(true);
        thread.start();
    }

    /** The work now running, as the heartbeat line names it. */
    public synchronized void stage(String value) {
        stage = value;
    }

    /** Something else was just printed: the next heartbeat waits a whole interval. */
    public synchronized void touch() {
        quietSince = System.nanoTime();
    }

    /**
     * The pipeline's progress listener: its lines on this ticker's stream through a {@link Heartbeat} (divide and
     * conquer's part and window lines thinned), each stage line the ticker's new stage, each routine line a sign of
     * life.
     */
    public Consumer<String> pipelineProgress() {
        Heartbeat beat = new Heartbeat(err);
        return line -> {
            beat.accept(line);
            if (Heartbeat.routine(line)) {
                touch();
            } else {
                stage(line.endsWith(" ...") ? line.substring(0, line.length() - 4) : line);
            }
        };
    }

    private void run() {
        synchronized (this) {
            while (!closed) {
                long wait = quietSince + interval - System.nanoTime();
                if (wait <= 0) {
                    err.println(String.format(Locale.ROOT, "  ... %s (%.0f s so far)", stage,
                            (System.nanoTime() - began) / 1e9));
                    err.flush();
                    quietSince = System.nanoTime();
                    continue;
                }
                try {
                    wait(Math.max(1, wait / 1_000_000));
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    @Override
    public void close() {
        synchronized (this) {
            closed = true;
            notifyAll();
        }
        try {
            thread.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
