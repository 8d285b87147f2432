package dev.memplan.model;

import java.util.Objects;

/**
 * A fixed-schedule buffer (memory-model.md, "Fixed-schedule buffers"): live over the half-open time range
 * {@code [lower, upper)}, {@code size} bytes, placed at a multiple of {@code alignment}; {@code fixedOffset},
 * when not null, is an address the allocator must use. As MiniMalloc's CSV row {@code id,lower,upper,size}.
 */
public record Buffer(String id, long lower, long upper, long size, long alignment, Long fixedOffset) {

    public Buffer {
        Objects.requireNonNull(id, "id");
    }

    public Buffer(String id, long lower, long upper, long size) {
        this(id, lower, upper, size, 1, null);
    }

}
