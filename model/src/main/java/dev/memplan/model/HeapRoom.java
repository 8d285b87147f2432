package dev.memplan.model;

import java.util.Locale;

/**
 * How much of the Java heap a model or search may still take, so that an allocator or a formulation that
 * would not fit is skipped with a note instead of ending in an OutOfMemoryError. Counts the heap the JVM may
 * still grow into (max minus used), of which a search takes at most {@link #SHARE}.
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

    /** Whether a structure of about {@code bytes} fits in {@link #SHARE} of the free heap. */
    public static boolean fits(long bytes) {
        if (bytes <= SHARE * free()) {
            return true;
        }
        // Garbage counts as used until collected: look again after a collection before saying no.
        System.gc();
        return bytes <= SHARE * free();
    }

    /** "needs about X MB, more than the Y MB of heap free": the words of a skip note. */
    public static String shortfall(String what, long bytes) {
        return String.format(Locale.ROOT, "%s needs about %,d MB, more than %.0f%% of the %,d MB of heap free (give more"
                + " with MEMPLAN_JAVA_OPTS=-Xmx...)", what, bytes >> 20, SHARE * 100, free() >> 20);
    }
}
