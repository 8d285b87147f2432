package dev.memplan.datasets.mmap;

/**
 * The simple cost model that turns tensor sizes into the benefits, copy demands and supplies of a two-level
 * memory mapping instance, in nanoseconds. Reading or writing {@code s} bytes takes {@code ceil(s / slow)} ns
 * from slow memory (HBM) and {@code ceil(s / fast)} ns from fast memory (CMEM); copies between them run at the
 * slow memory's bandwidth; instructions are memory bound.
 * <ul>
 * <li>benefit of a buffer: {@code ceil(s / slow) - ceil(s / fast)}, the time saved by serving it from fast memory
 *     (bytes x bandwidth gap; the paper's {@code L({}) - L({b})} of Appendix A);
 * <li>demand of a buffer: {@code ceil(s / slow)}, the time its copy takes;
 * <li>supply of an instruction: the sum over its buffers of {@code ceil(s / fast)}, its run time with everything in
 *     fast memory (the paper's underestimate {@code L(B(I))}, so that copies never slow the program down).
 * </ul>
 *
 * @param slowBytesPerNs slow-memory (and copy) bandwidth, bytes per ns
 * @param fastBytesPerNs fast-memory bandwidth, bytes per ns; above the slow one
 */
public record CostModel(long slowBytesPerNs, long fastBytesPerNs) {

    /** HBM at 16 bytes/ns, CMEM at 64 bytes/ns: a fourfold bandwidth gap. */
    public static final CostModel DEFAULT = new CostModel(16, 64);

    public CostModel {
        if (slowBytesPerNs < 1 || fastBytesPerNs <= slowBytesPerNs) {
            throw new IllegalArgumentException("need 1 <= slow bandwidth < fast bandwidth, got " + slowBytesPerNs
                    + " and " + fastBytesPerNs);
        }
    }

    public long benefit(long bytes) {
        return slow(bytes) - fast(bytes);
    }

    public long demand(long bytes) {
        return slow(bytes);
    }

    /** The time to move {@code bytes} through fast memory: one buffer's share of its instruction's supply. */
    public long fast(long bytes) {
        return ceilDiv(bytes, fastBytesPerNs);
    }

    private long slow(long bytes) {
        return ceilDiv(bytes, slowBytesPerNs);
    }

    private static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }
}
