package dev.memplan.model;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An ordered list of buffers with distinct ids, and the capacity they are to be packed into when the source
 * states one (null otherwise). Order is kept: MiniMalloc's output lists rows in input order.
 */
public record BufferSet(List<Buffer> buffers, Long capacity) {

    public BufferSet {
        buffers = List.copyOf(buffers);
        Map<String, Integer> seen = new HashMap<>();
        for (int i = 0; i < buffers.size(); i++) {
            Buffer b = buffers.get(i);
            Integer previous = seen.putIfAbsent(b.id(), i);
            if (previous != null) {
                throw new IllegalArgumentException("buffer " + i + ": duplicate id '" + b.id()
                        + "' (also buffer " + previous + ")");
            }
            if (b.size() <= 0) {
                throw new IllegalArgumentException("buffer '" + b.id() + "': size must be positive, got " + b.size());
            }
            if (b.lower() >= b.upper()) {
                throw new IllegalArgumentException("buffer '" + b.id() + "': lower " + b.lower()
                        + " must be below upper " + b.upper());
            }
            if (b.alignment() < 1) {
                throw new IllegalArgumentException("buffer '" + b.id() + "': alignment must be >= 1, got "
                        + b.alignment());
            }
        }
    }

    public BufferSet(List<Buffer> buffers) {
        this(buffers, null);
    }

    /**
     * The capacity to pack into: {@code given} (the user's, from the option {@code option}), else the one the source
     * states; null when neither names one. Checked before any packing: positive, a byte count memplan supports, and
     * wide enough for every buffer fixed at an offset (else no packing keeps it).
     *
     * @param source the source's name (a file name) for messages
     * @throws IllegalArgumentException naming the option or the source, and the rule
     */
    public Long packingCapacity(Long given, String option, String source) {
        Long cap = given != null ? given : capacity;
        if (cap == null) {
            return null;
        }
        if (cap <= 0) {
            throw new IllegalArgumentException(given != null ? option + " must be positive, got " + cap
                    : source + ": the capacity in the file name (X.<capacity>.csv) must be positive, got " + cap
                    + "; give " + option + " or rename the file");
        }
        if (ByteRange.problem(cap, option) != null) {
            throw new IllegalArgumentException(ByteRange.problem(cap, option));
        }
        for (Buffer b : buffers) {
            if (b.fixedOffset() != null && ByteRange.add(b.fixedOffset(), b.size()) > cap) {
                throw new IllegalArgumentException(source + ": buffer '" + b.id() + "' is fixed at [" + b.fixedOffset()
                        + ", " + ByteRange.add(b.fixedOffset(), b.size()) + "), beyond the capacity " + cap
                        + ": no packing keeps it");
            }
        }
        return cap;
    }

    public int size() {
        return buffers.size();
    }

    public Buffer get(int index) {
        return buffers.get(index);
    }
}
