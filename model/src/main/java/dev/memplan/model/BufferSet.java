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

    public int size() {
        return buffers.size();
    }

    public Buffer get(int index) {
        return buffers.get(index);
    }
}
