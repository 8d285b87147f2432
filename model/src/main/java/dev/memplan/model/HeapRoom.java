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
 */
public final class HeapRoom {
    /** The fraction of the free heap one structure may take: the rest is for the JVM, the output and garbage. */
    public static final double SHARE = 0.6;

    private HeapRoom() {
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

    /** The heap a structure may take under a work limit: half of -Xmx. */
    public static long workRoom() {
        return Runtime.getRuntime().maxMemory() / 2;
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
            return String.format(Locale.ROOT, "%s needs about %,d MB, more than half of the %,d MB heap (the room a"
                    + " structure gets under a work limit; give more with MEMPLAN_JAVA_OPTS=-Xmx...)", what,
                    bytes >> 20, Runtime.getRuntime().maxMemory() >> 20);
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

    /** "needs about X MB, more than the Y MB of heap free": the words of a skip note. */
    public static String shortfall(String what, long bytes) {
        return String.format(Locale.ROOT, "%s needs about %,d MB, more than %.0f%% of the %,d MB of heap free (give more"
                + " with MEMPLAN_JAVA_OPTS=-Xmx...)", what, bytes >> 20, SHARE * 100, free() >> 20);
    }
}
