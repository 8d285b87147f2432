package dev.memplan.decomposition;

import java.io.PrintWriter;
import java.util.function.Consumer;

/**
 * The pipeline's progress lines ({@link CosmaPipeline}'s listener) for a terminal or a log: stage lines are printed
 * as they come; routine lines (one per part or window of divide and conquer, thousands on a large graph) at most one
 * every {@link #INTERVAL_NANOS}, the latest, with the number of routine lines it stands for.
 */
public final class Heartbeat implements Consumer<String> {
    static final long INTERVAL_NANOS = 3_000_000_000L;

    private final PrintWriter err;
    private long last = System.nanoTime() - INTERVAL_NANOS;
    private int skipped;
    /** The latest routine line not printed, or null. */
    private String pending;

    public Heartbeat(PrintWriter err) {
        this.err = err;
    }

    private void print(String line, int before) {
        err.println(before <= 0 ? line : line + " (" + before + " such lines before it not shown)");
    }

    /**
     * Whether a line is one of many alike (a part or window done, also of divide and conquer on a recompute plan's
     * runs, {@link RecomputeReplan}) rather than a stage.
     */
    public static boolean routine(String line) {
        String l = line.startsWith(RecomputeReplan.PROGRESS) ? line.substring(RecomputeReplan.PROGRESS.length()) : line;
        return l.startsWith("dnc: part ") || l.startsWith("dnc: window ");
    }

    @Override
    public synchronized void accept(String line) {
        long now = System.nanoTime();
        if (routine(line)) {
            if (now - last < INTERVAL_NANOS) {
                skipped++;
                pending = line;
                return;
            }
            print(line, skipped);
            last = now;
        } else {
            if (pending != null) {
                print(pending, skipped - 1);
            }
            err.println(line);
        }
        pending = null;
        skipped = 0;
        err.flush();
    }
}
