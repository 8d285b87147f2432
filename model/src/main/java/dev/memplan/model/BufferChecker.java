package dev.memplan.model;

import java.util.ArrayList;
import java.util.List;

/**
 * Decides whether a {@link Placement} packs its buffers legally below a capacity (memory-model.md,
 * "Fixed-schedule buffers"): offsets >= 0, offset + size <= capacity, alignment, fixed offsets kept, and no
 * two buffers live at the same time share an address (the same {@link OverlapSweep} as the plan checker).
 * Like MiniMalloc's validator it is separate from every solver and names the broken rule.
 */
public final class BufferChecker {

    private BufferChecker() {
    }

    /** Every violation of the placement; empty when it is legal. */
    public static List<Violation> check(Placement placement, long capacity) {
        BufferSet set = placement.buffers();
        int n = set.size();
        List<Violation> violations = new ArrayList<>();
        long[] lower = new long[n];
        long[] upper = new long[n];
        long[] offset = new long[n];
        long[] size = new long[n];
        for (int i = 0; i < n; i++) {
            Buffer b = set.get(i);
            long o = placement.offset(i);
            lower[i] = b.lower();
            upper[i] = b.upper();
            offset[i] = o;
            size[i] = b.size();
            // Saturating (ByteRange): an offset near 2^63 must not wrap around below the capacity.
            if (o < 0 || ByteRange.add(o, b.size()) > capacity) {
                violations.add(new Violation(Rule.BUDGET, List.of(b.id()), null, "buffer '" + b.id() + "' at ["
                        + o + ", " + (o < 0 ? o + b.size() : ByteRange.add(o, b.size())) + ") lies outside [0, "
                        + capacity + ")"));
            }
            if (o % b.alignment() != 0) {
                violations.add(new Violation(Rule.ALIGNMENT, List.of(b.id()), null, "buffer '" + b.id()
                        + "' has offset " + o + ", not a multiple of its alignment " + b.alignment()));
            }
            if (b.fixedOffset() != null && b.fixedOffset() != o) {
                violations.add(new Violation(Rule.FIXED_OFFSET, List.of(b.id()), null, "buffer '" + b.id()
                        + "' must be at offset " + b.fixedOffset() + " but is at " + o));
            }
        }
        OverlapSweep.findOverlaps(lower, upper, offset, size, (a, b) -> {
            long t = Math.max(lower[a], lower[b]);
            violations.add(new Violation(Rule.ADDRESS_OVERLAP, List.of(set.get(a).id(), set.get(b).id()),
                    t > Integer.MAX_VALUE ? null : (int) t, "buffers '" + set.get(a).id() + "' and '" + set.get(b).id()
                    + "' are both live at " + t + " and share addresses [" + Math.max(offset[a], offset[b]) + ", "
                    + Math.min(ByteRange.add(offset[a], size[a]), ByteRange.add(offset[b], size[b])) + ")"));
        });
        return violations;
    }

    /** Fails with the violations unless the placement is legal; a failure is a bug in {@code maker}. */
    public static void requireValid(Placement placement, long capacity, String maker) {
        List<Violation> violations = check(placement, capacity);
        if (!violations.isEmpty()) {
            StringBuilder sb = new StringBuilder("bug: " + maker + " produced an illegal placement ("
                    + violations.size() + " violations):");
            violations.stream().limit(20).forEach(v -> sb.append("\n  ").append(v));
            throw new IllegalStateException(sb.toString());
        }
    }
}
