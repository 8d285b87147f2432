package dev.memplan.model;

import java.time.Duration;

/**
 * What a Planner or Allocator may spend: wall time (null for none), threads, the relative gap at which an
 * optimiser may stop, and the random seed, so that a run can be repeated.
 */
public record Limits(Duration timeLimit, int threads, double relativeGap, long seed) {

    public static final Limits DEFAULT = new Limits(null, 1, 0.0, 0L);

    public Limits {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be >= 1, got " + threads);
        }
        if (relativeGap < 0) {
            throw new IllegalArgumentException("relative gap must be >= 0, got " + relativeGap);
        }
        if (timeLimit != null && timeLimit.isNegative()) {
            throw new IllegalArgumentException("time limit must not be negative, got " + timeLimit);
        }
    }

    public Limits withTimeLimit(Duration value) {
        return new Limits(value, threads, relativeGap, seed);
    }
}
