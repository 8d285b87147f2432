package dev.memplan.cli;

import java.io.PrintWriter;
import java.util.Locale;

/**
 * A heartbeat for long quiet work (a whole-graph solve, the minimum-peak search of {@code budgets}, the
 * portfolio of {@code allocate}): while a stage runs and nothing else was printed for {@link #INTERVAL_NANOS},
 * one line on standard error says what is running and for how long. Never more than a line per interval, so
 * a log of a long run stays short; nothing at all for work that ends within the interval.
 */
final class Ticker implements AutoCloseable {
    static final long INTERVAL_NANOS = 10_000_000_000L;

    private final PrintWriter err;
    private final long interval;
    private final long began = System.nanoTime();
    private final Thread thread;
    private String stage;
    private long quietSince = System.nanoTime();
    private boolean closed;

    Ticker(PrintWriter err, String stage) {
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
    synchronized void stage(String value) {
        stage = value;
    }

    /** Something else was just printed: the next heartbeat waits a whole interval. */
    synchronized void touch() {
        quietSince = System.nanoTime();
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
