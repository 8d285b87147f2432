package dev.memplan.baselines.replacement;

/**
 * Where the scheme's online allocator puts a new tensor among the free gaps of the address map at the time it
 * arrives (the gap above the highest tensor, up to the budget, included).
 */
public enum AddressRule {
    /**
     * TFLite's arena rule ({@code tensorflow/lite/simple_memory_arena.cc}, {@code Allocate}): the smallest gap
     * that fits; ties to the lower address.
     */
    TFLITE("tflite"),
    /** First fit: the lowest address that fits (tflite-micro's greedy planner places each buffer this way). */
    FIRST_FIT("firstfit"),
    /**
     * No addresses: only the bytes on chip are counted against the budget (sizes rounded up to the alignment), so
     * replacement decisions are made as if packing were perfect; the segments are packed afterwards by a
     * fixed-schedule allocator. Separates the traffic that replacement causes from the traffic fragmentation causes.
     */
    BYTES("bytes");

    private final String id;

    AddressRule(String id) {
        this.id = id;
    }

    public String id() {
        return id;
    }
}
