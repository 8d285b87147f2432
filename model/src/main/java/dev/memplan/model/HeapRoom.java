package dev.memplan.model;

import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

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
 * <p>Cases run side by side in one JVM (a sweep's jobs, {@link #sharedBy}) share its heap: each gets
 * 1/jobs of the room, so that two structures that each fit do not exhaust the heap together. The count is a
 * setting of the run, not a measurement, so a work-limited run decides the same with the same jobs.
 */
public final class HeapRoom {
    /** The fraction of the free heap one structure may take: the rest is for the JVM, the output and garbage. */
    public static final double SHARE = 0.6;

    /** Cases running side by side in this JVM ({@link #sharedBy}). */
    private static final AtomicInteger SHARERS = new AtomicInteger(1);

    private HeapRoom() {
    }

    /** An open {@link #sharedBy} setting; closing it restores the one before. */
    public interface Sharing extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * {@code jobs} cases run side by side in this JVM until the returned setting is closed: each structure gets
     * 1/jobs of the room ({@link #workRoom()}, {@link #fits(long)}).
     */
    public static Sharing sharedBy(int jobs) {
        if (jobs < 1) {
            throw new IllegalArgumentException("jobs must be >= 1, got " + jobs);
        }
        int before = SHARERS.getAndSet(jobs);
        return () -> SHARERS.set(before);
    }

    /** The cases that share this JVM's heap now (1 outside a sweep). */
    public static int sharers() {
        return SHARERS.get();
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

    /**
     * This case's share of the free heap for a structure of {@code bytes}: {@link #freeFor} divided among the
     * {@link #sharers()} (wall mode only).
     */
    public static long freeShare(long bytes) {
        int jobs = sharers();
        return freeFor(bytes > Long.MAX_VALUE / jobs ? Long.MAX_VALUE : bytes * jobs) / jobs;
    }

    /** The heap a structure may take under a work limit: half of -Xmx, divided among the {@link #sharers()}. */
    public static long workRoom() {
        return Runtime.getRuntime().maxMemory() / 2 / sharers();
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
            return String.format(Locale.ROOT, "%s needs about %,d MB, more than %s (the room a structure gets under"
                    + " a work limit; give more with MEMPLAN_JAVA_OPTS=-Xmx...)", what, bytes >> 20, workRoomWords());
        }
        return shortfall(what, bytes);
    }

    /**
     * Whether a structure of about {@code bytes} fits in {@link #SHARE} of the free heap, asking for one collection
     * before saying no (garbage counts as used until collected).
     */
    public static boolean fits(long bytes) {
        return bytes <= SHARE * freeShare((long) Math.ceil(bytes / SHARE));
    }

    /** "needs about X MB, more than the Y MB of heap free": the words of a skip note. */
    public static String shortfall(String what, long bytes) {
        int jobs = sharers();
        return String.format(Locale.ROOT, "%s needs about %,d MB, more than %.0f%% of the %,d MB of heap free%s (give"
                + " more with MEMPLAN_JAVA_OPTS=-Xmx...)", what, bytes >> 20, SHARE * 100, free() >> 20,
                jobs == 1 ? "" : " divided among the " + jobs + " jobs that share it");
    }

    /**
     * "half of the X MB heap", and the jobs that share it when there are several: the room of {@link #workRoom()}
     * in a skip note's words.
     */
    public static String workRoomWords() {
        int jobs = sharers();
        String half = String.format(Locale.ROOT, "half of the %,d MB heap", Runtime.getRuntime().maxMemory() >> 20);
        return jobs == 1 ? half : String.format(Locale.ROOT, "%,d MB (%s, divided among the %d jobs that share it)",
                workRoom() >> 20, half, jobs);
    }
}
