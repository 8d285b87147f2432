package dev.memplan.model;

import java.util.Locale;

/**
 * How much of the Java heap a model or search may still take, so that an allocator or a formulation that
 * would not fit is skipped with a note instead of ending in an OutOfMemoryError. Counts the heap the JVM may
 * still grow into (max minus used), of which a search takes at most {@link #SHARE}.
 *
 * <p>Under a work limit ({@link Limits#workMode()}) the room is half of what the JVM may grow to (-Xmx) instead,
 * whatever is in use: what is free at a given moment depends on when the garbage collector last ran, and a
 * decision taken from it would make the run's answer differ from run to run. A structure that passes and still
 * does not fit ends in an OutOfMemoryError that its builder catches. This class is the one place in memplan
 * that asks for a collection ({@link System#gc()}), and only in wall mode.
 *
 * <p>Cases run side by side in one JVM (a sweep's jobs) share its heap. Under a work limit a structure that fits
 * {@link #reserve reserves} its bytes of the room for as long as it lives, and waits while the structures of the
 * other cases leave too little: the wait costs wall time, never a decision, so a case's plan is the same with any
 * number of jobs. A thread that holds the room already (a search packing the plan of the program it holds) is never
 * kept waiting: whoever it would wait for may be waiting for it.
 */
public final class HeapRoom {
    /** The fraction of the free heap one structure may take: the rest is for the JVM, the output and garbage. */
    public static final double SHARE = 0.6;

    /** How long a reservation waits between two looks at a stop request. */
    private static final long WAIT_MILLIS = 1_000;

    private static final Object LOCK = new Object();
    /** Bytes reserved now ({@link #reserve}); guarded by LOCK. */
    private static long reserved;
    /** The room's cap ({@link #roomAtMost}), Long.MAX_VALUE without one; guarded by LOCK. */
    private static long cap = Long.MAX_VALUE;
    /** How many open holds the current thread took. */
    private static final ThreadLocal<int[]> HELD = ThreadLocal.withInitial(() -> new int[1]);

    private HeapRoom() {
    }

    /** A reservation of heap ({@link #reserve}) or a cap on the room ({@link #roomAtMost}): closing ends it. */
    public interface Hold extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * Holds {@code bytes} of {@link #workRoom()} for a structure about to be built, until the hold is closed, waiting
     * while the holds of other threads (a sweep's other jobs) leave too little; a structure alone in the room, or built
     * by a thread that holds the room already, is never kept waiting. Without a work limit the hold holds nothing (the
     * room is the heap free at the moment). Null when a stop was requested or the wall limit (with work and time limits
     * both) passed while waiting: the structure is then not built.
     */
    public static Hold reserve(long bytes, Limits limits) {
        if (!limits.workMode()) {
            return () -> { };
        }
        int[] held = HELD.get();
        synchronized (LOCK) {
            while (held[0] == 0 && reserved > 0 && reserved + bytes > workRoom()) {
                java.time.Duration left = limits.budget().wallLeft();
                if (limits.budget().requested() || left != null && left.isZero()) {
                    return null;
                }
                try {
                    LOCK.wait(left == null ? WAIT_MILLIS : Math.max(1, Math.min(WAIT_MILLIS, left.toMillis())));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return null;
                }
            }
            reserved += bytes;
            held[0]++;
        }
        boolean[] open = {true};
        return () -> {
            synchronized (LOCK) {
                if (open[0]) {
                    open[0] = false;
                    reserved -= bytes;
                    held[0]--;
                    LOCK.notifyAll();
                }
            }
        };
    }

    /**
     * Caps the room under a work limit at {@code bytes} until the returned hold is closed: for a caller that leaves
     * the rest of the heap to something else, and for tests.
     */
    public static Hold roomAtMost(long bytes) {
        synchronized (LOCK) {
            long before = cap;
            cap = Math.min(cap, bytes);
            return () -> {
                synchronized (LOCK) {
                    cap = before;
                }
            };
        }
    }

    /** Whether {@link #roomAtMost} caps the room below half of -Xmx now. */
    public static boolean capped() {
        synchronized (LOCK) {
            return cap < Runtime.getRuntime().maxMemory() / 2;
        }
    }

    /** Bytes of heap not in use and within -Xmx. */
    public static long free() {
        Runtime rt = Runtime.getRuntime();
        return rt.maxMemory() - (rt.totalMemory() - rt.freeMemory());
    }

    /**
     * The heap free for a structure of {@code bytes}: {@link #free()}, after one collection when that is less
     * than {@code bytes} (wall mode only: see the class comment).
     */
    public static long freeFor(long bytes) {
        long free = free();
        if (bytes <= free) {
            return free;
        }
        System.gc();
        return free();
    }

    /** The heap a structure may take under a work limit: half of -Xmx ({@link #roomAtMost} may cap it). */
    public static long workRoom() {
        synchronized (LOCK) {
            return Math.min(cap, Runtime.getRuntime().maxMemory() / 2);
        }
    }

    /**
     * Whether a structure of about {@code bytes} fits: within {@link #workRoom()} under a work limit, else
     * {@link #fits(long)}.
     */
    public static boolean fits(long bytes, Limits limits) {
        return limits.workMode() ? bytes <= workRoom() : fits(bytes);
    }

    /** The words of a skip note for a structure that does not {@link #fits(long, Limits) fit}. */
    public static String shortfall(String what, long bytes, Limits limits) {
        if (limits.workMode()) {
            return String.format(Locale.ROOT, "%s needs about %,d MB, more than %s (the room a structure gets under a"
                    + " work limit; give more with MEMPLAN_JAVA_OPTS=-Xmx...)", what, bytes >> 20, workRoomWords());
        }
        return shortfall(what, bytes);
    }

    /**
     * Whether a structure of about {@code bytes} fits in {@link #SHARE} of the free heap, asking for one collection
     * before saying no (garbage counts as used until collected).
     */
    public static boolean fits(long bytes) {
        return bytes <= SHARE * freeFor((long) Math.ceil(bytes / SHARE));
    }

    /** "half of the X MB heap", or the capped room's size: {@link #workRoom()} in a skip note's words. */
    public static String workRoomWords() {
        return capped() ? String.format(Locale.ROOT, "the %,d MB room this run gives a structure", workRoom() >> 20)
                : String.format(Locale.ROOT, "half of the %,d MB heap", Runtime.getRuntime().maxMemory() >> 20);
    }

    /** "needs about X MB, more than the Y MB of heap free": the words of a skip note. */
    public static String shortfall(String what, long bytes) {
        return String.format(Locale.ROOT, "%s needs about %,d MB, more than %.0f%% of the %,d MB of heap free (give more"
                + " with MEMPLAN_JAVA_OPTS=-Xmx...)", what, bytes >> 20, SHARE * 100, free() >> 20);
    }
}
