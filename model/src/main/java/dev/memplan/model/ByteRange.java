package dev.memplan.model;

/**
 * The range of byte counts memplan supports, and the arithmetic that stays inside a long. Every size, offset,
 * budget, capacity and alignment is at most {@link #MAX} = 2^53 bytes (8 PiB), and so is the sum of all tensor
 * sizes of a graph (or of all buffer sizes and alignments of a buffer set). Why 2^53: the MILP back-ends (SCIP,
 * CBC, HiGHS, ojAlgo) compute in doubles, whose integers are exact up to 2^53, so every coefficient and every
 * bytes-per-timestep row of the COSMA program is exact; CP-SAT's int64 sums and MiniMalloc's limit (sizes and
 * alignments summing below 2^61) are then never reached; and offset + size, or any sum of a graph's sizes,
 * is at most 2^54 and cannot overflow. The readers and the command line reject larger values with a located
 * message; {@link Graph} rejects them on construction. Totals that multiply a size by a count (traffic over many
 * reloads) use {@link #add} and {@link #times}, which saturate at {@link Long#MAX_VALUE} instead of wrapping.
 */
public final class ByteRange {
    /** The largest size, offset, budget, capacity or alignment, and the largest sum of a graph's sizes: 2^53. */
    public static final long MAX = 1L << 53;

    private ByteRange() {
    }

    /** Null when {@code value} is within [0, MAX], else the problem in words (for a message naming the place). */
    public static String problem(long value, String what) {
        if (value > MAX) {
            return what + " is " + value + ", above 2^53 = " + MAX + ", the largest byte count memplan supports";
        }
        return null;
    }

    /** a + b, saturating at Long.MAX_VALUE (and Long.MIN_VALUE) instead of wrapping around. */
    public static long add(long a, long b) {
        long sum = a + b;
        if (((a ^ sum) & (b ^ sum)) < 0) {
            return a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
        return sum;
    }

    /** a * b for non-negative values, saturating at Long.MAX_VALUE. */
    public static long times(long a, long b) {
        return Math.multiplyHigh(a, b) != 0 || a * b < 0 ? Long.MAX_VALUE : a * b;
    }
}
